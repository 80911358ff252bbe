/**
 * Anthropic tool use (`webfetch/anthropic`): the tools as Messages API tool definitions, and a
 * runner that turns a `tool_use` content block into its `tool_result` block. No Anthropic SDK is
 * needed: these are the JSON shapes its API takes.
 */
import { inputJsonSchema, type JsonSchema } from "../tools/json-schema.js";
import type { CreateToolsOptions } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";
import { type RunOptions, toolDispatcher } from "./dispatch.js";

/** A tool definition (`tools` of a Messages API request). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** A `tool_use` block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** A text or base64 image block inside a `tool_result`. */
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } };

/**
 * The `tool_result` block answering it, for the next user message: the tool's text, or the text
 * and its images (a page's screenshot) as blocks.
 */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string | AnthropicToolResultContent[];
  is_error: boolean;
}

export type AnthropicToolsOptions = CreateToolsOptions;

export interface AnthropicTools {
  /** For `messages.create({ tools })`. */
  tools: AnthropicTool[];
  /** Runs a `tool_use` block; never throws (a failure is a result with `is_error: true`). */
  run(block: AnthropicToolUseBlock, options?: RunOptions): Promise<AnthropicToolResultBlock>;
}

/** A tool as an Anthropic tool definition. */
export function anthropicTool(tool: Tool): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: inputJsonSchema(tool) };
}

/**
 * The tools for Anthropic's Messages API and the runner of their `tool_use` blocks.
 *
 * @example
 * const anthropic = createAnthropicTools({ web: createWebFetch(), prefix: "wf_" });
 * const message = await client.messages.create({ model, max_tokens, messages, tools: anthropic.tools });
 * const uses = message.content.filter((block) => block.type === "tool_use");
 * messages.push({ role: "user", content: await Promise.all(uses.map((b) => anthropic.run(b))) });
 */
export function createAnthropicTools(options: AnthropicToolsOptions): AnthropicTools {
  const dispatcher = toolDispatcher(options);
  return {
    tools: dispatcher.tools.map(anthropicTool),
    async run(block, run) {
      const result = await dispatcher.call(block.name, block.input, run);
      const images = result.images ?? [];
      return {
        type: "tool_result",
        tool_use_id: block.id,
        content:
          images.length === 0
            ? result.text
            : [
                { type: "text", text: result.text },
                ...images.map((image) => ({
                  type: "image" as const,
                  source: { type: "base64" as const, media_type: image.mimeType, data: image.data },
                })),
              ],
        is_error: result.isError,
      };
    },
  };
}
