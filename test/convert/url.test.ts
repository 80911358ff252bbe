/**
 * Link resolution: a plain path is resolved without the URL parser, so it is checked against the
 * parser on many generated references, plain and not, against bases of every shape.
 */

import { describe, expect, it } from "vitest";
import { resolveUrl } from "../../src/extract/url.js";

/** A small seeded generator, so a failure names a case that comes back. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Pieces of references: path characters, dot segments, escapes, and what a parser encodes. */
const PIECES = [
  ..."/aB0-._~!$&()*+,;=:@?#",
  "/",
  "/",
  "//",
  ".",
  "..",
  "/./",
  "/../",
  "%",
  "%2e",
  "%2E",
  "%41",
  "\\",
  " ",
  "'",
  '"',
  "<",
  ">",
  "`",
  "{",
  "}",
  "|",
  "^",
  "[",
  "]",
  "é",
  "日",
  "index.html",
  "p",
];

const BASES = [
  "https://example.com/dir/page",
  "https://example.com",
  "http://example.com:8080/a/b?q=1#frag",
  "https://user:pw@example.com/x/",
  "https://EXAMPLE.com:443/Caps/",
  "https://bücher.example/seite",
  "http://[::1]:3000/x",
  "http://127.0.0.1/",
  "file:///tmp/page.html",
  "ftp://example.com/pub/",
];

/** What the parser makes of `reference` against `base`, undefined when it refuses it. */
function parsed(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

describe("resolveUrl", () => {
  it("resolves exactly as the URL parser does, plain paths and same-origin URLs included", () => {
    const next = random(29);
    const mismatches: string[] = [];
    for (let i = 0; i < 60_000; i++) {
      const base = BASES[Math.floor(next() * BASES.length)]!;
      let reference = next() < 0.8 ? "/" : "";
      const length = 1 + Math.floor(next() * 8);
      for (let k = 0; k < length; k++) reference += PIECES[Math.floor(next() * PIECES.length)];
      // A third are absolute: the base's own scheme and host as it serializes them, or another.
      const roll = next();
      if (roll < 0.2) reference = new URL(base).origin + reference;
      else if (roll < 0.27) reference = `https://example.com:443${reference}`;
      else if (roll < 0.33) reference = `HTTPS://Example.COM${reference}`;
      reference = reference.trim();
      if (reference === "") continue;
      const got = resolveUrl(reference, base);
      const want = parsed(reference, base);
      if (got !== want)
        mismatches.push(`${JSON.stringify(reference)} on ${base}: ${got} ≠ ${want}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  it("keeps a plain path's characters and resolves its dot segments", () => {
    const base = "https://example.com/dir/page?x=1#top";
    expect(resolveUrl("/a/b(1)?c=d&e=f;g#h", base)).toBe("https://example.com/a/b(1)?c=d&e=f;g#h");
    expect(resolveUrl("/a/./b/../c", base)).toBe("https://example.com/a/c");
    expect(resolveUrl("/a/%2e%2e/b", base)).toBe("https://example.com/b");
    expect(resolveUrl("/a b'", base)).toBe("https://example.com/a%20b'");
    expect(resolveUrl("//other.example/x", base)).toBe("https://other.example/x");
    expect(resolveUrl("https://example.com/a", base)).toBe("https://example.com/a");
    expect(resolveUrl("https://example.com.evil/a", base)).toBe("https://example.com.evil/a");
    expect(resolveUrl("/a", "https://user:pw@example.com:8443/")).toBe(
      "https://user:pw@example.com:8443/a",
    );
  });
});
