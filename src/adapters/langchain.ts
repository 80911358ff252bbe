/**
 * LangChain.js (`webfetch/langchain`, peer dependency `@langchain/core`): the tools as
 * structured tools for agents and `bindTools`. The model reads the tool's text (the ToolMessage
 * content); the result object travels as the message's `artifact`.
 */
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
    // is a result too: its text names the code, its artifact is { error: { code, message } }.
    responseFormat: "content_and_artifact",
    func: async (input, _runManager, config) => {
      const result = await t.call(input, config?.signal ? { signal: config.signal } : {});
      return [result.text, result.structured];
    },
  });
}
