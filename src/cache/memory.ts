/**
 * The default cache: an in-process LRU bounded by bytes, so one huge page cannot push the
 * process out of memory and a busy agent keeps its most recent pages.
 */
import { LRUCache } from "lru-cache";
import type { CacheEntry, CacheStore } from "./store.js";

/** Rough bytes of an entry: UTF-16 strings, plus a fixed overhead for the object. */
function entrySize(entry: CacheEntry): number {
  const p = entry.page;
  const strings = p.content.length + p.url.length + p.finalUrl.length + (p.title?.length ?? 0);
  // A screenshot's base64 is the largest string a page can carry.
  return 512 + 2 * (strings + (p.screenshot?.data.length ?? 0));
}

export interface MemoryStoreOptions {
  /** Bound on the total size of entries, bytes. */
  maxBytes: number;
}

/** An in-memory LRU store bounded by bytes. */
export class MemoryStore implements CacheStore {
  readonly #lru: LRUCache<string, CacheEntry>;

  constructor(options: MemoryStoreOptions) {
    this.#lru = new LRUCache<string, CacheEntry>({
      maxSize: options.maxBytes,
      sizeCalculation: entrySize,
      // Entries larger than a quarter of the cache would evict everything else for one page.
      maxEntrySize: Math.max(1, Math.floor(options.maxBytes / 4)),
      // Ages are read from the clock at each look-up: caching the time for a millisecond costs
      // a timer, made again by nearly every cached fetch.
      ttlResolution: 0,
    });
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.#lru.get(key);
  }

  async set(key: string, entry: CacheEntry, ttlSeconds: number): Promise<void> {
    this.#lru.set(key, entry, { ttl: ttlSeconds * 1000 });
  }

  async delete(key: string): Promise<void> {
    this.#lru.delete(key);
  }
}
