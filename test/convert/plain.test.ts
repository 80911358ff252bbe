/**
 * Plain text converts where it arrives, not on a thread: the result must be the one the thread
 * would give, for every plain kind and format, and every other body must go to the thread.
 */
import { describe, expect, it } from "vitest";
import { convertBody } from "../../src/convert/index.js";
import { convertInline } from "../../src/convert/plain.js";
import { OUTPUT_FORMATS } from "../../src/values.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const MAX = 1_048_576;

const PLAIN: readonly [string, string | undefined, string][] = [
  ["text with CRLF and a BOM", "text/plain; charset=utf-8", "\uFEFFline one\r\nline two\rthree\n"],
  ["Markdown", "text/markdown", "# Title\n\nSome *text* & <b>tags</b>\u00a0here.\n"],
  ["CSV", "text/csv", "a,b\r\n1,2\r\n"],
  ["XML that is not a feed", "application/xml", '<?xml version="1.0"?><root><a>1</a></root>'],
  ["text in windows-1252", "text/plain; charset=windows-1252", "caf\u00e9"],
  ["empty text", "text/plain", ""],
  ["text with no type", undefined, "just some words\n"],
];

describe("convertInline", () => {
  for (const [name, type, text] of PLAIN) {
    for (const format of OUTPUT_FORMATS) {
      it(`gives what the thread gives: ${name}, ${format}`, async () => {
        const body = type?.includes("1252")
          ? Uint8Array.from([0x63, 0x61, 0x66, 0xe9])
          : bytes(text);
        const options = { url: "http://127.0.0.1/x", format, extract: "main" as const };
        const inline = convertInline(body, type, options.url, format, MAX);
        expect(inline).toBeDefined();
        expect(inline).toEqual(await convertBody(body, type, options));
      });
    }
  }

  it.each([
    ["HTML", "text/html", "<!doctype html><p>Hello</p>"],
    ["JSON", "application/json", '{"a":1}'],
    [
      "a feed",
      "application/rss+xml",
      '<?xml version="1.0"?><rss><channel><title>T</title></channel></rss>',
    ],
    ["HTML labelled as text", "text/plain", "<!DOCTYPE html><html><body>x</body></html>"],
    ["binary", "text/plain", "\u0000\u0001\u0002\u0003"],
  ])("leaves %s to the thread", (_name, type, text) => {
    expect(convertInline(bytes(text), type, "http://127.0.0.1/x", "markdown", MAX)).toBeUndefined();
  });

  it("leaves text over the size bound to the thread", () => {
    const body = bytes("a".repeat(101));
    expect(
      convertInline(body, "text/plain", "http://127.0.0.1/x", "markdown", 100),
    ).toBeUndefined();
    expect(convertInline(body, "text/plain", "http://127.0.0.1/x", "markdown", 101)).toBeDefined();
  });
});
