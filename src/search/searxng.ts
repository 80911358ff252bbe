/**
 * SearXNG (https://docs.searxng.org/dev/search_api.html): a self-hosted metasearch engine.
 * `GET {SEARXNG_URL}/search?q=…&format=json`; JSON output must be enabled in the instance's
 * `search.formats`, else it answers 403. No key, no domain parameters (`site:` goes into the
 * query); its scores are not bounded, so they are scaled to the best result's.
 */

import { bodyDetail, expectOk } from "../endpoint/client.js";
import { WebFetchError } from "../errors.js";
import { isoDate, queryWithSites } from "./results.js";
import { endpoint } from "./tavily.js";
import type { SearchHit, SearchProvider } from "./types.js";

export interface SearxngOptions {
  /** The instance's address (SEARXNG_URL), e.g. "http://127.0.0.1:8888". */
  baseUrl: string;
}

interface SearxngResult {
  title?: string;
  url?: string;
  content?: string;
  score?: number;
  publishedDate?: string | null;
}

/**
 * The SearXNG provider.
 *
 * @example
 * createWebFetch({ search: { provider: createSearxngProvider({ baseUrl: "http://127.0.0.1:8888" }) } });
 */
export function createSearxngProvider(options: SearxngOptions): SearchProvider {
  return {
    id: "searxng",
    name: "SearXNG",
    async search(request, { fetch }) {
      const url = endpoint(options.baseUrl, "search");
      url.searchParams.set("q", queryWithSites(request));
      url.searchParams.set("format", "json");
      url.searchParams.set("pageno", "1");
      if (request.timeRange) url.searchParams.set("time_range", request.timeRange);
      const res = await fetch({ url, headers: { accept: "application/json" } });
      if (res.status === 403) {
        throw new WebFetchError(
          "PROVIDER_ERROR",
          "SearXNG refused format=json (403): enable json in search.formats of its settings.yml",
          { status: 403, retryable: false },
        );
      }
      expectOk("SearXNG", res, bodyDetail(res.text));
      const body = res.json<{ results?: SearxngResult[] }>();
      const results = body.results ?? [];
      const best = Math.max(0, ...results.map((r) => (typeof r.score === "number" ? r.score : 0)));
      return results.map(
        (r): SearchHit => ({
          title: r.title ?? "",
          url: r.url ?? "",
          snippet: r.content ?? "",
          ...(typeof r.score === "number" && best > 0 ? { score: r.score / best } : {}),
          ...isoDate(r.publishedDate),
        }),
      );
    },
  };
}
