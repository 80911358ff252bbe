/**
 * The values of each enumerated option, one `const` array behind each union type: validation,
 * the CLI's choices and the types all read them here. A leaf module: it imports nothing.
 */

/**
 * Output format of a page's content: Markdown, plain text, the same content as clean HTML, or the
 * document as served (decoded, not extracted).
 */
export const OUTPUT_FORMATS = ["markdown", "text", "html", "raw"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `main`: the main content only; `full`: the whole page. */
export const EXTRACT_MODES = ["main", "full"] as const;
export type ExtractMode = (typeof EXTRACT_MODES)[number];

/** Which redirects are followed. */
export const REDIRECT_POLICIES = ["follow", "same-host", "same-site"] as const;
export type RedirectPolicy = (typeof REDIRECT_POLICIES)[number];

/** Whether robots.txt is obeyed. */
export const ROBOTS_POLICIES = ["respect", "ignore"] as const;
export type RobotsPolicy = (typeof ROBOTS_POLICIES)[number];

/** Whether the instance may reach the network at all. */
export const NETWORK_MODES = ["enabled", "none"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** Media types of HTML pages: what a browser renders, and what is extracted as a page. */
export const HTML_MEDIA_TYPES: ReadonlySet<string> = new Set([
  "text/html",
  "application/xhtml+xml",
]);

/** Languages of the surfaces' own lines. */
export const LOCALES = ["en", "ja"] as const;
export type Locale = (typeof LOCALES)[number];

/** When a page is rendered in a browser. */
export const RENDER_MODES = ["never", "auto", "always"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** What speaks at a remote `endpoint`: a webfetch service, or any Crawl4AI-compatible `/md`. */
export const ENDPOINT_KINDS = ["webfetch", "crawl4ai"] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** The Crawl4AI `/md` filters (`f`): the whole page, main content, chunks matching `q`, a model's pick. */
export const ENDPOINT_FILTERS = ["raw", "fit", "bm25", "llm"] as const;
export type EndpointFilter = (typeof ENDPOINT_FILTERS)[number];

/** How deep a search provider looks. */
export const SEARCH_DEPTHS = ["basic", "advanced"] as const;
export type SearchDepth = (typeof SEARCH_DEPTHS)[number];

/** How recent search results must be. */
export const TIME_RANGES = ["day", "week", "month", "year"] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/**
 * Where a map takes its URLs: the site's sitemaps and the start page's links (`include`), the
 * sitemaps alone (`only`), or the start page alone (`skip`).
 */
export const SITEMAP_MODES = ["include", "only", "skip"] as const;
export type SitemapMode = (typeof SITEMAP_MODES)[number];

/** Model providers: one provider layer, on the AI SDK. */
export const LLM_PROVIDER_IDS = ["openai", "anthropic", "openai-compatible"] as const;
export type LlmProviderId = (typeof LLM_PROVIDER_IDS)[number];

/**
 * Every agent-facing tool, by its canonical name. Tools of later work are listed here already,
 * so their configuration keys are known (and checked) before they land.
 */
export const TOOL_IDS = [
  "web_fetch",
  "web_extract",
  "web_search",
  "web_context",
  "web_read",
  "web_grep",
  "web_fetch_agent",
  "web_fetch_structured",
  "web_map",
  "web_crawl",
] as const;
export type ToolId = (typeof TOOL_IDS)[number];
