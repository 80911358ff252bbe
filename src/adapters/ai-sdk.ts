/**
 * Vercel AI SDK 6 (`webfetch/ai-sdk`, peer dependency `ai`): the tools as a `ToolSet` for
 * `generateText` / `streamText`. The model reads the tool's text (and a screenshot as an image);
 * the step's tool result keeps the whole result (text, result object, `isError`) for the
 * program.
 */
import { jsonSchema, type ToolSet, tool } from "ai";
import { inputJsonSchema } from "../tools/json-schema.js";
import { type CreateToolsOptions, createTools } from "../tools/registry.js";
import type { Tool, ToolResult } from "../tools/types.js";

export type AiSdkToolsOptions = CreateToolsOptions;

/**
 * The enabled tools, keyed by name.
 *
 * @example
 * const { text } = await generateText({
 *   model,
 *   tools: createAiSdkTools({ web: createWebFetch() }),
 *   stopWhen: stepCountIs(5),
 *   prompt: "What does https://example.com say?",
 * });
 */
export function createAiSdkTools(options: AiSdkToolsOptions): ToolSet {
  return Object.fromEntries(createTools(options).map((t) => [t.name, aiSdkTool(t)]));
}

function aiSdkTool(t: Tool) {
  return tool<unknown, ToolResult>({
    title: t.title,
    description: t.description,
    // No validate function: the tool's runner checks the input, so a bad argument is an
    // INVALID_INPUT result in the tool's language that the model can act on, not a thrown error.
    inputSchema: jsonSchema(inputJsonSchema(t)),
    execute: (input, { abortSignal }) => t.call(input, abortSignal ? { signal: abortSignal } : {}),
    toModelOutput: ({ output }) => {
      if (output.isError) return { type: "error-text", value: output.text };
      if (!output.images?.length) return { type: "text", value: output.text };
      // A page's screenshot goes to the model as an image after the text.
      return {
        type: "content",
        value: [
          { type: "text", text: output.text },
          ...output.images.map((image) => ({
            type: "image-data" as const,
            data: image.data,
            mediaType: image.mimeType,
          })),
        ],
      };
    },
  });
}
