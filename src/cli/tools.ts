/**
 * `webfetch tools --format mcp|openai|anthropic`: the enabled tools' schemas as a JSON array,
 * after the configuration's prefix, names and `enabled` flags, in the shape of each adapter.
 */
import { type Command, Option } from "commander";
import type { Tool } from "../tools/types.js";
import type { CommandContext } from "./flags.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

/** The schema formats, one an adapter. */
const SCHEMA_FORMATS = ["mcp", "openai", "anthropic"] as const;

interface ToolsFlags extends GlobalFlags {
  format: (typeof SCHEMA_FORMATS)[number];
  /** With --format openai: OpenAI's strict-mode variant. */
  strict?: boolean;
}

/** Adds `tools` to the program. */
export function addToolsCommand(program: Command, cli: CommandContext): void {
  program
    .command("tools")
    .description("print the tool schemas as a JSON array")
    .addOption(
      new Option("--format <format>", "schema format").choices(SCHEMA_FORMATS).default("mcp"),
    )
    .option("--strict", "with --format openai: strict mode (every property required, nullable)")
    .action(cli.action<ToolsFlags>((flags) => toolsCommand(flags, cli.io, cli.env)));
}

async function toolsCommand(flags: ToolsFlags, io: CliIO, env: NodeJS.ProcessEnv): Promise<number> {
  const { options, tools } = await cliSetup(flags, io, env);
  // Loaded here, so every other command starts without the adapters.
  const [
    { createWebFetch },
    { createTools },
    { mcpToolSchema },
    { openaiChatTool },
    { anthropicTool },
  ] = await Promise.all([
    import("../webfetch/index.js"),
    import("../tools/registry.js"),
    import("../tools/json-schema.js"),
    import("../adapters/openai.js"),
    import("../adapters/anthropic.js"),
  ]);
  // One tool in each format; openai is the Chat Completions form.
  const formats: Record<ToolsFlags["format"], (tool: Tool) => unknown> = {
    mcp: (tool) => mcpToolSchema(tool),
    openai: (tool) => openaiChatTool(tool, { strict: flags.strict ?? false }),
    anthropic: (tool) => anthropicTool(tool),
  };
  const web = createWebFetch(options);
  try {
    const built = createTools({
      web,
      ...tools,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const schemas = built.map((tool) => formats[flags.format](tool));
    io.stdout.write(`${JSON.stringify(schemas, null, 2)}\n`);
    return EXIT.ok;
  } finally {
    await web.close();
  }
}
