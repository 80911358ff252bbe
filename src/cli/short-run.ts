/**
 * Settings for a command that runs once and exits (fetch, extract, map, search), applied
 * before its first request.
 */
import { setFlagsFromString } from "node:v8";

/**
 * WebAssembly keeps its baseline code: undici parses HTTP with a WebAssembly module that V8
 * compiles quickly, then recompiles with its optimising compiler on background threads once
 * the parser runs, and a process that is about to exit waits for that work (about 0.2 s of CPU,
 * and as long again before exit on a busy machine, for one small page). The baseline code
 * parses the few responses of a short command as well; the long-running commands (serve, mcp,
 * worker, crawl) keep the optimised code. The setting is the process's and cannot be undone,
 * so only a command calls this, never the library.
 */
export function keepBaselineWasm(): void {
  setFlagsFromString("--liftoff-only");
}
