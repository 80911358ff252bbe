/**
 * The one interface every cache store implements: memory now, SQLite and Redis later. Stores
 * hold serializable entries and know nothing of fetching; freshness is decided by the caller
 * from `storedAt`, so `maxAge` works the same on every store.
 */
import type { PageMetadata } from "../extract/metadata.js";

/** A cached, fully converted page (before any shaping such as truncation). */
export interface CachedPage extends PageMetadata {
  url: string;
  finalUrl: string;
  redirects: { from: string; to: string; status: number }[];
  status: number;
  contentType: string;
  charset?: string;
  /** The full converted content. */
  content: string;
  /** When it was fetched, ISO 8601. */
  fetchedAt: string;
}

export interface CacheEntry {
  page: CachedPage;
  /** Epoch milliseconds when stored. */
  storedAt: number;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  /** Stores `entry`; `ttlSeconds` is how long the store may keep it. */
  set(key: string, entry: CacheEntry, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Releases connections or files. */
  close?(): Promise<void>;
}
