/** Heading-aware chunking and rendering of chosen chunks under their headings. */
import { describe, expect, it } from "vitest";
import { chunkMarkdown, renderChunks } from "../../src/shape/chunk.js";
import { focusContent } from "../../src/shape/focus.js";

const DOC = [
  "# Guide",
  "",
  "Intro paragraph.",
  "",
  "## Install",
  "",
  "Run the installer.",
  "",
  "```sh",
  "# not a heading",
  "npm install widget",
  "```",
  "",
  "### On Linux",
  "",
  "Use the package manager.",
  "",
  "## Usage ##",
  "",
  "Call widget() to start.",
].join("\n");

describe("chunkMarkdown", () => {
  it("gives every chunk its heading path, outermost first", () => {
    const chunks = chunkMarkdown(DOC);
    expect(chunks.map((c) => c.headings.map((h) => h.text))).toEqual([
      ["Guide"],
      ["Guide", "Install"],
      ["Guide", "Install", "On Linux"],
      ["Guide", "Usage"],
    ]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
  });

  it("never reads a line in a code fence as a heading, and keeps the fence in its chunk", () => {
    const install = chunkMarkdown(DOC)[1]!;
    expect(install.text).toBe(
      "Run the installer.\n\n```sh\n# not a heading\nnpm install widget\n```",
    );
  });

  it("cuts long sections into passages of about a thousand characters at paragraphs", () => {
    const paragraph = `${"word ".repeat(60).trim()}.`;
    const long = `## Long\n\n${Array.from({ length: 10 }, () => paragraph).join("\n\n")}`;
    const chunks = chunkMarkdown(long);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(1_000);
      expect(chunk.headings.map((h) => h.text)).toEqual(["Long"]);
    }
    expect(chunks.map((c) => c.text).join("\n\n")).toBe(long.slice("## Long\n\n".length));
  });

  it("cuts a single huge paragraph (no newline) at spaces, and plain text has no headings", () => {
    const chunks = chunkMarkdown("lorem ".repeat(1_000));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(1_500);
      expect(chunk.headings).toEqual([]);
    }
  });

  it("renders chosen chunks in document order, each heading once", () => {
    const chunks = chunkMarkdown(DOC);
    const text = renderChunks([chunks[3]!, chunks[2]!]);
    expect(text).toBe(
      "# Guide\n\n## Install\n\n### On Linux\n\nUse the package manager.\n\n## Usage ##\n\nCall widget() to start.",
    );
  });
});

describe("focusContent (query)", () => {
  it("keeps only matching chunks, best first within the budget, printed in document order", () => {
    const focused = focusContent(DOC, "linux package manager", 10_000);
    expect(focused.content).toBe(
      "# Guide\n\n## Install\n\n### On Linux\n\nUse the package manager.",
    );
    expect(focused.chunks).toEqual({ total: 4, matched: 1, returned: 1 });
  });

  it("never returns more than maxLength characters, dropping the weaker matches", () => {
    const sections = Array.from(
      { length: 8 },
      (_, i) => `## Part ${i}\n\n${"widget ".repeat(i + 1)}${"filler text here. ".repeat(20)}`,
    ).join("\n\n");
    for (const max of [120, 400, 900, 5_000]) {
      const focused = focusContent(sections, "widget", max);
      expect(focused.content.length).toBeLessThanOrEqual(max);
    }
    const small = focusContent(sections, "widget", 900);
    expect(small.chunks.matched).toBe(8);
    expect(small.chunks.returned).toBeLessThan(8);
    // The best chunk (most "widget"s for its length) is kept.
    expect(small.content).toContain("## Part 7");
  });

  it("a budget smaller than every match still gets the start of the best chunk", () => {
    const focused = focusContent(DOC, "linux package manager", 50);
    expect(focused.content).toBe("# Guide\n\n## Install\n\n### On Linux\n\nUse the package");
    expect(focused.content.length).toBeLessThanOrEqual(50);
    expect(focused.chunks.returned).toBe(1);
  });

  it("returns nothing when no chunk shares a term with the query", () => {
    expect(focusContent(DOC, "kubernetes", 10_000)).toEqual({
      content: "",
      chunks: { total: 4, matched: 0, returned: 0 },
    });
  });
});
