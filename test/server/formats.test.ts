/**
 * The html and raw formats over the HTTP service: `POST /v1/fetch` with extract_mode, web_fetch
 * through the MCP SDK's own client, the reader route's `X-Return-Format: html` (clean
 * main-content HTML, served inert), and remote mode, where a webfetch service takes the format
 * through and a Crawl4AI endpoint cannot.
 */
import { afterAll, describe, expect, it } from "vitest";
import { articleHtml } from "../helpers/fixture-server.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const s = serviceSuite();
const mcp = mcpClientSuite(s);
const clients: TestWeb[] = [];

afterAll(async () => {
  for (const t of clients) {
    await t.web.close();
    expect(t.recorder.refused).toEqual([]);
  }
});

describe("formats over the service", () => {
  it("POST /v1/fetch takes extract_mode html and raw", async () => {
    const html = await s.post("/v1/fetch", { url: s.page("/article"), extract_mode: "html" });
    expect(html.status).toBe(200);
    const page = (await html.json()) as { format: string; content: string };
    expect(page.format).toBe("html");
    expect(page.content).toContain("<p>Paragraph 1 of the article about Fixture Article.");
    expect(page.content).toContain(`<a href="${s.page("/related")}">the related page</a>`);
    const raw = await s.post("/v1/fetch", { url: s.page("/article"), extract_mode: "raw" });
    expect(((await raw.json()) as { content: string }).content).toBe(
      articleHtml("Fixture Article", 8),
    );
  });

  it("POST /v1/fetch cuts html into windows with start_index", async () => {
    const first = await s.post("/v1/fetch", {
      url: s.page("/long"),
      extract_mode: "html",
      max_length: 2_000,
    });
    const cut = (await first.json()) as { truncated: boolean; nextStartIndex: number };
    expect(cut.truncated).toBe(true);
    const next = await s.post("/v1/fetch", {
      url: s.page("/long"),
      extract_mode: "html",
      max_length: 2_000,
      start_index: cut.nextStartIndex,
    });
    expect(await next.json()).toMatchObject({ startIndex: cut.nextStartIndex, format: "html" });
  });

  it("POST /v1/fetch refuses query with html as INVALID_INPUT (400)", async () => {
    const res = await s.post("/v1/fetch", {
      url: s.page("/article"),
      extract_mode: "html",
      query: "related",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message:
          "extract_mode: query reads the page as Markdown or text: it takes no extract_mode html",
      },
    });
  });

  it("web_fetch over MCP takes extract_mode html", async () => {
    const { tools } = await mcp.client.listTools();
    const fetchTool = tools.find((t) => t.name === "web_fetch");
    const mode = fetchTool?.inputSchema.properties?.extract_mode as { enum?: string[] };
    expect(mode.enum).toEqual(["markdown", "text", "html", "raw"]);
    const result = await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/article"), extract_mode: "html", include_selectors: ["footer"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      format: "html",
      content: "<footer>Copyright 2026 Fixture Site. All rights reserved.</footer>",
    });
  });

  it("the reader route serves X-Return-Format: html as inert text/html", async () => {
    const res = await s.get(`/${s.page("/article")}`, { "x-return-format": "html" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await res.text();
    expect(body.startsWith("<article>\n<p>Paragraph 1 of the article")).toBe(true);
    expect(body).not.toContain("Home");
    const raw = await s.get(`/${s.page("/article")}`, { "x-return-format": "raw" });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({
      error: {
        message: "X-Return-Format must be one of markdown, text, html, screenshot, pageshot",
      },
    });
  });
});

describe("formats in remote mode", () => {
  const client = (kind?: "webfetch") => {
    const t = testWeb(undefined, {
      retries: 0,
      endpoint: s.url,
      ...(kind ? { endpointKind: kind } : {}),
    });
    clients.push(t);
    return t;
  };

  it("a webfetch service gives html and raw as it converts them", async () => {
    const t = client("webfetch");
    const direct = await s.t.web.fetch(s.page("/article"), { format: "html" });
    const html = await t.web.fetch(s.page("/article"), { format: "html" });
    expect(html.format).toBe("html");
    expect(html.content).toBe(direct.content);
    const raw = await t.web.fetch(s.page("/article"), { format: "raw", extract: "full" });
    expect(raw.content).toBe(articleHtml("Fixture Article", 8));
    const full = await failure(
      t.web.fetch(s.page("/article"), { format: "html", extract: "full" }),
    );
    expect(full.code).toBe("INVALID_INPUT");
  });

  it("a Crawl4AI endpoint refuses html and raw before any request", async () => {
    const t = client();
    for (const format of ["html", "raw"] as const) {
      const error = await failure(t.web.fetch(s.page("/article"), { format }));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toBe(
        `format ${format} needs the page converted here or by a webfetch service, not by a Crawl4AI endpoint`,
      );
    }
    expect(t.recorder.attempts).toEqual([]);
  });
});
