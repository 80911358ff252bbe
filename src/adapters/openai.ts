/**
 * OpenAI function calling (`webfetch/openai`): the tools as Chat Completions and Responses API
 * function definitions, plain or in strict mode, and a runner for the calls a model makes. No
 * OpenAI SDK is needed: these are the JSON shapes its API takes.
 */
import { inputJsonSchema, type JsonSchema } from "../tools/json-schema.js";
import type { CreateToolsOptions } from "../tools/registry.js";
import { errorResult } from "../tools/run.js";
import type { Tool, ToolResult } from "../tools/types.js";
import { type RunOptions, toolDispatcher } from "./dispatch.js";
import { strictJsonSchema, withoutNulls } from "./strict-schema.js";

/** A Chat Completions tool (`tools` of a chat completion request). */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}

/** A Responses API function tool (flat: no `function` wrapper). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

/** A call the model made: Chat Completions' `tool_call.function`, or a Responses `function_call`. */
export interface OpenAIToolCall {
  name: string;
  /** The arguments as the JSON text the model wrote. */
  arguments: string;
}

export interface OpenAISchemaOptions {
  /**
   * Strict mode: every property required (optional ones nullable), `additionalProperties: false`,
   * only the keywords strict mode accepts. @default false
   */
  strict?: boolean;
}

export interface OpenAIToolsOptions extends CreateToolsOptions, OpenAISchemaOptions {}

export interface OpenAITools {
  /** For `chat.completions.create({ tools })`. */
  chat: OpenAIChatTool[];
  /** For `responses.create({ tools })`. */
  responses: OpenAIResponsesTool[];
  /** Runs a call and returns the text to send back (a `tool` message, a `function_call_output`). */
  run(call: OpenAIToolCall, options?: RunOptions): Promise<string>;
  /** Runs a call and returns the whole result: text, result object, `isError`. */
  call(call: OpenAIToolCall, options?: RunOptions): Promise<ToolResult>;
}

/** A tool as a Responses API function definition. */
export function openaiResponsesTool(
  tool: Tool,
  options: OpenAISchemaOptions = {},
): OpenAIResponsesTool {
  const strict = options.strict ?? false;
  const schema = inputJsonSchema(tool);
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: strict ? strictJsonSchema(schema) : schema,
    strict,
  };
}

/** A tool as a Chat Completions function definition. */
export function openaiChatTool(tool: Tool, options: OpenAISchemaOptions = {}): OpenAIChatTool {
  const { type, ...fn } = openaiResponsesTool(tool, options);
  return { type, function: fn };
}

/**
 * The tools for OpenAI's APIs and the runner of their calls. `null` arguments count as absent
 * (strict mode's way of leaving an optional parameter out); a call never throws.
 *
 * @example
 * const openai = createOpenAITools({ web: createWebFetch(), strict: true });
 * const completion = await client.chat.completions.create({ model, messages, tools: openai.chat });
 * for (const call of completion.choices[0].message.tool_calls ?? []) {
 *   messages.push({ role: "tool", tool_call_id: call.id, content: await openai.run(call.function) });
 * }
 */
export function createOpenAITools(options: OpenAIToolsOptions): OpenAITools {
  const dispatcher = toolDispatcher(options);
  const call: OpenAITools["call"] = async (toolCall, run) => {
    let args: unknown;
    try {
      // Some models send an empty string for a call without arguments.
      args = toolCall.arguments.trim() === "" ? {} : JSON.parse(toolCall.arguments);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      const { texts } = dispatcher;
      return errorResult({ code: "INVALID_INPUT", message: texts.badArguments(detail) }, texts);
    }
    return dispatcher.call(toolCall.name, withoutNulls(args), run);
  };
  return {
    chat: dispatcher.tools.map((tool) => openaiChatTool(tool, options)),
    responses: dispatcher.tools.map((tool) => openaiResponsesTool(tool, options)),
    call,
    run: async (toolCall, run) => (await call(toolCall, run)).text,
  };
}
