/**
 * The one interface every cache store implements: memory, SQLite, Redis. Stores hold
 * serializable entries and know nothing of fetching; freshness is decided by the caller from
 * `storedAt`, so `maxAge` works the same on every store. A store keeps an entry past its
 * freshness (for `ttlSeconds`, as the caller asks) so that a stale entry can be revalidated.
 */

import type { PageImage, PageLink } from "../extract/links.js";
import type { PageMetadata } from "../extract/metadata.js";
import type { Redirect, Screenshot } from "../result.js";
import type { LimitHit, ScreenshotWarning } from "../warnings.js";

/** A cached, fully converted page (before any shaping such as truncation). */
export interface CachedPage extends PageMetadata {
  url: string;
  finalUrl: string;
  redirects: Redirect[];
  status: number;
  contentType: string;
  charset?: string;
  /** The full converted content. */
  content: string;
  /** When it was fetched, ISO 8601. */
  fetchedAt: string;
  /** Page count of a PDF. */
  pages?: number;
  /** The content is the DOM after the page's scripts ran in a browser. */
  rendered?: boolean;
  /** Requests of the rendered page that the policy refused. */
  blockedRequests?: number;
  /** The page's links and images, when the call asked for them. */
  links?: PageLink[];
  images?: PageImage[];
  /** A PNG of the rendered page, when the call asked for one. */
  screenshot?: Screenshot;
  /** Why the screenshot asked for is missing or shows less than the page. */
  screenshotWarnings?: ScreenshotWarning[];
  /** Limits the conversion stopped at: the content ends before the page does. */
  limits?: LimitHit[];
  /** `raw` was asked of a PDF, which has no text source: the content is its extracted text. */
  rawUnavailable?: true;
  /** Why a page that needed a browser was not rendered (`render: "auto"`). */
  notRendered?: string;
  /** The response's validators, for revalidating a stale entry (If-None-Match, If-Modified-Since). */
  etag?: string;
  lastModified?: string;
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
