/**
 * web_fetch_structured: the configured model fills a JSON Schema from a page; the calling agent
 * gets the data, checked against the schema, never the page. The schema is taken as JSON text,
 * the same on every host: OpenAI's strict mode cannot describe a free-form object parameter,
 * and one form everywhere keeps one schema for every adapter. Offered only when a model is
 * configured.
 */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { schemaFromJson } from "../llm/schema.js";
import { dataText } from "./format.js";
import { promptParam, urlParam } from "./params.js";
import { dataResultSchema } from "./schemas.js";
import { defineTool } from "./types.js";

export const webFetchStructuredTool = defineTool({
  id: "web_fetch_structured",
  texts: (t) => t.tools.web_fetch_structured,
  input: ({ texts: t }) =>
    z.object({
      url: urlParam(t),
      schema: z
        .string()
        .trim()
        .min(2)
        .max(LIMITS.schemaMaxLength)
        .describe(t.params.schema(LIMITS.schemaMaxLength)),
      prompt: promptParam().optional().describe(t.params.structured_prompt),
    }),
  output: dataResultSchema,
  available: (web) => web.options.llm !== undefined,
  async handle(input, env) {
    const result = await env.web.fetch(input.url, {
      schema: schemaFromJson(input.schema, "schema"),
      ...(input.prompt === undefined ? {} : { prompt: input.prompt }),
      maxLength: env.settings.maxLength,
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
    });
    return {
      text: dataText(result, env),
      structured: {
        url: result.url,
        id: result.id,
        finalUrl: result.finalUrl,
        ...(result.title ? { title: result.title } : {}),
        data: result.data,
        model: result.model,
        usage: result.usage,
        inputTruncated: result.inputTruncated,
        ...(result.warnings ? { warnings: result.warnings } : {}),
        cached: result.cached,
        fetchedAt: result.fetchedAt,
      },
    };
  },
});
