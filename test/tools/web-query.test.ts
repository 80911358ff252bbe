/**
 * `query` on web_fetch and web_extract, and web_extract of 20 URLs of every kind at once: every
 * valid page returned, every failure listed with its reason, both in input order.
 */
import { describe, expect, it } from "vitest";
import type { FetchResult } from "../../src/result.js";
import { fixtureSuite } from "../helpers/web.js";
import { toolBox } from "./helpers.js";

const suite = fixtureSuite();
/** web_extract's deadline in the mixed test: only the pages that never answer reach it. */
const HANG_DEADLINE_MS = 10_000;
const guide = () =>
  suite.server.url("/guide?title=Widget%20Manual&topics=installation,configuration,upgrades");

describe("query on web_fetch", () => {
  it("returns only the matching passages, under their headings, with a summary line", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_fetch")
      .call({ url: guide(), query: "upgrades" });
    expect(r.isError).toBe(false);
    const page = r.structured as unknown as FetchResult;
    expect(page.content).toBe(
      "## upgrades\n\nThis section explains upgrades in detail. The upgrades steps are short, and every upgrades example works as written.\n\nMore about upgrades: people who read about upgrades usually come back to upgrades again.",
    );
    expect(page).toMatchObject({
      query: "upgrades",
      chunks: { total: 4, matched: 1, returned: 1 },
      truncated: false,
      startIndex: 0,
    });
    expect(page.totalLength).toBeGreaterThan(page.content.length);
    expect(r.text).toContain('Passages matching "upgrades": 1 of 1, in page order\n\n## upgrades');
  });

  it("keeps the best passages that fit max_length, and says when nothing matches", async () => {
    const box = toolBox(suite.t.web);
    const r = await box.tool("web_fetch").call({
      url: guide(),
      query: "configuration upgrades",
      max_length: 300,
    });
    const page = r.structured as unknown as FetchResult;
    expect(page.content.length).toBeLessThanOrEqual(300);
    expect(page.chunks).toMatchObject({ matched: 2, returned: 1 });
    const none = await box.tool("web_fetch").call({ url: guide(), query: "kubernetes" });
    expect(none.isError).toBe(false);
    expect(none.text).toContain('No passage of the page matches "kubernetes".');
    const both = await box.tool("web_fetch").call({ url: guide(), query: "x", start_index: 10 });
    expect(both.text).toMatch(/^start_index: .*\nError type: INVALID_INPUT$/);
  });

  it("speaks Japanese", async () => {
    const { web } = suite.t;
    const ja = toolBox({ ...web, options: { ...web.options, locale: "ja" } });
    const r = await ja.tool("web_fetch").call({ url: guide(), query: "installation" });
    expect(r.text).toContain("「installation」に関係する部分: 全1件のうち1件（ページ内の順）");
  });
});

describe("web_extract", () => {
  it("query focuses every page", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_extract")
      .call({ urls: [guide(), suite.server.url("/article")], query: "configuration" });
    const { results } = r.structured as unknown as { results: FetchResult[] };
    expect(results[0]!.content).toContain("## configuration");
    expect(results[0]!.content).not.toContain("## upgrades");
    expect(results[1]!.content).toBe("");
    expect(r.text).toContain('No passage of the page matches "configuration".');
  });

  it("20 URLs (valid, invalid, 404, timeout mixed): every valid page, every failure with its reason, in input order", async () => {
    const page = (path: string) => suite.server.url(path);
    const urls = [
      page("/article?n=1"),
      "ftp://fixture.test/file",
      page("/status?code=404&n=1"),
      page("/json?n=1"),
      page("/hang?n=1"),
      page("/guide?n=1"),
      "not a url",
      page("/article?n=2"),
      page("/status?code=404&n=2"),
      page("/text?n=1"),
      "https:///path",
      page("/markdown?n=1"),
      page("/hang?n=2"),
      page("/article?n=3"),
      "http://localhost/admin",
      page("/csv?n=1"),
      page("/status?code=404&n=3"),
      page("/rss?n=1"),
      page("/guide?n=2"),
      page("/article?n=4"),
    ];
    expect(urls).toHaveLength(20);
    // Warm up (conversion threads, robots.txt). The deadline is long enough that only /hang
    // meets it on a busy machine; the pages around it still come back.
    await suite.t.web.fetch(page("/article"));
    const box = toolBox(suite.t.web, { tools: { web_extract: { timeout: HANG_DEADLINE_MS } } });
    const r = await box.tool("web_extract").call({ urls });
    const { results, failed } = r.structured as unknown as {
      results: FetchResult[];
      failed: { url: string; code: string; message: string }[];
    };
    const valid = urls.filter(
      (u, i) => u.startsWith("http://fixture.test") && ![2, 4, 8, 12, 16].includes(i),
    );
    expect(results.map((x) => x.url)).toEqual(valid);
    expect(results).toHaveLength(11);
    expect(failed.map((f) => [f.url, f.code])).toEqual([
      ["ftp://fixture.test/file", "INVALID_URL"],
      [urls[2], "HTTP_ERROR"],
      [urls[4], "TIMEOUT"],
      ["not a url", "INVALID_URL"],
      [urls[8], "HTTP_ERROR"],
      ["https:///path", "INVALID_URL"],
      [urls[12], "TIMEOUT"],
      ["http://localhost/admin", "BLOCKED_ADDRESS"],
      [urls[16], "HTTP_ERROR"],
    ]);
    expect(failed[1]!.message).toBe("Page not found (404)");
    expect(failed[2]!.message).toBe(`Request timed out after ${HANG_DEADLINE_MS / 1000}s`);
    // The text lists the pages, then every failure with its reason, in the same order.
    const failedPart = r.text.split("## Failed URLs\n")[1]!;
    expect(failedPart.split("\n")).toEqual(failed.map((f) => `- ${f.url}: ${f.message}`));
  }, 60_000);
});
