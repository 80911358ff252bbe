/**
 * `/mcp`: MCP over streamable HTTP, stateless. Each POST gets a fresh server from the same
 * factory as stdio and a transport without sessions, so no state outlives a request. The app
 * checks Host and Origin first (host-guard.ts): a web page that rebinds a name to this loopback
 * port must not reach the tools.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context } from "hono";
import { createMcpServer, type McpServerOptions } from "../adapters/mcp.js";

/** How many JSON-RPC messages a POST carries: a batch's length, else one. */
export async function messageCount(request: Request): Promise<number> {
  try {
    const body: unknown = await request.clone().json();
    return Array.isArray(body) ? Math.max(1, body.length) : 1;
  } catch {
    // Not JSON: the transport answers it as one malformed message.
    return 1;
  }
}

/** Handles one MCP request with a server and transport of its own. */
export async function handleMcp(c: Context, options: McpServerOptions): Promise<Response> {
  const server = createMcpServer(options);
  // No sessionIdGenerator: stateless. Plain JSON answers: nothing streams after the response.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}
