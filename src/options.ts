/**
 * Every option of webfetch, its documentation and its default, in one place. Entry points take
 * one options object; `resolveOptions()` merges it over DEFAULTS once, so the rest of the code
 * reads plain resolved values and never re-derives a default.
 */
import { domainToASCII } from "node:url";
import type { buildConnector } from "undici";
import type { CacheStore } from "./cache/store.js";
import type { Logger } from "./log.js";
import type { LookupFn } from "./net/guard.js";
import { VERSION } from "./version.js";

export type OutputFormat = "markdown" | "text";
export type ExtractMode = "main" | "full";
export type RedirectPolicy = "follow" | "same-host" | "same-site";
export type RobotsPolicy = "respect" | "ignore";
export type NetworkMode = "enabled" | "none";
export type Locale = "en" | "ja";

/** Options of one fetch: the per-call subset, each defaulting to the instance's value. */
export interface FetchOptions {
  /** Output format of `content`. @default "markdown" */
  format?: OutputFormat;
  /** `main`: the main content only; `full`: the whole page. @default "main" */
  extract?: ExtractMode;
  /** Characters of content to return; a longer page is cut and `truncated` is set. @default 20000 */
  maxLength?: number;
  /** Character offset in the full converted content to start from. @default 0 */
  startIndex?: number;
  /** Total deadline in milliseconds: DNS, connect, robots.txt, every redirect and the body. @default 30000 */
  timeout?: number;
  /** Accept a cached copy up to this many seconds old; 0 always fetches fresh. @default cache TTL */
  maxAge?: number;
  /** `false` skips the cache lookup (the fresh result is still stored). @default true */
  cache?: boolean;
  /** Which redirects to follow. @default "follow" */
  redirects?: RedirectPolicy;
  /** Redirect hops before `TOO_MANY_REDIRECTS`. @default 5 */
  maxRedirects?: number;
  /** Obey robots.txt. @default "respect" */
  robots?: RobotsPolicy;
  /** Extra request headers. Authorization and Cookie are dropped when a redirect changes origin. */
  headers?: Record<string, string>;
  /** Cancels the fetch. */
  signal?: AbortSignal;
}

/** Options of `createWebFetch()`. */
export interface WebFetchOptions {
  /** User-Agent header; robots.txt is matched on its product token. @default "webfetch/<version> (+https://github.com/webfetch/webfetch)" */
  userAgent?: string;
  /** Default total deadline per fetch, milliseconds. @default 30000 */
  timeout?: number;
  /** Cap on the decoded (decompressed) body, bytes. @default 10485760 (10 MiB) */
  maxBytes?: number;
  /** @default 5 */
  maxRedirects?: number;
  /** @default "follow" */
  redirects?: RedirectPolicy;
  /** @default "respect" */
  robots?: RobotsPolicy;
  /** `none` turns every fetch into `NETWORK_DISABLED` (a sandbox with no network). @default "enabled" */
  network?: NetworkMode;
  /** Allow private, loopback and link-local addresses. Never needed for public pages. @default false */
  allowPrivateNetwork?: boolean;
  /** Exact holes in the address guard: IPs or CIDRs with an optional port ("127.0.0.1:8080", "10.0.0.0/8"). @default [] */
  allowAddresses?: readonly string[];
  /** Only these domains (and their subdomains) may be fetched, when non-empty. @default [] */
  allowedDomains?: readonly string[];
  /** These domains (and their subdomains) are refused. @default [] */
  blockedDomains?: readonly string[];
  /** @default 20000 */
  maxLength?: number;
  /** @default "markdown" */
  format?: OutputFormat;
  /** @default "main" */
  extract?: ExtractMode;
  /** Language of messages. @default "en" */
  locale?: Locale;
  /** Cache store, or `false` for none. @default an in-memory LRU of `cacheMaxBytes` */
  cache?: CacheStore | false;
  /** Time a cached page stays fresh, seconds. @default 900 */
  cacheTtl?: number;
  /** Size bound of the default in-memory cache, bytes. @default 52428800 (50 MiB) */
  cacheMaxBytes?: number;
  /** Open connections per origin. @default 6 */
  maxConnectionsPerOrigin?: number;
  /** Fetches in flight at once across all origins; more wait their turn. @default 32 */
  maxConcurrency?: number;
  /** Retries of transient failures (connection reset, 502/503/504, 429 with a short Retry-After), inside the deadline. @default 2 */
  retries?: number;
  /** Resolves a host name to every address (tests map names without real DNS). @default node's dns.lookup with all: true */
  lookup?: LookupFn;
  /**
   * Advanced: opens the socket once the address guard has chosen a checked address. The
   * connector receives `hostname` set to that address. Tests inject one that records instead of
   * connecting. @default undici's connector
   */
  connect?: buildConnector.connector;
  /** Logger (pino-compatible). @default pino on stderr at WEBFETCH_LOG_LEVEL or "info" */
  logger?: Logger;
}

/** Fully resolved instance options. */
export interface ResolvedOptions {
  userAgent: string;
  productToken: string;
  timeout: number;
  maxBytes: number;
  maxRedirects: number;
  redirects: RedirectPolicy;
  robots: RobotsPolicy;
  network: NetworkMode;
  allowPrivateNetwork: boolean;
  allowAddresses: readonly string[];
  allowedDomains: readonly string[];
  blockedDomains: readonly string[];
  maxLength: number;
  format: OutputFormat;
  extract: ExtractMode;
  locale: Locale;
  cacheTtl: number;
  cacheMaxBytes: number;
  maxConnectionsPerOrigin: number;
  maxConcurrency: number;
  retries: number;
}

/** Every default, in one place. */
export const DEFAULTS = {
  userAgent: `webfetch/${VERSION} (+https://github.com/webfetch/webfetch)`,
  timeout: 30_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  redirects: "follow",
  robots: "respect",
  network: "enabled",
  allowPrivateNetwork: false,
  allowAddresses: [],
  allowedDomains: [],
  blockedDomains: [],
  maxLength: 20_000,
  format: "markdown",
  extract: "main",
  locale: "en",
  cacheTtl: 900,
  cacheMaxBytes: 50 * 1024 * 1024,
  maxConnectionsPerOrigin: 6,
  maxConcurrency: 32,
  retries: 2,
} as const satisfies Omit<ResolvedOptions, "productToken">;

/** Hard limits a caller cannot raise, each a guard against a misconfiguration. */
export const LIMITS = {
  /** Longest URL accepted (SPEC §3.1). */
  maxUrlLength: 2048,
  /** robots.txt bodies beyond this are ignored (RFC 9309 asks for at least 500 KiB). */
  maxRobotsBytes: 500 * 1024,
  /** Redirect hops, whatever the configuration says. */
  maxRedirectsCeiling: 20,
  /** Longest Retry-After worth waiting for, milliseconds. */
  maxRetryAfter: 5_000,
  /** Conversion threads: pages convert in parallel up to this, and never on the event loop. */
  convertThreads: 2,
  /** Heap of one conversion thread, MiB: a page that needs more fails with TOO_LARGE. */
  convertHeapMb: 256,
} as const;

function positiveInt(name: string, value: number, min = 1): number {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

/** The product token of a User-Agent (`webfetch/1.0 (...)` → `webfetch`), for robots.txt. */
export function productToken(userAgent: string): string {
  const token = /^[A-Za-z0-9_-]+/.exec(userAgent.trim())?.[0];
  return token ?? "webfetch";
}

/** Merges user options over DEFAULTS and checks them; programmer errors throw RangeError. */
export function resolveOptions(options: WebFetchOptions = {}): ResolvedOptions {
  const merged = { ...DEFAULTS, ...stripUndefined(options) };
  const resolved: ResolvedOptions = {
    userAgent: merged.userAgent,
    productToken: productToken(merged.userAgent),
    timeout: positiveInt("timeout", merged.timeout),
    maxBytes: positiveInt("maxBytes", merged.maxBytes),
    maxRedirects: positiveInt("maxRedirects", merged.maxRedirects, 0),
    redirects: merged.redirects,
    robots: merged.robots,
    network: merged.network,
    allowPrivateNetwork: merged.allowPrivateNetwork,
    allowAddresses: merged.allowAddresses,
    allowedDomains: merged.allowedDomains.map(normalizeDomain),
    blockedDomains: merged.blockedDomains.map(normalizeDomain),
    maxLength: positiveInt("maxLength", merged.maxLength),
    format: merged.format,
    extract: merged.extract,
    locale: merged.locale,
    cacheTtl: positiveInt("cacheTtl", merged.cacheTtl, 0),
    cacheMaxBytes: positiveInt("cacheMaxBytes", merged.cacheMaxBytes),
    maxConnectionsPerOrigin: positiveInt("maxConnectionsPerOrigin", merged.maxConnectionsPerOrigin),
    maxConcurrency: positiveInt("maxConcurrency", merged.maxConcurrency),
    retries: positiveInt("retries", merged.retries, 0),
  };
  if (resolved.maxRedirects > LIMITS.maxRedirectsCeiling) {
    throw new RangeError(`maxRedirects must be at most ${LIMITS.maxRedirectsCeiling}`);
  }
  return resolved;
}

/** Lowercase, no leading dot or trailing dot: the form domain lists are compared in. */
function normalizeDomain(domain: string): string {
  // Hosts are compared in their ASCII (punycode) form, as URL.hostname gives them.
  const ascii = domainToASCII(
    domain
      .trim()
      .replace(/^\*?\.+/, "")
      .replace(/\.+$/, ""),
  );
  if (!ascii) throw new RangeError(`Invalid domain in a domain list: ${JSON.stringify(domain)}`);
  return ascii.toLowerCase();
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
