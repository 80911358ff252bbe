/**
 * `webfetch mcp`: the MCP server on stdio. stdout carries nothing but the protocol; every log
 * line goes to stderr. The command returns when the client closes stdin.
 */
import { Readable, Writable } from "node:stream";
import { createLogger } from "../log.js";
import { createWebFetch } from "../webfetch.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

export async function mcpCommand(
  flags: GlobalFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { stdin, stdout } = io;
  if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) {
    throw new TypeError("webfetch mcp needs standard input and output streams");
  }
  // Loaded here so every other command starts without the MCP SDK.
  const [{ createMcpServer }, { StdioServerTransport }] = await Promise.all([
    import("../adapters/mcp.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
  ]);
  const logger = createLogger(flags.verbose ? "debug" : undefined);
  const { options, tools } = cliSetup(flags, io, env, logger);
  const web = createWebFetch(options);
  try {
    const server = createMcpServer({ web, logger, ...tools });
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = resolve;
    });
    // The stdio transport does not watch for the end of input: a client that goes away
    // closes stdin, and the server closes with it.
    stdin.once("end", () => void server.close());
    await server.connect(new StdioServerTransport(stdin, stdout));
    logger.info({ transport: "stdio" }, "mcp server ready");
    await closed;
    return EXIT.ok;
  } finally {
    await web.close();
  }
}
