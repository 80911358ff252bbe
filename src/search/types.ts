/**
 * One interface every search provider implements, and the shapes that cross it. A
 * provider turns a validated request into hits; choosing the provider, validating input,
 * filtering domains, scoring by rank and timing live around it, once, for all of them.
 */

import type { ProviderFetch } from "../endpoint/client.js";
import type { SearchDepth, TimeRange } from "../values.js";

/** The built-in providers, by id. */
export const SEARCH_PROVIDER_IDS = ["tavily", "brave", "searxng", "duckduckgo"] as const;
export type SearchProviderId = (typeof SEARCH_PROVIDER_IDS)[number];

/** One search result: the same fields whichever provider answered. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  /** Relevance from 0 to 1: the provider's own, else derived from the rank (1 for the first). */
  score: number;
  /** ISO 8601, when the provider knows when the page was published. */
  publishedAt?: string;
}

/** What `web.search()` returns. */
export interface SearchResponse {
  query: string;
  /** The provider that answered (`tavily`, `brave`, `searxng`, `duckduckgo` or a custom id). */
  provider: string;
  results: SearchResult[];
  timings: { totalMs: number };
}

/** A validated search, as a provider receives it. */
export interface SearchRequest {
  query: string;
  searchDepth: SearchDepth;
  /** 1 to 20. */
  maxResults: number;
  /** Only results from these domains (subdomains included); empty: any. */
  includeDomains: readonly string[];
  /** No results from these domains (subdomains included). */
  excludeDomains: readonly string[];
  timeRange?: TimeRange;
}

/** A result as a provider reports it; `score` may be missing (then the rank gives one). */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  score?: number;
  publishedAt?: string;
}

/** What a provider gets to do its work with. */
export interface ProviderContext {
  /** HTTP to the provider's endpoint: inside the call's deadline, rate limits retried. */
  fetch: ProviderFetch;
  /** Aborted when the call's deadline passes or the caller cancels. */
  signal: AbortSignal;
}

/**
 * A search provider. Implement it to plug in another engine (`search: { provider }` in the
 * options); throw WebFetchErrors with `AUTH_ERROR`, `RATE_LIMITED` or `PROVIDER_ERROR`.
 *
 * @example
 * const mine: SearchProvider = {
 *   id: "mine", name: "Mine",
 *   async search(request, { fetch }) {
 *     const res = await fetch({ url: new URL(`https://search.example/?q=${encodeURIComponent(request.query)}`) });
 *     return res.json<{ items: SearchHit[] }>().items;
 *   },
 * };
 */
export interface SearchProvider {
  /** Stable id, reported in results and logs. */
  readonly id: string;
  /** Name for messages ("Tavily"). */
  readonly name: string;
  search(request: SearchRequest, context: ProviderContext): Promise<SearchHit[]>;
}
