/**
 * web_context: a cited context for RAG within max_tokens. The budget
 * holds for the whole text the model reads: the heading's tokens are taken out of it before
 * the library packs the context.
 */
import { z } from "zod";
import { SEARCH_DEFAULTS } from "../options.js";
import { tokenCounter } from "../shape/tokens.js";
import { contextHeading, contextText } from "./format.js";
import { searchParams, searchQueryParam } from "./params.js";
import { contextResultSchema } from "./schemas.js";
import { defineTool } from "./types.js";
import { searchOptions } from "./web-search.js";

/** Largest budget a model may ask for: far past any context window in use. */
const MAX_TOKENS = 200_000;

export const webContextTool = defineTool({
  id: "web_context",
  texts: (t) => t.tools.web_context,
  providerErrors: true,
  input: ({ texts: t }) =>
    z.object({
      query: searchQueryParam(t.params.context_query),
      max_tokens: z
        .number()
        .int()
        .min(1)
        .max(MAX_TOKENS)
        .optional()
        .describe(t.params.max_tokens(SEARCH_DEFAULTS.maxTokens)),
      ...searchParams(t),
    }),
  output: contextResultSchema,
  async handle(input, env) {
    // The default budget is applied here as well as in the library, on purpose: the heading's
    // tokens come out of the budget before the library packs the context, so the tool needs it.
    const maxTokens = input.max_tokens ?? SEARCH_DEFAULTS.maxTokens;
    const count = await tokenCounter();
    const heading = count(contextHeading(input.query, env));
    const result = await env.web.context(input.query, {
      ...searchOptions(input),
      maxTokens: Math.max(1, maxTokens - heading),
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return { text: contextText(result, env), structured: { ...result } };
  },
});
