/** web_extract: many URLs, per-URL sections and the failed URLs. */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import type { ExtractProgress, ExtractResult } from "../pages/extract.js";
import { fitPages } from "./budget.js";
import { extractText } from "./format.js";
import {
  extractModeParam,
  listOptions,
  listParams,
  queryParam,
  refuseConflicts,
  selectorOptions,
  selectorParams,
} from "./params.js";
import { extractResultSchema } from "./schemas.js";
import { defineTool, type ToolEnv } from "./types.js";

export const webExtractTool = defineTool({
  id: "web_extract",
  texts: (t) => t.tools.web_extract,
  input: ({ texts: t }) =>
    z.object({
      urls: z
        .array(z.string())
        .min(1)
        .max(LIMITS.extractMaxUrls)
        .describe(t.params.urls(LIMITS.extractMaxUrls)),
      query: queryParam(t),
      extract_mode: extractModeParam(t),
      ...selectorParams(t),
      ...listParams(t),
    }),
  output: extractResultSchema,
  async handle(input, env) {
    refuseConflicts(input);
    const result = await env.web.extract(input.urls, {
      ...(input.extract_mode ? { format: input.extract_mode } : {}),
      ...(input.query === undefined ? {} : { query: input.query }),
      ...selectorOptions(input),
      ...listOptions(input),
      maxLength: env.settings.maxLength,
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
      ...(env.progress ? { onProgress: progressOf(env.progress) } : {}),
    });
    return { text: extractText(result, env), structured: { ...result } };
  },
  // Over a host's token budget, the longest pages are cut first and each one's rest linked.
  fit: (output, budget, env) =>
    fitPages(output.structured as unknown as ExtractResult, budget, env.texts, (result) =>
      extractText(result, env),
    ),
});

/** Each URL finished as a step: how many are done of how many, the URL and `ok` or its code. */
function progressOf(report: NonNullable<ToolEnv["progress"]>) {
  return (p: ExtractProgress) =>
    report({ progress: p.done, total: p.total, message: `${p.url}: ${p.error?.code ?? "ok"}` });
}
