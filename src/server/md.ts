/**
 * `POST /md`, Crawl4AI's contract, so its existing clients work unchanged: `{url, f, q, c}` in,
 * `{url, filter, query, cache, markdown, success}` out, each echoed as Crawl4AI echoes it
 * (`"query": null` when no `q` was sent, `cache` as sent, default "0").
 */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { filterPage, llmFilter, wholePage } from "../llm/filter.js";
import type { FetchOptions } from "../options.js";
import type { WebFetch } from "../webfetch.js";

/** Crawl4AI's filters: the whole page, the main content, BM25 chunks, a model's selection. */
export const MD_FILTERS = ["raw", "fit", "bm25", "llm"] as const;

/**
 * The request body. Loose: Crawl4AI clients may send fields it added later (provider,
 * temperature), which change nothing here.
 */
export const mdRequestSchema = z.looseObject({
  url: z.string().min(1),
  f: z.enum(MD_FILTERS).default("fit"),
  q: z.string().max(LIMITS.promptMaxLength).nullish(),
  c: z.union([z.string(), z.number()]).nullish(),
});

export type MdRequest = z.output<typeof mdRequestSchema>;

export interface MdResponse {
  url: string;
  filter: (typeof MD_FILTERS)[number];
  query: string | null;
  cache: string;
  markdown: string;
  success: true;
}

/**
 * Answers one `/md` request. `bm25` and `llm` without `q` select nothing and return the main
 * content, as `fit` does; `llm` without a model runs `bm25` (`applied` says which ran).
 * Throws WebFetchError.
 */
export async function markdownFor(
  web: WebFetch,
  request: MdRequest,
  signal?: AbortSignal,
): Promise<{ body: MdResponse; applied: string }> {
  const cache = request.c === undefined || request.c === null ? "0" : String(request.c);
  const call: FetchOptions = {
    // Crawl4AI: "1" lets a cached answer through; anything else fetches fresh.
    ...(cache === "1" ? {} : { cache: false }),
    ...(request.f === "raw" ? { extract: "full" as const } : {}),
    ...(signal ? { signal } : {}),
  };
  const query = request.q?.trim() || undefined;
  let markdown: string;
  let applied: string = request.f === "raw" ? "raw" : "fit";
  if (query && request.f === "llm") {
    const filtered = await filterPage(web, request.url, query, { fetch: call });
    ({ markdown } = filtered);
    applied = filtered.filter;
  } else {
    const page = await wholePage(web, request.url, call);
    markdown = page.content;
    if (query && request.f === "bm25") {
      ({ markdown } = await llmFilter({ markdown, instruction: query }));
      applied = "bm25";
    }
  }
  const body: MdResponse = {
    url: request.url,
    filter: request.f,
    query: request.q ?? null,
    cache,
    markdown,
    success: true,
  };
  return { body, applied };
}
