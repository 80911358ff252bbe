/**
 * Schema-shaped data through the service with a model configured (a local OpenAI
 * chat-completions server): `/v1/fetch` with a JSON Schema `schema` answers `data` beside the
 * page, MODEL_OUTPUT_INVALID is 502; over `/mcp`, a real MCP SDK client sees
 * web_fetch_structured listed and gets the data as JSON text and structured content. Without a
 * model the tool is not listed (test/server/mcp.test.ts lists exactly the tools without it).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { WebFetchOptions } from "../../src/options.js";
import { openaiReply } from "../helpers/model-server.js";
import { type ProviderServer, startProviderServer } from "../helpers/provider-server.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const model = {} as { server: ProviderServer };
/** Filled before the service starts: its model is the local server. */
const web: WebFetchOptions = {};
beforeAll(async () => {
  model.server = await startProviderServer();
  web.llm = {
    provider: "openai",
    baseUrl: `${model.server.url}/v1`,
    apiKey: "test-key",
    model: "test-model",
    env: {},
  };
  return () => model.server.close();
});
const s = serviceSuite({ web });
const mcp = mcpClientSuite(s);

const SCHEMA = {
  type: "object",
  properties: { title: { type: "string" } },
  required: ["title"],
};

/** The model answers the n-th request with the n-th reply (the last one after that). */
function replies(...texts: string[]) {
  model.server.reply((_req, res, n) => openaiReply(res, texts[Math.min(n, texts.length) - 1]!));
}

describe("/v1/fetch with schema", () => {
  it("answers data beside the page's content", async () => {
    replies('{"title":"Guide"}');
    const res = await s.post("/v1/fetch", {
      url: s.page("/guide?v=service"),
      schema: SCHEMA,
      max_length: 100,
    });
    expect(res.status).toBe(200);
    const result = (await res.json()) as Record<string, unknown>;
    expect(result.data).toEqual({ title: "Guide" });
    expect(result.model).toBe("test-model");
    expect(result.content).toMatch(/^An introduction to Guide/);
    expect(result.truncated).toBe(true);
    const sent = JSON.parse(model.server.requests[0]!.body);
    expect(sent.messages[1].content).toContain(JSON.stringify(SCHEMA));
  });

  it("answers 502 MODEL_OUTPUT_INVALID when the repair fails too, and 400 for a bad schema", async () => {
    replies('{"title":1}', '{"title":2}');
    const res = await s.post("/v1/fetch", { url: s.page("/guide?v=bad"), schema: SCHEMA });
    expect(res.status).toBe(502);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("MODEL_OUTPUT_INVALID");
    expect(error.message).toContain("data/title must be string");

    const bad = await s.post("/v1/fetch", { url: s.page("/guide"), schema: "not an object" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });

  it("without schema stays web_fetch: no model call, no data", async () => {
    model.server.reply((_req, res) => openaiReply(res, "{}"));
    const res = await s.post("/v1/fetch", { url: s.page("/guide?v=plain") });
    const result = (await res.json()) as Record<string, unknown>;
    expect(result.data).toBeUndefined();
    expect(model.server.requests).toEqual([]);
  });
});

describe("web_fetch_structured over MCP", () => {
  it("is listed with a model configured, its schema a JSON string", async () => {
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === "web_fetch_structured");
    expect(tool).toBeDefined();
    expect(tool!.inputSchema.required).toEqual(["url", "schema"]);
    expect((tool!.inputSchema.properties as Record<string, { type?: string }>).schema!.type).toBe(
      "string",
    );
  });

  it("returns the data as pretty JSON under the title and URL, and as structured content", async () => {
    replies('{"title":"Guide"}');
    const url = s.page("/guide?v=mcp");
    const result = await mcp.client.callTool({
      name: "web_fetch_structured",
      arguments: { url, schema: JSON.stringify(SCHEMA), prompt: "The page's title" },
    });
    expect(result.isError).toBeFalsy();
    const [first] = result.content as { type: string; text: string }[];
    expect(first!.text).toBe(`Title: Guide\nURL: ${url}\n\n{\n  "title": "Guide"\n}`);
    expect(result.structuredContent).toMatchObject({
      url,
      finalUrl: url,
      title: "Guide",
      data: { title: "Guide" },
      model: "test-model",
      inputTruncated: false,
    });
    expect(result.structuredContent).not.toHaveProperty("content");
    const sent = JSON.parse(model.server.requests[0]!.body);
    expect(sent.messages[1].content).toContain("Task: The page's title");
  });

  it("reports schema text that is not JSON as INVALID_INPUT naming schema", async () => {
    const result = await mcp.client.callTool({
      name: "web_fetch_structured",
      arguments: { url: s.page("/guide"), schema: "{nope" },
    });
    expect(result.isError).toBe(true);
    const [first] = result.content as { type: string; text: string }[];
    expect(first!.text).toContain("schema is not valid JSON");
    expect(first!.text).toContain("INVALID_INPUT");
  });
});
