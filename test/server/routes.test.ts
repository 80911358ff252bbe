/**
 * The HTTP service's routes over real HTTP on 127.0.0.1: the REST routes take the tools' inputs
 * and answer their result objects, the reader route answers Markdown or JSON, and every failure
 * is `{error: {code, message}}` with its mapped status. Pages come from the fixture server only.
 */
import { describe, expect, it } from "vitest";
import { readerRequest } from "../../src/server/reader.js";
import { json } from "../helpers/provider-server.js";
import { serviceSuite } from "./helpers.js";

const s = serviceSuite();

describe("GET /health", () => {
  it("answers ok with the version", async () => {
    const res = await s.get("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", version: expect.any(String) });
  });
});

describe("POST /v1/*", () => {
  it("fetch: web_fetch's input in, the result object out", async () => {
    const res = await s.post("/v1/fetch", { url: s.page("/article"), max_length: 300 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      url: s.page("/article"),
      status: 200,
      title: "Fixture Article",
      format: "markdown",
      truncated: true,
      cached: false,
    });
    expect(String(body.content)).toContain("Paragraph 1 of the article");
  });

  it("read and grep: the rest of a cut page by its id", async () => {
    const first = (await (
      await s.post("/v1/fetch", { url: s.page("/long"), max_length: 500 })
    ).json()) as { id: string; truncated: boolean; nextStartIndex: number };
    expect(first.truncated).toBe(true);
    const read = await s.post("/v1/read", { id: first.id, start_index: first.nextStartIndex });
    expect(read.status).toBe(200);
    const window = (await read.json()) as { id: string; startIndex: number; content: string };
    expect(window).toMatchObject({ id: first.id, startIndex: first.nextStartIndex });
    expect(window.content.length).toBeGreaterThan(0);
    const grep = await s.post("/v1/grep", { id: first.id, pattern: "Paragraph 400 " });
    expect(grep.status).toBe(200);
    expect(await grep.json()).toMatchObject({ id: first.id, pattern: "Paragraph 400 " });
    const unknown = await s.post("/v1/read", { id: "p_0000000000000000" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: "INVALID_INPUT" } });
  });

  it("extract: results and failures, never thrown", async () => {
    const res = await s.post("/v1/extract", { urls: [s.page("/article"), "ftp://x.test/"] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      results: { title: string }[];
      failed: { url: string; code: string }[];
    };
    expect(body.results.map((r) => r.title)).toEqual(["Fixture Article"]);
    expect(body.failed).toEqual([
      expect.objectContaining({ url: "ftp://x.test/", code: "INVALID_URL" }),
    ]);
  });

  it("search and context: through the configured provider", async () => {
    s.provider.reply((_req, res) =>
      json(res, 200, {
        results: [
          { title: "Guide", url: s.page("/guide"), content: "installation steps", score: 0.9 },
        ],
      }),
    );
    const search = await s.post("/v1/search", { query: "installation", max_results: 1 });
    expect(search.status).toBe(200);
    expect(await search.json()).toMatchObject({
      query: "installation",
      provider: "tavily",
      results: [{ title: "Guide", url: s.page("/guide"), score: 0.9 }],
    });
    const context = await s.post("/v1/context", { query: "installation", max_tokens: 500 });
    expect(context.status).toBe(200);
    const body = (await context.json()) as { context: string; sources: { url: string }[] };
    expect(body.sources).toEqual([expect.objectContaining({ url: s.page("/guide") })]);
    expect(body.context).toContain("installation");
  });

  it("a provider failure is an upstream failure (502)", async () => {
    s.provider.reply((_req, res) => json(res, 500, { detail: "down" }));
    const res = await s.post("/v1/search", { query: "x" });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      error: { code: "PROVIDER_ERROR", message: expect.any(String) },
    });
  });

  it("bad input is 400 naming the field; a body that is not JSON is 400", async () => {
    const bad = await s.post("/v1/fetch", { url: s.page("/article"), max_length: -1 });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("INVALID_INPUT");
    expect(body.error.message).toMatch(/^max_length: /);
    const notJson = await s.post("/v1/fetch", "{not json");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      error: { code: "INVALID_INPUT", message: "Request body must be JSON" },
    });
    // What a web page may send cross-origin without a preflight is refused.
    const plain = await s.post("/md", JSON.stringify({ url: s.page("/article") }), {
      "content-type": "text/plain",
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      error: { code: "INVALID_INPUT", message: "Content-Type must be application/json" },
    });
    const badUrl = await s.post("/v1/fetch", { url: "file:///etc/passwd" });
    expect(badUrl.status).toBe(400);
    expect(((await badUrl.json()) as { error: { code: string } }).error.code).toBe("INVALID_URL");
  });

  it("maps policy refusals to 403, upstream failures to 502", async () => {
    // Loopback outside the one opened port: the guard refuses it before any connection.
    const blocked = await s.post("/v1/fetch", { url: "http://127.0.0.1:9/" });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe(
      "BLOCKED_ADDRESS",
    );
    const robots = await s.post("/v1/fetch", {
      url: s.page("/private", "robots-disallow.test"),
    });
    expect(robots.status).toBe(403);
    expect(((await robots.json()) as { error: { code: string } }).error.code).toBe(
      "ROBOTS_DISALLOWED",
    );
    const missing = await s.post("/v1/fetch", { url: s.page("/status?code=404") });
    expect(missing.status).toBe(502);
    expect(await missing.json()).toEqual({
      error: { code: "HTTP_ERROR", message: "Page not found (404)" },
    });
  });

  it("an unknown route is 404 in the same error shape", async () => {
    const res = await s.post("/v1/nothing", {});
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    // A GET of the service's own that is no URL either: `/` is the playground now.
    const other = await s.get("/nothing-here");
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });
});

describe("GET /<url> (reader)", () => {
  it("answers the page as Markdown, whole", async () => {
    const res = await s.get(`/${s.page("/long")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await res.text();
    expect(text).toContain("Paragraph 1 of the article about Long Page");
    expect(text).toContain("Paragraph 400 of the article about Long Page");
  });

  it("answers Jina's JSON envelope with Accept: application/json, query string kept", async () => {
    const res = await s.get(`/${s.page("/guide?title=Reader")}`, { accept: "application/json" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      code: 200,
      status: 20000,
      data: { url: s.page("/guide?title=Reader"), title: "Reader", truncated: false },
    });
  });

  it("speaks Jina's headers: format, target and remove selectors, no-cache, timeout", async () => {
    const url = `/${s.page("/article")}`;
    const text = await s.get(url, {
      "x-return-format": "text",
      "x-target-selector": "article",
      "x-remove-selector": "p",
      "x-no-cache": "true",
      "x-timeout": "20",
      "x-unknown-header": "ignored",
    });
    expect(text.status).toBe(200);
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("Fixture Article");
    const missing = await s.get(url, { "x-target-selector": "#absent" });
    expect(missing.status).toBe(422);
    const badFormat = await s.get(url, { "x-return-format": "pdf" });
    expect(badFormat.status).toBe(400);
    const badTimeout = await s.get(url, { "x-timeout": "soon" });
    expect(((await badTimeout.json()) as { error: { message: string } }).error.message).toContain(
      "X-Timeout",
    );
  });

  it("reads a target without a scheme as https, and keeps its own root files", async () => {
    const none = () => undefined;
    expect(readerRequest("example.com/a?b=1", none)?.url).toBe("https://example.com/a?b=1");
    expect(readerRequest("http://example.com/", none)?.url).toBe("http://example.com/");
    expect(readerRequest("v1", none)).toBeUndefined();
    expect((await s.get("/favicon.ico")).status).toBe(404);
    expect((await s.get("/robots.txt")).status).toBe(404);
  });

  it("names why a page is thin: warnings in the JSON, an X-Webfetch-Warnings header beside Markdown", async () => {
    const json = await s.post("/v1/fetch", { url: s.page("/empty-page") });
    expect(((await json.json()) as { warnings?: string[] }).warnings).toEqual([
      "The page has no text that could be extracted",
    ]);
    const res = await s.get(`/${s.page("/empty-page")}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.headers.get("x-webfetch-warnings") ?? "null")).toEqual([
      "The page has no text that could be extracted",
    ]);
    const plain = await s.get(`/${s.page("/long")}`);
    expect(plain.headers.get("x-webfetch-warnings")).toBeNull();
  });

  it("refuses a blocked address with 403", async () => {
    const res = await s.get("/http://127.0.0.1:9/x");
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("BLOCKED_ADDRESS");
  });
});

describe("limits and logging", () => {
  it("refuses a body over 1 MiB with 413", async () => {
    const big = JSON.stringify({ url: s.page("/article"), pad: "x".repeat(1024 * 1024) });
    const res = await s.post("/v1/fetch", big);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
  });

  it("counts a chunked body as it arrives: over 1 MiB is refused with 413, under is served", async () => {
    const chunked = (text: string) =>
      fetch(`${s.url}/v1/fetch`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        // A stream has no length to declare: it goes out in chunks.
        body: new Blob([text]).stream(),
        duplex: "half",
      } as RequestInit);
    const big = await chunked(
      JSON.stringify({ url: s.page("/article"), pad: "x".repeat(2 ** 20) }),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe(
      "PAYLOAD_TOO_LARGE",
    );
    const small = await chunked(JSON.stringify({ url: s.page("/article") }));
    expect(small.status).toBe(200);
    expect(((await small.json()) as { title: string }).title).toBe("Fixture Article");
  });

  it("logs one access line per request, without headers", async () => {
    const before = s.logs.filter((l) => l.msg === "request").length;
    await s.get("/health", { authorization: "Bearer secret-in-header" });
    const lines = s.logs.filter((l) => l.msg === "request");
    expect(lines.length).toBe(before + 1);
    expect(lines.at(-1)).toEqual({
      method: "GET",
      path: "/health",
      status: 200,
      ms: expect.any(Number),
      client: "127.0.0.1",
      msg: "request",
    });
    expect(JSON.stringify(s.logs)).not.toContain("secret-in-header");
  });
});
