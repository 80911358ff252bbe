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
  const result: FetchResult = {
    url: page.url,
    id: how.id,
    finalUrl: page.finalUrl,
    redirects: page.redirects,
    status: page.status,
    contentType: page.contentType,
    ...optional("charset", page.charset),
    ...optional("title", page.title),
    ...optional("description", page.description),
    ...optional("author", page.author),
    ...optional("siteName", page.siteName),
    ...optional("publishedAt", page.publishedAt),
    ...optional("lang", page.lang),
    ...optional("canonicalUrl", page.canonicalUrl),
    ...optional("pages", page.pages),
    ...(page.rendered ? { rendered: true, blockedRequests: page.blockedRequests ?? 0 } : {}),
    // Asked for, a list is there even when the page (a PDF, a feed) has none.
    ...(call.links ? { links: page.links ?? [] } : {}),
    ...(call.images ? { images: page.images ?? [] } : {}),
    ...(call.screenshot && page.screenshot ? { screenshot: page.screenshot } : {}),
    format: call.format,
    content: shaped.content,
    totalLength: shaped.totalLength,
    startIndex: shaped.startIndex,
    truncated: shaped.truncated,
    ...optional("nextStartIndex", "nextStartIndex" in shaped ? shaped.nextStartIndex : undefined),
    ...(query !== undefined && focused ? { query, chunks: focused.chunks } : {}),
    cached: how.cached,
    fetchedAt: page.fetchedAt,
    timings: { totalMs: roundMs(how.ms), ...roundedPhases(how.phases) },
  };
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

/** The measured phases, each rounded as `totalMs` is. */
function roundedPhases(phases: PhaseTimings | undefined): PhaseTimings {
  const rounded: PhaseTimings = {};
  if (phases === undefined) return rounded;
  for (const name in phases) {
    const ms = phases[name as keyof PhaseTimings];
    if (ms !== undefined) rounded[name as keyof PhaseTimings] = roundMs(ms);
  }
  return rounded;
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

/** Nothing to spread: one shared object, frozen so that no caller can fill it. */
const NOTHING = Object.freeze({});

/** `{ [key]: value }`, or nothing when the value is unknown or empty. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined || value === "" ? NOTHING : { [key]: value }) as { [P in K]?: V };
}
