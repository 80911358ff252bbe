/**
 * The html and raw formats through the library, the tools and the CLI, against the fixture
 * server: html is the main content as clean HTML with absolute URLs, raw the page as served; both
 * are cut into windows, read and grepped by page id as Markdown is, and cached apart. query and
 * prompt read Markdown or text, so they refuse html and raw (each surface in its own names).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { articleHtml } from "../helpers/fixture-server.js";
import { fixtureSuite, testWeb } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const suite = fixtureSuite();

describe("format html through the library", () => {
  it("is the main content as clean HTML with absolute URLs", async () => {
    const result = await suite.t.web.fetch(suite.server.url("/article"), { format: "html" });
    expect(result.format).toBe("html");
    expect(result.contentType).toBe("text/html");
    expect(result.title).toBe("Fixture Article");
    expect(result.content.startsWith("<article>\n<p>Paragraph 1 ")).toBe(true);
    expect(result.content).toContain(
      `<p>See <a href="${suite.server.url("/related")}">the related page</a> for more.</p>`,
    );
    // The chrome the Markdown leaves out is left out here too.
    for (const chrome of ["Home", "cookies", "Buy our product", "Copyright"]) {
      expect(result.content).not.toContain(chrome);
    }
    const markdown = await suite.t.web.fetch(suite.server.url("/article"));
    expect(markdown.content).toMatch(/^Paragraph 1 of the article/);
    expect(markdown.id).not.toBe(result.id);
  });

  it("takes extract full and selectors as the Markdown does", async () => {
    const url = suite.server.url("/article");
    const full = await suite.t.web.fetch(url, { format: "html", extract: "full" });
    expect(full.content).toContain(`<a href="${suite.server.url("/about")}">About</a>`);
    expect(full.content).toContain("Copyright 2026 Fixture Site");
    const scoped = await suite.t.web.fetch(url, { format: "html", includeSelectors: ["footer"] });
    expect(scoped.content).toBe(
      "<footer>Copyright 2026 Fixture Site. All rights reserved.</footer>",
    );
  });

  it("is cut into windows that web.read and web.grep reach by id", async () => {
    const url = suite.server.url("/long");
    const first = await suite.t.web.fetch(url, { format: "html", maxLength: 5_000 });
    expect(first.truncated).toBe(true);
    expect(first.content.length).toBeLessThanOrEqual(5_000);
    const next = first.nextStartIndex!;
    const second = await suite.t.web.read(first.id, { startIndex: next, length: 5_000 });
    expect(second.format).toBe("html");
    expect(second.startIndex).toBe(next);
    expect(second.content.startsWith("<p>Paragraph ")).toBe(true);
    const whole = await suite.t.web.read(first.id, { length: first.totalLength });
    expect(whole.truncated).toBe(false);
    expect(whole.content.endsWith("</article>")).toBe(true);
    const grep = await suite.t.web.grep(first.id, "<p>Paragraph 400 ");
    expect(grep.matches).toHaveLength(1);
  });
});

describe("format raw through the library", () => {
  it("is the page as served, not extracted, with its metadata", async () => {
    const result = await suite.t.web.fetch(suite.server.url("/article"), { format: "raw" });
    expect(result.format).toBe("raw");
    expect(result.content).toBe(articleHtml("Fixture Article", 8));
    expect(result.title).toBe("Fixture Article");
    expect(result.author).toBe("Ada Lovelace");
    expect(result.warnings).toBeUndefined();
  });

  it("is cut into windows as Markdown is, and read whole by id", async () => {
    const source = articleHtml("Long Page", 400);
    const first = await suite.t.web.fetch(suite.server.url("/long"), {
      format: "raw",
      maxLength: 4_000,
    });
    expect(first.truncated).toBe(true);
    expect(first.totalLength).toBe(source.length);
    expect(first.nextStartIndex).toBeGreaterThan(0);
    const whole = await suite.t.web.read(first.id, { length: first.totalLength });
    expect(whole.content).toBe(source);
  });

  it("of JSON and text is the body as served", async () => {
    const json = await suite.t.web.fetch(suite.server.url("/json"), { format: "raw" });
    expect(json.content).toBe('{"a":1,"b":[1,2],"c":{"d":"e"}}');
    const text = await suite.t.web.fetch(suite.server.url("/text"), { format: "raw" });
    expect(text.content).toBe("line one\r\nline two\r\n");
    const html = await suite.t.web.fetch(suite.server.url("/json"), { format: "html" });
    expect(html.content).toBe(
      '<pre>{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {\n    "d": "e"\n  }\n}</pre>',
    );
  });
});

describe("query and prompt read Markdown or text", () => {
  it("refuse html and raw in the library, as a RangeError naming the options", async () => {
    const url = suite.server.url("/article");
    await expect(suite.t.web.fetch(url, { format: "html", query: "related" })).rejects.toThrow(
      "query reads the page as Markdown or text: it takes no format html",
    );
    await expect(suite.t.web.fetch(url, { format: "raw", prompt: "What?" })).rejects.toThrow(
      "prompt reads the page as Markdown or text: it takes no format raw",
    );
    await expect(suite.t.web.extract([url], { format: "html", query: "related" })).rejects.toThrow(
      RangeError,
    );
    await expect(
      suite.t.web.fetch(url, { format: "raw", includeSelectors: ["p"] }),
    ).rejects.toThrow("format raw is the whole document as served: it takes no includeSelectors");
  });

  it("take Markdown when html is only the instance's default", async () => {
    const t = testWeb(suite.server, { format: "html" });
    try {
      const url = suite.server.url("/article");
      expect((await t.web.fetch(url)).format).toBe("html");
      const focused = await t.web.fetch(url, { query: "related page" });
      expect(focused.format).toBe("markdown");
      expect(focused.content).toContain("[the related page](");
    } finally {
      await t.web.close();
    }
  });

  it("refuse them in web_fetch and web_extract as INVALID_INPUT in the tools' names", async () => {
    const box = toolBox(suite.t.web);
    const url = suite.server.url("/article");
    const fetched = await box
      .tool("web_fetch")
      .call({ url, extract_mode: "html", query: "related" });
    expect(fetched.isError).toBe(true);
    expect(fetched.structured).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message:
          "extract_mode: query reads the page as Markdown or text: it takes no extract_mode html",
      },
    });
    const extracted = await box
      .tool("web_extract")
      .call({ urls: [url], extract_mode: "raw", include_selectors: ["p"] });
    expect(extracted.isError).toBe(true);
    expect(extracted.text).toContain(
      "include_selectors: extract_mode raw is the whole document as served: it takes no include_selectors",
    );
  });
});

describe("the tools and the CLI", () => {
  it("web_fetch takes extract_mode html and continues a cut page by id", async () => {
    const box = toolBox(suite.t.web);
    const r = await box
      .tool("web_fetch")
      .call({ url: suite.server.url("/long"), extract_mode: "html", max_length: 3_000 });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("<p>Paragraph 1 of the article about Long Page.");
    const { id, nextStartIndex } = r.structured as { id: string; nextStartIndex: number };
    const read = await box.tool("web_read").call({ id, start_index: nextStartIndex });
    expect(read.isError).toBe(false);
    expect(read.structured).toMatchObject({ format: "html", startIndex: nextStartIndex });
    const grep = await box.tool("web_grep").call({ id, pattern: "Paragraph 399 " });
    expect(grep.text).toContain("<p>Paragraph 399 ");
  });

  it("--extract-mode html and raw, and the conflict in the flags' names", async () => {
    const url = `http://127.0.0.1:${suite.server.port}/article`;
    const allow = ["--allow-address", `127.0.0.1:${suite.server.port}`];
    const html = await runCli(["fetch", url, "--extract-mode", "html", ...allow]);
    expect(html.status).toBe(0);
    expect(html.stdout).toContain("<p>Paragraph 1 of the article about Fixture Article.");
    const raw = await runCli(["fetch", url, "--extract-mode", "raw", ...allow]);
    expect(raw.status).toBe(0);
    expect(raw.stdout).toBe(`${articleHtml("Fixture Article", 8)}\n`);
    const conflict = await runCli(["fetch", url, "--extract-mode", "html", "--query", "x"]);
    expect(conflict.status).toBe(2);
    expect(conflict.stderr).toContain(
      "INVALID_INPUT: --query reads the page as Markdown or text: it takes no --extract-mode html",
    );
    const selectors = await runCli([
      "convert",
      "-",
      "--extract-mode",
      "raw",
      "--exclude-selector",
      "nav",
    ]);
    expect(selectors.status).toBe(2);
    expect(selectors.stderr).toContain(
      "--extract-mode raw is the whole document as served: it takes no --exclude-selector",
    );
    const converted = await runCli(["convert", "-", "--extract-mode", "html", "--full"], {
      stdin: '<p onclick="x()">Hi <a href="javascript:y()">there</a></p>',
    });
    expect(converted.stdout).toBe("<p>Hi <a>there</a></p>\n");
  });

  const BIN = join(process.cwd(), "dist/bin/webfetch.js");
  it.skipIf(!existsSync(BIN))(
    "the built CLI prints clean HTML in a child process",
    { timeout: 70_000 },
    async () => {
      const url = `http://127.0.0.1:${suite.server.port}/article`;
      const args = [BIN, "fetch", url, "--extract-mode", "html", "--allow-address"];
      const out = await new Promise<{ status: number; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          [...args, `127.0.0.1:${suite.server.port}`],
          { env: { PATH: process.env.PATH }, timeout: 60_000 },
          (error, stdout) => resolve({ status: error ? 1 : 0, stdout }),
        );
      });
      expect(out.status).toBe(0);
      // The <h1> only repeats the title; HTML output prints no title above the content.
      expect(out.stdout.startsWith("<article>\n<p>Paragraph 1 of the article")).toBe(true);
      expect(out.stdout).toContain(`<a href="http://127.0.0.1:${suite.server.port}/related">`);
    },
  );
});
