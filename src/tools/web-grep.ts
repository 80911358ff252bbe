/** web_grep: matching lines of a page fetched earlier, with context. */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { GREP_DEFAULTS } from "../options.js";
import { grepText } from "./format.js";
import { pageRefParams } from "./params.js";
import { grepResultSchema } from "./schemas.js";
import { defineTool } from "./types.js";
import { pageRef } from "./web-read.js";

export const webGrepTool = defineTool({
  id: "web_grep",
  texts: (t) => t.tools.web_grep,
  input: ({ texts: t }) =>
    z.object({
      ...pageRefParams(t),
      pattern: z
        .string()
        .min(1)
        .max(LIMITS.grepMaxPattern)
        .describe(t.params.pattern(LIMITS.grepMaxPattern)),
      context_lines: z
        .number()
        .int()
        .min(0)
        .max(LIMITS.grepMaxContext)
        .optional()
        .describe(t.params.context_lines(GREP_DEFAULTS.contextLines, LIMITS.grepMaxContext)),
    }),
  output: grepResultSchema,
  async handle(input, env) {
    const result = await env.web.grep(pageRef(input, env.texts), input.pattern, {
      // Without context_lines the library applies GREP_DEFAULTS.contextLines, as described.
      ...(input.context_lines === undefined ? {} : { contextLines: input.context_lines }),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return { text: grepText(result, env), structured: { ...result } };
  },
});
