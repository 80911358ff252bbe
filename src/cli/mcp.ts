/**
 * `webfetch mcp`: the MCP server on stdio. stdout carries nothing but the protocol; every log
 * line goes to stderr. A line it cannot serve gets an error answer and a warning on stderr, and
 * the next line is served. The command returns when the client closes stdin.
 */
import { Readable, Writable } from "node:stream";
import type { Command } from "commander";
import { createLogger } from "../log.js";
import type { CommandContext } from "./flags.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

/** Adds `mcp` to the program. */
export function addMcpCommand(program: Command, cli: CommandContext): void {
  program
    .command("mcp")
    .description("serve the tools over MCP on stdio (logs go to stderr)")
    .action(cli.action<GlobalFlags>((flags) => mcpCommand(flags, cli.io, cli.env)));
}

async function mcpCommand(flags: GlobalFlags, io: CliIO, env: NodeJS.ProcessEnv): Promise<number> {
  const { stdin, stdout } = io;
  if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) {
    throw new TypeError("webfetch mcp needs standard input and output streams");
  }
  // Loaded here so every other command starts without the MCP SDK; the SDK and the library are
  // loaded together, so one's file reads overlap the other's compiling.
  const [{ createMcpServer, createStdioTransport }, { createWebFetch }] = await Promise.all([
    import("../adapters/mcp.js"),
    import("../webfetch/index.js"),
  ]);
  const logger = createLogger(flags.verbose ? { level: "debug" } : {});
  const { options, tools } = await cliSetup(flags, io, env, logger);
  const web = createWebFetch(options);
  try {
    const server = createMcpServer({ web, logger, ...tools });
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
    });
    // A line the server could not serve was answered with an error; the operator learns why here.
    server.server.onerror = (error) => logger.warn({ error: error.message }, "mcp protocol error");
    // The stdio transport does not watch for the end of input: a client that goes away
    // closes stdin, and the server closes with it.
    stdin.once("end", () => void server.close());
    await server.connect(createStdioTransport({ stdin, stdout }));
    logger.info({ transport: "stdio" }, "mcp server ready");
    await closed;
    return EXIT.ok;
  } finally {
    await web.close();
  }
}
