/**
 * The options of one call, checked and merged over the instance's once: every room below reads
 * a ResolvedCall and never re-derives a default.
 */

import { checkHeaders, checkScreenshot, checkTimeout, oneOf, optionConflict } from "../checks.js";
import { WebFetchError } from "../errors.js";
import { checkSelector } from "../extract/selector-syntax.js";
import { LIMITS } from "../limits.js";
import { type ResolvedSchema, resolveSchema } from "../llm/schema.js";
import {
  type FetchOptions,
  type ResolvedOptions,
  SCREENSHOT_DEFAULTS,
  type ScreenshotOptions,
} from "../options.js";
import { checkQuery } from "../search/validate.js";
import type {
  ExtractMode,
  OutputFormat,
  RedirectPolicy,
  RenderMode,
  RobotsPolicy,
} from "../values.js";
import {
  EXTRACT_MODES,
  OUTPUT_FORMATS,
  REDIRECT_POLICIES,
  RENDER_MODES,
  ROBOTS_POLICIES,
} from "../values.js";

/** One call's options, each resolved to the call's value or the instance's. */
export interface ResolvedCall {
  format: OutputFormat;
  extract: ExtractMode;
  maxLength: number;
  startIndex: number;
  /** Total deadline, ms: a fetch through the remote endpoint has the endpoint's by default. */
  timeout: number;
  /** Age in seconds up to which a cached copy answers. */
  maxAge: number;
  /** Whether the cache is looked up (a fresh result is stored either way). */
  cache: boolean;
  redirects: RedirectPolicy;
  maxRedirects: number;
  robots: RobotsPolicy;
  render: RenderMode;
  /** Tavily's extract API fetches the page instead of this process. */
  viaTavily: boolean;
  headers?: Record<string, string>;
  query?: string;
  prompt?: string;
  /** CSS selectors scoping the page, when the call gives any. */
  includeSelectors?: readonly string[];
  excludeSelectors?: readonly string[];
  /** List the page's links and images. */
  links: boolean;
  images: boolean;
  /** The schema the model fills from the page (`data`), checked and serialized. */
  schema?: ResolvedSchema;
  /** The screenshot to take, when the call asks for one. */
  screenshot?: ScreenshotCall;
  signal?: AbortSignal;
}

/** A screenshot asked for: what it shows and its byte cap. */
export interface ScreenshotCall {
  fullPage: boolean;
  /** The viewport, CSS pixels. */
  width: number;
  height: number;
  /** Bytes of the PNG, at most. */
  maxBytes: number;
}

/** `call` over the instance's options; the call is assumed checked (`checkCall`). */
export function resolveCall(resolved: ResolvedOptions, call: FetchOptions = {}): ResolvedCall {
  const viaTavily = call.via === "tavily";
  const remote = viaTavily ? undefined : resolved.endpoint;
  return {
    format:
      call.format ??
      (call.query !== undefined || call.prompt !== undefined
        ? proseFormat(resolved.format)
        : resolved.format),
    extract: call.extract ?? resolved.extract,
    maxLength: call.maxLength ?? resolved.maxLength,
    startIndex: call.startIndex ?? 0,
    timeout: call.timeout ?? remote?.timeout ?? resolved.timeout,
    maxAge: call.maxAge ?? resolved.cacheTtl,
    cache: call.cache !== false,
    redirects: call.redirects ?? resolved.redirects,
    maxRedirects: call.maxRedirects ?? resolved.maxRedirects,
    robots: call.robots ?? resolved.robots,
    render: call.render ?? resolved.render,
    viaTavily,
    links: call.links === true,
    images: call.images === true,
    ...(call.headers ? { headers: call.headers } : {}),
    ...(call.query !== undefined ? { query: call.query } : {}),
    ...(call.prompt !== undefined ? { prompt: call.prompt } : {}),
    ...(call.includeSelectors?.length ? { includeSelectors: call.includeSelectors } : {}),
    ...(call.excludeSelectors?.length ? { excludeSelectors: call.excludeSelectors } : {}),
    ...(call.schema !== undefined ? { schema: resolveSchema(call.schema) } : {}),
    ...(call.screenshot ? { screenshot: screenshotCall(resolved, call.screenshot) } : {}),
    ...(call.signal ? { signal: call.signal } : {}),
  };
}

/**
 * The format a reader of passages takes when the call names none: the instance's, unless that is
 * `html` or `raw`, which a query or a prompt cannot read; then Markdown.
 */
export function proseFormat(format: OutputFormat): OutputFormat {
  return format === "html" || format === "raw" ? "markdown" : format;
}

/** A call's `screenshot` (true, or the object) over SCREENSHOT_DEFAULTS. */
function screenshotCall(resolved: ResolvedOptions, shot: true | ScreenshotOptions): ScreenshotCall {
  const given = shot === true ? {} : shot;
  return {
    fullPage: given.fullPage ?? SCREENSHOT_DEFAULTS.fullPage,
    width: given.width ?? SCREENSHOT_DEFAULTS.width,
    height: given.height ?? SCREENSHOT_DEFAULTS.height,
    maxBytes: resolved.screenshotMaxBytes,
  };
}

/** Programmer errors in per-call options throw at once, before any network work. */
export function checkCall(call: FetchOptions): void {
  const { maxLength, startIndex, maxRedirects, timeout, maxAge, query, prompt } = call;
  if (prompt !== undefined) checkPrompt(prompt);
  if (query !== undefined) checkQuery(query);
  checkScreenshot(call.screenshot);
  const conflict = optionConflict(call);
  if (conflict) throw new RangeError(conflict.message);
  if (call.via !== undefined && call.via !== "fetch" && call.via !== "tavily") {
    throw new RangeError(`via must be "fetch" or "tavily", got ${JSON.stringify(call.via)}`);
  }
  if (call.format !== undefined) oneOf("format", call.format, OUTPUT_FORMATS);
  if (call.extract !== undefined) oneOf("extract", call.extract, EXTRACT_MODES);
  if (call.redirects !== undefined) oneOf("redirects", call.redirects, REDIRECT_POLICIES);
  if (call.robots !== undefined) oneOf("robots", call.robots, ROBOTS_POLICIES);
  if (call.render !== undefined) oneOf("render", call.render, RENDER_MODES);
  if (call.headers !== undefined) checkHeaders(call.headers);
  if (call.schema !== undefined) resolveSchema(call.schema);
  checkSelectors(call.includeSelectors, "includeSelectors");
  checkSelectors(call.excludeSelectors, "excludeSelectors");
  for (const flag of ["links", "images"] as const) {
    if (call[flag] !== undefined && typeof call[flag] !== "boolean") {
      throw new RangeError(`${flag} must be true or false, got ${JSON.stringify(call[flag])}`);
    }
  }
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1)) {
    throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`);
  }
  if (startIndex !== undefined && (!Number.isInteger(startIndex) || startIndex < 0)) {
    throw new RangeError(`startIndex must be a non-negative integer, got ${startIndex}`);
  }
  if (
    maxRedirects !== undefined &&
    (!Number.isInteger(maxRedirects) ||
      maxRedirects < 0 ||
      maxRedirects > LIMITS.maxRedirectsCeiling)
  ) {
    throw new RangeError(
      `maxRedirects must be an integer from 0 to ${LIMITS.maxRedirectsCeiling}, got ${maxRedirects}`,
    );
  }
  if (timeout !== undefined) checkTimeout(timeout);
  if (maxAge !== undefined && (!Number.isFinite(maxAge) || maxAge < 0)) {
    throw new RangeError(`maxAge must be a number of seconds >= 0, got ${maxAge}`);
  }
}

/** A list of CSS selectors: bad ones are caller input, so INVALID_INPUT naming `field`. */
function checkSelectors(selectors: unknown, field: string): void {
  if (selectors === undefined) return;
  const fail = (message: string) => {
    throw new WebFetchError("INVALID_INPUT", `${field} ${message}`, { retryable: false });
  };
  if (!Array.isArray(selectors)) fail("must be an array of CSS selectors");
  const list = selectors as unknown[];
  if (list.length > LIMITS.maxSelectors) fail(`holds at most ${LIMITS.maxSelectors} selectors`);
  for (const selector of list) {
    if (
      typeof selector !== "string" ||
      selector.trim() === "" ||
      selector.length > LIMITS.selectorMaxLength
    ) {
      fail(`must hold selectors of 1 to ${LIMITS.selectorMaxLength} characters`);
    }
    checkSelector(selector as string, field);
  }
}

/** A prompt is untrusted text from a model or a user: 1 to 4,000 characters. */
function checkPrompt(prompt: unknown): void {
  const text = typeof prompt === "string" ? prompt.trim() : "";
  if (text === "" || text.length > LIMITS.promptMaxLength) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `prompt must be 1 to ${LIMITS.promptMaxLength} characters (got ${text.length})`,
      { retryable: false },
    );
  }
}
