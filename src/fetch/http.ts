/**
 * One HTTP hop over the shared undici agent (a GET, or a rendered page's own request): headers,
 * the deadline's signal, bounded retries of transient failures. It never follows redirects (the
 * caller checks each hop) and never decompresses (body.ts does, with a cap).
 */
import type { Readable } from "node:stream";
import { type Dispatcher, request } from "undici";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { discardBody } from "./body.js";
import type { Deadline } from "./deadline.js";

/** Preferred types first: Markdown as the site's author wrote it, then HTML, JSON, text (seed 001). */
export const ACCEPT =
  "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, application/json;q=0.8, text/plain;q=0.8, */*;q=0.5";
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** Statuses worth a retry: the gateway or server said "not now". */
const RETRY_STATUSES = new Set([502, 503, 504]);
/** Socket-level failures that a fresh connection may not repeat. */
const RETRY_ERRORS = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "ECONNREFUSED",
]);
/** First backoff; doubled on each retry. */
const BACKOFF_MS = 200;

export interface HopResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface HopOptions {
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  deadline: Deadline;
  retries: number;
  /** @default "GET" (a rendered page's own requests may use any method) */
  method?: string;
  /** Request body, for methods that carry one. */
  body?: Buffer | undefined;
}

/** Requests `url` once (GET unless told), retrying transient failures while the deadline allows. */
export async function requestOnce(url: URL, options: HopOptions): Promise<HopResponse> {
  const method = options.method ?? "GET";
  const body = options.body && method !== "GET" && method !== "HEAD" ? { body: options.body } : {};
  const { deadline } = options;
  for (let attempt = 0; ; attempt++) {
    deadline.throwIfDone();
    let response: HopResponse;
    try {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        ...body,
        dispatcher: options.dispatcher,
        headers: options.headers,
        signal: deadline.signal,
        // The deadline covers these; undici's own 300 s defaults must not outlive it.
        headersTimeout: Math.max(1, deadline.remaining()),
        bodyTimeout: Math.max(1, deadline.remaining()),
      });
      response = { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (error) {
      const mapped = mapRequestError(error, deadline);
      if (
        attempt < options.retries &&
        isTransientError(error) &&
        deadline.remaining() > BACKOFF_MS
      ) {
        await deadline.sleep(BACKOFF_MS * 2 ** attempt);
        continue;
      }
      throw mapped;
    }
    const wait = retryDelay(response, attempt, options.retries, deadline);
    if (wait === undefined) return response;
    discardBody(response.body);
    await deadline.sleep(wait);
  }
}

/** Milliseconds to wait before retrying this response, or undefined to keep it. */
function retryDelay(
  res: HopResponse,
  attempt: number,
  retries: number,
  deadline: Deadline,
): number | undefined {
  if (attempt >= retries) return undefined;
  let wait: number | undefined;
  if (RETRY_STATUSES.has(res.status)) wait = BACKOFF_MS * 2 ** attempt;
  if (res.status === 429 || res.status === 503) {
    const after = parseRetryAfter(res.headers["retry-after"]);
    if (after !== undefined) wait = after;
    else if (res.status === 429) wait = undefined;
  }
  if (wait === undefined || wait > LIMITS.maxRetryAfter) return undefined;
  // Only when the retry can still finish inside the deadline.
  return wait < deadline.remaining() - 50 ? wait : undefined;
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The first error in `error`'s cause chain (five deep) that `test` accepts. */
function findCause<T>(error: unknown, test: (e: unknown) => e is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (test(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const hasCode = (e: unknown): e is { code: string } =>
  typeof (e as { code?: unknown }).code === "string";

/** Undici's parse error for a reply that is not HTTP/1.1 (its code is missing on some paths). */
const isParserError = (e: unknown): e is Error =>
  (e as { name?: unknown }).name === "HTTPParserError";

function errorCode(error: unknown): string | undefined {
  return findCause(error, hasCode)?.code;
}

function isTransientError(error: unknown): boolean {
  if (findWebFetchError(error)) return false;
  const code = errorCode(error);
  return code !== undefined && RETRY_ERRORS.has(code);
}

/** A WebFetchError raised inside the connector (the guard) travels up as a cause. */
function findWebFetchError(error: unknown): WebFetchError | undefined {
  return findCause(error, (e): e is WebFetchError => e instanceof WebFetchError);
}

/**
 * Undici's errors for a reply that is not well-formed HTTP: a parser error (bad status line,
 * bad Content-Length, control characters in a header, bad chunk sizes) or a body whose length
 * disagrees with its Content-Length (which also catches Content-Length sent with chunked).
 */
function isProtocolBreach(error: unknown, code: string | undefined): boolean {
  if (code === "UND_ERR_RES_CONTENT_LENGTH_MISMATCH" || code?.startsWith("HPE_")) return true;
  return findCause(error, isParserError) !== undefined;
}

/** Undici's errors for a body that ended before its length or its last chunk. */
const CUT_SHORT = new Set(["UND_ERR_RES_CONTENT_LENGTH_MISMATCH", "HPE_INVALID_EOF_STATE"]);

/**
 * Maps a failure while the body is read. A connection that closes before the body is complete
 * (undici then reports the length or the chunking as broken) is a dropped connection, worth
 * trying again, not a server breaking the protocol.
 */
export function mapBodyError(error: unknown, deadline: Deadline): Error {
  const code = errorCode(error);
  const cut =
    (code !== undefined && CUT_SHORT.has(code)) ||
    // The parser's end-of-stream error carries no code on some paths, only its reason.
    /EOF/i.test(findCause(error, isParserError)?.message ?? "");
  if (cut && !deadline.expired && !deadline.cancelled) {
    return new WebFetchError(
      "CONNECT_FAILED",
      "Failed to connect: the connection closed before the body was complete",
      { cause: error },
    );
  }
  return mapRequestError(error, deadline);
}

/** Maps an undici/socket failure to the WebFetchError a caller can act on. */
export function mapRequestError(error: unknown, deadline: Deadline): Error {
  const own = findWebFetchError(error);
  if (own) return own;
  if (deadline.expired) return deadline.timeoutError(error);
  if (deadline.cancelled) return error as Error;
  const code = errorCode(error);
  if (code === "UND_ERR_HEADERS_OVERFLOW") {
    return new WebFetchError("TOO_LARGE", "Response headers are too large", {
      cause: error,
      retryable: false,
    });
  }
  // Undici refuses a request it cannot send (a header value with CR/LF or non-ASCII): the
  // caller's input is at fault, not the network.
  if (code === "UND_ERR_INVALID_ARG") {
    return new WebFetchError("INVALID_INPUT", `Invalid request: ${(error as Error).message}`, {
      cause: error,
      retryable: false,
    });
  }
  if (isProtocolBreach(error, code)) {
    const reason = (error as Error).message || code || "malformed response";
    return new WebFetchError("PROTOCOL_ERROR", `The server broke the HTTP protocol: ${reason}`, {
      cause: error,
      retryable: false,
    });
  }
  if (
    code === "UND_ERR_HEADERS_TIMEOUT" ||
    code === "UND_ERR_BODY_TIMEOUT" ||
    code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return deadline.timeoutError(error);
  }
  const reason = (error as Error).message || code || "unknown error";
  return new WebFetchError("CONNECT_FAILED", `Failed to connect: ${reason}`, { cause: error });
}
