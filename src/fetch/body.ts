/**
 * Reads a response body into memory, decompressing gzip, deflate and brotli itself and counting
 * bytes after decompression, so a decompression bomb stops at the cap instead of filling memory.
 */
import { finished, pipeline, type Readable, Transform } from "node:stream";
import zlib from "node:zlib";
import { WebFetchError } from "../errors.js";

/** Bytes of an inflated chunk: small enough that the cap is overshot by at most this much. */
const ZLIB_CHUNK = 64 * 1024;

/** Node's zstd decoder, where this Node has one. */
const createZstdDecompress = (
  zlib as { createZstdDecompress?: (options: { chunkSize: number }) => Transform }
).createZstdDecompress;

/** Content-Encoding tokens we decode (`identity` is dropped before); zstd where Node has it. */
const DECODABLE = new Set([
  "gzip",
  "x-gzip",
  "deflate",
  "br",
  ...(createZstdDecompress ? ["zstd"] : []),
]);

/**
 * Real content codings we cannot decode: read as plain bytes, their body would be mojibake that
 * looks like content. Other unknown tokens (`none`, `utf-8`, `binary` from misconfigured
 * servers) pass the bytes through, as browsers do.
 */
const UNDECODABLE = new Set(
  [
    "compress",
    "x-compress",
    "zstd",
    "dcb",
    "dcz",
    "aes128gcm",
    "exi",
    "pack200-gzip",
    "bzip2",
    "xz",
    "lzma",
    "sdch",
  ].filter((token) => !DECODABLE.has(token)),
);

/** A decoder for one Content-Encoding token, or none for a token that names no coding. */
function decoderFor(token: string, firstByte: number | undefined): Transform | undefined {
  const opts = { chunkSize: ZLIB_CHUNK };
  switch (token) {
    case "gzip":
    case "x-gzip":
      // Lenient like browsers: a body cut short still yields what it had.
      return zlib.createGunzip({ ...opts, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case "deflate":
      // "deflate" is meant as zlib-wrapped, but many servers send a raw stream; 0x78 marks zlib.
      return firstByte === undefined || (firstByte & 0x0f) === 8
        ? zlib.createInflate({ ...opts, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : zlib.createInflateRaw({ ...opts, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case "br":
      return zlib.createBrotliDecompress({ chunkSize: ZLIB_CHUNK });
    case "zstd":
      return createZstdDecompress?.({ chunkSize: ZLIB_CHUNK });
    default:
      // A token that names no coding (`none`, `utf-8`): the bytes pass through.
      return undefined;
  }
}

/** Most codings one response may stack; more is an attack (curl caps at 5, CVE-2022-32206). */
const MAX_CODINGS = 3;

/** Bytes of an unwanted body (redirect, error page) read to keep the connection reusable. */
const DISCARD_LIMIT = 64 * 1024;

/**
 * Throws a body away. Small ones are drained so the connection goes back to the pool; the rest
 * is destroyed. Either way no 'error' event is left unhandled.
 */
export function discardBody(body: Readable): void {
  body.on("error", () => {});
  const dump = (body as Readable & { dump?: (o: { limit: number }) => Promise<void> }).dump;
  if (typeof dump === "function") {
    dump.call(body, { limit: DISCARD_LIMIT }).catch(() => {});
  } else {
    body.destroy();
  }
}

/** The codings of a Content-Encoding header, in the order they were applied. */
export function parseContentEncoding(header: string | string[] | undefined): string[] {
  const raw = Array.isArray(header) ? header.join(",") : (header ?? "");
  return raw
    .split(",")
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t && t !== "identity");
}

function tooLarge(maxBytes: number): WebFetchError {
  return new WebFetchError("TOO_LARGE", `Response exceeds ${formatBytes(maxBytes)}`, {
    retryable: false,
  });
}

/** "10 MiB", "500 KiB", "123 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/**
 * Reads `body` fully, decoding `encodings`; throws TOO_LARGE as soon as the decoded size passes
 * `maxBytes` (the raw size is capped the same way). Stream errors are rethrown as they are; the
 * caller maps aborts to TIMEOUT.
 */
export async function readBody(
  body: Readable,
  encodings: readonly string[],
  maxBytes: number,
  declaredLength?: number,
  overflow: "throw" | "truncate" = "throw",
): Promise<Buffer> {
  if (
    overflow === "throw" &&
    encodings.length === 0 &&
    declaredLength !== undefined &&
    declaredLength > maxBytes
  ) {
    discardBody(body);
    throw tooLarge(maxBytes);
  }
  const unknown = encodings.find((token) => UNDECODABLE.has(token));
  if (unknown !== undefined) {
    discardBody(body);
    // Read as plain bytes, a coded body would come back as mojibake that looks like content.
    throw new WebFetchError(
      "UNSUPPORTED_CONTENT_TYPE",
      `Unsupported content encoding: ${unknown.slice(0, 40)} (readable: ${[...DECODABLE].join(", ")})`,
      { retryable: false },
    );
  }
  // A body with no coding and a declared length within the cap is read by undici's own consumer,
  // which takes the chunks already buffered without an event each; undici holds the body to its
  // Content-Length, so it can be no longer than declared.
  if (encodings.length === 0 && declaredLength !== undefined && declaredLength <= maxBytes) {
    const consume = (body as Readable & { bytes?: () => Promise<Uint8Array> }).bytes;
    if (typeof consume === "function") {
      const bytes = await consume.call(body);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    }
  }
  if (encodings.length > MAX_CODINGS) {
    discardBody(body);
    throw new WebFetchError(
      "PARSE_ERROR",
      `Too many content codings (${encodings.length}, max ${MAX_CODINGS})`,
      {
        retryable: false,
      },
    );
  }
  // "deflate" needs to see its first byte to tell zlib-wrapped from raw streams (an inner
  // deflate stage is told apart by the first byte its outer stage produces); "br" tells its
  // window size there.
  const outer = encodings.at(-1);
  const first = outer === "deflate" || outer === "br" ? await peekFirstByte(body) : undefined;
  const budget = outer === "br" && overflow === "throw" ? brotliBudget(first, maxBytes) : maxBytes;
  // Decoders are applied in reverse order of the codings (the last applied is undone first).
  const decoders: Transform[] = [];
  for (const token of [...encodings].reverse()) {
    const decoder = decoders.length === 0 ? decoderFor(token, first) : lazyDecoder(token);
    if (decoder) decoders.push(decoder);
  }
  // An error a decoder raised first is a corrupt body, whichever coding it was (zlib's errors
  // carry Z_ codes, brotli's ERR_ ones); the pipeline then hands the same error to every other
  // stage, so only the first stage to emit it says where it came from.
  const origins = new WeakMap<object, "body" | "decoder">();
  const record = (origin: "body" | "decoder") => (error: Error) => {
    if (!origins.has(error)) origins.set(error, origin);
  };
  body.on("error", record("body"));
  for (const d of decoders) d.on("error", record("decoder"));
  const source: Readable = decoders.length === 0 ? body : chain(body, decoders);

  if (decoders.length > 0) {
    let rawTotal = 0;
    body.on("data", (chunk: Buffer) => {
      rawTotal += chunk.length;
      // The raw bytes count against the same cap: more compressed data than the cap allows
      // decoded is past any budget, whatever it would inflate to.
      if (rawTotal > maxBytes) source.destroy(tooLarge(maxBytes));
    });
  }
  try {
    return await collect(source, budget, maxBytes, overflow, origins);
  } finally {
    if (!body.destroyed) {
      body.on("error", () => {});
      body.destroy();
    }
    for (const d of decoders) {
      d.on("error", () => {});
      if (!d.destroyed) d.destroy();
    }
  }
}

/**
 * The chunks `source` gives, joined, read as they come: one promise for the whole body, however
 * many chunks, where an async iterator costs several per chunk. Past `budget`, throws TOO_LARGE,
 * or with `overflow: "truncate"` keeps the first `maxBytes` and stops reading. A stream that
 * fails or closes before its end rejects with its error (a decoder's as PARSE_ERROR).
 */
function collect(
  source: Readable,
  budget: number,
  maxBytes: number,
  overflow: "throw" | "truncate",
  origins: WeakMap<object, "body" | "decoder">,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const joined = () => (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    const settle = (error: unknown) => {
      if (done) return;
      done = true;
      source.off("data", onData);
      cleanup();
      if (error === undefined) resolve(joined());
      else reject(decodeError(error, origins));
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      if (total + chunk.length <= budget) {
        total += chunk.length;
        chunks.push(chunk);
        return;
      }
      if (overflow === "throw") {
        settle(budget < maxBytes ? brotliTooLarge(budget, maxBytes) : tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk.subarray(0, maxBytes - total));
      total = maxBytes;
      settle(undefined);
    };
    // Ends on the stream's end, its error, or its closing early (a premature close error).
    const cleanup = finished(source, (error) => settle(error ?? undefined));
    source.on("data", onData);
  });
}

/** Errors of a decoder (a corrupt body) become PARSE_ERROR; others pass as they are. */
function decodeError(error: unknown, origins: WeakMap<object, "body" | "decoder">): unknown {
  if (error instanceof WebFetchError) return error;
  if (typeof error === "object" && error !== null && origins.get(error) === "decoder") {
    return new WebFetchError(
      "PARSE_ERROR",
      `Could not decode the response body: ${(error as Error).message}`,
      { cause: error, retryable: false },
    );
  }
  return error;
}

/** Memory the decoder itself may hold, beyond its window, and the least budget ever left. */
const DECODER_SLACK = 1024 * 1024;
const MIN_BROTLI_BUDGET = 1024 * 1024;

/**
 * The decoded bytes a brotli stream may bring. Brotli's decoder keeps a ring buffer as large as
 * the stream's window (up to 16 MiB, announced in its first byte, RFC 7932 §9.1) when the
 * stream declares long blocks, as a bomb does; that buffer counts against the memory a body may
 * cost (twice the cap), so a window larger than the cap leaves less room for decoded bytes.
 */
export function brotliBudget(firstByte: number | undefined, maxBytes: number): number {
  if (firstByte === undefined) return maxBytes;
  // 2^WBITS − 16 bytes exactly; the round figure errs on the safe side.
  const window = 2 ** brotliWindowBits(firstByte);
  if (window <= maxBytes - DECODER_SLACK) return maxBytes;
  return Math.min(maxBytes, Math.max(MIN_BROTLI_BUDGET, 2 * maxBytes - window - DECODER_SLACK));
}

/** WBITS of a brotli stream from its first byte (RFC 7932 §9.1); large windows count as 30. */
function brotliWindowBits(byte: number): number {
  if ((byte & 1) === 0) return 16;
  const n = (byte >> 1) & 7;
  if (n !== 0) return 17 + n;
  const m = (byte >> 4) & 7;
  if (m === 0) return 17;
  return m === 1 ? 30 : 8 + m;
}

function brotliTooLarge(budget: number, maxBytes: number): WebFetchError {
  return new WebFetchError(
    "TOO_LARGE",
    `Response exceeds ${formatBytes(budget)} (a brotli stream with a window larger than the ${formatBytes(maxBytes)} cap counts its window against it)`,
    { retryable: false },
  );
}

/**
 * A decoder for an inner coding: "deflate" waits for its first input byte to choose between
 * the zlib-wrapped and the raw form.
 */
function lazyDecoder(token: string): Transform | undefined {
  if (token !== "deflate") return decoderFor(token, undefined);
  let inner: Transform | undefined;
  const wrapper = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!inner) {
        inner = decoderFor("deflate", chunk[0])!;
        inner.on("data", (d: Buffer) => wrapper.push(d));
        inner.on("error", (e) => wrapper.destroy(e));
      }
      if (inner.write(chunk)) done();
      else inner.once("drain", () => done());
    },
    flush(done) {
      if (!inner) return done();
      inner.once("end", () => done());
      inner.end();
    },
  });
  return wrapper;
}

function chain(body: Readable, decoders: Transform[]): Readable {
  const last = decoders[decoders.length - 1]!;
  // pipeline propagates errors and destroys every stage when one fails.
  (pipeline as (...streams: unknown[]) => void)(body, ...decoders, () => {});
  return last;
}

/** Resolves with the first byte without consuming it (the stream is unshifted). */
async function peekFirstByte(body: Readable): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const onReadable = () => {
      const chunk = body.read(1) as Buffer | null;
      if (chunk === null) return;
      cleanup();
      body.unshift(chunk);
      resolve(chunk[0]);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      body.off("readable", onReadable);
      body.off("end", onEnd);
      body.off("error", onError);
    };
    body.on("readable", onReadable);
    body.once("end", onEnd);
    body.once("error", onError);
  });
}
