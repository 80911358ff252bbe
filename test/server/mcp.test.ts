/**
 * `/mcp` over streamable HTTP: the SDK's own Client lists and calls the tools through a
 * stateless server, errors come back as isError results, and a request whose Host or Origin
 * names another site (DNS rebinding) is refused before the MCP layer sees it.
 */
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { ALL_TOOLS } from "../tools/helpers.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const s = serviceSuite();
const mcp = mcpClientSuite(s);

/** A raw POST with headers undici's fetch would not let us forge. */
function rawPost(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: "/mcp", method: "POST", headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
  });
}

describe("/mcp", () => {
  it("lists the tools", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...ALL_TOOLS]);
  });

  it("calls web_fetch: text for the model, the result object in structuredContent", async () => {
    const result = await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/article"), max_length: 500 },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ title: "Fixture Article", status: 200 });
    const [first] = result.content as { type: string; text: string }[];
    expect(first?.text).toContain("Fixture Article");
  });

  it("answers a blocked URL with an isError result naming the code", async () => {
    const result = await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: "http://127.0.0.1:9/" },
    });
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ "webfetch/error": { code: "BLOCKED_ADDRESS" } });
  });

  it("refuses a foreign Host or Origin with 403", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const port = new URL(s.url).port;
    const evilHost = await rawPost({ ...headers, host: `evil.example:${port}` });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body)).toMatchObject({ error: { code: "FORBIDDEN_HOST" } });
    const evilOrigin = await rawPost({
      ...headers,
      host: `localhost:${port}`,
      origin: "http://evil.example",
    });
    expect(evilOrigin.status).toBe(403);
    const local = await rawPost({
      ...headers,
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(local.status).toBe(200);
  });

  it("has no sessions: GET is 405", async () => {
    const res = await s.get("/mcp", { accept: "text/event-stream" });
    expect(res.status).toBe(405);
  });
});
