/**
 * Logging: JSON lines on stderr, never stdout (stdout belongs to MCP and to the CLI's output).
 * The default logger writes pino's line format (`level`, `time`, `name`, the fields, `msg`)
 * itself, synchronously: through pino, the line cost a 100 KB fetch over loopback 16–23 µs, twice
 * what formatting and writing it here does. A caller may inject any logger with pino's method
 * shapes, pino's own included.
 */
import { writeSync } from "node:fs";

type LogFn = (obj: object, msg?: string) => void;

/** The logger methods webfetch calls; a pino logger satisfies it. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

/** Log levels accepted by WEBFETCH_LOG_LEVEL, with pino's numbers. */
const LEVELS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

export interface LoggerOptions {
  /** The least level written. @default WEBFETCH_LOG_LEVEL, else "info" */
  level?: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
  /** The file descriptor lines go to. @default 2 (stderr) */
  fd?: number;
}

/** A logger writing JSON lines synchronously to stderr (or `fd`) from `level` up. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const fromEnv = process.env.WEBFETCH_LOG_LEVEL?.toLowerCase();
  const chosen = options.level ?? (fromEnv && Object.hasOwn(LEVELS, fromEnv) ? fromEnv : "info");
  return new LineLogger(LEVELS[chosen]!, options.fd ?? 2);
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** How long a line waits for a full pipe to drain before it tries again, ms. */
const FULL_PIPE_WAIT_MS = 10;

/** Writes lines in pino's format: `{"level":30,"time":…,"name":"webfetch",…fields,"msg":…}`. */
class LineLogger implements Logger {
  readonly #least: number;
  readonly #fd: number;

  constructor(least: number, fd: number) {
    this.#least = least;
    this.#fd = fd;
  }

  debug(obj: object, msg?: string): void {
    if (this.#least <= LEVELS.debug!) this.#write(LEVELS.debug!, obj, msg);
  }

  info(obj: object, msg?: string): void {
    if (this.#least <= LEVELS.info!) this.#write(LEVELS.info!, obj, msg);
  }

  warn(obj: object, msg?: string): void {
    if (this.#least <= LEVELS.warn!) this.#write(LEVELS.warn!, obj, msg);
  }

  error(obj: object, msg?: string): void {
    if (this.#least <= LEVELS.error!) this.#write(LEVELS.error!, obj, msg);
  }

  #write(level: number, obj: object, msg: string | undefined): void {
    let line = `{"level":${level},"time":${Date.now()},"name":"webfetch"`;
    const fields = obj as Record<string, unknown>;
    for (const key in fields) {
      if (!Object.hasOwn(fields, key)) continue;
      const value = fields[key];
      // As in JSON, a field without a value is left out.
      if (value === undefined) continue;
      line += `,${JSON.stringify(key)}:${serialize(value)}`;
    }
    if (msg !== undefined) line += `,"msg":${JSON.stringify(msg)}`;
    writeLine(this.#fd, `${line}}\n`);
  }
}

/** A field's JSON: an error as its type, message and stack; a value JSON cannot hold as a note. */
function serialize(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) {
    return String(value);
  }
  if (value instanceof Error) {
    return JSON.stringify({ type: value.name, message: value.message, stack: value.stack });
  }
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    // A cycle or a BigInt: the line still goes out.
    return '"[unserializable]"';
  }
}

/**
 * Writes all of `line` to `fd`. A full non-blocking pipe (EAGAIN) is waited out, as a blocking
 * write would be, so no line is lost; a line that cannot go at all (stderr closed) is dropped:
 * logging never fails the work it tells of.
 */
function writeLine(fd: number, line: string): void {
  // The rest of a line a write took only part of; most lines go out whole in one write.
  let rest: Buffer | undefined;
  for (;;) {
    try {
      if (rest === undefined) {
        const written = writeSync(fd, line);
        if (written >= Buffer.byteLength(line)) return;
        rest = Buffer.from(line).subarray(written);
      } else {
        rest = rest.subarray(writeSync(fd, rest));
      }
      if (rest.length === 0) return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FULL_PIPE_WAIT_MS);
    }
  }
}
