/**
 * `POST /md`, Crawl4AI's contract field by field, and a Crawl4AI client's flow: `POST
 * {endpoint}/md` with `{url, f: "llm", q: null, c: "0"}`, answered `success: true` with the
 * page's Markdown although no model is configured.
 */
import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import { serviceSuite } from "./helpers.js";

const s = serviceSuite();

interface Md {
  url: string;
  filter: string;
  query: string | null;
  cache: string;
  markdown: string;
  success: boolean;
}

async function md(body: unknown): Promise<{ status: number; body: Md; applied: string | null }> {
  const res = await s.post("/md", body);
  return {
    status: res.status,
    body: (await res.json()) as Md,
    applied: res.headers.get("x-webfetch-filter"),
  };
}

describe("POST /md", () => {
  it("answers exactly Crawl4AI's six fields; defaults f=fit, query null, cache 0", async () => {
    const r = await md({ url: s.page("/article") });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(
      ["cache", "filter", "markdown", "query", "success", "url"].sort(),
    );
    expect(r.body.url).toBe(s.page("/article"));
    expect(r.body.filter).toBe("fit");
    expect(r.body.query).toBeNull();
    expect(r.body.cache).toBe("0");
    expect(r.body.success).toBe(true);
    expect(r.body.markdown).toContain("Paragraph 8 of the article about Fixture Article");
    // fit is the main content: the navigation and the footer are gone.
    expect(r.body.markdown).not.toContain("All rights reserved");
  });

  it("raw is the whole page, navigation and footer included", async () => {
    const r = await md({ url: s.page("/article"), f: "raw" });
    expect(r.body.filter).toBe("raw");
    expect(r.body.markdown).toContain("All rights reserved");
  });

  it("bm25 keeps the chunks matching q and echoes q", async () => {
    const url = s.page("/guide?topics=installation,configuration,upgrades");
    const r = await md({ url, f: "bm25", q: "upgrades" });
    expect(r.body).toMatchObject({ filter: "bm25", query: "upgrades", success: true });
    expect(r.body.markdown).toContain("upgrades steps");
    expect(r.body.markdown).not.toContain("configuration steps");
    expect(r.applied).toBe("bm25");
  });

  it("llm without a model falls back to bm25 and still succeeds", async () => {
    const url = s.page("/guide?topics=installation,configuration,upgrades");
    const r = await md({ url, f: "llm", q: "installation" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ filter: "llm", query: "installation", success: true });
    expect(r.body.markdown).toContain("installation steps");
    expect(r.body.markdown).not.toContain("upgrades steps");
    expect(r.applied).toBe("bm25");
  });

  it('c: "1" accepts a cached answer; anything else fetches fresh', async () => {
    const path = "/guide?title=Cached";
    const url = s.page(path);
    const hits = () => s.fixture.hits.get("/guide") ?? 0;
    await md({ url, c: "1" });
    const after = hits();
    const cached = await md({ url, c: "1" });
    expect(cached.body.cache).toBe("1");
    expect(hits()).toBe(after);
    const fresh = await md({ url, c: "0" });
    expect(fresh.body.cache).toBe("0");
    expect(hits()).toBe(after + 1);
  });

  it("refuses a bad filter or a missing url with 400; a blocked URL with 403", async () => {
    const badFilter = await s.post("/md", { url: s.page("/article"), f: "magic" });
    expect(badFilter.status).toBe(400);
    expect(((await badFilter.json()) as { error: { message: string } }).error.message).toMatch(
      /^f: /,
    );
    const noUrl = await s.post("/md", { f: "fit" });
    expect(noUrl.status).toBe(400);
    const blocked = await s.post("/md", { url: "http://127.0.0.1:9/" });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe(
      "BLOCKED_ADDRESS",
    );
  });
});

describe("a Crawl4AI client's flow", () => {
  it("POST {endpoint}/md with {url, f: llm, q: null, c: '0'} gives the page", async () => {
    // The request as a Crawl4AI client sends it (httpx.post(..., json=...)).
    const endpoint = s.url;
    const res = await fetch(`${endpoint}/md`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: s.page("/article"), f: "llm", q: null, c: "0" }),
    });
    expect(res.status).toBe(200);
    const data = (await res.json()) as Md;
    // The response such a client reads, field by field.
    expect(data).toEqual({
      url: s.page("/article"),
      filter: "llm",
      query: null,
      cache: "0",
      markdown: expect.stringContaining("Paragraph 1 of the article about Fixture Article"),
      success: true,
    });
    // The client cuts the content at max_content_length itself; the service sends it whole.
    expect(data.markdown).toContain("Paragraph 8 of the article");
  });
});
