/**
 * Tool calls that arrive by name, as the OpenAI and Anthropic APIs deliver them: the built tool
 * found by its registered name and run through the tool layer's runner. A name that is not
 * registered becomes an error result in the tool's language like any other failure, so a host
 * loop never has to catch.
 */
import { type CreateToolsOptions, createTools } from "../tools/registry.js";
import { errorResult } from "../tools/run.js";
import { type Texts, textsFor } from "../tools/texts.js";
import type { Tool, ToolResult } from "../tools/types.js";

/** Optional cancellation of one call. */
export interface RunOptions {
  signal?: AbortSignal;
}

export interface ToolDispatcher {
  /** The enabled tools, in catalog order. */
  tools: Tool[];
  /** Runs the tool registered as `name`. Never throws. */
  call(name: string, args: unknown, options?: RunOptions): Promise<ToolResult>;
  /** The tools' language, for errors an adapter finds before a tool runs. */
  texts: Texts;
}

export function toolDispatcher(options: CreateToolsOptions): ToolDispatcher {
  const tools = createTools(options);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const texts = textsFor(options.web.options.locale);
  const call: ToolDispatcher["call"] = (name, args, run) => {
    const tool = byName.get(name);
    if (!tool) {
      return Promise.resolve(
        errorResult({ code: "INVALID_INPUT", message: texts.unknownTool(name) }, texts),
      );
    }
    return tool.call(args, run);
  };
  return { tools, texts, call };
}
