import { describe, expect, it } from "vitest";
import { convertText } from "../../src/convert/text.js";

describe("convertText", () => {
  it("returns text as is", () => {
    expect(convertText("a,b\n1,2\n")).toBe("a,b\n1,2\n");
    expect(convertText("  indented\n\n\ttabbed  ")).toBe("  indented\n\n\ttabbed  ");
    expect(convertText("")).toBe("");
  });

  it("normalizes CRLF and lone CR to LF", () => {
    expect(convertText("a\r\nb\rc\n\r\nd")).toBe("a\nb\nc\n\nd");
  });

  it("strips a leading BOM only", () => {
    expect(convertText("\uFEFFhello\uFEFF")).toBe("hello\uFEFF");
  });
});
