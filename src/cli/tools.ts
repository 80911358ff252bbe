/**
 * `webfetch tools --format mcp`: the enabled tools' schemas as a JSON array, after the
 * configuration's prefix, names and `enabled` flags. The openai and anthropic formats come with
 * their adapters.
 */
import { WebFetchError } from "../errors.js";
import { mcpToolSchema } from "../tools/json-schema.js";
import { createTools } from "../tools/registry.js";
import { createWebFetch } from "../webfetch.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

export interface ToolsFlags extends GlobalFlags {
  format: "mcp" | "openai" | "anthropic";
}

export async function toolsCommand(
  flags: ToolsFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  if (flags.format !== "mcp") {
    throw new WebFetchError(
      "INVALID_INPUT",
      `--format ${flags.format} is not available in this version yet (use mcp)`,
      { retryable: false },
    );
  }
  const { options, tools } = cliSetup(flags, io, env);
  const web = createWebFetch(options);
  try {
    const built = createTools({
      web,
      ...tools,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    io.stdout.write(`${JSON.stringify(built.map(mcpToolSchema), null, 2)}\n`);
    return EXIT.ok;
  } finally {
    await web.close();
  }
}
