/**
 * `/mcp`: MCP over streamable HTTP, stateless. Each POST gets a fresh server from the same
 * factory as stdio and a transport without sessions, so no state outlives a request. Host and
 * Origin are checked first: a web page that rebinds a name to this loopback port must not
 * reach the tools (the MCP specification's transport security rule).
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context, MiddlewareHandler } from "hono";
import { createMcpServer, type McpServerOptions } from "../adapters/mcp.js";
import { errorResponse } from "./errors.js";

/** Names that always mean this machine. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"];

/** Listening on every interface names no host of its own. */
const WILDCARD = new Set(["0.0.0.0", "::", ""]);

/** The host name of a Host header or an origin, without port and brackets; undefined if malformed. */
function hostnameOf(value: string, isOrigin: boolean): string | undefined {
  try {
    const { hostname } = new URL(isOrigin ? value : `http://${value}`);
    return hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Middleware that answers 403 unless the Host header (and the Origin header, when a browser
 * sends one) names this machine, the host the service binds, or one of `allowed`.
 */
export function hostGuard(bindHost: string, allowed: readonly string[] = []): MiddlewareHandler {
  const names = new Set(
    [...LOOPBACK_NAMES, ...(WILDCARD.has(bindHost) ? [] : [bindHost]), ...allowed].map((n) =>
      n.replace(/^\[|\]$/g, "").toLowerCase(),
    ),
  );
  return async (c, next) => {
    const host = hostnameOf(c.req.header("host") ?? "", false);
    if (host === undefined || !names.has(host)) {
      return errorResponse(c, "FORBIDDEN_HOST", `Host not allowed: ${c.req.header("host") ?? ""}`);
    }
    const origin = c.req.header("origin");
    if (origin !== undefined && !names.has(hostnameOf(origin, true) ?? "")) {
      return errorResponse(c, "FORBIDDEN_HOST", `Origin not allowed: ${origin}`);
    }
    await next();
  };
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
