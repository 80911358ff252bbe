/**
 * Link resolution: a plain path is resolved without the URL parser, so it is checked against the
 * parser on every short reference made of path characters, dot segments, escapes and what a
 * parser encodes, against bases of every shape.
 */

import { describe, expect, it } from "vitest";
import { resolveUrl } from "../../src/extract/url.js";

/** Pieces of references: path characters, dot segments, escapes, what a parser encodes. */
const CORE = [..."/.aB0-_~?#%\\ ':@!(é", "//", "..", "%2e", "%2E"];
const PIECES = [...CORE, ...'$&)*+,;="<>`{}|^[]日', "%41", "/./", "/../", "index.html"];

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
  // An empty query or fragment is kept in the URL though `search` and `hash` are empty.
  "https://example.com/page?",
  "https://example.com/page#",
  "http://a.example/b?q#",
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
    // Every reference of up to three pieces (two of the rarer ones), from the root or not,
    // alone or after the base's own scheme and host or another's, against a base in turn.
    const sequences: string[] = [...PIECES];
    for (const a of PIECES) for (const b of PIECES) sequences.push(a + b);
    for (const a of CORE) for (const b of CORE) for (const c of CORE) sequences.push(a + b + c);
    const mismatches: string[] = [];
    let i = 0;
    for (const sequence of sequences) {
      for (const lead of ["/", ""]) {
        for (const origin of ["own", "", "https://example.com:443", "HTTPS://Example.COM"]) {
          const base = BASES[i++ % BASES.length]!;
          const start = origin === "own" ? new URL(base).origin : origin;
          const reference = (start + lead + sequence).trim();
          if (reference === "") continue;
          const got = resolveUrl(reference, base);
          const want = parsed(reference, base);
          if (got !== want)
            mismatches.push(`${JSON.stringify(reference)} on ${base}: ${got} ≠ ${want}`);
        }
      }
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
