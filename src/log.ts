/**
 * Logging: pino on stderr, never stdout (stdout belongs to MCP and to the CLI's output).
 * A caller may inject any logger with pino's method shapes.
 */
import { createRequire } from "node:module";

/** pino, loaded by the first logger made: a run that logs nothing starts without it. */
const load = createRequire(import.meta.url);

type LogFn = (obj: object, msg?: string) => void;

/** The logger methods webfetch calls; a pino logger satisfies it. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

/** Log levels accepted by WEBFETCH_LOG_LEVEL. */
const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "silent"]);

/** A pino logger writing synchronously to stderr at `level`, else WEBFETCH_LOG_LEVEL, else info. */
export function createLogger(level?: string): Logger {
  const fromEnv = process.env.WEBFETCH_LOG_LEVEL?.toLowerCase();
  const chosen = level ?? (fromEnv && LEVELS.has(fromEnv) ? fromEnv : "info");
  const { pino } = load("pino") as typeof import("pino");
  return pino(
    { name: "webfetch", level: chosen, base: { name: "webfetch" } },
    pino.destination({ fd: 2, sync: true }),
  );
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
