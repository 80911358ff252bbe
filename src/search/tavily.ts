/**
 * Tavily (https://docs.tavily.com): `POST {base}/search` with a Bearer key; the request carries
 * search_depth, max_results, include/exclude_domains and time_range as Tavily names them, and
 * each result has its own relevance score. Errors come as `{"detail": {"error": "..."}}`.
 */

import {
  bodyDetail,
  expectOk,
  type ProviderFetch,
  type ProviderResponse,
} from "../endpoint/client.js";
import { WebFetchError } from "../errors.js";
import type { OutputFormat } from "../values.js";
import { isoDate } from "./results.js";
import type { SearchHit, SearchProvider } from "./types.js";

/** Tavily's API address; TAVILY_BASE_URL overrides it. */
export const TAVILY_BASE_URL = "https://api.tavily.com";

/** Usage limits of the plan (432) and of pay-as-you-go (433): no retry soon will help. */
const QUOTA_STATUSES = new Set([432, 433]);

export interface TavilyOptions {
  apiKey: string;
  /** @default "https://api.tavily.com" */
  baseUrl?: string;
}

interface TavilyResult {
  title?: string;
  url?: string;
  content?: string;
  score?: number;
  published_date?: string;
}

/**
 * The Tavily provider.
 *
 * @example
 * createWebFetch({ search: { provider: createTavilyProvider({ apiKey: "tvly-…" }) } });
 */
export function createTavilyProvider(options: TavilyOptions): SearchProvider {
  const base = options.baseUrl ?? TAVILY_BASE_URL;
  return {
    id: "tavily",
    name: "Tavily",
    async search(request, { fetch }) {
      const res = await fetch({
        method: "POST",
        url: endpoint(base, "search"),
        headers: { authorization: `Bearer ${options.apiKey}` },
        json: {
          query: request.query,
          search_depth: request.searchDepth,
          max_results: request.maxResults,
          topic: "general",
          ...(request.includeDomains.length > 0 ? { include_domains: request.includeDomains } : {}),
          ...(request.excludeDomains.length > 0 ? { exclude_domains: request.excludeDomains } : {}),
          ...(request.timeRange ? { time_range: request.timeRange } : {}),
        },
      });
      checkTavily(res);
      const body = res.json<{ results?: TavilyResult[] }>();
      return (body.results ?? []).map(
        (r): SearchHit => ({
          title: r.title ?? "",
          url: r.url ?? "",
          snippet: r.content ?? "",
          ...(typeof r.score === "number" ? { score: r.score } : {}),
          ...isoDate(r.published_date),
        }),
      );
    },
  };
}

/** `{base}/{path}`, keeping a path prefix the base may have (a proxy at /tavily/). */
export function endpoint(base: string, path: string): URL {
  return new URL(path, base.endsWith("/") ? base : `${base}/`);
}

function checkTavily(res: ProviderResponse): void {
  if (res.status >= 200 && res.status < 300) return;
  const detail = tavilyDetail(res.text);
  if (QUOTA_STATUSES.has(res.status)) {
    throw new WebFetchError(
      "RATE_LIMITED",
      `Tavily usage limit reached (${res.status}): ${detail}`,
      {
        status: res.status,
        retryable: false,
      },
    );
  }
  expectOk("Tavily", res, detail);
}

/** Tavily's error text: `detail.error`, `detail` as a string, else the body itself. */
function tavilyDetail(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { detail?: { error?: unknown } | string };
    if (typeof body.detail === "string") return body.detail;
    if (typeof body.detail?.error === "string") return body.detail.error;
  } catch {
    // Not JSON: the body as it is.
  }
  return bodyDetail(text);
}

/** What Tavily's extract endpoint gave for one URL. */
export interface TavilyPage {
  url: string;
  content: string;
}

/**
 * One page through Tavily's extract API (`POST {base}/extract`), as Markdown or plain text.
 * A URL Tavily could not read is PROVIDER_ERROR naming Tavily's reason.
 *
 * @example
 * const page = await tavilyExtract("https://example.com/", "markdown", { apiKey, fetch });
 */
export async function tavilyExtract(
  url: string,
  format: OutputFormat,
  options: TavilyOptions & { fetch: ProviderFetch },
): Promise<TavilyPage> {
  const res = await options.fetch({
    method: "POST",
    url: endpoint(options.baseUrl ?? TAVILY_BASE_URL, "extract"),
    headers: { authorization: `Bearer ${options.apiKey}` },
    json: { urls: [url], format, extract_depth: "basic" },
  });
  checkTavily(res);
  const body = res.json<{
    results?: { url?: string; raw_content?: string }[];
    failed_results?: { url?: string; error?: string }[];
  }>();
  const found = body.results?.find((r) => typeof r.raw_content === "string");
  if (!found) {
    const reason = body.failed_results?.[0]?.error ?? "no content returned";
    throw new WebFetchError("PROVIDER_ERROR", `Tavily could not extract ${url}: ${reason}`, {
      retryable: false,
      provider: "Tavily",
    });
  }
  return { url: found.url || url, content: found.raw_content ?? "" };
}
