/** web_fetch: one page as text for the model + the result object. */
import { z } from "zod";
import type { FetchResult } from "../result.js";
import { fitPage } from "./budget.js";
import { pageText } from "./format.js";
import {
  extractModeParam,
  lengthParam,
  listOptions,
  listParams,
  promptParam,
  queryParam,
  refuseConflicts,
  screenshotOption,
  screenshotParam,
  selectorOptions,
  selectorParams,
  startIndexParam,
  urlParam,
} from "./params.js";
import { pageResultSchema } from "./schemas.js";
import { defineTool } from "./types.js";

export const webFetchTool = defineTool({
  id: "web_fetch",
  texts: (t) => t.tools.web_fetch,
  input: ({ texts: t, settings }) =>
    z.object({
      url: urlParam(t),
      prompt: promptParam().optional().describe(t.params.prompt),
      query: queryParam(t),
      extract_mode: extractModeParam(t),
      max_length: lengthParam(t.params.max_length(settings.maxLength)),
      start_index: startIndexParam(t),
      ...selectorParams(t),
      ...listParams(t),
      screenshot: screenshotParam(t),
    }),
  output: pageResultSchema,
  async handle(input, env) {
    refuseConflicts(input);
    const result = await env.web.fetch(input.url, {
      ...(input.extract_mode ? { format: input.extract_mode } : {}),
      ...(input.query === undefined ? {} : { query: input.query }),
      ...(input.prompt === undefined ? {} : { prompt: input.prompt }),
      maxLength: input.max_length ?? env.settings.maxLength,
      ...(input.start_index === undefined ? {} : { startIndex: input.start_index }),
      ...selectorOptions(input),
      ...listOptions(input),
      ...screenshotOption(input.screenshot),
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    // The screenshot travels as an image beside the text, for hosts that show images to models.
    const images = result.screenshot
      ? [{ data: result.screenshot.data, mimeType: result.screenshot.mimeType }]
      : [];
    return {
      text: pageText(result, env),
      structured: { ...result },
      ...(images.length > 0 ? { images } : {}),
    };
  },
  // Over a host's token budget, the page's window is cut shorter and the rest linked.
  fit: (output, budget, env) =>
    fitPage(output.structured as unknown as FetchResult, budget, env.texts, (page) =>
      pageText(page, env),
    ),
});
