/**
 * web_fetch_agent: a sub-agent with web_fetch (raw content), web_read and
 * web_grep answers a task about a page; the calling agent gets the answer, never the page.
 * Offered only when a model is configured.
 */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { type AgentTool, runFetchAgent } from "../llm/agent.js";
import { silentLogger } from "../log.js";
import type { ToolId } from "../values.js";
import { bindTool } from "./bind.js";
import { promptParam, urlParam } from "./params.js";
import { agentResultSchema } from "./schemas.js";
import { defineTool, type ToolEnv, type ToolSpec } from "./types.js";
import { webFetchTool } from "./web-fetch.js";
import { webGrepTool } from "./web-grep.js";
import { webReadTool } from "./web-read.js";

/** The sub-agent's tools, under their canonical names. */
const SUB_TOOLS: readonly ToolSpec[] = [webFetchTool, webReadTool, webGrepTool];

export const webFetchAgentTool = defineTool({
  id: "web_fetch_agent",
  texts: (t) => t.tools.web_fetch_agent,
  input: ({ texts: t }) =>
    z.object({
      url: urlParam(t),
      prompt: promptParam().describe(t.params.agent_prompt),
      description: z.string().trim().min(1).max(200).describe(t.params.description),
    }),
  output: agentResultSchema,
  available: (web) => web.options.llm !== undefined,
  async handle(input, env) {
    const model = await env.web.model();
    if (!model) throw new RangeError("web_fetch_agent needs a model (llm) configured");
    const answer = await runFetchAgent({
      model,
      url: input.url,
      prompt: input.prompt,
      tools: subTools(env),
      signal: env.signal,
    });
    const text = /\bSource:/.test(answer.text)
      ? answer.text
      : `${answer.text}\n\nSource: ${input.url}`;
    return {
      text,
      structured: {
        url: input.url,
        prompt: input.prompt,
        description: input.description,
        content: text,
        model: model.name,
        usage: answer.usage,
        steps: answer.steps,
        toolCalls: answer.toolCalls,
        ...(answer.limit ? { limit: answer.limit } : {}),
      },
    };
  },
});

/**
 * The sub-agent's tools over the same instance and language: web_fetch without `prompt` (the
 * sub-agent reads the page itself, and cannot start another model call through it).
 */
function subTools(env: ToolEnv): AgentTool[] {
  const ids = new Set<ToolId>(SUB_TOOLS.map((spec) => spec.id));
  return SUB_TOOLS.map((spec) => {
    const tool = bindTool(spec, {
      web: env.web,
      texts: env.texts,
      nameOf: (id) => (ids.has(id) ? id : undefined),
      logger: silentLogger,
      settings: {
        name: spec.id,
        maxLength: Math.min(env.settings.maxLength, LIMITS.toolMaxLength),
      },
      ...(spec.id === "web_fetch" ? { narrow: (input) => input.omit({ prompt: true }) } : {}),
    });
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      run: async (args, signal) => {
        const result = await tool.call(args, signal ? { signal } : undefined);
        return { text: result.text, isError: result.isError };
      },
    };
  });
}
