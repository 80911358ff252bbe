/**
 * The result object of one call from a loaded page: the content cut to the call's window (or
 * focused on its query), the page's metadata with unknown values left out, and warnings that say
 * why the result is thinner than the page.
 */
import type { CachedPage } from "../cache/store.js";
import { WebFetchError } from "../errors.js";
import type { FetchResult, PhaseTimings } from "../result.js";
import { focusContent } from "../shape/focus.js";
import { shapeContent } from "../shape/truncate.js";
import type { Locale } from "../values.js";
import { limitWarnings, type Warning, warningText } from "../warnings.js";
import type { ResolvedCall } from "./call.js";
import { RENDER_OFF } from "./direct.js";

/** How a page was had, for its result. */
export interface ResultOf {
  id: string;
  cached: boolean;
  /** Time the call took, ms. */
  ms: number;
  locale: Locale;
  /** The phases the call's load measured. */
  phases?: PhaseTimings | undefined;
}

/**
 * The result of `page` for `call`. A start index past the end of the content is INVALID_INPUT.
 *
 * @example
 * const result = toResult(page, resolveCall(resolved, { maxLength: 500 }), { id, cached, ms, locale });
 */
export function toResult(page: CachedPage, call: ResolvedCall, how: ResultOf): FetchResult {
  const { maxLength, startIndex } = call;
  if (startIndex > 0 && startIndex >= page.content.length) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `startIndex ${startIndex} is past the end of the content (${page.content.length} characters)`,
      { retryable: false },
    );
  }
  const query = call.query ? call.query.trim() : undefined;
  const focused = query !== undefined ? focusContent(page.content, query, maxLength) : undefined;
  const shaped = focused
    ? {
        content: focused.content,
        totalLength: page.content.length,
        startIndex: 0,
        truncated: false,
      }
    : shapeContent(page.content, { startIndex, maxLength });
  // Built field by field, in the order results show them: a spread per optional field made a
  // small object each, most of the result's cost on a thread that has waited for its page.
  const result = {
    url: page.url,
    id: how.id,
    finalUrl: page.finalUrl,
    redirects: page.redirects,
    status: page.status,
    contentType: page.contentType,
  } as FetchResult;
  put(result, "charset", page.charset);
  put(result, "title", page.title);
  put(result, "description", page.description);
  put(result, "author", page.author);
  put(result, "siteName", page.siteName);
  put(result, "publishedAt", page.publishedAt);
  put(result, "lang", page.lang);
  put(result, "canonicalUrl", page.canonicalUrl);
  put(result, "pages", page.pages);
  if (page.rendered) {
    result.rendered = true;
    result.blockedRequests = page.blockedRequests ?? 0;
  }
  // Asked for, a list is there even when the page (a PDF, a feed) has none.
  if (call.links) result.links = page.links ?? [];
  if (call.images) result.images = page.images ?? [];
  if (call.screenshot && page.screenshot) result.screenshot = page.screenshot;
  result.format = call.format;
  result.content = shaped.content;
  result.totalLength = shaped.totalLength;
  result.startIndex = shaped.startIndex;
  result.truncated = shaped.truncated;
  put(result, "nextStartIndex", "nextStartIndex" in shaped ? shaped.nextStartIndex : undefined);
  if (query !== undefined && focused) {
    result.query = query;
    result.chunks = focused.chunks;
  }
  result.cached = how.cached;
  result.fetchedAt = page.fetchedAt;
  result.timings = timingsOf(how.ms, how.phases);
  const warnings = pageWarnings(
    page,
    query !== undefined && focused ? { query, ...focused.chunks, maxLength } : undefined,
  );
  if (call.screenshot) warnings.push(...(page.screenshotWarnings ?? []));
  if (page.limits?.length) result.truncated = true;
  if (warnings.length > 0) result.warnings = warnings.map((w) => warningText(w, how.locale));
  return result;
}

/** Milliseconds to two decimals, as results report them. */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** The call's time and the measured phases, each rounded to two decimals. */
function timingsOf(totalMs: number, phases: PhaseTimings | undefined): FetchResult["timings"] {
  const timings: FetchResult["timings"] = { totalMs: roundMs(totalMs) };
  if (phases === undefined) return timings;
  for (const name in phases) {
    const ms = phases[name as keyof PhaseTimings];
    if (ms !== undefined) timings[name as keyof PhaseTimings] = roundMs(ms);
  }
  return timings;
}

/** Why a result of `page` (focused on a query, if given) is thinner than the page. */
function pageWarnings(
  page: CachedPage,
  focus: { query: string; matched: number; returned: number; maxLength: number } | undefined,
): Warning[] {
  const warnings = limitWarnings(page.limits);
  if (page.rawUnavailable) warnings.push({ kind: "raw-unavailable" });
  if (page.notRendered === RENDER_OFF) warnings.push({ kind: "render-off" });
  else if (page.notRendered) warnings.push({ kind: "not-rendered", reason: page.notRendered });
  if (page.content.trim() === "") {
    if (warnings.length === 0) warnings.push({ kind: "empty" });
  } else if (focus?.matched === 0) {
    warnings.push({ kind: "no-passage", query: focus.query });
  } else if (focus?.returned === 0) {
    warnings.push({ kind: "no-room", maxLength: focus.maxLength });
  }
  return warnings;
}

/** Sets `result[key]` to `value` unless the value is unknown or empty. */
function put<K extends keyof FetchResult>(
  result: FetchResult,
  key: K,
  value: FetchResult[K] | undefined,
): void {
  if (isKnown(value)) result[key] = value;
}

/** A value a result shows: neither unknown nor empty. */
function isKnown<V>(value: V | undefined): value is V {
  return value !== undefined && value !== "";
}

/** Nothing to spread: one shared object, frozen so that no caller can fill it. */
const NOTHING = Object.freeze({});

/** `{ [key]: value }`, or nothing when the value is unknown or empty. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (isKnown(value) ? { [key]: value } : NOTHING) as { [P in K]?: V };
}
