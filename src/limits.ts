/**
 * Hard limits no caller or configuration can raise. A leaf module: everything may import it,
 * and it imports nothing.
 */

/** Hard limits a caller cannot raise, each a guard against a misconfiguration. */
export const LIMITS = {
  /** Longest URL accepted: longer ones are refused before any request. */
  maxUrlLength: 2048,
  /** robots.txt bodies beyond this are ignored (RFC 9309 asks for at least 500 KiB). */
  maxRobotsBytes: 500 * 1024,
  /** Redirect hops, whatever the configuration says. */
  maxRedirectsCeiling: 20,
  /**
   * Redirects followed to reach robots.txt, whatever a page's own limit: RFC 9309 asks crawlers
   * to follow at least five.
   */
  robotsMaxRedirects: 5,
  /** Longest deadline, ms (about 24.8 days): Node's timers cannot wait longer. */
  maxTimeout: 2_147_483_647,
  /** Longest Retry-After worth waiting for, milliseconds. */
  maxRetryAfter: 5_000,
  /**
   * Conversion threads: pages convert in parallel up to this, off the event loop. Plain text is
   * the exception, see inlineTextBytes.
   */
  convertThreads: 2,
  /**
   * Plain text (text, Markdown, CSV) up to this many bytes converts on the event loop: its
   * conversion is one linear pass, cheaper than the hand-off to a thread and back.
   */
  inlineTextBytes: 1_048_576,
  /** Heap of one conversion thread, MiB: a page that needs more fails with TOO_LARGE. */
  convertHeapMb: 256,
  /** Pages whose id (for read and grep) an instance remembers; the oldest are forgotten first. */
  keptPages: 1_000,
  /** Characters of a search query or a `query`. */
  queryMaxLength: 1_000,
  /** Results of one search. */
  searchMaxResults: 20,
  /** Domains in include_domains or exclude_domains. */
  searchMaxDomains: 100,
  /** URLs in one web_extract call. */
  extractMaxUrls: 20,
  /** Largest window a tool may ask for: a model's context is the real limit. */
  toolMaxLength: 100_000,
  /**
   * Smallest token budget of one MCP tool result: below it a page's fixed fields (URL, title,
   * metadata) leave no room for content.
   */
  minResultTokens: 1_000,
  /** Pages `resources/list` names, the most recently used first. */
  listedPages: 100,
  /** Longest line `webfetch mcp` reads from stdin, bytes (the MCP SDK's own bound). */
  mcpMaxLineBytes: 10 * 1024 * 1024,
  /** Longest grep pattern: longer ones are refused before any matching. */
  grepMaxPattern: 500,
  /** Matching lines reported by one grep; the rest are counted, not listed. */
  grepMaxMatches: 100,
  /** Context lines around a grep match, at most. */
  grepMaxContext: 10,
  /** Time one grep may take, ms: a catastrophic regular expression is stopped by it. */
  grepTimeBudgetMs: 1_000,
  /** Characters of one line shown in grep output; longer lines are clipped around the match. */
  grepLineChars: 400,
  /** Characters of a `prompt` (and of a web_fetch_agent task). */
  promptMaxLength: 4_000,
  /** Pages rendered in the browser at once per instance; each is a Chromium tab. */
  maxRenders: 4,
  /**
   * How long a store keeps an entry that carries validators (ETag, Last-Modified) past its
   * freshness, seconds: a stale entry is revalidated with a conditional request, and a 304
   * refreshes it without a new download or conversion.
   */
  revalidateWindow: 7 * 24 * 3600,
  /** CSS selectors in each of a call's `includeSelectors` and `excludeSelectors`. */
  maxSelectors: 20,
  /** Characters of one CSS selector. */
  selectorMaxLength: 500,
  /** Characters of a `schema` serialized as JSON: a larger one is refused before any fetch. */
  schemaMaxLength: 20_000,
  /** Smallest width or height of a screenshot's viewport, CSS pixels. */
  screenshotMinSide: 100,
  /** Largest width or height of a screenshot's viewport, CSS pixels. */
  screenshotMaxSide: 4_096,
  /**
   * Height of a full-page screenshot, CSS pixels, at most: a taller page is shown from its top
   * to this height (and a warning says so), so an endless page cannot make an endless image.
   */
  screenshotMaxPageHeight: 10_000,
  /** Smallest byte cap of a screenshot: below it even a thumbnail may not fit. */
  screenshotMinBytes: 4_096,
  /** Captures of one screenshot, each at a smaller scale, before giving up on the byte cap. */
  screenshotCaptures: 6,
  /** Links one map returns at most (its `limit`). */
  mapMaxLinks: 5_000,
  /**
   * URLs a map gathers at most from all its sources before filtering: the rest are not read (a
   * warning says so), so a site with millions of URLs costs bounded memory.
   */
  mapMaxCandidates: 100_000,
  /** Hosts whose robots.txt one map consults; links on further hosts are left out. */
  mapMaxRobotsHosts: 20,
  /** Decoded bytes of one sitemap (a gzip one counts its inflated size): a larger one is skipped. */
  sitemapMaxBytes: 10 * 1024 * 1024,
  /** URLs read from one sitemap, the sitemaps protocol's own maximum; the rest are ignored. */
  sitemapMaxUrls: 50_000,
  /** Sitemap files one map reads, indexes included. */
  sitemapMaxFiles: 50,
  /** Sitemap indexes nested below the first one: deeper ones are not read. */
  sitemapMaxDepth: 3,
  /** Sitemaps fetched at once by one map. */
  sitemapConcurrency: 4,
  /** Patterns in each of `includePaths` and `excludePaths`. */
  pathPatternsMax: 20,
  /** Characters of one path pattern: a longer one is refused before any fetch. */
  pathPatternMaxLength: 200,
  /** Time the path patterns may take over all of one map's URLs, ms: a catastrophic one is stopped. */
  pathFilterTimeBudgetMs: 1_000,
  /** Pages one crawl fetches at most (its `limit`). */
  crawlMaxPages: 10_000,
  /** Pages one web_crawl call fetches at most: every one goes into one tool result. */
  toolCrawlMaxPages: 100,
  /** Links followed from the start URL at most (a crawl's `maxDepth`). */
  crawlMaxDepth: 100,
  /** Pages one crawl fetches at once at most (its `concurrency`). */
  crawlMaxConcurrency: 16,
  /** URLs one crawl holds waiting at most; links found beyond it are skipped (`limit`). */
  crawlMaxFrontier: 100_000,
  /** Crawled pages held for a consumer that has not read them; the crawl waits beyond it. */
  crawlBuffer: 16,
  /** Path segments of a URL a crawl follows; a deeper path is a trap. */
  crawlMaxPathSegments: 20,
  /** Times one segment may occur in a path a crawl follows (`/a/x/x/x/` is a trap). */
  crawlMaxSegmentRepeats: 2,
  /**
   * Links in a row, each from a page to a URL of the same shape (numbers blanked), that a crawl
   * follows: an endless calendar or counter stops here, a site's pagination rarely reaches it.
   */
  crawlMaxShapeChain: 8,
  /** Query strings a crawl follows on one path (faceted search makes them without end). */
  crawlMaxQueriesPerPath: 20,
  /**
   * Longest robots.txt `Crawl-delay` a crawl waits between requests to an origin, ms; a longer
   * one is waited this long, with a warning.
   */
  crawlMaxDelayMs: 30_000,
} as const;
