/**
 * LangChain.js (`webfetch/langchain`, peer dependency `@langchain/core`): the tools as
 * structured tools for agents and `bindTools`. The model reads the tool's text (the ToolMessage
 * content); the result object travels as the message's `artifact`.
 */
import { ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool } from "@langchain/core/tools";
import { inputJsonSchema } from "../tools/json-schema.js";
import { type CreateToolsOptions, createTools } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";

export type LangChainToolsOptions = CreateToolsOptions;

/**
 * The enabled tools, in catalog order.
 *
 * @example
 * const tools = createLangChainTools({ web: createWebFetch() });
 * const agent = createAgent({ model, tools });
 */
export function createLangChainTools(options: LangChainToolsOptions): DynamicStructuredTool[] {
  return createTools(options).map(langChainTool);
}

function langChainTool(t: Tool): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: t.name,
    description: t.description,
    // LangChain checks input against a JSON Schema before the call (ToolInputParsingException);
    // the tool's runner then applies its own bounds and answers in the tool's language.
    schema: inputJsonSchema(t),
    // [content, artifact]: the text for the model, the result object for the program. A failure
    // is a result too: its text names the code, its artifact is { error: { code, message } },
    // and called with a tool call it is a ToolMessage with status "error", so agents and
    // tracing see it failed.
    responseFormat: "content_and_artifact",
    func: async (input, _runManager, config) => {
      const result = await t.call(input, config?.signal ? { signal: config.signal } : {});
      const callId = (config as { toolCall?: { id?: string } } | undefined)?.toolCall?.id;
      if (result.isError && callId) {
        const message = new ToolMessage({
          status: "error",
          content: result.text,
          artifact: result.structured,
          tool_call_id: callId,
          name: t.name,
        });
        return [message, result.structured];
      }
      return [result.text, result.structured];
    },
  });
}
