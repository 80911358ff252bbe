import { describe, expect, it } from "vitest";
import { fixtureSuite } from "../helpers/web.js";
import { ALL_TOOLS, toolBox } from "./helpers.js";

const suite = fixtureSuite();

describe("web_fetch tool", () => {
  it("returns a header, the content and the result object", async () => {
    const box = toolBox(suite.t.web);
    const url = suite.server.url("/article");
    const r = await box.tool("web_fetch").call({ url });
    expect(r.isError).toBe(false);
    // The title is said once: the content leaves out the <h1> that repeats it.
    expect(r.text.startsWith(`Title: Fixture Article\nURL: ${url}\n\nParagraph 1 of`)).toBe(true);
    expect(r.structured).toMatchObject({ url, finalUrl: url, title: "Fixture Article" });
    expect(r.structured.id).toMatch(/^p_[0-9a-f]{12}$/);
  });

  it("ends a cut page with a continuation line naming start_index and the id", async () => {
    const box = toolBox(suite.t.web);
    const r = await box
      .tool("web_fetch")
      .call({ url: suite.server.url("/long"), max_length: 2000 });
    const { nextStartIndex, totalLength, id, truncated } = r.structured as Record<string, unknown>;
    expect(truncated).toBe(true);
    expect(
      r.text.endsWith(
        `[Content truncated: showing characters up to ${nextStartIndex} of ${totalLength}. To read more, call again with start_index=${nextStartIndex}, or use web_read / web_grep with id "${id}".]`,
      ),
    ).toBe(true);
    // The library's own line is replaced, not repeated.
    expect(r.text.match(/Content truncated/g)).toHaveLength(1);
  });

  it("honours extract_mode and start_index", async () => {
    const box = toolBox(suite.t.web);
    const url = suite.server.url("/long");
    const first = await box.tool("web_fetch").call({ url, max_length: 1500, extract_mode: "text" });
    const next = (first.structured as { nextStartIndex: number }).nextStartIndex;
    const second = await box.tool("web_fetch").call({
      url,
      max_length: 1500,
      extract_mode: "text",
      start_index: next,
    });
    expect(second.structured).toMatchObject({ format: "text", startIndex: next });
    expect(second.text).not.toContain("# Long Page");
  });

  it("answers prompt without a model with the most relevant passages and a note", async () => {
    const box = toolBox(suite.t.web);
    const url = suite.server.url("/article");
    const r = await box.tool("web_fetch").call({ url, prompt: "what is the article about?" });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({
      prompt: "what is the article about?",
      note: expect.stringContaining("No model is configured"),
    });
  });

  it("turns every failure into an error result with its code", async () => {
    const box = toolBox(suite.t.web);
    const cases: [unknown, string][] = [
      [{ url: "ftp://example.com/" }, "INVALID_URL"],
      [{ url: suite.server.url("/status?code=404") }, "HTTP_ERROR"],
      [{ url: "http://10.0.0.5/" }, "BLOCKED_ADDRESS"],
      [{ url: suite.server.url("/image") }, "UNSUPPORTED_CONTENT_TYPE"],
      [{ url: suite.server.url("/article"), max_length: 0 }, "INVALID_INPUT"],
      [{}, "INVALID_INPUT"],
      ["not an object", "INVALID_INPUT"],
    ];
    for (const [args, code] of cases) {
      const r = await box.tool("web_fetch").call(args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect((r.structured as { error: { code: string } }).error.code).toBe(code);
      expect(r.text).toContain(`Error type: ${code}`);
    }
    // The private address was refused before any socket.
    expect(suite.t.recorder.attempts.some((a) => a.hostname === "10.0.0.5")).toBe(false);
  });

  it("names the bad parameter of an input that breaks the schema", async () => {
    const r = await toolBox(suite.t.web).tool("web_fetch").call({ url: "x", max_length: 0 });
    expect(r.text).toMatch(/^max_length: /);
  });

  it("logs each call with the tool, its outcome and execution_time_ms", async () => {
    const box = toolBox(suite.t.web);
    await box.tool("web_fetch").call({ url: suite.server.url("/article") });
    await box.tool("web_fetch").call({ url: "ftp://x/" });
    expect(box.logs).toHaveLength(2);
    expect(box.logs[0]).toMatchObject({ tool: "web_fetch", outcome: "success" });
    expect(box.logs[1]).toMatchObject({
      tool: "web_fetch",
      outcome: "failed",
      code: "INVALID_URL",
    });
    for (const line of box.logs) expect(typeof line.execution_time_ms).toBe("number");
  });

  it("uses the tool's own max_content_length and timeout", async () => {
    const box = toolBox(suite.t.web, { tools: { web_fetch: { maxLength: 700, timeout: 300 } } });
    const r = await box.tool("web_fetch").call({ url: suite.server.url("/long") });
    expect((r.structured as { content: string }).content.length).toBeLessThanOrEqual(700);
    const hang = await box.tool("web_fetch").call({ url: suite.server.url("/hang") });
    expect((hang.structured as { error: { code: string } }).error.code).toBe("TIMEOUT");
  });
});

describe("tool registry", () => {
  it("offers every tool with read-only annotations", () => {
    const box = toolBox(suite.t.web);
    expect(box.names).toEqual([...ALL_TOOLS]);
    expect(box.tool("web_grep").annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it("prefixes, renames and leaves out disabled tools, and the texts follow", async () => {
    const box = toolBox(suite.t.web, {
      prefix: "wf_",
      tools: {
        web_read: { name: "read_page" },
        web_grep: { enabled: false },
        web_context: { enabled: false },
      },
    });
    expect(box.names).toEqual([
      "wf_web_fetch",
      "wf_web_extract",
      "wf_web_search",
      "wf_read_page",
      "wf_web_map",
      "wf_web_crawl",
    ]);
    const r = await box
      .tool("wf_web_fetch")
      .call({ url: suite.server.url("/long"), max_length: 900 });
    expect(r.text).toMatch(/or use wf_read_page with id "p_[0-9a-f]{12}"\.\]$/);
    expect(box.logs[0]).toMatchObject({ tool: "wf_web_fetch" });
  });

  it("refuses two tools with one name and names hosts refuse", () => {
    expect(() => toolBox(suite.t.web, { tools: { web_read: { name: "web_fetch" } } })).toThrow(
      /both named web_fetch/,
    );
    expect(() => toolBox(suite.t.web, { prefix: "bad prefix " })).toThrow(RangeError);
  });
});
