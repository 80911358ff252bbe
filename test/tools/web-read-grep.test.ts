import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FetchResult, GrepResult } from "../../src/result.js";
import { failure, fixtureSuite, testWeb } from "../helpers/web.js";
import { toolBox } from "./helpers.js";

const suite = fixtureSuite();

/** Fetches /long cut at 2,000 characters through the web_fetch tool. */
async function cutPage(box = toolBox(suite.t.web)) {
  const r = await box.tool("web_fetch").call({ url: suite.server.url("/long"), max_length: 2000 });
  return r.structured as unknown as FetchResult;
}

describe("web_read tool", () => {
  it("continues a cut page by id from start_index", async () => {
    const box = toolBox(suite.t.web);
    const page = await cutPage(box);
    const full = await suite.t.web.read(page.id, { length: 100_000 });
    const r = await box.tool("web_read").call({
      id: page.id,
      start_index: page.nextStartIndex,
      length: 3000,
    });
    expect(r.isError).toBe(false);
    const slice = r.structured as unknown as FetchResult;
    expect(slice.startIndex).toBe(page.nextStartIndex);
    expect(slice.id).toBe(page.id);
    expect(slice.cached).toBe(true);
    expect(full.content.slice(page.nextStartIndex!).startsWith(slice.content.slice(0, 500))).toBe(
      true,
    );
    expect(r.text).toMatch(/^Title: Long Page\nURL: /);
    expect(r.text).toContain(`start_index=${slice.nextStartIndex}`);
  });

  it("reads by URL, fetching the page when it was not fetched before", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_read")
      .call({ url: suite.server.url("/markdown") });
    expect(r.isError).toBe(false);
    expect((r.structured as unknown as FetchResult).content).toContain("Already *Markdown*.");
  });

  it("needs a url or an id, and knows no id it never gave", async () => {
    const tool = toolBox(suite.t.web).tool("web_read");
    const none = await tool.call({});
    expect(none.text).toBe(
      "Give the url or the id of a page fetched earlier\nError type: INVALID_INPUT",
    );
    const unknown = await tool.call({ id: "p_000000000000" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('Unknown page id "p_000000000000"');
  });
});

describe("a malformed page id", () => {
  /** Ids that no fetch gives: read as ids, never as URLs. */
  const MALFORMED = ["abc", "../x", "p_XYZ", "P_000000000000", "http://fixture.test/long", "a\nb"];

  it("is an unknown id (INVALID_INPUT) to web_read and web_grep, never an URL error", async () => {
    const box = toolBox(suite.t.web);
    for (const id of MALFORMED) {
      for (const r of [
        await box.tool("web_read").call({ id }),
        await box.tool("web_grep").call({ id, pattern: "x" }),
      ]) {
        expect(r.isError).toBe(true);
        expect(r.structured).toMatchObject({ error: { code: "INVALID_INPUT" } });
        expect(r.text).toContain(
          `Unknown page id ${JSON.stringify(id)}: fetch the page again and use the id`,
        );
      }
    }
    // The schema bounds an id's length: still bad input, not a URL.
    for (const id of ["", "x".repeat(65), "x".repeat(100_000)]) {
      const r = await box.tool("web_read").call({ id });
      expect(r.structured).toMatchObject({ error: { code: "INVALID_INPUT" } });
      expect(r.text).toMatch(/^id: /);
    }
  });

  it("is an unknown id to web.read and web.grep; a ref with a scheme is still a URL", async () => {
    const web = suite.t.web;
    for (const ref of ["abc", "../x", "", "p_XYZ", "x".repeat(100_000)]) {
      for (const call of [() => web.read(ref), () => web.grep(ref, "x")]) {
        const error = await failure(call());
        expect(error.code).toBe("INVALID_INPUT");
        expect(error.message).toMatch(/^Unknown page id ".*": fetch the page again/);
        // An id of any length is shown short.
        expect(error.message.length).toBeLessThan(200);
      }
    }
    const error = await failure(web.read("ftp://fixture.test/x"));
    expect(error.code).toBe("INVALID_URL");
  });
});

describe("web_grep tool", () => {
  it("returns matching lines with their numbers and context", async () => {
    const box = toolBox(suite.t.web);
    const page = await cutPage(box);
    const lines = (await suite.t.web.read(page.id, { length: 100_000 })).content.split("\n");
    const r = await box.tool("web_grep").call({
      id: page.id,
      pattern: "paragraph 37[0-9] of",
      context_lines: 1,
    });
    expect(r.isError).toBe(false);
    const g = r.structured as unknown as GrepResult;
    expect(g.mode).toBe("regex");
    expect(g.matchCount).toBe(10);
    const first = g.matches[0]!;
    expect(lines[first.line - 1]).toBe(first.text);
    expect(first.text).toContain("Paragraph 370 of");
    expect(r.text).toContain(`10 matching lines for "paragraph 37[0-9] of"`);
    expect(r.text).toContain(`\n${first.line}: ${first.text}`);
    expect(r.text).toContain(`\n${first.line - 1}- ${lines[first.line - 2]}`);
  });

  it("searches an invalid pattern as literal text and says so", async () => {
    const box = toolBox(suite.t.web);
    await box.tool("web_fetch").call({ url: suite.server.url("/json") });
    const r = await box
      .tool("web_grep")
      .call({ url: suite.server.url("/json"), pattern: '"b": [' });
    const g = r.structured as unknown as GrepResult;
    expect(g.mode).toBe("literal");
    expect(r.text).toContain("searched as literal text");
    expect(g.matches.map((m) => m.text.trim())).toEqual(['"b": [']);
  });

  it("says when nothing matches", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_grep")
      .call({ url: suite.server.url("/article"), pattern: "zebra" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('No lines match "zebra".');
  });

  it("bounds the pattern and the context", async () => {
    const tool = toolBox(suite.t.web).tool("web_grep");
    const url = suite.server.url("/article");
    expect((await tool.call({ url, pattern: "x".repeat(501) })).isError).toBe(true);
    expect((await tool.call({ url, pattern: "x", context_lines: 11 })).isError).toBe(true);
    expect((await tool.call({ url, pattern: "" })).isError).toBe(true);
  });
});

describe("saveDir", () => {
  it("writes the full content of a cut page and reads it back when the cache has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-save-"));
    const { web } = testWeb(suite.server, { saveDir: dir, cache: false });
    try {
      const box = toolBox(web);
      const r = await box
        .tool("web_fetch")
        .call({ url: suite.server.url("/long"), max_length: 2000 });
      const page = r.structured as unknown as FetchResult;
      expect(page.savedPath).toBe(join(dir, `fixture.test-${page.id}.md`));
      expect(r.text).toContain(`Saved to: ${page.savedPath}`);
      const saved = readFileSync(page.savedPath!, "utf8");
      expect(saved.length).toBe(page.totalLength);
      const hits = suite.server.hits.get("/long");
      // No cache: reading goes to the saved file, not the network.
      const more = await box.tool("web_read").call({ id: page.id, start_index: 2000, length: 500 });
      expect((more.structured as unknown as FetchResult).savedPath).toBe(page.savedPath);
      const grep = await box.tool("web_grep").call({ id: page.id, pattern: "Paragraph 400 of" });
      expect((grep.structured as unknown as GrepResult).matchCount).toBe(1);
      expect(suite.server.hits.get("/long")).toBe(hits);
    } finally {
      await web.close();
    }
  });

  it("writes nothing for a page that fits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-save-"));
    const { web } = testWeb(suite.server, { saveDir: dir });
    try {
      const r = await web.fetch(suite.server.url("/article"));
      expect(r).not.toHaveProperty("savedPath");
    } finally {
      await web.close();
    }
  });
});
