/**
 * webfetch: safe, fast and faithful web access for LLM agents. The public API, listed by hand.
 */

export { MemoryStore } from "./cache/memory.js";
export type { CachedPage, CacheEntry, CacheStore } from "./cache/store.js";
export type { ConvertedDocument, ConvertHtmlOptions } from "./convert/html.js";
export { convertHtml } from "./convert/html.js";
export type { ErrorCode } from "./errors.js";
export { ERROR_CODES, isWebFetchError, WebFetchError } from "./errors.js";
export type { PageMetadata } from "./extract/metadata.js";
export type { Logger } from "./log.js";
export type { LookupFn } from "./net/guard.js";
export type {
  ExtractMode,
  FetchOptions,
  Locale,
  NetworkMode,
  OutputFormat,
  RedirectPolicy,
  RobotsPolicy,
  WebFetchOptions,
} from "./options.js";
export { DEFAULTS } from "./options.js";
export type { FetchResult } from "./result.js";
export { VERSION } from "./version.js";
export type { WebFetch } from "./webfetch.js";
export { createWebFetch } from "./webfetch.js";
