/**
 * The MCP server (`webfetch/mcp`): every enabled tool registered with its input and output
 * schemas and annotations; a result's object goes in `structuredContent`, a failure is an
 * `isError` result whose text names the code. The factory binds no transport: `webfetch mcp`
 * connects the stdio transport exported here (it answers a malformed or over-long line with an
 * error instead of going quiet), the HTTP service connects streamable HTTP to servers from the
 * same factory.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolsOptions } from "../tools/options.js";
import { createTools } from "../tools/registry.js";
import type { ToolLogger, ToolResult } from "../tools/types.js";
import { VERSION } from "../version.js";
import type { WebFetch } from "../webfetch/index.js";

export { createStdioTransport, type StdioTransportOptions } from "./mcp-stdio.js";

export interface McpServerOptions extends ToolsOptions {
  /** The instance the tools fetch with (shared by every server made from it). */
  web: WebFetch;
  /** Where each call's timing goes. @default the instance's logger (`web.logger`) */
  logger?: ToolLogger;
}

/**
 * An MCP server offering webfetch's tools; connect it to any transport.
 *
 * @example
 * const server = createMcpServer({ web: createWebFetch() });
 * await server.connect(createStdioTransport());
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: "webfetch", title: "webfetch", version: VERSION });
  for (const tool of createTools(options)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      async (args, extra) => toCallToolResult(await tool.call(args, { signal: extra.signal })),
    );
  }
  return server;
}

/**
 * An error result carries no `structuredContent`: clients check it against the output schema,
 * which describes results, so the code travels in the text (and in `_meta` for programs). A
 * result's images (a page's screenshot) follow its text as image blocks.
 */
function toCallToolResult(result: ToolResult): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: result.text }];
  for (const image of result.images ?? []) {
    content.push({ type: "image", data: image.data, mimeType: image.mimeType });
  }
  if (result.isError) {
    return { content, isError: true, _meta: { "webfetch/error": result.structured.error } };
  }
  return { content, structuredContent: result.structured };
}
