/**
 * The pages an instance has fetched, by id, so read and grep can reach a page's full content
 * after a cut result. Only a small descriptor is kept here: the content itself stays in the
 * cache (or in `saveDir`), so nothing is held twice and the cache's byte bound still holds.
 */
import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { CachedPage } from "../cache/store.js";
import { WebFetchError } from "../errors.js";
import type { FetchOptions } from "../options.js";

/** The per-call options that made a page's content (and its cache key). */
export type ContentOptions = Pick<
  FetchOptions,
  | "format"
  | "extract"
  | "robots"
  | "headers"
  | "includeSelectors"
  | "excludeSelectors"
  | "links"
  | "images"
>;

/** What is remembered of a fetched page. */
export interface KeptPage {
  id: string;
  /** Cache key of its full content. */
  key: string;
  /** The URL as requested, normalized. */
  url: string;
  /** The options to fetch it again with the same content. */
  call: ContentOptions;
  /** The page without its content (nor its screenshot), to rebuild it from `savedPath`. */
  meta: Omit<CachedPage, "content" | "screenshot">;
  savedPath?: string;
}

/** Ids look like `p_` and 12 hex digits; anything else is read as a URL. */
const ID = /^p_[0-9a-f]{12}$/;

/** Characters of an unknown id repeated in its error: the id may be anything a caller sent. */
const SHOWN_ID_CHARS = 64;

/** True when `ref` is a page id rather than a URL. */
export function isPageId(ref: string): boolean {
  return ID.test(ref);
}

/** The error for an id this instance never gave (or has forgotten), well-formed or not. */
export function unknownPageId(ref: string): WebFetchError {
  const shown = ref.length > SHOWN_ID_CHARS ? `${ref.slice(0, SHOWN_ID_CHARS)}…` : ref;
  return new WebFetchError(
    "INVALID_INPUT",
    `Unknown page id ${JSON.stringify(shown)}: fetch the page again and use the id of that result`,
    { retryable: false },
  );
}

/**
 * The id of a page's content: derived from its cache key, so the same URL fetched with the same
 * options keeps one id (and a shared cache would give every process the same id).
 */
export function pageId(key: string): string {
  return `p_${hash("sha256", key, "hex").slice(0, 12)}`;
}

/** A bounded map of kept pages by id, and of the latest id by URL. */
export class KeptPages {
  readonly #byId: LRUCache<string, KeptPage>;
  readonly #byUrl: LRUCache<string, string>;

  constructor(max: number) {
    this.#byId = new LRUCache({ max });
    this.#byUrl = new LRUCache({ max });
  }

  /** Keeps `page` as the latest of its id and URL, and returns it as kept. */
  remember(page: KeptPage): KeptPage {
    // Peeked: the set below makes the id the most recent anyway.
    const previous = this.#byId.peek(page.id);
    // A page saved before keeps its file when a cache hit brings it back without saving.
    const savedPath = page.savedPath ?? previous?.savedPath;
    const kept = savedPath ? { ...page, savedPath } : page;
    this.#byId.set(page.id, kept);
    this.#byUrl.set(page.url, page.id);
    return kept;
  }

  byId(id: string): KeptPage | undefined {
    return this.#byId.get(id);
  }

  /** Up to `limit` kept pages, the most recently fetched or read first. */
  recent(limit: number): KeptPage[] {
    const pages: KeptPage[] = [];
    for (const page of this.#byId.values()) {
      if (pages.length >= limit) break;
      pages.push(page);
    }
    return pages;
  }

  /** The page most recently fetched from this (normalized) URL. */
  byUrl(url: string): KeptPage | undefined {
    const id = this.#byUrl.get(url);
    return id === undefined ? undefined : this.#byId.get(id);
  }
}
