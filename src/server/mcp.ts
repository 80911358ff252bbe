/**
 * `/mcp`: MCP over streamable HTTP, stateless. Each POST gets a fresh server from the same
 * factory as stdio and a transport without sessions, so no state outlives a request. The app
 * checks Host and Origin first (host-guard.ts): a web page that rebinds a name to this loopback
 * port must not reach the tools. A request that asks for progress (a `_meta.progressToken`) is
 * answered as a server-sent event stream, so its notifications reach the client before the
 * result; every other request gets plain JSON.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Context } from "hono";
import { createMcpServer, type McpServerOptions } from "../adapters/mcp.js";

/** The POST's JSON-RPC messages: a batch's, else the one; none when the body is not JSON. */
async function messagesOf(request: Request): Promise<unknown[]> {
  try {
    const body: unknown = await request.clone().json();
    return Array.isArray(body) ? body : [body];
  } catch {
    return [];
  }
}

/** How many JSON-RPC messages a POST carries: a batch's length, else one. */
export async function messageCount(request: Request): Promise<number> {
  // Not JSON: the transport answers it as one malformed message.
  return Math.max(1, (await messagesOf(request)).length);
}

/** True when a message of the POST carries a progress token. */
async function asksForProgress(request: Request): Promise<boolean> {
  return (await messagesOf(request)).some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params
      ?._meta;
    return meta?.progressToken !== undefined;
  });
}

/** Handles one MCP request with a server and transport of its own. */
export async function handleMcp(c: Context, options: McpServerOptions): Promise<Response> {
  const server = createMcpServer(options);
  const stream = await asksForProgress(c.req.raw);
  // No sessionIdGenerator: stateless. Plain JSON unless progress must stream before the result.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !stream });
  let response: Response | undefined;
  try {
    await server.connect(transport);
    response = await transport.handleRequest(c.req.raw);
    // A stream is still being written: the server closes when it ends (or the client leaves).
    if (stream && response.body) return closingAfter(response, () => server.close());
    return response;
  } finally {
    if (!(stream && response?.body)) await server.close();
  }
}

/** `response` whose body, once read to its end or cancelled, runs `close`. */
function closingAfter(response: Response, close: () => Promise<void>): Response {
  const reader = response.body!.getReader();
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    void close().catch(() => {
      // Closing a server whose transport is already gone has nothing left to do.
    });
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          finish();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    async cancel(reason) {
      await reader.cancel(reason);
      finish();
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
