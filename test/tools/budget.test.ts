/**
 * The token budget of the tool layer (what the MCP server asks with `maxTokens`): a cut page
 * reads on exactly where its window stops, focused passages are shortened without a window, the
 * progress callback hears each URL, and a call without a budget is what it always was.
 */
import { describe, expect, it } from "vitest";
import type { FetchResult } from "../../src/result.js";
import { tokenCounter } from "../../src/shape/tokens.js";
import { measureOutput, waterLevel } from "../../src/tools/budget.js";
import type { ToolProgress } from "../../src/tools/types.js";
import { fixtureSuite } from "../helpers/web.js";
import { toolBox } from "./helpers.js";

const suite = fixtureSuite();
const BUDGET = 1_200;

describe("tool results within a token budget", () => {
  it("cuts a page's window shorter, and the rest starts where it stops", async () => {
    const box = toolBox(suite.t.web);
    const url = suite.server.url("/long");
    const r = await box.tool("web_fetch").call({ url, max_length: 50_000 }, { maxTokens: BUDGET });
    expect(r.isError).toBe(false);
    expect(measureOutput(r, await tokenCounter())).toBeLessThanOrEqual(BUDGET);
    const page = r.structured as unknown as FetchResult;
    expect(r.rest).toEqual([
      {
        id: page.id,
        url,
        title: "Long Page",
        format: "markdown",
        contentType: "text/html",
        start: page.nextStartIndex,
        total: page.totalLength,
      },
    ]);
    // The room the page's fields leave is the content's: far more than a line of it.
    expect(page.nextStartIndex).toBeGreaterThan(800);
    const full = await suite.t.web.read(page.id, { length: 100_000 });
    const shown = page.content.slice(0, page.content.lastIndexOf("\n\n[Content truncated"));
    expect(full.content.startsWith(shown)).toBe(true);
    expect(full.content.slice(page.nextStartIndex!)).toMatch(/^Paragraph \d+ of/);
    expect(r.text).toContain(`start_index=${page.nextStartIndex}`);
  });

  it("shortens focused passages (no window: the rest is the page from its start)", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_fetch")
      .call(
        { url: suite.server.url("/long"), query: "article paragraph", max_length: 50_000 },
        { maxTokens: BUDGET },
      );
    expect(measureOutput(r, await tokenCounter())).toBeLessThanOrEqual(BUDGET);
    const page = r.structured as unknown as FetchResult;
    expect(page.nextStartIndex).toBeUndefined();
    expect(page.warnings?.at(-1)).toMatch(/^Cut to fit the client's limit of 1200 tokens/);
    expect(r.rest?.[0]?.start).toBe(0);
  });

  it("leaves a call without a budget as it was, and reports web_extract's progress", async () => {
    const box = toolBox(suite.t.web);
    const url = suite.server.url("/long");
    const plain = await box.tool("web_fetch").call({ url, max_length: 50_000 });
    expect(plain.rest).toBeUndefined();
    expect((plain.structured as unknown as FetchResult).content.length).toBeGreaterThan(40_000);

    const seen: ToolProgress[] = [];
    const urls = [suite.server.url("/article"), url];
    await box.tool("web_extract").call({ urls }, { onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => [p.progress, p.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it("finds the level that frees what is needed from the longest first", () => {
    expect(waterLevel([100, 50, 10], 60)).toBe(45);
    expect(waterLevel([100, 50, 10], 30)).toBe(70);
    expect(waterLevel([100, 50, 10], 500)).toBe(0);
  });
});
