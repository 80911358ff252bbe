/**
 * webfetch: safe, fast and faithful web access for LLM agents. The public API, listed by hand.
 */

export { MemoryStore } from "./cache/memory.js";
export type { CachedPage, CacheEntry, CacheStore } from "./cache/store.js";
export type { LoadConfigOptions } from "./config/load.js";
export { loadConfig, optionsFromConfig, toolsOptionsFromConfig } from "./config/load.js";
export type { WebFetchConfig } from "./config/schema.js";
export type { ContextResult, ContextSource } from "./context/build.js";
export type { ConvertedDocument, ConvertHtmlOptions } from "./convert/html.js";
export { convertHtml } from "./convert/html.js";
export type { ProviderFetch, ProviderRequest, ProviderResponse } from "./endpoint/client.js";
export type { ErrorCode } from "./errors.js";
export { ERROR_CODES, isWebFetchError, WebFetchError } from "./errors.js";
export type { PageMetadata } from "./extract/metadata.js";
export type { AgentAnswer } from "./llm/agent.js";
export type { Filtered, LlmFilterOptions } from "./llm/filter.js";
export { llmFilter } from "./llm/filter.js";
export type { Usage } from "./llm/generate.js";
export type { ChatModel } from "./llm/model.js";
export type { DataSchema, JsonSchemaObject } from "./llm/schema.js";
export type { Logger } from "./log.js";
export { silentLogger } from "./log.js";
export type { LookupFn } from "./net/guard.js";
export type {
  ContextOptions,
  CrawlOptions,
  CrawlPageOptions,
  CrawlProgress,
  ExtractOptions,
  FetchOptions,
  GrepOptions,
  LlmSettings,
  MapOptions,
  ReadOptions,
  ScreenshotOptions,
  SearchOptions,
  SearchSettings,
  WebFetchOptions,
} from "./options.js";
export {
  CRAWL_DEFAULTS,
  DEFAULTS,
  GREP_DEFAULTS,
  LLM_DEFAULTS,
  MAP_DEFAULTS,
  SCREENSHOT_DEFAULTS,
  SEARCH_DEFAULTS,
} from "./options.js";
export type { ExtractFailure, ExtractProgress, ExtractResult } from "./pages/extract.js";
export type {
  CrawlFailure,
  CrawlPage,
  CrawlSummary,
  FetchResult,
  GrepResult,
  KeptPageInfo,
  MapLink,
  MapResult,
  Screenshot,
  Timings,
} from "./result.js";
export type { BraveOptions } from "./search/brave.js";
export { createBraveProvider } from "./search/brave.js";
export type { DuckDuckGoOptions } from "./search/duckduckgo.js";
export { createDuckDuckGoProvider } from "./search/duckduckgo.js";
export type { SearxngOptions } from "./search/searxng.js";
export { createSearxngProvider } from "./search/searxng.js";
export type { TavilyOptions } from "./search/tavily.js";
export { createTavilyProvider } from "./search/tavily.js";
export type {
  ProviderContext,
  SearchHit,
  SearchProvider,
  SearchProviderId,
  SearchRequest,
  SearchResponse,
  SearchResult,
} from "./search/types.js";
export { SEARCH_PROVIDER_IDS } from "./search/types.js";
export { filterPage } from "./server/md.js";
export type { ServerLimits } from "./server/options.js";
export { SERVER_DEFAULTS } from "./server/options.js";
export type { GrepMatch } from "./shape/grep.js";
export type { JsonSchema, McpToolSchema } from "./tools/json-schema.js";
export { inputJsonSchema, mcpToolSchema, toJsonSchema } from "./tools/json-schema.js";
export type { ToolOptions, ToolsOptions } from "./tools/options.js";
export { TOOL_DEFAULTS } from "./tools/options.js";
export type { CreateToolsOptions } from "./tools/registry.js";
export { createTools } from "./tools/registry.js";
export type { Texts } from "./tools/texts.js";
export type {
  PageRest,
  Tool,
  ToolAnnotations,
  ToolBudget,
  ToolCallOptions,
  ToolEnv,
  ToolOutput,
  ToolProgress,
  ToolResult,
  ToolSpec,
} from "./tools/types.js";
export { defineTool } from "./tools/types.js";
export { SPANS } from "./trace.js";
export type {
  EndpointFilter,
  EndpointKind,
  ExtractMode,
  LlmProviderId,
  Locale,
  NetworkMode,
  OutputFormat,
  RedirectPolicy,
  RobotsPolicy,
  SearchDepth,
  SitemapMode,
  TimeRange,
  ToolId,
} from "./values.js";
export { LLM_PROVIDER_IDS, SITEMAP_MODES, TOOL_IDS } from "./values.js";
export { VERSION } from "./version.js";
export type { CrawlRun } from "./webfetch/crawl.js";
export type { WebFetch } from "./webfetch/index.js";
export { createWebFetch } from "./webfetch/index.js";
