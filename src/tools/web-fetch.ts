/** web_fetch (SPEC §4, seeds 000 and 004): one page as text for the model + the result object. */
import { z } from "zod";
import { WebFetchError } from "../errors.js";
import { pageText } from "./format.js";
import { extractModeParam, lengthParam, queryParam, startIndexParam, urlParam } from "./params.js";
import { fetchResultSchema } from "./schemas.js";
import type { Texts } from "./texts.js";
import { defineTool } from "./types.js";

export const webFetchTool = defineTool({
  id: "web_fetch",
  texts: (t) => t.tools.web_fetch,
  input: ({ texts: t, settings }) =>
    z.object({
      url: urlParam(t),
      prompt: z.string().min(1).max(4000).optional().describe(t.params.prompt),
      query: queryParam(t),
      extract_mode: extractModeParam(t),
      max_length: lengthParam(t.params.max_length(settings.maxLength)),
      start_index: startIndexParam(t),
    }),
  output: fetchResultSchema,
  async handle(input, env) {
    // prompt arrives with a later issue: refused clearly rather than ignored.
    if (input.prompt !== undefined) throw notAvailable("prompt", env.texts);
    if (input.query !== undefined && input.start_index !== undefined && input.start_index > 0) {
      throw new WebFetchError(
        "INVALID_INPUT",
        "start_index: query selects passages from the whole page, so it takes no start_index",
        { retryable: false },
      );
    }
    const result = await env.web.fetch(input.url, {
      ...(input.extract_mode ? { format: input.extract_mode } : {}),
      ...(input.query === undefined ? {} : { query: input.query }),
      maxLength: input.max_length ?? env.settings.maxLength,
      ...(input.start_index === undefined ? {} : { startIndex: input.start_index }),
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return { text: pageText(result, env), structured: { ...result } };
  },
});

/** The error for a parameter that a later version answers. */
export function notAvailable(parameter: string, texts: Texts): WebFetchError {
  return new WebFetchError("INVALID_INPUT", texts.notAvailable(parameter), { retryable: false });
}
