/**
 * One error type for every runtime failure, with a stable `code`, a message a person can act
 * on, and whether trying again may help. Programmer errors (bad arguments) stay TypeError /
 * RangeError; everything the network or the content does wrong is a WebFetchError.
 */

/** Every error code webfetch returns. */
export const ERROR_CODES = [
  "INVALID_URL",
  "BLOCKED_ADDRESS",
  "BLOCKED_DOMAIN",
  "ROBOTS_DISALLOWED",
  "NETWORK_DISABLED",
  "CROSS_HOST_REDIRECT",
  "TOO_MANY_REDIRECTS",
  "TIMEOUT",
  "CONNECT_FAILED",
  "PROTOCOL_ERROR",
  "HTTP_ERROR",
  "TOO_LARGE",
  "UNSUPPORTED_CONTENT_TYPE",
  "PARSE_ERROR",
  "RENDER_FAILED",
  "INVALID_INPUT",
  "SELECTOR_NOT_FOUND",
  "AUTH_ERROR",
  "RATE_LIMITED",
  "PROVIDER_ERROR",
  "MODEL_OUTPUT_INVALID",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes for which trying again later may succeed. MODEL_OUTPUT_INVALID is not one: the model
 * already had a second try with the validator's message, so the schema or the prompt is what
 * should change.
 */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set(["TIMEOUT", "CONNECT_FAILED", "RATE_LIMITED"]);

export interface WebFetchErrorOptions {
  cause?: unknown;
  retryable?: boolean;
  /** HTTP status of the response that caused the error, when there was one. */
  status?: number;
  /** Where a redirect that was not followed points (`CROSS_HOST_REDIRECT`). */
  location?: string;
  /** The URL the error is about. */
  url?: string;
  /** The search or model provider that failed, by name ("Tavily"). */
  provider?: string;
}

/** Brand so `isWebFetchError` works across duplicated package copies. */
const BRAND = Symbol.for("webfetch.error");

/**
 * The error every webfetch operation throws for network, policy and content failures.
 *
 * @example
 * try { await web.fetch(url) } catch (e) { if (isWebFetchError(e)) console.log(e.code) }
 */
export class WebFetchError extends Error {
  override readonly name = "WebFetchError";
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly status?: number;
  readonly location?: string;
  readonly url?: string;
  readonly provider?: string;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: WebFetchErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? RETRYABLE.has(code);
    if (options.status !== undefined) this.status = options.status;
    if (options.location !== undefined) this.location = options.location;
    if (options.url !== undefined) this.url = options.url;
    if (options.provider !== undefined) this.provider = options.provider;
  }

  /** Plain object for JSON surfaces: `{ code, message }` plus status/location when known. */
  toJSON(): { code: ErrorCode; message: string; status?: number; location?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.location === undefined ? {} : { location: this.location }),
    };
  }
}

/** Codes a search or model provider's failure has. */
export const PROVIDER_CODES: ReadonlySet<ErrorCode> = new Set([
  "AUTH_ERROR",
  "RATE_LIMITED",
  "PROVIDER_ERROR",
]);

/** True for a WebFetchError, also one thrown by another copy of this package. */
export function isWebFetchError(value: unknown): value is WebFetchError {
  return (
    typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true
  );
}

/**
 * Message for an HTTP error status, the status in parentheses. 404 and 403 read as agents already
 * expect them word for word: "Page not found (404)", "Access forbidden (403)".
 */
export function httpErrorMessage(status: number): string {
  if (status === 404) return "Page not found (404)";
  if (status === 403) return "Access forbidden (403)";
  if (status === 401) return "Authentication required (401)";
  if (status === 410) return "Page gone (410)";
  if (status === 429) return "Too many requests (429)";
  if (status >= 500) return `Server error (${status})`;
  return `HTTP error (${status})`;
}
