import { describe, expect, it } from "vitest";
import { convertJson } from "../../src/convert/json.js";

describe("convertJson", () => {
  it("pretty-prints with a 2-space indent, like JSON.stringify", () => {
    const cases = [
      '{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":[],"g":{}}',
      "[1,[2,[3]],{}]",
      '"just a string"',
      "42",
      "null",
      '{ "spaced" : [ 1 , 2 ] , "empty" : [ ] , "obj" : { } }',
      '[{"a":[{"b":[]}]}]',
    ];
    for (const text of cases) {
      expect(convertJson(text)).toBe(JSON.stringify(JSON.parse(text), null, 2));
    }
  });

  it("keeps number literals exactly as written (no precision loss)", () => {
    expect(convertJson('{"id":12345678901234567890,"x":1.0,"y":1e400,"z":-0.10}')).toBe(
      '{\n  "id": 12345678901234567890,\n  "x": 1.0,\n  "y": 1e400,\n  "z": -0.10\n}',
    );
  });

  it("keeps duplicate keys", () => {
    expect(convertJson('{"a":1,"a":2}')).toBe('{\n  "a": 1,\n  "a": 2\n}');
  });

  it("resolves needless escapes in strings but keeps required ones", () => {
    expect(convertJson('["\\u65e5\\u672c", "a\\/b", "q\\"uote", "line\\nbreak", "tab\\t"]')).toBe(
      '[\n  "日本",\n  "a/b",\n  "q\\"uote",\n  "line\\nbreak",\n  "tab\\t"\n]',
    );
  });

  it("keeps strings with structural characters intact", () => {
    const text = '{"k":"a,b:{c}[d] \\\\"}';
    expect(convertJson(text)).toBe(JSON.stringify(JSON.parse(text), null, 2));
  });

  it("returns invalid JSON unchanged", () => {
    for (const text of ["{not json}", "", "[1,2", "{'a':1}", "<html>"]) {
      expect(convertJson(text)).toBe(text);
    }
  });

  it("accepts a leading BOM and surrounding whitespace", () => {
    expect(convertJson('\uFEFF\n {"a":1} \n')).toBe('{\n  "a": 1\n}');
  });

  it("does not overflow the stack or explode on deep nesting", () => {
    const depth = 100_000;
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    // Pretty output would be ~10 GB of spaces: the compact original is returned instead.
    expect(convertJson(deep)).toBe(deep);
    const moderate = `${"[".repeat(50)}1${"]".repeat(50)}`;
    expect(convertJson(moderate)).toBe(JSON.stringify(JSON.parse(moderate), null, 2));
  });
});
