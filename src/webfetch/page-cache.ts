/**
 * The instance's view of its cache store: keys, reads and writes. A store that fails (a Redis
 * server down, a full disk) costs speed and a warning, never a page: a failed read is a miss and
 * a failed write is skipped.
 */
import type { CachedPage, CacheEntry, CacheStore } from "../cache/store.js";
import { LIMITS } from "../limits.js";
import type { Logger } from "../log.js";
import type { ResolvedOptions } from "../options.js";
import type { ResolvedCall } from "./call.js";

export class PageCache {
  readonly #store: CacheStore | undefined;
  readonly #ttl: number;
  readonly #logger: Logger;

  constructor(store: CacheStore | undefined, ttl: number, logger: Logger) {
    this.#store = store;
    this.#ttl = ttl;
    this.#logger = logger;
  }

  /** Whether there is a store at all. */
  get enabled(): boolean {
    return this.#store !== undefined;
  }

  /** The entry under `key`, at any age. */
  async get(key: string): Promise<CacheEntry | undefined> {
    if (!this.#store) return undefined;
    try {
      return await this.#store.get(key);
    } catch (error) {
      this.#logger.warn(
        { error: (error as Error).message },
        "cache: could not read; fetching instead",
      );
      return undefined;
    }
  }

  /**
   * Stores a freshly loaded page and hands it on. A page with validators is kept past its
   * freshness, so that it can be revalidated instead of fetched.
   */
  async put(key: string, page: CachedPage): Promise<CachedPage> {
    if (!this.#store) return page;
    const keep = page.etag || page.lastModified ? this.#ttl + LIMITS.revalidateWindow : this.#ttl;
    try {
      await this.#store.set(key, { page, storedAt: Date.now() }, keep);
    } catch (error) {
      this.#logger.warn({ error: (error as Error).message }, "cache: could not store the page");
    }
    return page;
  }
}

/** Every option that changes the converted content is part of a page's key. */
export function pageKey(
  url: string,
  call: ResolvedCall,
  endpoint: ResolvedOptions["endpoint"],
): string {
  const headers = call.headers ? JSON.stringify(Object.entries(call.headers).sort()) : "";
  // A page fetched while ignoring robots.txt is not served to a caller who respects it.
  const robots = call.robots === "ignore" ? "ignore" : "";
  // Rendering changes what a page yields (the instance's mode counts, for a shared store); the
  // default mode keeps the plain key.
  const render = call.render !== "auto" ? call.render : "";
  // Tavily's extraction of a page is not ours, nor an endpoint's (whose `/md` filter shapes it):
  // each has its own entry in a store that other instances may share.
  const remote = endpoint?.kind === "crawl4ai" ? `crawl4ai:${endpoint.filter}` : endpoint?.kind;
  const via = call.viaTavily ? "tavily" : (remote ?? "");
  // Selectors change the content; a call without them keeps the plain key.
  const scope =
    call.includeSelectors || call.excludeSelectors
      ? `|${JSON.stringify([call.includeSelectors ?? [], call.excludeSelectors ?? []])}`
      : "";
  // So do the link and image lists; a call without them keeps the plain key.
  const lists = `${call.links ? "|links" : ""}${call.images ? "|images" : ""}`;
  // A screenshot is kept with the page it was taken of, apart from the page without one (and
  // from one of another size); a call without one keeps the plain key.
  const shot = call.screenshot;
  const screenshot = shot
    ? `|screenshot:${shot.fullPage ? "full" : "view"}:${shot.width}x${shot.height}:${shot.maxBytes}`
    : "";
  return `v1|${call.format}|${call.extract}|${robots}|${headers}|${via}|${render}${scope}${lists}${screenshot}|${url}`;
}

/** The key of a model's answer to `prompt` about the page at `url`. */
export function answerKey(
  modelId: string,
  url: string,
  prompt: string,
  call: ResolvedCall,
): string {
  return `answer|${modelId}|${call.format}|${call.extract}|${url}|${prompt}`;
}
