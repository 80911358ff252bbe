/**
 * What starting the CLI loads: `src/cli/bin.ts` reaches no package through static imports of
 * values (type imports and `await import()` load nothing at start), so `--version` loads nothing;
 * the program it loads for every other argument (`src/cli/run.ts`) uses only the few packages
 * every command needs to parse its arguments. A command's machinery (the library with undici
 * and linkedom, the configuration reader, zod, the SDKs) is loaded when that command runs. The
 * library's own entry (`src/index.ts`) reaches none of the packages a call loads when it uses them.
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** Packages the CLI may load before a command runs. */
const AT_START = ["commander", "ipaddr.js"];

/** Static value imports of `file`: relative ones as .ts paths, and package names. */
function staticImports(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(file, "utf8");
  const local: string[] = [];
  const packages: string[] = [];
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^;]*?\bfrom\s+)?"([^"]+)"/g,
  )) {
    const spec = match[1]!;
    if (spec.startsWith(".")) local.push(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
    else if (!spec.startsWith("node:")) {
      packages.push(
        spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!,
      );
    }
  }
  // A module-level require() (through createRequire) loads as the module does.
  for (const match of text.matchAll(/\n(?:export )?const [^=\n]+= require\("([^"]+)"\)/g)) {
    const spec = match[1]!;
    packages.push(
      spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!,
    );
    if (spec === "undici") undiciIndex.push(relative(SRC, file));
  }
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+(?!type\b)[^;]*?\bfrom\s+"undici"/g)) {
    if (match) undiciIndex.push(relative(SRC, file));
  }
  return { local, packages };
}

/** Files that load undici's index (which loads all of undici) rather than the parts used. */
const undiciIndex: string[] = [];

/** The packages `start` reaches through static value imports, each with the file importing it. */
function reachable(start: string): { reached: Map<string, string>; seen: Set<string> } {
  const seen = new Set<string>();
  const reached = new Map<string, string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { local, packages } = staticImports(file);
    for (const name of packages) if (!reached.has(name)) reached.set(name, relative(SRC, file));
    for (const next of local) walk(next);
  };
  walk(resolve(SRC, start));
  return { reached, seen };
}

it("prints --version without loading a package", () => {
  const { reached, seen } = reachable("cli/bin.ts");
  expect([...reached]).toEqual([]);
  expect(seen.has(resolve(SRC, "cli/run.ts"))).toBe(false);
});

it("starts the CLI with the packages that parse arguments, and nothing heavier", () => {
  const { reached, seen } = reachable("cli/run.ts");
  const extra = [...reached].filter(([name]) => !AT_START.includes(name));
  expect(extra).toEqual([]);
  // The walk did reach the commands.
  expect(seen.has(resolve(SRC, "cli/crawl.ts"))).toBe(true);
});

/**
 * Packages the library loads only when a call uses them: the model SDKs, LangChain, the PDF
 * reader, the HTTP service, the MCP SDK, the queue, SQLite and Redis clients, the browser, the
 * JSON Schema validator, the XML DOM of feeds and the tokenizer.
 */
const ON_USE = [
  "ai",
  "@ai-sdk/",
  "@langchain/",
  "unpdf",
  "pdfjs-dist",
  "hono",
  "@hono/",
  "@modelcontextprotocol/",
  "bullmq",
  "ioredis",
  "redis",
  "better-sqlite3",
  "playwright-core",
  "ajv",
  "linkedom",
  "gpt-tokenizer",
];

it("imports the library (createWebFetch and the rest of src/index.ts) without the heavy packages", () => {
  const { reached, seen } = reachable("index.ts");
  const heavy = [...reached].filter(([name]) =>
    ON_USE.some((p) => (p.endsWith("/") ? name.startsWith(p) : name === p)),
  );
  expect(heavy).toEqual([]);
  // The walk did reach the pipeline.
  expect(seen.has(resolve(SRC, "webfetch/direct.ts"))).toBe(true);
  expect(reached.has("undici")).toBe(true);
});

it("loads undici's pool and request modules, never undici's index with all of undici", () => {
  reachable("index.ts");
  reachable("cli/run.ts");
  expect(undiciIndex).toEqual([]);
});

it("keeps WebAssembly's baseline code in the short commands only, never in the long-running ones", () => {
  const calls = (command: string) =>
    readFileSync(resolve(SRC, `cli/${command}.ts`), "utf8").includes("keepBaselineWasm();");
  for (const command of ["fetch", "extract", "map", "search"]) expect(calls(command)).toBe(true);
  for (const command of ["serve", "mcp", "worker", "crawl", "run"])
    expect(calls(command)).toBe(false);
  expect(reachable("index.ts").seen.has(resolve(SRC, "cli/short-run.ts"))).toBe(false);
});
