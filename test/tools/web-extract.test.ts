import { describe, expect, it } from "vitest";
import type { FetchResult } from "../../src/result.js";
import { fixtureSuite, testWeb } from "../helpers/web.js";
import { toolBox } from "./helpers.js";

const suite = fixtureSuite();

interface Extracted {
  results: FetchResult[];
  failed: { url: string; code: string; message: string }[];
}

describe("web.extract (library)", () => {
  it("merges duplicates, lists invalid URLs and failed fetches, keeps input order", async () => {
    const article = suite.server.url("/article");
    const json = suite.server.url("/json");
    const missing = suite.server.url("/status?code=404");
    const r = await suite.t.web.extract([
      "ftp://example.com/file",
      article,
      missing,
      `${article}#again`,
      "not a url",
      json,
      article,
      "https:///path",
    ]);
    expect(r.results.map((x) => x.url)).toEqual([article, json]);
    expect(r.failed).toEqual([
      {
        url: "ftp://example.com/file",
        code: "INVALID_URL",
        message: "Invalid URL: must be http or https",
      },
      { url: missing, code: "HTTP_ERROR", message: "Page not found (404)" },
      {
        url: "not a url",
        code: "INVALID_URL",
        message: "Invalid URL: not an absolute URL (expected http:// or https://…)",
      },
      {
        url: "https:///path",
        code: "INVALID_URL",
        message: "Invalid URL: no host (expected http://host/…)",
      },
    ]);
  });

  it("with every URL invalid, returns no results and every URL as failed", async () => {
    const r = await suite.t.web.extract(["ftp://a/", "mailto:x@y.z", "ftp://a/"]);
    expect(r.results).toEqual([]);
    expect(r.failed.map((f) => f.url)).toEqual(["ftp://a/", "mailto:x@y.z"]);
  });

  it("fetches concurrently and reports progress per URL", async () => {
    const progress: string[] = [];
    const urls = ["/article", "/json", "/text", "/csv"].map((p) => suite.server.url(p));
    await suite.t.web.extract(urls, {
      cache: false,
      onProgress: (p) => progress.push(`${p.done}/${p.total}`),
    });
    expect(progress).toEqual(["1/4", "2/4", "3/4", "4/4"]);
  });

  it("warns about plain http but fetches it", async () => {
    const warnings: object[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (o: object) => warnings.push(o) };
    const { web } = testWeb(suite.server, { logger });
    try {
      const r = await web.extract([suite.server.url("/article")]);
      expect(r.results).toHaveLength(1);
      expect(warnings).toEqual([{ url: suite.server.url("/article") }]);
    } finally {
      await web.close();
    }
  });

  it("refuses an empty list as a programmer error", async () => {
    await expect(suite.t.web.extract([])).rejects.toThrow(RangeError);
  });
});

describe("web_extract tool", () => {
  it("prints sections, separators, then the failed URLs", async () => {
    const box = toolBox(suite.t.web);
    const article = suite.server.url("/article");
    const json = suite.server.url("/json");
    const missing = suite.server.url("/status?code=404");
    const r = await box
      .tool("web_extract")
      .call({ urls: [article, "ftp://x/", missing, json, article] });
    expect(r.isError).toBe(false);
    const { results, failed } = r.structured as unknown as Extracted;
    expect(r.text).toBe(
      [
        "## Extracted content",
        "",
        `### URL: ${article}`,
        "Title: Fixture Article",
        results[0]!.content,
        "",
        "---",
        "",
        `### URL: ${json}`,
        results[1]!.content,
        "",
        "---",
        "",
        "## Failed URLs",
        "- ftp://x/: Invalid URL: must be http or https",
        `- ${missing}: Page not found (404)`,
      ].join("\n"),
    );
    expect(failed.map((f) => f.code)).toEqual(["INVALID_URL", "HTTP_ERROR"]);
  });

  it("prints one section and no failure part when every URL succeeds", async () => {
    const url = suite.server.url("/json");
    const r = await toolBox(suite.t.web)
      .tool("web_extract")
      .call({ urls: [url] });
    const { results } = r.structured as unknown as Extracted;
    expect(r.text).toBe(`## Extracted content\n\n### URL: ${url}\n${results[0]!.content}`);
  });

  it("says so when no URL gave content, and lists them all", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_extract")
      .call({ urls: ["ftp://a/", "b"] });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ results: [] });
    expect(r.text).toBe(
      [
        "## Extracted content",
        "",
        "Could not extract content from any URL.",
        "",
        "## Failed URLs",
        "- ftp://a/: Invalid URL: must be http or https",
        "- b: Invalid URL: not an absolute URL (expected http:// or https://…)",
      ].join("\n"),
    );
  });

  it("takes 1 to 20 URLs, and a query of at most 1000 characters", async () => {
    const tool = toolBox(suite.t.web).tool("web_extract");
    const url = suite.server.url("/article");
    expect((await tool.call({ urls: [] })).isError).toBe(true);
    const many = Array.from({ length: 21 }, (_, i) => `${url}?n=${i}`);
    const tooMany = await tool.call({ urls: many });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.text).toContain("Error type: INVALID_INPUT");
    const query = await tool.call({ urls: [url], query: "x".repeat(1001) });
    expect(query.isError).toBe(true);
    expect(query.text).toMatch(/^query: .*\nError type: INVALID_INPUT$/);
  });
});
