/**
 * MCP over stdio, one JSON-RPC message per line, with the lines split here and bounded. A line
 * that is too long, is not JSON, or is not a JSON-RPC message gets a JSON-RPC error (to its id
 * when the id can be read) and the next line is served as usual: one bad request never silences
 * the server. An over-long line is skipped as it streams in, never held whole.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { LIMITS } from "../limits.js";

export interface StdioTransportOptions {
  /** Where requests come from. @default process.stdin */
  stdin?: Readable;
  /** Where answers go; nothing else may write to it. @default process.stdout */
  stdout?: Writable;
  /** Longest line read, bytes; a longer one is answered with an error and skipped. @default 10 MiB */
  maxLineBytes?: number;
}

/** Bytes kept from each end of an over-long line, to find its id there. */
const PEEK_BYTES = 1024;

const NEWLINE = 0x0a;

/** A JSON string literal, escapes included. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;

/** An id that a request can carry: an integer or a string. */
const ID_VALUE = String.raw`(-?\d+|${JSON_STRING})`;

/** `"id"` among the first members of an object, after members whose values are strings only
 * (`{"jsonrpc":"2.0","id":7,…`); the value must end within the text read. */
const HEAD_ID = new RegExp(
  String.raw`^\s*\{\s*(?:${JSON_STRING}\s*:\s*${JSON_STRING}\s*,\s*)*"id"\s*:\s*${ID_VALUE}\s*[,}]`,
);

/** `"id"` as the last member of the object a line ends with (`…,"jsonrpc":"2.0","id":7}`), the
 * order the MCP SDK's client writes. */
const TAIL_ID = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a request as JSON-RPC allows it, else null (the id of an unreadable request). */
function requestId(value: unknown): RequestId | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  return null;
}

/** The id of a line too long to parse, read from its start or its end when it is there. */
function idOfLongLine(head: Buffer, tail: Buffer): RequestId | null {
  const match = HEAD_ID.exec(head.toString("utf8")) ?? TAIL_ID.exec(tail.toString("utf8"));
  if (!match) return null;
  try {
    return requestId(JSON.parse(match[1]!));
  } catch {
    return null;
  }
}

/** Something answered (or refused) at one end of the exchange, with no method of its own. */
function isResponseLike(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !("method" in value) &&
    ("result" in value || "error" in value)
  );
}

/** A line past the limit, skipped as it arrives: its first and last bytes only. */
interface Skipped {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxLineBytes: number;
  #started = false;
  /** The line read so far, while it is within the limit. */
  #chunks: Buffer[] = [];
  #length = 0;
  #skipped: Skipped | undefined;

  constructor(options: StdioTransportOptions) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#maxLineBytes = options.maxLineBytes ?? LIMITS.mcpMaxLineBytes;
    if (!Number.isInteger(this.#maxLineBytes) || this.#maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${this.#maxLineBytes}`);
    }
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("The stdio transport is already started");
    this.#started = true;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
  }

  async close(): Promise<void> {
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    // Pausing a stdin that others still read would stop them too.
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#chunks = [];
    this.#length = 0;
    this.#skipped = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  #write(value: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(value)}\n`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }

  readonly #onError = (error: Error) => this.onerror?.(error);

  readonly #onData = (chunk: Buffer | string) => {
    const data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < data.length) {
      const newline = data.indexOf(NEWLINE, start);
      this.#take(data.subarray(start, newline === -1 ? data.length : newline));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  };

  /** Adds a piece of the current line, or only remembers its last bytes once it is too long. */
  #take(part: Buffer): void {
    if (part.length === 0) return;
    const skipped = this.#skipped;
    if (skipped) {
      const tail = Buffer.concat([skipped.tail, part]);
      skipped.tail = tail.subarray(Math.max(0, tail.length - PEEK_BYTES));
      skipped.bytes += part.length;
      return;
    }
    if (this.#length + part.length <= this.#maxLineBytes) {
      this.#chunks.push(part);
      this.#length += part.length;
      return;
    }
    const all = [...this.#chunks, part];
    const bytes = this.#length + part.length;
    this.#skipped = {
      head: Buffer.concat(all, Math.min(PEEK_BYTES, bytes)),
      tail: Buffer.from(part.subarray(Math.max(0, part.length - PEEK_BYTES))),
      bytes,
    };
    this.#chunks = [];
    this.#length = 0;
  }

  #endLine(): void {
    const skipped = this.#skipped;
    if (skipped) {
      this.#skipped = undefined;
      this.#refuse(
        idOfLongLine(skipped.head, skipped.tail),
        ErrorCode.InvalidRequest,
        `Invalid Request: the message is ${skipped.bytes} bytes, over the limit of ` +
          `${this.#maxLineBytes} bytes for one line; it was skipped`,
      );
      return;
    }
    const line = Buffer.concat(this.#chunks, this.#length).toString("utf8");
    this.#chunks = [];
    this.#length = 0;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#refuse(null, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      // Answering a malformed answer could start two peers answering each other's errors.
      if (isResponseLike(value)) {
        this.onerror?.(new Error("Invalid JSON-RPC response received; it was dropped"));
        return;
      }
      const id = (value as { id?: unknown } | null)?.id;
      this.#refuse(
        requestId(id),
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message (needs "jsonrpc": "2.0", a string ' +
          '"method", and an "id" that is a string or an integer)',
      );
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (error) {
      // A handler that throws loses its own message only, never the lines after it.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Answers a line that could not be served, and tells the host why. */
  #refuse(id: RequestId | null, code: ErrorCode, message: string): void {
    this.onerror?.(new Error(`${message} (answered with error ${code} to id ${String(id)})`));
    void this.#write({ jsonrpc: "2.0", id, error: { code, message } });
  }
}

/**
 * An MCP transport on stdin and stdout that answers every line: a bad one with a JSON-RPC error
 * (reported to `onerror` too), so one request too long or malformed does not stop the server.
 *
 * @example
 * const server = createMcpServer({ web: createWebFetch() });
 * await server.connect(createStdioTransport());
 */
export function createStdioTransport(options: StdioTransportOptions = {}): Transport {
  return new StdioTransport(options);
}
