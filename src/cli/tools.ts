/**
 * `webfetch tools --format mcp|openai|anthropic`: the enabled tools' schemas as a JSON array,
 * after the configuration's prefix, names and `enabled` flags, in the shape of each adapter.
 */
import { anthropicTool } from "../adapters/anthropic.js";
import { openaiChatTool } from "../adapters/openai.js";
import { mcpToolSchema } from "../tools/json-schema.js";
import { createTools } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";
import { createWebFetch } from "../webfetch/index.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

export interface ToolsFlags extends GlobalFlags {
  format: "mcp" | "openai" | "anthropic";
  /** With --format openai: OpenAI's strict-mode variant. */
  strict?: boolean;
}

/** One tool in each format; openai is the Chat Completions form. */
const FORMATS: Record<ToolsFlags["format"], (tool: Tool, flags: ToolsFlags) => unknown> = {
  mcp: (tool) => mcpToolSchema(tool),
  openai: (tool, flags) => openaiChatTool(tool, { strict: flags.strict ?? false }),
  anthropic: (tool) => anthropicTool(tool),
};

export async function toolsCommand(
  flags: ToolsFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { options, tools } = cliSetup(flags, io, env);
  const web = createWebFetch(options);
  try {
    const built = createTools({
      web,
      ...tools,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const schemas = built.map((tool) => FORMATS[flags.format](tool, flags));
    io.stdout.write(`${JSON.stringify(schemas, null, 2)}\n`);
    return EXIT.ok;
  } finally {
    await web.close();
  }
}
