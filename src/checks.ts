/**
 * Checks of option values shared by every entry point: integers, deadlines, one-of sets, request
 * headers, and the options that exclude each other. A bad value is a programmer error (RangeError)
 * or, for what callers pass through from untrusted input (headers), INVALID_INPUT.
 */
import { WebFetchError } from "./errors.js";
import { LIMITS } from "./limits.js";

/** `value` as an integer of at least `min`, else a RangeError naming `name`. */
export function positiveInt(name: string, value: number, min = 1): number {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

/** A deadline in ms, from 1 to what Node's timers can wait; a longer one would fire at once. */
export function checkTimeout(timeout: number, name = "timeout"): number {
  if (!Number.isFinite(timeout) || timeout < 1 || timeout > LIMITS.maxTimeout) {
    throw new RangeError(`${name} must be from 1 to ${LIMITS.maxTimeout} ms, got ${timeout}`);
  }
  return timeout;
}

/** A header name: an RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value webfetch sends: tab, space and printable ASCII, so no line can be injected. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** Headers the transport owns: the connection and the message framing are never the caller's. */
const TRANSPORT_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "content-length",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);

/**
 * Checks one request header a caller supplies; returns its value. A header HTTP cannot carry,
 * or one the transport owns, is INVALID_INPUT before any connection. `field` names the option.
 */
export function checkHeader(
  name: string,
  value: unknown,
  field = `header ${JSON.stringify(name)}`,
): string {
  const problem =
    typeof name !== "string" || !HEADER_NAME.test(name)
      ? "is not a valid header name"
      : TRANSPORT_HEADERS.has(name.toLowerCase())
        ? "is set by the transport, not by the caller"
        : typeof value !== "string"
          ? "must be a string"
          : !HEADER_VALUE.test(value)
            ? "may hold only printable ASCII characters (no CR, LF or other control characters)"
            : undefined;
  if (problem) {
    throw new WebFetchError("INVALID_INPUT", `${field} ${problem}`, { retryable: false });
  }
  return value as string;
}

/** Checks every header of a call's `headers` option. */
export function checkHeaders(headers: unknown): void {
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) {
    throw new WebFetchError("INVALID_INPUT", "headers must be an object of names to values", {
      retryable: false,
    });
  }
  for (const [name, value] of Object.entries(headers)) checkHeader(name, value);
}

/** The product token of a User-Agent (`webfetch/1.0 (...)` → `webfetch`), for robots.txt. */
export function productToken(userAgent: string): string {
  const token = /^[A-Za-z0-9_-]+/.exec(userAgent.trim())?.[0];
  return token ?? "webfetch";
}

/** Throws RangeError unless `value` is one of `allowed`. */
export function oneOf<T extends string>(name: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value)) {
    throw new RangeError(`${name} must be one of ${allowed.join(", ")}, got ${String(value)}`);
  }
  return value;
}

/** The options that exclude each other, by their library names. */
export type ExclusiveField =
  | "prompt"
  | "query"
  | "startIndex"
  | "format"
  | "includeSelectors"
  | "excludeSelectors"
  | "screenshot"
  | "render";

/**
 * How a surface spells the options that exclude each other: one table per surface. `render`
 * spells the setting that turns rendering off (`render: "never"`, `--render never`).
 */
export type ExclusiveNames = Readonly<Record<ExclusiveField, string>>;

/** The library's own spelling. */
export const LIBRARY_NAMES: ExclusiveNames = {
  prompt: "prompt",
  query: "query",
  startIndex: "startIndex",
  format: "format",
  includeSelectors: "includeSelectors",
  excludeSelectors: "excludeSelectors",
  screenshot: "screenshot",
  render: 'render: "never"',
};

/** Formats whose content is not prose a query or a prompt can read passage by passage. */
const MARKUP_FORMATS: ReadonlySet<string> = new Set(["html", "raw"]);

/** Why a call's options cannot go together: the option to blame, by its library name. */
export interface OptionConflict {
  field: ExclusiveField;
  /** The reason, in the spelling of the surface that asked. */
  message: string;
}

/**
 * Why a call's options cannot go together, or undefined when they can: prompt and query each
 * read the whole page, and one excludes the other (with a `schema`, the prompt is the
 * instruction for filling it and excludes nothing); both read Markdown or text, so neither takes
 * the `html` or `raw` format; `raw` is the whole document as served, so it takes no selectors.
 * A screenshot renders the page, so it cannot go with rendering turned off.
 * A surface passes its table of names for the message and maps `field` through the same table.
 *
 * @example
 * const names = { ...LIBRARY_NAMES, prompt: "--prompt", query: "--query", startIndex: "--start-index" };
 * const conflict = optionConflict({ prompt: "a", query: "b" }, names);
 * // conflict.field === "query", conflict.message === "--prompt and --query cannot be combined"
 */
export function optionConflict(
  call: {
    prompt?: string | undefined;
    query?: string | undefined;
    startIndex?: number | undefined;
    format?: string | undefined;
    includeSelectors?: readonly string[] | undefined;
    excludeSelectors?: readonly string[] | undefined;
    schema?: unknown;
    screenshot?: unknown;
    render?: string | undefined;
  },
  names: ExclusiveNames = LIBRARY_NAMES,
): OptionConflict | undefined {
  const shot = call.screenshot !== undefined && call.screenshot !== false;
  if (shot && call.render === "never") {
    return {
      field: "screenshot",
      message: `${names.screenshot} renders the page in a browser: it cannot be combined with ${names.render}`,
    };
  }
  const offset = call.startIndex !== undefined && call.startIndex > 0;
  // Beside a schema, a prompt only instructs the model that fills it: the content stays the page's.
  const prompt = call.schema === undefined ? call.prompt : undefined;
  if (prompt !== undefined && call.query !== undefined) {
    return { field: "query", message: `${names.prompt} and ${names.query} cannot be combined` };
  }
  const reader =
    prompt !== undefined
      ? `${names.prompt} reads the whole page`
      : call.query !== undefined
        ? `${names.query} selects passages from the whole page`
        : undefined;
  if (reader && offset) {
    return { field: "startIndex", message: `${reader}: it takes no ${names.startIndex}` };
  }
  const format = call.format;
  if (format !== undefined && MARKUP_FORMATS.has(format)) {
    const asker = prompt !== undefined ? names.prompt : names.query;
    if (prompt !== undefined || call.query !== undefined) {
      return {
        field: "format",
        message: `${asker} reads the page as Markdown or text: it takes no ${names.format} ${format}`,
      };
    }
  }
  if (format === "raw") {
    const selectors = call.includeSelectors?.length
      ? "includeSelectors"
      : call.excludeSelectors?.length
        ? "excludeSelectors"
        : undefined;
    if (selectors) {
      return {
        field: selectors,
        message: `${names.format} raw is the whole document as served: it takes no ${names[selectors]}`,
      };
    }
  }
  return undefined;
}

/** The fields a screenshot object may have. */
const SCREENSHOT_FIELDS: ReadonlySet<string> = new Set(["fullPage", "width", "height"]);

/**
 * Checks a call's `screenshot`: true or false, or `{ fullPage, width, height }` with a boolean
 * and viewport sides from LIMITS.screenshotMinSide to LIMITS.screenshotMaxSide CSS pixels.
 * Anything else is INVALID_INPUT naming `field` (callers pass it through from untrusted input).
 */
export function checkScreenshot(value: unknown, field = "screenshot"): void {
  if (value === undefined || typeof value === "boolean") return;
  const fail = (problem: string): never => {
    throw new WebFetchError("INVALID_INPUT", `${field} ${problem}`, { retryable: false });
  };
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    fail("must be true, false or { fullPage, width, height }");
  }
  const shot = value as Record<string, unknown>;
  for (const key of Object.keys(shot)) {
    if (!SCREENSHOT_FIELDS.has(key)) fail(`has no field ${JSON.stringify(key)}`);
  }
  if (shot.fullPage !== undefined && typeof shot.fullPage !== "boolean") {
    fail("fullPage must be true or false");
  }
  const { screenshotMinSide: min, screenshotMaxSide: max } = LIMITS;
  for (const side of ["width", "height"] as const) {
    const n = shot[side];
    if (n !== undefined && (!Number.isInteger(n) || (n as number) < min || (n as number) > max)) {
      fail(`${side} must be an integer from ${min} to ${max} (CSS pixels), got ${String(n)}`);
    }
  }
}
