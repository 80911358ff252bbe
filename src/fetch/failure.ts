/**
 * What an undici or socket failure means to a caller: the WebFetchError it is reported as, and
 * whether a fresh connection may not repeat it. Pages and operator endpoints read failures the
 * same way.
 */
import { WebFetchError } from "../errors.js";
import type { Deadline } from "../net/deadline.js";

/** Socket-level failures that a fresh connection may not repeat. */
const RETRY_ERRORS = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "ECONNREFUSED",
]);

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

/** A dropped or refused connection, worth a fresh one (never a refusal by the guard). */
export function isTransientError(error: unknown): boolean {
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
