/**
 * Brave Search API (https://api-dashboard.search.brave.com/app/documentation/web-search):
 * `GET {base}/res/v1/web/search?q=…&count=…` with the key in `X-Subscription-Token`. Brave has
 * no domain parameters: `site:` / `-site:` operators go into the query (and the results are
 * filtered again afterwards). Brave gives no score; the rank does. An invalid key is a 422
 * with `error.code` SUBSCRIPTION_TOKEN_INVALID, which is an AUTH_ERROR here.
 */

import { bodyDetail, expectOk, type ProviderResponse } from "../endpoint/client.js";
import { WebFetchError } from "../errors.js";
import type { TimeRange } from "../values.js";
import { isoDate, queryWithSites } from "./results.js";
import { endpoint } from "./tavily.js";
import type { SearchHit, SearchProvider } from "./types.js";

/** Brave's API address; BRAVE_BASE_URL overrides it. */
export const BRAVE_BASE_URL = "https://api.search.brave.com";

/** Brave's `freshness`: past day, week, month, year. */
const FRESHNESS: Record<TimeRange, string> = { day: "pd", week: "pw", month: "pm", year: "py" };

export interface BraveOptions {
  apiKey: string;
  /** @default "https://api.search.brave.com" */
  baseUrl?: string;
}

interface BraveResult {
  title?: string;
  url?: string;
  description?: string;
  page_age?: string;
}

interface BraveError {
  error?: { code?: string; detail?: string };
}

/**
 * The Brave Search provider.
 *
 * @example
 * createWebFetch({ search: { provider: createBraveProvider({ apiKey: "BSA…" }) } });
 */
export function createBraveProvider(options: BraveOptions): SearchProvider {
  const base = options.baseUrl ?? BRAVE_BASE_URL;
  return {
    id: "brave",
    name: "Brave Search",
    async search(request, { fetch }) {
      const url = endpoint(base, "res/v1/web/search");
      url.searchParams.set("q", queryWithSites(request, { anyOf: true }));
      url.searchParams.set("count", String(request.maxResults));
      url.searchParams.set("result_filter", "web");
      if (request.timeRange) url.searchParams.set("freshness", FRESHNESS[request.timeRange]);
      const res = await fetch({
        url,
        headers: { accept: "application/json", "x-subscription-token": options.apiKey },
      });
      checkBrave(res);
      const body = res.json<{ web?: { results?: BraveResult[] } }>();
      return (body.web?.results ?? []).map(
        (r): SearchHit => ({
          // Brave marks the query's words with <strong>: the model reads plain text.
          title: stripTags(r.title ?? ""),
          url: r.url ?? "",
          snippet: stripTags(r.description ?? ""),
          ...isoDate(r.page_age),
        }),
      );
    },
  };
}

function checkBrave(res: ProviderResponse): void {
  if (res.status >= 200 && res.status < 300) return;
  let error: BraveError["error"];
  try {
    error = (JSON.parse(res.text) as BraveError).error;
  } catch {
    error = undefined;
  }
  const detail = error?.detail ?? bodyDetail(res.text);
  if (error?.code === "SUBSCRIPTION_TOKEN_INVALID" || error?.code === "SUBSCRIPTION_NOT_FOUND") {
    throw new WebFetchError(
      "AUTH_ERROR",
      `Brave Search refused the API key (${res.status}): ${detail}`,
      {
        status: res.status,
        retryable: false,
      },
    );
  }
  expectOk("Brave Search", res, detail);
}

function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
