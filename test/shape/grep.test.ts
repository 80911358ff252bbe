import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import { grepContent } from "../../src/shape/grep.js";

const TEXT = [
  "# Install",
  "",
  "Run npm install.",
  "Then configure it.",
  "",
  "## Usage",
  "Call it.",
].join("\n");

describe("grepContent", () => {
  it("returns 1-based line numbers with context before and after", () => {
    const r = grepContent(TEXT, "configure", { contextLines: 1 });
    expect(r.mode).toBe("regex");
    expect(r.matchCount).toBe(1);
    expect(r.totalLines).toBe(7);
    expect(r.matches).toEqual([
      { line: 4, text: "Then configure it.", before: ["Run npm install."], after: [""] },
    ]);
  });

  it("is case-insensitive unless the pattern has a capital (smart case)", () => {
    expect(grepContent(TEXT, "install", { contextLines: 0 }).matchCount).toBe(2);
    expect(grepContent(TEXT, "Install", { contextLines: 0 }).matches.map((m) => m.line)).toEqual([
      1,
    ]);
  });

  it("reads the pattern as a regular expression", () => {
    const r = grepContent(TEXT, "^#+ ", { contextLines: 0 });
    expect(r.matches.map((m) => m.line)).toEqual([1, 6]);
  });

  it("searches an invalid regular expression as literal text", () => {
    const r = grepContent("a (b\nc", "(b", { contextLines: 0 });
    expect(r.mode).toBe("literal");
    expect(r.fallback).toBe("invalid-regex");
    expect(r.matches).toEqual([{ line: 1, text: "a (b", before: [], after: [] }]);
  });

  it("stops a catastrophic regular expression within its time budget and searches literally", () => {
    const evil = `${"a".repeat(40)}b\n(a+)+$ literally`;
    // The fallback says the budget stopped the expression; unstopped, it would outlast the test.
    const r = grepContent(evil, "(a+)+$", { contextLines: 0, timeBudgetMs: 200 });
    expect(r.mode).toBe("literal");
    expect(r.fallback).toBe("slow-regex");
    expect(r.matches.map((m) => m.line)).toEqual([2]);
  });

  it("reports at most maxMatches lines but counts them all", () => {
    const many = Array.from({ length: 500 }, (_, i) => `row ${i}`).join("\n");
    const r = grepContent(many, "row", { contextLines: 0 });
    expect(r.matchCount).toBe(500);
    expect(r.matches).toHaveLength(LIMITS.grepMaxMatches);
  });

  it("clips a long line around the match", () => {
    const line = `${"x".repeat(5_000)}needle${"y".repeat(5_000)}`;
    const [m] = grepContent(line, "needle", { contextLines: 0 }).matches;
    expect(m!.text.length).toBeLessThanOrEqual(LIMITS.grepLineChars + 2);
    expect(m!.text).toContain("needle");
    expect(m!.text.startsWith("…")).toBe(true);
    expect(m!.text.endsWith("…")).toBe(true);
  });

  it("refuses an empty or overlong pattern", () => {
    expect(() => grepContent(TEXT, "", { contextLines: 0 })).toThrow(RangeError);
    expect(() =>
      grepContent(TEXT, "x".repeat(LIMITS.grepMaxPattern + 1), { contextLines: 0 }),
    ).toThrow(RangeError);
  });
});
