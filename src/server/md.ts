/**
 * `POST /md`, Crawl4AI's contract, so its existing clients work unchanged: `{url, f, q, c}` in,
 * `{url, filter, query, cache, markdown, success}` out, each echoed as Crawl4AI echoes it
 * (`"query": null` when no `q` was sent, `cache` as sent, default "0").
 */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { type Filtered, llmFilter } from "../llm/filter.js";
import type { FetchOptions } from "../options.js";
import { wholeContent } from "../pages/whole.js";
import type { FetchResult } from "../result.js";
import type { WebFetch } from "../webfetch/index.js";

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

/** The answer, as Crawl4AI shapes it. */
export const mdResponseSchema = z.object({
  url: z.string(),
  filter: z.enum(MD_FILTERS),
  query: z.string().nullable(),
  cache: z.string(),
  markdown: z.string(),
  success: z.literal(true),
});

export type MdResponse = z.output<typeof mdResponseSchema>;

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

/**
 * `/md` with `f: "llm"` as a library call: the page's main content, filtered by `q` with the
 * instance's model, or by bm25 when it has none. `fetch` adds per-call options (the cache
 * policy, `extract`). Throws WebFetchError.
 *
 * @example
 * const { markdown, filter } = await filterPage(web, "https://example.com/guide", "install steps");
 */
export async function filterPage(
  web: WebFetch,
  url: string,
  q: string,
  options: { signal?: AbortSignal; fetch?: FetchOptions } = {},
): Promise<Filtered & { url: string }> {
  const page = await wholePage(web, url, {
    ...options.fetch,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const filtered = await llmFilter({
    markdown: page.content,
    instruction: q,
    model: await web.model(),
    url: page.finalUrl,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { ...filtered, url: page.url };
}

/**
 * A page with its whole converted content, however long: `/md` and the reader route answer with
 * the page as a whole, where a tool would page through it. The instance keeps the whole
 * content, so past the first window the rest is one read. Throws WebFetchError.
 */
export async function wholePage(
  web: WebFetch,
  url: string,
  call: FetchOptions = {},
): Promise<FetchResult> {
  const page = await web.fetch(url, { ...call, maxLength: LIMITS.toolMaxLength });
  const content = await wholeContent(page, () =>
    web.read(page.id, {
      length: page.totalLength,
      ...(call.signal ? { signal: call.signal } : {}),
    }),
  );
  const { nextStartIndex: _cut, ...whole } = page;
  return { ...whole, content, truncated: false };
}
