/** web_search: numbered results with title, URL, score and snippet. */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { SEARCH_DEFAULTS } from "../options.js";
import type { SearchDepth } from "../values.js";
import { searchText } from "./format.js";
import { searchParams, searchQueryParam } from "./params.js";
import { searchResultSchema } from "./schemas.js";
import { defineTool } from "./types.js";

export const webSearchTool = defineTool({
  id: "web_search",
  texts: (t) => t.tools.web_search,
  providerErrors: true,
  input: ({ texts: t }) => {
    const { search_depth, ...narrowing } = searchParams(t);
    return z.object({
      query: searchQueryParam(t.params.search_query),
      search_depth,
      max_results: z
        .number()
        .int()
        .min(1, `must be between 1 and ${LIMITS.searchMaxResults}`)
        .max(LIMITS.searchMaxResults, `must be between 1 and ${LIMITS.searchMaxResults}`)
        .optional()
        .describe(t.params.max_results(SEARCH_DEFAULTS.maxResults, LIMITS.searchMaxResults)),
      ...narrowing,
    });
  },
  output: searchResultSchema,
  async handle(input, env) {
    const result = await env.web.search(input.query, {
      ...searchOptions(input),
      // Without max_results the library applies SEARCH_DEFAULTS.maxResults, the default described.
      ...(input.max_results === undefined ? {} : { maxResults: input.max_results }),
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return { text: searchText(result, env), structured: { ...result } };
  },
});

/** The snake_case search parameters as the library's options. */
export function searchOptions(input: {
  search_depth?: SearchDepth | undefined;
  include_domains?: string[] | undefined;
  exclude_domains?: string[] | undefined;
  time_range?: "day" | "week" | "month" | "year" | undefined;
}) {
  return {
    ...(input.search_depth ? { searchDepth: input.search_depth } : {}),
    ...(input.include_domains ? { includeDomains: input.include_domains } : {}),
    ...(input.exclude_domains ? { excludeDomains: input.exclude_domains } : {}),
    ...(input.time_range ? { timeRange: input.time_range } : {}),
  };
}
