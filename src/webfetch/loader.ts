/**
 * The page loader: gives the full converted page for a URL and a call. A fresh cached copy
 * answers; a stale one with validators is revalidated; otherwise the page source loads it.
 * Concurrent callers of one page under the same network policy share one load. Every page loaded
 * is stored and remembered by id, for read and grep.
 */
import type { CachedPage } from "../cache/store.js";
import { LIMITS } from "../limits.js";
import { Deadline } from "../net/deadline.js";
import { redirectAllowed } from "../net/domains.js";
import { normalizeUrl, type ParsedTarget, parseTargetUrl } from "../net/url.js";
import { type KeptPage, KeptPages, pageId } from "../pages/kept.js";
import type { PhaseTimings } from "../result.js";
import { inSpan, SPANS } from "../trace.js";
import type { ResolvedCall } from "./call.js";
import { directSource } from "./direct.js";
import { logOutcome } from "./outcome.js";
import { pageKey } from "./page-cache.js";
import { type Resources, refuseOffline } from "./resources.js";
import { type PageSource, remoteSource, tavilySource } from "./sources.js";

/** A page and how it was had: from the cache or the network, and what is kept of it. */
export interface Loaded {
  page: CachedPage;
  cached: boolean;
  kept: KeptPage;
  /** The phases the load measured; none when the cache answered without the network. */
  timings?: PhaseTimings;
}

/** A page as its source gave it, stored, with the phases its load measured. */
interface Stored {
  page: CachedPage;
  timings?: PhaseTimings | undefined;
}

export class PageLoader {
  /** Ids of loaded pages, for read and grep; their content stays in the cache or saveDir. */
  readonly kept = new KeptPages(LIMITS.keptPages);
  readonly #resources: Resources;
  readonly #source: PageSource;
  readonly #tavily: PageSource;
  /** Pages a 304 confirmed: served from the cache, so `cached: true`. */
  readonly #revalidated = new WeakSet<CachedPage>();
  /** Loads in flight by cache key and network policy. */
  readonly #inflight = new Map<string, Promise<Stored>>();

  constructor(resources: Resources) {
    this.#resources = resources;
    const { endpoint } = resources.resolved;
    this.#source = endpoint ? remoteSource(resources, endpoint) : directSource(resources);
    this.#tavily = tavilySource(resources);
  }

  /** Loads a page and logs one line for it, whatever `use` then does with it. */
  withPage<T>(
    url: string,
    call: ResolvedCall,
    use: (loaded: Loaded, started: number) => T | Promise<T>,
  ): Promise<T> {
    let loaded: Loaded | undefined;
    return logOutcome(
      this.#resources.logger,
      "fetch",
      async (started) => {
        loaded = await this.load(url, call);
        return use(loaded, started);
      },
      () => ({
        url,
        finalUrl: loaded?.page.finalUrl,
        status: loaded?.page.status,
        bytes: loaded?.page.content.length,
        cached: loaded?.cached ?? false,
      }),
    );
  }

  /** The full converted page for `url`: from the cache when fresh enough, else loaded. */
  async load(url: string, call: ResolvedCall): Promise<Loaded> {
    const { resolved, cache, fetcher } = this.#resources;
    const target = parseTargetUrl(url);
    refuseOffline(resolved);
    fetcher.checkTarget(target);
    const key = pageKey(normalizeUrl(target.url), call, resolved.endpoint);
    // Hashed before the load: after it, on a thread that has waited for the page, the same hash
    // costs ten times as long.
    const id = pageId(key);
    let stale: CachedPage | undefined;
    if (cache.enabled && call.cache) {
      const entry = await cache.get(key);
      // A page reached through redirects this call would not follow is not an answer for it.
      if (entry && withinPolicy(entry.page, call)) {
        if (call.maxAge > 0 && Date.now() - entry.storedAt <= call.maxAge * 1000) {
          return { page: entry.page, cached: true, kept: this.#keep(id, key, entry.page, call) };
        }
        if (entry.page.etag || entry.page.lastModified) stale = entry.page;
      }
    }
    // Callers share a load only under the same network policy; a caller with its own signal
    // does not share at all, so its cancel cannot fail the others.
    const flight = `${key}|${call.redirects}|${call.maxRedirects}|${call.robots}|${call.timeout}`;
    let pending = call.signal ? undefined : this.#inflight.get(flight);
    if (!pending) {
      pending = this.#traced(target, call, key, stale);
      if (!call.signal) {
        this.#inflight.set(flight, pending);
        const done = () => this.#inflight.delete(flight);
        void pending.then(done, done);
      }
    }
    const { page, timings } = await pending;
    return {
      page,
      cached: this.#revalidated.has(page),
      kept: this.#keep(id, key, page, call),
      ...(timings ? { timings } : {}),
    };
  }

  #traced(
    target: ParsedTarget,
    call: ResolvedCall,
    key: string,
    stale: CachedPage | undefined,
  ): Promise<Stored> {
    return inSpan(SPANS.fetch, { "url.full": target.url.href }, async (span) => {
      const stored = await this.#fromSource(target, call, key, stale);
      const { page } = stored;
      span.setAttributes({
        "webfetch.final_url": page.finalUrl,
        "http.response.status_code": page.status,
        "webfetch.content_length": page.content.length,
      });
      return stored;
    });
  }

  /** One load from the call's source, inside its deadline and the instance's fetch limit. */
  async #fromSource(
    target: ParsedTarget,
    call: ResolvedCall,
    key: string,
    stale: CachedPage | undefined,
  ): Promise<Stored> {
    const deadline = new Deadline(call.timeout, call.signal);
    let release: (() => void) | undefined;
    try {
      const { fetches } = this.#resources;
      release = await deadline.slot(
        (signal) => fetches.acquire(signal),
        () => fetches.tryAcquire(),
      );
      const source = call.viaTavily ? this.#tavily : this.#source;
      const { page, revalidated, timings } = await source.load(target, call, stale, deadline);
      const stored = await this.#resources.cache.put(key, page);
      if (revalidated) this.#revalidated.add(stored);
      return { page: stored, timings };
    } finally {
      release?.();
      deadline.close();
    }
  }

  /** Remembers a page's id, and how to fetch the same content again. */
  #keep(id: string, key: string, page: CachedPage, call: ResolvedCall): KeptPage {
    // The screenshot stays in the cache with the content: a kept page is a small descriptor.
    const { content: _content, screenshot: _screenshot, ...meta } = page;
    const kept: KeptPage = {
      id,
      key,
      url: page.url,
      call: {
        format: call.format,
        extract: call.extract,
        robots: call.robots,
        ...(call.headers ? { headers: call.headers } : {}),
        ...(call.includeSelectors ? { includeSelectors: call.includeSelectors } : {}),
        ...(call.excludeSelectors ? { excludeSelectors: call.excludeSelectors } : {}),
        ...(call.links ? { links: true } : {}),
        ...(call.images ? { images: true } : {}),
      },
      meta,
    };
    return this.kept.remember(kept);
  }
}

/** Whether a cached page's redirect chain is one this call's redirect policy would follow. */
function withinPolicy(page: CachedPage, call: ResolvedCall): boolean {
  if (page.redirects.length > call.maxRedirects) return false;
  if (call.redirects === "follow" || page.redirects.length === 0) return true;
  const start = new URL(page.url);
  return page.redirects.every((hop) => redirectAllowed(call.redirects, start, new URL(hop.to)));
}
