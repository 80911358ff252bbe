/**
 * Where a page comes from. Every source takes a checked target and a resolved call and gives the
 * converted page; the loader around it caches, shares and remembers. This process fetches and
 * converts (direct, rendering when it must); a remote fetch service or Tavily's extract API do
 * both elsewhere, and this process never resolves or contacts the target then.
 */
import type { CachedPage } from "../cache/store.js";
import { providerFetch } from "../endpoint/client.js";
import { fetchRemote } from "../endpoint/remote.js";
import { WebFetchError } from "../errors.js";
import type { Deadline } from "../net/deadline.js";
import type { ParsedTarget } from "../net/url.js";
import { normalizeUrl } from "../net/url.js";
import type { PhaseTimings } from "../result.js";
import { tavilySettings } from "../search/choose.js";
import { tavilyExtract } from "../search/tavily.js";
import type { ResolvedCall } from "./call.js";
import type { Resources } from "./resources.js";

/** A loaded page, and whether a 304 confirmed the stale copy it was asked to revalidate. */
export interface Sourced {
  page: CachedPage;
  revalidated?: boolean;
  /** The phases this load measured (a source that fetches elsewhere measures none). */
  timings?: PhaseTimings;
}

export interface PageSource {
  /** Loads `target`; `stale` is a cached copy with validators, for a source that revalidates. */
  load(
    target: ParsedTarget,
    call: ResolvedCall,
    stale: CachedPage | undefined,
    deadline: Deadline,
  ): Promise<Sourced>;
}

/**
 * Remote mode: the service fetches and converts. Redirect, robots and header options are the
 * service's own policy there.
 */
export function remoteSource(
  resources: Resources,
  endpoint: NonNullable<Resources["resolved"]["endpoint"]>,
): PageSource {
  return {
    async load(target, call, _stale, deadline) {
      refuseSelectors(call, "the remote fetch service");
      refuseFormat(call, endpoint);
      refuseScreenshot(call, "the remote fetch service");
      const remote = await fetchRemote(
        endpoint,
        target.url.href,
        { format: call.format, extract: call.extract },
        {
          dispatcher: resources.endpointDispatcher(),
          userAgent: resources.resolved.userAgent,
          deadline,
        },
      );
      return { page: { url: normalizeUrl(target.url), ...remote } };
    },
  };
}

/**
 * Tavily's extract API fetches and converts the page (`via: "tavily"`); this process has checked
 * the URL policy and domain lists.
 */
export function tavilySource(resources: Resources): PageSource {
  return {
    async load(target, call, _stale, deadline) {
      refuseSelectors(call, "Tavily's extract API");
      refuseFormat(call, undefined);
      refuseScreenshot(call, "Tavily's extract API");
      const { resolved } = resources;
      const extracted = await tavilyExtract(target.url.href, call.format, {
        ...tavilySettings(resources.searchSettings),
        fetch: providerFetch({
          dispatcher: resources.endpointDispatcher(),
          userAgent: resolved.userAgent,
          retries: resolved.retries,
          deadline,
          name: "Tavily",
        }),
      });
      return {
        page: {
          url: normalizeUrl(target.url),
          finalUrl: extracted.url,
          redirects: [],
          status: 200,
          contentType: call.format === "text" ? "text/plain" : "text/markdown",
          content: extracted.content,
          fetchedAt: new Date().toISOString(),
        },
      };
    },
  };
}

/**
 * The `html` and `raw` formats need a page converted here, or by a webfetch service, which takes
 * the format (its `html` only of the main content: it has no parameter for the whole page).
 * Tavily's extract API (`endpoint` undefined) and a Crawl4AI endpoint give Markdown or text only.
 */
function refuseFormat(
  call: ResolvedCall,
  endpoint: Resources["resolved"]["endpoint"] | undefined,
): void {
  if (call.format !== "html" && call.format !== "raw") return;
  const where =
    endpoint === undefined
      ? "Tavily's extract API"
      : endpoint.kind !== "webfetch"
        ? "a Crawl4AI endpoint"
        : call.format === "html" && call.extract === "full"
          ? "a webfetch service with extract full"
          : undefined;
  if (where === undefined) return;
  throw new WebFetchError(
    "INVALID_INPUT",
    `format ${call.format} needs the page converted here or by a webfetch service, not by ${where}`,
    { retryable: false },
  );
}

/** Selectors, links and images need the page's elements, which only a page converted here has. */
function refuseSelectors(call: ResolvedCall, where: string): void {
  if (!call.includeSelectors && !call.excludeSelectors && !call.links && !call.images) return;
  throw new WebFetchError(
    "INVALID_INPUT",
    `includeSelectors, excludeSelectors, links and images need the page converted here, not by ${where}`,
    { retryable: false },
  );
}

/** A screenshot needs the page rendered in this process's browser. */
function refuseScreenshot(call: ResolvedCall, where: string): void {
  if (!call.screenshot) return;
  throw new WebFetchError(
    "INVALID_INPUT",
    `screenshot needs the page rendered here, not by ${where}`,
    { retryable: false },
  );
}
