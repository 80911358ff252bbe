/**
 * CSS selectors through the HTTP service (`POST /v1/fetch`) and MCP (the SDK's own client over
 * `/mcp`): the tools' include_selectors and exclude_selectors, and SELECTOR_NOT_FOUND as 422.
 */
import { describe, expect, it } from "vitest";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const s = serviceSuite();
const mcp = mcpClientSuite(s);

describe("selectors over the service", () => {
  it("POST /v1/fetch scopes the page, and answers an unmatched selector with 422", async () => {
    const ok = await s.post("/v1/fetch", {
      url: s.page("/article"),
      include_selectors: ["article"],
      exclude_selectors: ["p"],
    });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { content: string };
    expect(body.content).toContain("Fixture Article");
    expect(body.content).not.toContain("Paragraph 1");
    const missing = await s.post("/v1/fetch", {
      url: s.page("/article"),
      include_selectors: ["#absent"],
    });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ error: { code: "SELECTOR_NOT_FOUND" } });
  });

  it("web_fetch over MCP takes include_selectors", async () => {
    const { tools } = await mcp.client.listTools();
    const fetchTool = tools.find((t) => t.name === "web_fetch");
    expect(Object.keys(fetchTool?.inputSchema.properties ?? {})).toContain("include_selectors");
    const result = await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/article"), include_selectors: ["footer"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      content: "Copyright 2026 Fixture Site. All rights reserved.",
    });
  });
});
