/**
 * createWebFetch(): the library entry point, wiring over rooms with one job each. Resources
 * holds what lives as long as the instance (cache, fetcher, limits, threads, browser, model);
 * the loader turns a URL and a call into a converted page (cache, revalidation, single-flight)
 * from one of the page sources (direct with rendering, a remote fetch service, Tavily); pages
 * saves, reads and greps what was loaded; prompt answers and search with its context build on
 * the loader. The cut follows the data: each room takes what it needs from the ones before it,
 * so none reaches back and every method here is a line or two of wiring.
 */
import type { ContextResult } from "../context/build.js";
import { LIMITS } from "../limits.js";
import type { ChatModel } from "../llm/model.js";
import type { Logger } from "../log.js";
import type {
  ContextOptions,
  CrawlOptions,
  ExtractOptions,
  FetchOptions,
  GrepOptions,
  MapOptions,
  ReadOptions,
  ResolvedOptions,
  SearchOptions,
  WebFetchOptions,
} from "../options.js";
import { type ExtractResult, extractMany } from "../pages/extract.js";
import type { FetchResult, GrepResult, KeptPageInfo, MapResult } from "../result.js";
import type { SearchResponse } from "../search/types.js";
import { checkCall, resolveCall } from "./call.js";
import { type CrawlRun, SiteCrawler } from "./crawl.js";
import type { PageFetch } from "./crawl-visit.js";
import { PageLoader } from "./loader.js";
import { SiteMapper } from "./map.js";
import { Pages } from "./pages.js";
import { PromptAnswers } from "./prompt.js";
import { Resources, type SharedCounters } from "./resources.js";
import { Search } from "./search.js";
import { withoutSecrets } from "./secrets.js";
import { StructuredData } from "./structured.js";
import { toResult } from "./to-result.js";

export interface WebFetch {
  /** Fetches one URL: its main content as Markdown (or text) with metadata. Throws WebFetchError. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /**
   * Fetches many URLs concurrently: duplicates merged, invalid URLs and failed fetches listed in
   * `failed` (never thrown), both lists in input order.
   *
   * @example
   * const { results, failed } = await web.extract(["https://a.example", "https://b.example"]);
   */
  extract(urls: readonly string[], options?: ExtractOptions): Promise<ExtractResult>;
  /**
   * A window of a page's full content, by the `id` of an earlier result or by URL (fetched if
   * it is not kept). Same result object as `fetch`.
   *
   * @example
   * const more = await web.read(page.id, { startIndex: page.nextStartIndex, length: 20_000 });
   */
  read(ref: string, options?: ReadOptions): Promise<FetchResult>;
  /**
   * The lines of a page's full content that match `pattern` (a regular expression, or literal
   * text when it is not a valid one), with line numbers and context.
   *
   * @example
   * const { matches } = await web.grep(page.id, "install(ation)?", { contextLines: 1 });
   */
  grep(ref: string, pattern: string, options?: GrepOptions): Promise<GrepResult>;
  /**
   * The pages this instance keeps (each one's `id` reaches its full content through `read` and
   * `grep`), the most recently fetched or read first.
   *
   * @example
   * const [latest] = web.pages({ limit: 1 });
   */
  pages(options?: { limit?: number }): KeptPageInfo[];
  /**
   * Searches the web through the configured provider. Throws WebFetchError: `INVALID_INPUT`
   * naming the field, `AUTH_ERROR`, `RATE_LIMITED` (after retries), `PROVIDER_ERROR`.
   *
   * @example
   * const { results } = await web.search("node 20 release date", { maxResults: 3 });
   */
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /**
   * A cited context for retrieval-augmented generation: search, fetch the top results, keep
   * their passages most relevant to the query within `maxTokens` (source list included).
   *
   * @example
   * const { context, sources } = await web.context("what is BM25", { maxTokens: 2000 });
   */
  context(query: string, options?: ContextOptions): Promise<ContextResult>;
  /**
   * A site's URLs, without reading its pages: from its sitemaps (found through robots.txt and the
   * usual paths) and the start page's links, normalized, each once, on the site and allowed by
   * robots.txt. `search` ranks them by a query. Throws WebFetchError when nothing could be read
   * (the start page's error); a source that failed beside others is named in `warnings`.
   *
   * @example
   * const { links } = await web.map("https://example.com", { search: "pricing", limit: 10 });
   */
  map(url: string, options?: MapOptions): Promise<MapResult>;
  /**
   * Crawls a site from `url`: its pages as they are fetched (breadth-first, or the most relevant
   * to `query` first), each a fetch's result with its `depth` and `parent`, then a summary of
   * what failed and what was skipped. robots.txt and its `Crawl-delay` are honoured, each URL is
   * fetched once and each page returned once, and traps (endless calendars, ever-deeper paths)
   * are bounded. Throws at once for bad options; the iteration throws when the start page fails.
   *
   * @example
   * const run = web.crawl("https://example.com/docs", { limit: 20 });
   * for await (const page of run) console.log(page.depth, page.url, page.title);
   * const { pages, failed, skipped } = await run.summary;
   */
  crawl(url: string, options?: CrawlOptions): CrawlRun;
  /**
   * The configured model (`llm`), made on first use; undefined when none is configured.
   * Throws WebFetchError (AUTH_ERROR) when a hosted provider has no API key.
   */
  model(): Promise<ChatModel | undefined>;
  /** The resolved instance options. */
  readonly options: Readonly<ResolvedOptions>;
  /** Where the instance logs (the `logger` option); tools made from it log there too. */
  readonly logger: Logger;
  /** Closes pooled connections and the cache store. */
  close(): Promise<void>;
}

/**
 * Creates a webfetch instance.
 *
 * @example
 * const web = createWebFetch();
 * const page = await web.fetch("https://example.com");
 * console.log(page.title, page.content);
 */
export function createWebFetch(options: WebFetchOptions = {}): WebFetch {
  return createWebFetchWith(options);
}

/** What the library's own machinery (a crawl worker) reaches inside an instance. */
export interface WebFetchInternals {
  resources: Resources;
  /** The instance's `fetch`. */
  fetchPage: PageFetch;
}

const internals = new WeakMap<WebFetch, WebFetchInternals>();

/** The insides of an instance made by createWebFetch; undefined for anything else. Internal. */
export function webFetchInternals(web: unknown): WebFetchInternals | undefined {
  return typeof web === "object" && web !== null ? internals.get(web as WebFetch) : undefined;
}

/** createWebFetch with counters shared with other processes (a crawl worker's). Internal. */
export function createWebFetchWith(
  options: WebFetchOptions,
  shared: SharedCounters = {},
): WebFetch {
  const resources = new Resources(options, shared);
  const { resolved, logger } = resources;
  const loader = new PageLoader(resources);
  const pages = new Pages(resources, loader);
  const answers = new PromptAnswers(resources, loader, pages);
  const search = new Search(resources, loader);
  const structured = new StructuredData(resources, loader, pages);
  const mapper = new SiteMapper(resources, loader);

  async function fetchPage(url: string, given: FetchOptions = {}): Promise<FetchResult> {
    checkCall(given);
    const call = resolveCall(resolved, given);
    // A page this process converts needs a thread: one starts now, while the page downloads.
    if (!call.viaTavily && !resolved.endpoint) resources.converter.warm();
    if (call.schema) return structured.fetch(url, call, call.schema);
    if (call.prompt !== undefined) return answers.answer(url, call, call.prompt.trim());
    return loader.withPage(url, call, (loaded, started) => {
      const { page, cached, kept, timings } = loaded;
      const ms = performance.now() - started;
      const how = { id: kept.id, cached, ms, locale: resolved.locale, phases: timings };
      return pages.saveIfCut(toResult(page, call, how), loaded);
    });
  }

  const crawler = new SiteCrawler(resources, fetchPage);

  const web: WebFetch = {
    fetch: fetchPage,
    async extract(urls, extractOptions = {}) {
      if (!Array.isArray(urls) || urls.length === 0) {
        throw new RangeError("urls must be a non-empty array of URLs");
      }
      const { onProgress, ...own } = extractOptions;
      const via = own.via ?? resources.searchSettings?.extract;
      const call: FetchOptions = via ? { ...own, via } : own;
      checkCall(call);
      return extractMany(urls, {
        fetch: (url) => fetchPage(url, call),
        onInsecure: (url) => logger.warn({ url }, "plain http: the page travels unencrypted"),
        ...(onProgress ? { onProgress } : {}),
      });
    },
    read: (ref, readOptions) => pages.read(ref, readOptions),
    grep: (ref, pattern, grepOptions) => pages.grep(ref, pattern, grepOptions),
    pages: (listOptions = {}) => pages.list(listOptions.limit ?? LIMITS.keptPages),
    search: (query, searchOptions) => search.search(query, searchOptions),
    context: (query, contextOptions) => search.context(query, contextOptions),
    map: (url, mapOptions) => mapper.map(url, mapOptions),
    crawl: (url, crawlOptions) => crawler.crawl(url, crawlOptions),
    model: () => resources.model(),
    options: withoutSecrets(resolved),
    logger,
    close: () => resources.close(),
  };
  internals.set(web, { resources, fetchPage });
  return web;
}
