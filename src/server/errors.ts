/**
 * Errors of the HTTP service: every failure is `{"error": {code, message}}` with a status a
 * client can act on. Library codes keep their names; the service adds its own for
 * what only HTTP has (no token, body too large, too many requests or crawl jobs, no such route).
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isWebFetchError } from "../errors.js";

/** Codes only the service answers with: what only HTTP has. */
export const SERVICE_ERROR_CODES = [
  "UNAUTHORIZED",
  "FORBIDDEN_HOST",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "TOO_MANY_CRAWLS",
  "INTERNAL_ERROR",
] as const;

/** The status of each code; a code not listed failed upstream (502). */
const STATUS: Readonly<Record<string, ContentfulStatusCode>> = {
  INVALID_URL: 400,
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  // Policy refusals: the request was understood and will never be served.
  BLOCKED_ADDRESS: 403,
  BLOCKED_DOMAIN: 403,
  ROBOTS_DISALLOWED: 403,
  NETWORK_DISABLED: 403,
  FORBIDDEN_HOST: 403,
  NOT_FOUND: 404,
  // The page was fetched but holds nothing the include selectors match.
  SELECTOR_NOT_FOUND: 422,
  PAYLOAD_TOO_LARGE: 413,
  // Every crawl job the service keeps is still running: another may start once one ends.
  TOO_MANY_CRAWLS: 429,
  // The model upstream answered, but not with data the schema accepts.
  MODEL_OUTPUT_INVALID: 502,
  TIMEOUT: 504,
  INTERNAL_ERROR: 500,
};

/** The HTTP status for an error code. */
export function statusOf(code: string): ContentfulStatusCode {
  return STATUS[code] ?? 502;
}

/** An error response in the service's one shape; `status` overrides the code's. */
export function errorResponse(
  c: Context,
  code: string,
  message: string,
  init: { status?: ContentfulStatusCode; headers?: Record<string, string> } = {},
): Response {
  return c.json({ error: { code, message } }, init.status ?? statusOf(code), init.headers);
}

/**
 * Any thrown value as an error response: a WebFetchError keeps its code, anything else is an
 * internal error whose details stay in the log, not in the answer.
 */
export function thrownResponse(c: Context, error: unknown): Response {
  if (isWebFetchError(error)) return errorResponse(c, error.code, error.message);
  return errorResponse(c, "INTERNAL_ERROR", "Internal server error");
}
