/**
 * Every option of the library, its documentation and its default, in one place. Entry points
 * take one options object; `resolveOptions()` merges it over DEFAULTS once, so the rest of the
 * code reads plain resolved values and never re-derives a default (a call's options are merged
 * over them once more by the instance's `resolveCall()`). The tools' options live with the
 * tools, the HTTP service's with the service.
 */
import { domainToASCII } from "node:url";
import type { buildConnector } from "undici";
import type { CacheStore } from "./cache/store.js";
import { checkHeader, checkTimeout, oneOf, positiveInt, productToken } from "./checks.js";
import { LIMITS } from "./limits.js";
import type { DataSchema } from "./llm/schema.js";
import type { Logger } from "./log.js";
import type { LookupFn } from "./net/guard.js";
import type { ExtractProgress } from "./pages/extract.js";
import type { SearchProvider, SearchProviderId } from "./search/types.js";
import {
  ENDPOINT_FILTERS,
  type EndpointFilter,
  type EndpointKind,
  EXTRACT_MODES,
  type ExtractMode,
  LLM_PROVIDER_IDS,
  type LlmProviderId,
  LOCALES,
  type Locale,
  type NetworkMode,
  OUTPUT_FORMATS,
  type OutputFormat,
  REDIRECT_POLICIES,
  RENDER_MODES,
  type RedirectPolicy,
  type RenderMode,
  ROBOTS_POLICIES,
  type RobotsPolicy,
  type SearchDepth,
  type SitemapMode,
  type TimeRange,
} from "./values.js";
import { PROJECT_URL, VERSION } from "./version.js";

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
  /** Total deadline in milliseconds: DNS, connect, robots.txt, every redirect and the body. @default the instance's timeout, or `endpointTimeout` in remote mode */
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
  /**
   * Extra request headers. Authorization and Cookie are dropped when a redirect changes origin.
   * A name or value HTTP cannot carry (CR, LF, other control characters, non-ASCII), or a header
   * the transport owns (Host, Connection, Content-Length, Transfer-Encoding, ...), is
   * `INVALID_INPUT` before any connection.
   */
  headers?: Record<string, string>;
  /**
   * Keep only the passages relevant to this query (1 to 1,000 characters): the content is cut
   * into heading-aware chunks, ranked by BM25, and the matching ones that fit `maxLength` are
   * returned in document order under their headings. Not combined with `startIndex`.
   */
  query?: string;
  /**
   * A question or instruction (1 to 4,000 characters) answered from the page by the configured
   * model (`llm`): the answer is `content`, with `model` and `usage`. Without a model, the
   * passages most relevant to it are returned (the `query` behaviour) and `note` says so.
   * Not combined with `query` or `startIndex`.
   */
  prompt?: string;
  /**
   * `"tavily"`: the page is fetched and converted by Tavily's extract API instead of by this
   * process (needs TAVILY_API_KEY; the URL policy and domain lists still apply here, the address
   * guard and robots.txt are Tavily's side). @default "fetch"
   */
  via?: ExtractVia;
  /**
   * JavaScript rendering in Chromium: `auto` renders only a page whose static HTML gave almost
   * no content and looks like a script-built app shell; `always` renders every HTML page;
   * `never` keeps the static result. @default "auto"
   */
  render?: RenderMode;
  /**
   * CSS selectors: only what they match is kept (the outermost matches, in document order), and
   * main-content extraction runs inside it. One that matches nothing is `SELECTOR_NOT_FOUND`
   * naming it; one that does not parse is `INVALID_INPUT`. HTML pages only. @default []
   */
  includeSelectors?: readonly string[];
  /** CSS selectors: what they match is removed before anything else. HTML pages only. @default [] */
  excludeSelectors?: readonly string[];
  /**
   * Adds `links`: the page's links, `{ url, text, internal, inMain }`, absolute http(s) URLs,
   * each once, in page order, at most 1,000. HTML pages only (others list none). @default false
   */
  links?: boolean;
  /** Adds `images`: the page's images, `{ url, alt }`, each once, at most 300. @default false */
  images?: boolean;
  /**
   * Adds `data`: the configured model (`llm`) fills this JSON Schema (or zod 4 schema) from the
   * page, `prompt` being then an instruction on what to extract. The reply is validated (ajv, or
   * zod for a zod schema); a reply that fails gets one repair, then `MODEL_OUTPUT_INVALID`.
   * `content` stays the page's content, paged as usual. Needs a model: without one,
   * `INVALID_INPUT` naming the `llm` settings. At most 20,000 characters as JSON.
   */
  schema?: DataSchema;
  /**
   * Adds `screenshot`: a PNG of the page rendered in Chromium, `{ mimeType, data (base64),
   * width, height }` (the image's pixels). `true` shows the viewport (1280 × 800 CSS pixels);
   * an object sets `fullPage` (the whole page, at most 10,000 CSS pixels tall: a taller one is
   * shown from the top, with a warning) and the viewport's `width` and `height` (100 to 4,096).
   * The content then comes from the rendered page, as with `render: "always"` (and a render
   * that fails is an error); `render: "never"` cannot be combined with it. An image over
   * `screenshotMaxBytes` is captured again at a smaller scale until it fits. HTML pages only:
   * another type gets no screenshot and a warning. Refused with Tavily or a remote endpoint.
   * Cached apart from the same page without a screenshot. @default false
   */
  screenshot?: boolean | ScreenshotOptions;
  /** Cancels the fetch. */
  signal?: AbortSignal;
}

/** What a screenshot shows: the viewport's size, and whether the whole page or the viewport. */
export interface ScreenshotOptions {
  /** The whole page, from the top, up to 10,000 CSS pixels tall. @default false (the viewport) */
  fullPage?: boolean;
  /** Viewport width, CSS pixels, 100 to 4,096. @default 1280 */
  width?: number;
  /** Viewport height, CSS pixels, 100 to 4,096. @default 800 */
  height?: number;
}

/** Where cached pages live: this process, a SQLite file, or a Redis server shared by many. */
export type CacheStoreKind = "memory" | "sqlite" | "redis";

/** Who fetches a page: this process, or Tavily's extract API. */
export type ExtractVia = "fetch" | "tavily";

/**
 * The model that answers `prompt`, fills `schema` and runs `web_fetch_agent`. Its endpoint
 * is operator-configured, so it does not pass the address guard.
 */
export interface LlmSettings {
  provider: LlmProviderId;
  /** @default gpt-5-mini (openai), claude-haiku-4-5 (anthropic); required for openai-compatible */
  model?: string;
  /** API address; required for openai-compatible (Ollama: http://127.0.0.1:11434/v1). @default the provider's */
  baseUrl?: string;
  /** @default OPENAI_API_KEY (openai, openai-compatible), ANTHROPIC_API_KEY (anthropic) */
  apiKey?: string;
  /** Page tokens (o200k) a prompt may send; a longer page is cut to its most relevant chunks. @default 12000 */
  maxInputTokens?: number;
  /** Tokens of one answer. @default 1024 */
  maxOutputTokens?: number;
  /** Deadline of one model call, ms. @default 60000 */
  timeout?: number;
  /** Model calls the fetch sub-agent may make; the last one must answer. @default 8 */
  agentMaxSteps?: number;
  /** Tokens (input + output, all steps) after which the sub-agent must answer. @default 60000 */
  agentMaxTokens?: number;
  /** Total deadline of one sub-agent run, ms. @default 120000 */
  agentTimeout?: number;
  /** Where the API key variables are read. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Resolved model settings: every limit set, model and key chosen. */
export interface ResolvedLlm {
  provider: LlmProviderId;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  timeout: number;
  agentMaxSteps: number;
  agentMaxTokens: number;
  agentTimeout: number;
}

/** Defaults of the model layer. */
export const LLM_DEFAULTS = {
  /** A small model of each hosted provider; an openai-compatible server names its own. */
  models: { openai: "gpt-5-mini", anthropic: "claude-haiku-4-5" } as Partial<
    Record<LlmProviderId, string>
  >,
  /** The variable each provider's key is read from. */
  keyVariables: {
    openai: "OPENAI_API_KEY",
    anthropic: "ANTHROPIC_API_KEY",
    "openai-compatible": "OPENAI_API_KEY",
  } as Record<LlmProviderId, string>,
  maxInputTokens: 12_000,
  maxOutputTokens: 1_024,
  timeout: 60_000,
  agentMaxSteps: 8,
  agentMaxTokens: 60_000,
  agentTimeout: 120_000,
} as const;

/** Options of `web.search()`. */
export interface SearchOptions {
  /** How hard the provider looks (Tavily's `search_depth`; others ignore it). @default "basic" */
  searchDepth?: SearchDepth;
  /** Results wanted, 1 to 20. @default 5 */
  maxResults?: number;
  /** Only results from these domains (subdomains included). @default [] */
  includeDomains?: readonly string[];
  /** No results from these domains (subdomains included). @default [] */
  excludeDomains?: readonly string[];
  /** Only pages from the past day, week, month or year. @default undefined (any time) */
  timeRange?: TimeRange;
  /** Total deadline of the call, ms, retries included. @default the instance's timeout */
  timeout?: number;
  /** Cancels the search. */
  signal?: AbortSignal;
}

/** Options of `web.context()`: the search's, and the token budget. */
export interface ContextOptions extends SearchOptions {
  /** Budget of the whole context string, source list included, in o200k tokens. @default 4000 */
  maxTokens?: number;
}

/**
 * Search providers. Keys and addresses default to the environment variables named;
 * the provider is this one, else the first of tavily, brave, searxng whose variable is set,
 * else duckduckgo.
 */
export interface SearchSettings {
  /** A provider id, or a provider of your own. @default chosen from the keys present */
  provider?: SearchProviderId | SearchProvider;
  /** @default TAVILY_API_KEY */
  tavilyApiKey?: string;
  /** @default TAVILY_BASE_URL, else https://api.tavily.com */
  tavilyBaseUrl?: string;
  /** @default BRAVE_API_KEY */
  braveApiKey?: string;
  /** @default BRAVE_BASE_URL, else https://api.search.brave.com */
  braveBaseUrl?: string;
  /** A self-hosted SearXNG instance. @default SEARXNG_URL */
  searxngUrl?: string;
  /** @default DUCKDUCKGO_BASE_URL, else https://html.duckduckgo.com */
  duckduckgoBaseUrl?: string;
  /** Who fetches the pages of `extract()` (and `web_extract`) by default. @default "fetch" */
  extract?: ExtractVia;
  /** Where the variables above are read. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Options of `web.extract()`: those of a fetch, and progress as each URL finishes. */
export interface ExtractOptions extends Omit<FetchOptions, "startIndex"> {
  /** Called as each URL finishes (the CLI prints progress with it). */
  onProgress?: (progress: ExtractProgress) => void;
}

/** Options of `web.map()`: which of a site's URLs to list, and from where. */
export interface MapOptions {
  /** Links returned at most, 1 to 5,000; `truncated` says when more were found. @default 100 */
  limit?: number;
  /**
   * Rank the links by this query (1 to 1,000 characters): BM25 over the words of each URL and
   * its title, best first; links that share no word with the query are left out.
   * @default undefined (sitemap order, then the start page's order)
   */
  search?: string;
  /**
   * `include`: the site's sitemaps and the start page's links; `only`: the sitemaps alone (the
   * start page is not fetched); `skip`: the start page's links alone. @default "include"
   */
  sitemap?: SitemapMode;
  /**
   * Keep links on every host of the start URL's registrable domain (`docs.example.com` and
   * `blog.example.com` for `example.com`), not only the start URL's own host (with or without
   * `www.`). @default false
   */
  includeSubdomains?: boolean;
  /**
   * Regular expressions on a link's path (`/blog/2026/post`): when any is given, only links whose
   * path matches one are kept. At most 20, each at most 200 characters; a bad or too slow one
   * is `INVALID_INPUT`. @default []
   */
  includePaths?: readonly string[];
  /** Regular expressions on a link's path: links whose path matches one are left out. @default [] */
  excludePaths?: readonly string[];
  /**
   * Total deadline of the map, ms: robots.txt, every sitemap and the start page. What was found
   * when it passes is returned, with a warning. @default the instance's timeout
   */
  timeout?: number;
  /** Cancels the map. */
  signal?: AbortSignal;
}

/** Defaults of a map. */
export const MAP_DEFAULTS = {
  limit: 100,
  sitemap: "include",
  includeSubdomains: false,
} as const satisfies Required<Pick<MapOptions, "limit" | "sitemap" | "includeSubdomains">>;

/** The options of a fetch that a crawl applies to every page it fetches. */
export type CrawlPageOptions = Pick<
  FetchOptions,
  | "format"
  | "extract"
  | "maxLength"
  | "timeout"
  | "maxAge"
  | "cache"
  | "redirects"
  | "maxRedirects"
  | "robots"
  | "headers"
  | "render"
  | "includeSelectors"
  | "excludeSelectors"
  | "links"
  | "images"
>;

/** Options of `web.crawl()`: which pages of a site to fetch, in what order, and how each is read. */
export interface CrawlOptions extends CrawlPageOptions {
  /**
   * Pages fetched at most, 1 to 10,000. A page that failed or turned out a duplicate counts:
   * each cost a request. @default 50
   */
  limit?: number;
  /** Links followed from the start URL at most, 0 to 100 (0: the start page alone). @default 5 */
  maxDepth?: number;
  /**
   * Regular expressions on a link's path (`/blog/2026/post`): when any is given, only links whose
   * path matches one are followed (the start URL is always fetched). At most 20, each at most 200
   * characters; a bad or too slow one is `INVALID_INPUT`. @default []
   */
  includePaths?: readonly string[];
  /** Regular expressions on a link's path: links whose path matches one are not followed. @default [] */
  excludePaths?: readonly string[];
  /**
   * Follow links to every host of the start URL's registrable domain (`docs.example.com` from
   * `example.com`), not only its own host (with or without `www.`). @default false
   */
  allowSubdomains?: boolean;
  /** Follow links to other sites too (still within `maxDepth` and `limit`). @default false */
  allowExternal?: boolean;
  /**
   * Fetch the pages most relevant to this query first (1 to 1,000 characters): links are scored
   * by the query's words in their URL and text and in the page that links to them, so a small
   * `limit` finds the pages that matter. The pages' content is not cut to the query.
   * @default undefined (breadth-first: the shallowest pages first, in the order found)
   */
  query?: string;
  /** Pages fetched at once, 1 to 16 (each origin's own limit applies as well). @default 4 */
  concurrency?: number;
  /** Stops the crawl: pages in flight are abandoned, and the summary says it was cancelled. */
  signal?: AbortSignal;
  /** Called after each page fetched or failed (the CLI draws its progress bar with it). */
  onProgress?: (progress: CrawlProgress) => void;
}

/** Where a crawl stands. */
export interface CrawlProgress {
  /** Pages returned, pages that failed, and URLs waiting to be fetched. */
  pages: number;
  failed: number;
  queued: number;
  /** URLs found and not fetched: robots.txt, filters and traps, duplicates, the limits. */
  skipped: number;
  elapsedMs: number;
}

/** Defaults of a crawl. */
export const CRAWL_DEFAULTS = {
  limit: 50,
  maxDepth: 5,
  allowSubdomains: false,
  allowExternal: false,
  concurrency: 4,
} as const satisfies Required<
  Pick<CrawlOptions, "limit" | "maxDepth" | "allowSubdomains" | "allowExternal" | "concurrency">
>;

/**
 * Defaults of the crawl queue (`webfetch worker`, QueuedCrawls). A job's lock lapses
 * `lockMs` after its worker stopped renewing it (died); workers look for such jobs every
 * `stalledIntervalMs` and run them again, at most `maxStalledCount` times.
 */
export const QUEUE_DEFAULTS = {
  /** Pages one worker process fetches at once. */
  concurrency: 8,
  lockMs: 30_000,
  stalledIntervalMs: 15_000,
  maxStalledCount: 3,
  /** Runs of a job that threw (a bug or a lost server, not a page's failure). */
  attempts: 3,
  /** How long `cancel` waits for the crawl to end before answering, ms. */
  cancelWaitMs: 30_000,
} as const;

/** Bounds of the service's crawl jobs (`/v1/crawl`). */
export const CRAWL_JOB_LIMITS = {
  /** Jobs kept at most, running or ended; the one that ended first makes room for a new one. */
  maxJobs: 100,
  /** How long an ended job stays readable, ms: an hour. */
  keepMs: 60 * 60 * 1000,
  /** Pages one read answers when it asks for no `limit`. */
  pagesPerRead: 10,
  /** Pages one read answers at most. */
  pagesPerReadMax: 100,
} as const;

/** Options of `web.read()`: a window of a page's full content. */
export interface ReadOptions {
  /** Character offset to start from. @default 0 */
  startIndex?: number;
  /** Characters to return; a longer rest is cut with a continuation line. @default maxLength */
  length?: number;
  /** Cancels a fetch that reading may need (when the page is no longer kept). */
  signal?: AbortSignal;
}

/** Options of `web.grep()`. */
export interface GrepOptions {
  /** Lines of context before and after each match, 0 to 10. @default 2 */
  contextLines?: number;
  /** Cancels a fetch that the search may need (when the page is no longer kept). */
  signal?: AbortSignal;
}

/** Options of `createWebFetch()`. */
export interface WebFetchOptions {
  /** User-Agent header (printable ASCII; else `INVALID_INPUT`); robots.txt is matched on its product token. @default "webfetch/<version> (+https://github.com/webfetch/webfetch)" */
  userAgent?: string;
  /** Default total deadline per fetch, milliseconds (remote mode uses `endpointTimeout`). @default 30000 */
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
  /**
   * Directory where the full converted content of every cut page is also written, one file per
   * page (`savedPath` in the result), so an agent with file tools can read or search the rest.
   * A directory that cannot be written costs the file (a warning is logged), never the page.
   * @default undefined (pages are kept in the cache only)
   */
  saveDir?: string;
  /** Cache store, or `false` for none. @default the store `cacheStore` names */
  cache?: CacheStore | false;
  /**
   * The built-in store to use when `cache` is not given: `memory` (an LRU in this process),
   * `sqlite` (one file, persistent: `cachePath`), `redis` (shared by every process and machine
   * that uses `cacheUrl`; per-origin politeness limits are then shared too). @default "memory"
   */
  cacheStore?: CacheStoreKind;
  /** The SQLite file. @default $XDG_CACHE_HOME/webfetch/cache.sqlite, else ~/.cache/webfetch/cache.sqlite */
  cachePath?: string;
  /** The Redis server. @default "redis://127.0.0.1:6379" */
  cacheUrl?: string;
  /** How JavaScript rendering is used, unless a call says otherwise. @default "auto" */
  render?: RenderMode;
  /** Chromium's executable for rendering. @default "/usr/bin/chromium" */
  browserPath?: string;
  /**
   * Bytes of a screenshot's PNG, at most (its base64 is a third longer): a larger capture is
   * taken again at a smaller scale until it fits, so an image never floods a model's context.
   * At least 4,096. @default 1572864 (1.5 MiB)
   */
  screenshotMaxBytes?: number;
  /** Time a cached page stays fresh, seconds. @default 900 */
  cacheTtl?: number;
  /** Size bound of the cache store, bytes. @default 52428800 (50 MiB) */
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
   * connector receives `hostname` set to that address. It also opens the sockets to search
   * providers, whose operator-configured endpoints skip the guard (and get their own name as
   * `hostname`). Tests inject one that records instead of connecting. @default undici's connector
   */
  connect?: buildConnector.connector;
  /**
   * Where the instance logs: one line per fetch, search and context, and one per tool call of
   * the tools and adapters made from it. Any pino-compatible logger, or `false` for none.
   * @default JSON lines on stderr at WEBFETCH_LOG_LEVEL or "info"
   */
  logger?: Logger | false;
  /**
   * Remote mode: base URL of a fetch service that fetches instead of this process,
   * e.g. a webfetch service in an isolated container. Operator-configured, so it skips the
   * address guard; the target URL still passes the URL policy here and the full policy there.
   * Config `tools.web_fetch.api_endpoint`. @default undefined (fetch directly)
   */
  endpoint?: string;
  /**
   * How to talk to `endpoint`: `crawl4ai` posts `{url, f, q, c}` to `/md` (Crawl4AI's
   * protocol; a webfetch service answers it too, without metadata); `webfetch` posts the tool
   * input to `/v1/fetch` and gets the whole result object and typed errors. @default "crawl4ai"
   */
  endpointKind?: EndpointKind;
  /** Bearer token for `endpoint` (a service run with WEBFETCH_API_TOKEN). @default undefined */
  endpointToken?: string;
  /**
   * Default total deadline of a fetch through `endpoint`, ms: the service fetches, converts and
   * may run a model, so it gets longer than a direct fetch. A call's `timeout` overrides it.
   * Config `tools.web_fetch.timeout_seconds`. @default 60000
   */
  endpointTimeout?: number;
  /**
   * The `/md` filter (`f`) a `crawl4ai` endpoint is asked for: `raw`, `fit`, `bm25` or `llm`
   * (`q` is sent as null, so `bm25` and `llm` keep the main content unless the server has an
   * instruction of its own). A call with `extract: "full"` always asks for `raw`.
   * Config `tools.web_fetch.filter`. @default "llm"
   */
  endpointFilter?: EndpointFilter;
  /** Search providers for `search()` and `context()`. @default from the environment (see SearchSettings) */
  search?: SearchSettings;
  /** The model for `prompt`, `schema` and `web_fetch_agent`. @default none: `prompt` returns passages, `schema` is refused */
  llm?: LlmSettings;
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
  saveDir?: string;
  cacheTtl: number;
  cacheMaxBytes: number;
  cacheStore: CacheStoreKind;
  cachePath?: string;
  cacheUrl: string;
  render: RenderMode;
  browserPath: string;
  screenshotMaxBytes: number;
  maxConnectionsPerOrigin: number;
  maxConcurrency: number;
  retries: number;
  /** The configured model, when there is one. */
  llm?: ResolvedLlm;
  /** Remote mode's fetch service, when there is one. */
  endpoint?: {
    url: string;
    kind: EndpointKind;
    token?: string;
    timeout: number;
    filter: EndpointFilter;
  };
}

/** Every default, in one place. */
export const DEFAULTS = {
  userAgent: `webfetch/${VERSION} (+${PROJECT_URL})`,
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
  cacheStore: "memory",
  cacheUrl: "redis://127.0.0.1:6379",
  render: "auto",
  browserPath: "/usr/bin/chromium",
  screenshotMaxBytes: 1_572_864,
  maxConnectionsPerOrigin: 6,
  maxConcurrency: 32,
  retries: 2,
} as const satisfies Omit<ResolvedOptions, "productToken">;

/**
 * Remote mode's defaults: Crawl4AI's `/md`, which every such server speaks, asked for its `llm`
 * filter, with a deadline of 60 s (the service's own fetch, conversion and model come first).
 */
export const ENDPOINT_DEFAULTS = {
  kind: "crawl4ai",
  timeout: 60_000,
  filter: "llm",
} as const satisfies {
  kind: EndpointKind;
  timeout: number;
  filter: EndpointFilter;
};

/** Defaults of search and context. */
export const SEARCH_DEFAULTS = {
  searchDepth: "basic",
  maxResults: 5,
  /** Token budget of a context, source list included. */
  maxTokens: 4_000,
} as const;

/** Defaults of a screenshot: a laptop's viewport, shown as it is (not the whole page). */
export const SCREENSHOT_DEFAULTS = {
  fullPage: false,
  width: 1_280,
  height: 800,
} as const;

/** Defaults of grep over a page's content. */
export const GREP_DEFAULTS = {
  /** Lines of context before and after each match. */
  contextLines: 2,
} as const;

/** Merges user options over DEFAULTS and checks them; programmer errors throw RangeError. */
export function resolveOptions(options: WebFetchOptions = {}): ResolvedOptions {
  const merged = { ...DEFAULTS, ...stripUndefined(options) };
  const resolved: ResolvedOptions = {
    userAgent: checkHeader("user-agent", merged.userAgent, "userAgent"),
    productToken: productToken(merged.userAgent),
    timeout: checkTimeout(positiveInt("timeout", merged.timeout)),
    maxBytes: positiveInt("maxBytes", merged.maxBytes),
    maxRedirects: positiveInt("maxRedirects", merged.maxRedirects, 0),
    redirects: oneOf("redirects", merged.redirects, REDIRECT_POLICIES),
    robots: oneOf("robots", merged.robots, ROBOTS_POLICIES),
    network: oneOf("network", merged.network, ["enabled", "none"]),
    allowPrivateNetwork: merged.allowPrivateNetwork,
    allowAddresses: merged.allowAddresses,
    allowedDomains: merged.allowedDomains.map(normalizeDomain),
    blockedDomains: merged.blockedDomains.map(normalizeDomain),
    maxLength: positiveInt("maxLength", merged.maxLength),
    format: oneOf("format", merged.format, OUTPUT_FORMATS),
    extract: oneOf("extract", merged.extract, EXTRACT_MODES),
    locale: oneOf("locale", merged.locale, LOCALES),
    ...(options.saveDir === undefined ? {} : { saveDir: options.saveDir }),
    cacheTtl: positiveInt("cacheTtl", merged.cacheTtl, 0),
    cacheMaxBytes: positiveInt("cacheMaxBytes", merged.cacheMaxBytes),
    cacheStore: oneOf("cacheStore", merged.cacheStore, ["memory", "sqlite", "redis"]),
    ...(options.cachePath === undefined ? {} : { cachePath: options.cachePath }),
    cacheUrl: merged.cacheUrl,
    render: oneOf("render", merged.render, RENDER_MODES),
    browserPath: merged.browserPath,
    screenshotMaxBytes: positiveInt(
      "screenshotMaxBytes",
      merged.screenshotMaxBytes,
      LIMITS.screenshotMinBytes,
    ),
    maxConnectionsPerOrigin: positiveInt("maxConnectionsPerOrigin", merged.maxConnectionsPerOrigin),
    maxConcurrency: positiveInt("maxConcurrency", merged.maxConcurrency),
    retries: positiveInt("retries", merged.retries, 0),
    ...(options.llm ? { llm: resolveLlm(options.llm) } : {}),
    ...(options.endpoint ? { endpoint: resolveEndpoint(options) } : {}),
  };
  if (resolved.maxRedirects > LIMITS.maxRedirectsCeiling) {
    throw new RangeError(`maxRedirects must be at most ${LIMITS.maxRedirectsCeiling}`);
  }
  return resolved;
}

/** The remote endpoint: an http(s) base URL without a trailing slash. */
function resolveEndpoint(options: WebFetchOptions): NonNullable<ResolvedOptions["endpoint"]> {
  const raw = (options.endpoint ?? "").trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(`endpoint must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RangeError(`endpoint must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  const kind = options.endpointKind ?? ENDPOINT_DEFAULTS.kind;
  if (kind !== "webfetch" && kind !== "crawl4ai") {
    throw new RangeError(`endpointKind must be "webfetch" or "crawl4ai", got ${String(kind)}`);
  }
  return {
    url: raw.replace(/\/+$/, ""),
    kind,
    ...(options.endpointToken
      ? { token: checkHeader("authorization", options.endpointToken, "endpointToken") }
      : {}),
    timeout: checkTimeout(
      positiveInt("endpointTimeout", options.endpointTimeout ?? ENDPOINT_DEFAULTS.timeout),
      "endpointTimeout",
    ),
    filter: oneOf(
      "endpointFilter",
      options.endpointFilter ?? ENDPOINT_DEFAULTS.filter,
      ENDPOINT_FILTERS,
    ),
  };
}

/** Model settings over LLM_DEFAULTS; a missing model or base URL is a RangeError. */
export function resolveLlm(settings: LlmSettings): ResolvedLlm {
  const { provider } = settings;
  if (!LLM_PROVIDER_IDS.includes(provider)) {
    throw new RangeError(
      `llm.provider must be one of ${LLM_PROVIDER_IDS.join(", ")}, got ${provider}`,
    );
  }
  const model = settings.model || LLM_DEFAULTS.models[provider];
  if (!model) throw new RangeError(`llm.model is required for the ${provider} provider`);
  if (provider === "openai-compatible" && !settings.baseUrl) {
    throw new RangeError("llm.base_url is required for the openai-compatible provider");
  }
  const env = settings.env ?? process.env;
  const apiKey = settings.apiKey || env[LLM_DEFAULTS.keyVariables[provider]] || undefined;
  return {
    provider,
    model,
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl.replace(/\/+$/, "") } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...limits(settings),
  };
}

/** The numeric model settings, each a positive integer, over LLM_DEFAULTS. */
const LLM_LIMITS = [
  "maxInputTokens",
  "maxOutputTokens",
  "timeout",
  "agentMaxSteps",
  "agentMaxTokens",
  "agentTimeout",
] as const;

/** The model settings that are deadlines, bounded like every timer. */
const LLM_TIMEOUTS: ReadonlySet<string> = new Set(["timeout", "agentTimeout"]);

function limits(settings: LlmSettings): Pick<ResolvedLlm, (typeof LLM_LIMITS)[number]> {
  return Object.fromEntries(
    LLM_LIMITS.map((key) => {
      const value = positiveInt(`llm.${key}`, settings[key] ?? LLM_DEFAULTS[key]);
      return [key, LLM_TIMEOUTS.has(key) ? checkTimeout(value, `llm.${key}`) : value];
    }),
  ) as Pick<ResolvedLlm, (typeof LLM_LIMITS)[number]>;
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
