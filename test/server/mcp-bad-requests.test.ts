/**
 * `/mcp` answers every request it cannot serve (a body over the limit, a body that is not JSON or
 * not JSON-RPC) and goes on serving: the same MCP client still lists the tools afterwards.
 */
import { describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../tools/helpers.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const s = serviceSuite();
const mcp = mcpClientSuite(s);

const MCP_HEADERS = { accept: "application/json, text/event-stream" };

describe("/mcp with a request it cannot serve", () => {
  it("answers a body over 1 MiB with 413 and serves the next request", async () => {
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "web_fetch", arguments: { url: `http://127.0.0.1/${"a".repeat(2 ** 21)}` } },
    };
    const res = await s.post("/mcp", call, MCP_HEADERS);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
    expect((await mcp.client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
  });

  it("answers a body that is not JSON, or not JSON-RPC, with a JSON-RPC error", async () => {
    for (const body of ["{not json", '{"foo":1}', '{"id":3,"method":"tools/list"}']) {
      const res = await s.post("/mcp", body, MCP_HEADERS);
      expect(res.status).toBe(400);
      // The SDK's transport answers all three as a parse error; any JSON-RPC error will do.
      expect(await res.json()).toMatchObject({
        jsonrpc: "2.0",
        error: { code: expect.any(Number), message: expect.any(String) },
      });
    }
    expect((await mcp.client.listTools()).tools).toHaveLength(ALL_TOOLS.length);
  });
});
