import { describe, expect, it } from "vitest";
import { continuationLine, shapeContent } from "../../src/shape/truncate.js";

const paragraphs = Array.from(
  { length: 50 },
  (_, i) => `Paragraph ${i} ${"word ".repeat(30).trim()}.`,
).join("\n\n");

describe("shapeContent", () => {
  it("returns short content whole", () => {
    expect(shapeContent("hello", { startIndex: 0, maxLength: 100 })).toEqual({
      content: "hello",
      totalLength: 5,
      startIndex: 0,
      truncated: false,
    });
  });

  it("cuts at a paragraph boundary and fits the budget, continuation line included", () => {
    const r = shapeContent(paragraphs, { startIndex: 0, maxLength: 1000 });
    expect(r.truncated).toBe(true);
    expect(r.content.length).toBeLessThanOrEqual(1000);
    const next = r.nextStartIndex!;
    expect(paragraphs.slice(next).startsWith("Paragraph")).toBe(true);
    expect(r.content.endsWith(continuationLine(next, paragraphs.length))).toBe(true);
    expect(r.content).toContain(String(next));
  });

  it("reads the whole text window by window without losing or repeating a character", () => {
    let start = 0;
    let rebuilt = "";
    for (let guard = 0; guard < 100; guard++) {
      const r = shapeContent(paragraphs, { startIndex: start, maxLength: 700 });
      if (!r.truncated) {
        rebuilt += r.content;
        break;
      }
      rebuilt += paragraphs.slice(start, r.nextStartIndex);
      start = r.nextStartIndex!;
    }
    expect(rebuilt).toBe(paragraphs);
  });

  it("falls back to a line, then a space, then a hard cut", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const byLine = shapeContent(lines, { startIndex: 0, maxLength: 300 });
    expect(lines[byLine.nextStartIndex! - 1]).toBe("\n");
    const words = "word ".repeat(200);
    const byWord = shapeContent(words, { startIndex: 0, maxLength: 300 });
    expect(words[byWord.nextStartIndex! - 1]).toBe(" ");
    const solid = "x".repeat(1000);
    expect(shapeContent(solid, { startIndex: 0, maxLength: 300 }).nextStartIndex).toBeGreaterThan(
      100,
    );
  });

  it("never splits a surrogate pair", () => {
    const emoji = "😀".repeat(500);
    for (const maxLength of [150, 151, 301, 302]) {
      const r = shapeContent(emoji, { startIndex: 0, maxLength });
      const next = r.nextStartIndex!;
      expect(next % 2).toBe(0);
    }
  });
});
