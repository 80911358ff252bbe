import { describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/stats.js";
import { isPlainKind } from "../../src/convert/plain.js";
import {
  type ContentKind,
  hasControlByte,
  mayBePlain,
  sniffContent,
} from "../../src/convert/sniff.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));
/** A magic number followed by some NUL-free filler, so only the magic can decide. */
const withFiller = (...parts: (number[] | string)[]): Uint8Array =>
  bytes(...parts, "filler data".repeat(10));

const PNG = withFiller([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>';
const ATOM = '<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>';
const RDF =
  '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel/></rdf:RDF>';

type Case = [
  name: string,
  body: Uint8Array,
  type: string | undefined,
  kind: ContentKind,
  mime: string,
  url?: string,
];

const CASES: Case[] = [
  // Magic numbers win over the header.
  ["binary served as text/html (PNG)", PNG, "text/html; charset=utf-8", "binary", "image/png"],
  ["PNG without a type", PNG, undefined, "binary", "image/png"],
  [
    "JPEG as text/plain",
    withFiller([0xff, 0xd8, 0xff, 0xe0]),
    "text/plain",
    "binary",
    "image/jpeg",
  ],
  ["GIF", withFiller("GIF89a"), "application/octet-stream", "binary", "image/gif"],
  ["WebP", withFiller("RIFF", [1, 2, 3, 4], "WEBP"), "text/html", "binary", "image/webp"],
  ["WAV", withFiller("RIFF", [1, 2, 3, 4], "WAVE"), undefined, "binary", "audio/wav"],
  ["BMP", withFiller("BM", [1, 2, 3, 4, 0, 0, 0, 0]), "text/html", "binary", "image/bmp"],
  ["ICO", withFiller([0, 0, 1, 0]), undefined, "binary", "image/x-icon"],
  ["PDF as text/html", withFiller("%PDF-1.7\n"), "text/html", "pdf", "application/pdf"],
  [
    "PDF by type, header after junk",
    withFiller("junk\n%PDF-1.4"),
    "application/pdf",
    "pdf",
    "application/pdf",
  ],
  ["ZIP", withFiller([0x50, 0x4b, 0x03, 0x04]), "text/plain", "binary", "application/zip"],
  [
    "docx keeps its declared type",
    withFiller([0x50, 0x4b, 0x03, 0x04]),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "binary",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ],
  [
    "gzip as text/html (double compression)",
    withFiller([0x1f, 0x8b, 0x08]),
    "text/html",
    "binary",
    "application/gzip",
  ],
  [
    "bzip2",
    withFiller("BZh9", [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]),
    undefined,
    "binary",
    "application/x-bzip2",
  ],
  ["xz", withFiller([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), undefined, "binary", "application/x-xz"],
  [
    "7z",
    withFiller([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]),
    undefined,
    "binary",
    "application/x-7z-compressed",
  ],
  ["RAR", withFiller("Rar!", [0x1a, 0x07, 0x00]), undefined, "binary", "application/vnd.rar"],
  ["MP3 (ID3)", withFiller("ID3", [4, 0]), "text/plain", "binary", "audio/mpeg"],
  ["MP4", withFiller([0, 0, 0, 0x18], "ftypisom"), "text/html", "binary", "video/mp4"],
  ["OGG", withFiller("OggS", [0]), undefined, "binary", "audio/ogg"],
  ["WebM", withFiller([0x1a, 0x45, 0xdf, 0xa3]), undefined, "binary", "video/webm"],
  ["WASM", withFiller([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), undefined, "binary", "application/wasm"],
  [
    "ELF",
    withFiller([0x7f, 0x45, 0x4c, 0x46, 2]),
    "text/plain",
    "binary",
    "application/x-executable",
  ],
  [
    "Mach-O",
    withFiller([0xcf, 0xfa, 0xed, 0xfe]),
    undefined,
    "binary",
    "application/x-mach-binary",
  ],
  ["PE", withFiller("MZ", [0x90, 0, 3, 0]), "text/html", "binary", "application/x-msdownload"],
  ["WOFF2", withFiller("wOF2"), "text/css", "binary", "font/woff2"],
  ["OpenType", withFiller("OTTO", [0, 0x0a]), undefined, "binary", "font/otf"],
  ["SQLite", withFiller("SQLite format 3", [0]), "text/plain", "binary", "application/vnd.sqlite3"],
  // Text that merely starts like a weak magic stays text.
  [
    "text starting with BM",
    utf8("BMW makes cars. They are fast."),
    "text/plain",
    "text",
    "text/plain",
  ],
  ["text starting with MZ", utf8("MZ is a prefix"), undefined, "text", "text/plain"],

  // NULs and control bytes.
  [
    "NULs without a type",
    bytes("abc", [0, 0, 0, 1, 2], "def"),
    undefined,
    "binary",
    "application/octet-stream",
  ],
  [
    "NUL-heavy body served as text/html",
    bytes("<p>", Array(200).fill(0), "</p>"),
    "text/html",
    "binary",
    "text/html",
  ],
  [
    "control-byte soup",
    bytes(Array.from({ length: 400 }, (_, i) => (i % 3 ? 0x41 : 0x02))),
    undefined,
    "binary",
    "application/octet-stream",
  ],
  [
    "one stray NUL in a declared HTML page",
    bytes(`<p>${"x".repeat(500)}`, [0], "</p>"),
    "text/html",
    "html",
    "text/html",
  ],
  [
    "UTF-16LE text with a BOM is text",
    bytes([0xff, 0xfe], [0x3c, 0, 0x70, 0, 0x3e, 0, 0x68, 0]),
    undefined,
    "html",
    "text/html",
  ],
  [
    "ISO-2022-JP escapes are text",
    bytes([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x1b, 0x28, 0x42]),
    "text/plain",
    "text",
    "text/plain",
  ],

  // Declared binary types are binary whatever the bytes look like.
  [
    "image/png with text bytes",
    utf8("<html>not really</html>"),
    "image/png",
    "binary",
    "image/png",
  ],
  [
    "SVG is unsupported",
    utf8('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    "image/svg+xml",
    "binary",
    "image/svg+xml",
  ],
  ["video/mp4", utf8("hello"), "video/mp4", "binary", "video/mp4"],
  ["font/woff", utf8("hello"), "font/woff", "binary", "font/woff"],
  ["application/zip with text", utf8("hello"), "application/zip", "binary", "application/zip"],
  [
    "application/pdf without magic stays pdf",
    utf8("garbage"),
    "application/pdf",
    "pdf",
    "application/pdf",
  ],

  // Declared text types.
  ["text/html", utf8("<p>hi</p>"), "text/html; charset=UTF-8", "html", "text/html"],
  ["XHTML", utf8("<html/>"), "application/xhtml+xml", "xhtml", "application/xhtml+xml"],
  ["text/markdown", utf8("# Title"), "text/markdown; charset=utf-8", "markdown", "text/markdown"],
  ["text/x-markdown", utf8("# Title"), "text/x-markdown", "markdown", "text/x-markdown"],
  ["application/json", utf8('{"a":1}'), "application/json", "json", "application/json"],
  ["+json", utf8('{"@context":"x"}'), "application/ld+json", "json", "application/ld+json"],
  [
    "problem+json",
    utf8('{"title":"x"}'),
    "application/problem+json",
    "json",
    "application/problem+json",
  ],
  ["text/plain", utf8("hello"), "text/plain", "text", "text/plain"],
  ["text/csv", utf8("a,b\n1,2"), "text/csv", "csv", "text/csv"],
  ["TSV", utf8("a\tb"), "text/tab-separated-values", "csv", "text/tab-separated-values"],
  ["RSS type", utf8(RSS), "application/rss+xml", "feed", "application/rss+xml"],
  ["Atom type", utf8(ATOM), "application/atom+xml", "feed", "application/atom+xml"],
  ["application/xml with an <rss> root", utf8(RSS), "application/xml", "feed", "application/xml"],
  ["text/xml with a <feed> root", utf8(ATOM), "text/xml", "feed", "text/xml"],
  ["text/xml with an RSS 1.0 root", utf8(RDF), "text/xml", "feed", "text/xml"],
  ["plain XML", utf8('<?xml version="1.0"?><note/>'), "application/xml", "xml", "application/xml"],
  ["+xml", utf8("<x/>"), "application/vnd.custom+xml", "xml", "application/vnd.custom+xml"],
  ["text/css is text", utf8("body{}"), "text/css", "text", "text/css"],
  [
    "JavaScript is text",
    utf8("let a = 1;"),
    "application/javascript",
    "text",
    "application/javascript",
  ],
  ["uppercase type", utf8("<p>x</p>"), "TEXT/HTML", "html", "text/html"],

  // Declared types that are plainly wrong.
  [
    "text/plain that is an HTML document",
    utf8("<!DOCTYPE html><html><p>x</p>"),
    "text/plain",
    "html",
    "text/html",
  ],
  [
    "text/plain starting with <html>",
    utf8("\n  <html lang=en>"),
    "text/plain",
    "html",
    "text/html",
  ],
  ["text/plain that is JSON stays text", utf8('{"a":1}'), "text/plain", "text", "text/plain"],
  ["text/plain that is an RSS feed", utf8(RSS), "text/plain", "feed", "application/rss+xml"],
  [
    "JSON API returning an HTML error page",
    utf8("<!doctype html><title>502</title>"),
    "application/json",
    "html",
    "text/html",
  ],
  [
    "text/html that is JSON",
    utf8('{"error":"not found"}'),
    "text/html",
    "json",
    "application/json",
  ],
  ["text/html that is an RSS feed", utf8(RSS), "text/html", "feed", "application/rss+xml"],
  [
    "text/plain .md URL",
    utf8("# Readme"),
    "text/plain",
    "markdown",
    "text/markdown",
    "https://raw.example/x/README.md",
  ],
  [
    "text/plain .csv URL",
    utf8("a,b"),
    "text/plain; charset=utf-8",
    "csv",
    "text/csv",
    "https://example.com/data.csv?x=1",
  ],
  [
    "text/plain .MD URL, the extension broken by a tab the parser drops",
    utf8("# Readme"),
    "text/plain",
    "markdown",
    "text/markdown",
    "https://raw.example/x/README.M\tD",
  ],
  [
    "text/plain, .md only in the host and query",
    utf8("# Readme"),
    "text/plain",
    "text",
    "text/plain",
    "https://docs.md.example/x/readme?f=a.md",
  ],

  // No usable type: sniffed.
  ["missing type, doctype", utf8("<!doctype html><p>x"), undefined, "html", "text/html"],
  [
    "octet-stream, <div>",
    utf8("  <div class=a>x</div>"),
    "application/octet-stream",
    "html",
    "text/html",
  ],
  ["missing type, comment first", utf8("<!-- x --><p>y</p>"), undefined, "html", "text/html"],
  [
    "missing type, UTF-8 BOM + html",
    bytes([0xef, 0xbb, 0xbf], "<html>"),
    undefined,
    "html",
    "text/html",
  ],
  [
    "missing type, XHTML",
    utf8('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>'),
    undefined,
    "xhtml",
    "application/xhtml+xml",
  ],
  ["missing type, RSS", utf8(RSS), undefined, "feed", "application/rss+xml"],
  ["missing type, Atom without declaration", utf8(ATOM), undefined, "feed", "application/atom+xml"],
  ["missing type, RSS 1.0", utf8(RDF), undefined, "feed", "application/rss+xml"],
  [
    "missing type, XML",
    utf8('<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE note [<!ENTITY a "b">]>\n<note/>'),
    undefined,
    "xml",
    "application/xml",
  ],
  [
    "missing type, SVG",
    utf8('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
    undefined,
    "binary",
    "image/svg+xml",
  ],
  ["missing type, JSON object", utf8(' {"a": [1, 2]} '), undefined, "json", "application/json"],
  [
    "missing type, JSON array",
    utf8("[1,2,3]"),
    "application/octet-stream",
    "json",
    "application/json",
  ],
  ["missing type, braces that are not JSON", utf8("{ not json }"), undefined, "text", "text/plain"],
  ["missing type, plain text", utf8("Hello there"), undefined, "text", "text/plain"],
  [
    "missing type, Markdown by URL",
    utf8("# Title"),
    undefined,
    "markdown",
    "text/markdown",
    "https://example.com/doc.markdown",
  ],
  ["unparsable type is treated as missing", utf8("<html>"), "garbage", "html", "text/html"],
  [
    "unknown application type with text keeps its name",
    utf8("key = value"),
    "application/x-custom",
    "text",
    "application/x-custom",
  ],
  [
    "unknown application type with HTML",
    utf8("<!doctype html>"),
    "application/x-custom",
    "html",
    "text/html",
  ],
  ["empty body, no type", new Uint8Array(0), undefined, "text", "text/plain"],
  ["empty body, text/html", new Uint8Array(0), "text/html", "html", "text/html"],
];

describe("sniffContent", () => {
  it.each(CASES)("%s", (_name, body, type, kind, mimeType, url) => {
    expect(sniffContent(body, type, url)).toEqual({ kind, mimeType });
  });

  it("large JSON bodies are recognised by their shape", () => {
    const big = utf8(`[${'{"k":"v"},'.repeat(300_000)}{"k":"v"}]`);
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(sniffContent(big, undefined)).toEqual({ kind: "json", mimeType: "application/json" });
  });

  it("counts every NUL and control byte of the first 4 KB, between any characters", () => {
    // What the sniff must find, counted byte by byte: NULs (a few are allowed in declared
    // text) and control bytes other than TAB, LF, FF, CR and ESC (up to 5%).
    const expected = (body: Uint8Array, declaredText: boolean): boolean => {
      const length = Math.min(body.length, 4096);
      let nul = 0;
      let control = 0;
      for (let i = 0; i < length; i++) {
        const b = body[i]!;
        if (b === 0) nul++;
        else if (b < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(b)) control++;
      }
      return nul > (declaredText ? length * 0.01 : 0) || control > length * 0.05;
    };
    // Multi-byte characters, a stray continuation byte and a cut sequence, which the control byte
    // right after it ends.
    const filler = [...utf8("Grüße, 日本語 "), 0x80, ...utf8(" text "), 0xe2, 0x82];
    for (let byte = 0; byte < 0x20; byte++) {
      // Once in all; once in every filler (about 4%); three times in every filler (about 11%).
      for (const [each, times] of [
        [false, 1],
        [true, 1],
        [true, 3],
      ] as const) {
        const parts: number[] = [];
        for (let i = 0; parts.length < 4600; i++) {
          parts.push(...filler);
          if (each || i === 40) for (let t = 0; t < times; t++) parts.push(byte);
        }
        const body = new Uint8Array(parts);
        for (const type of [undefined, "text/plain"]) {
          const binary = sniffContent(body, type).kind === "binary";
          const want = expected(body, type !== undefined);
          expect(binary, `byte ${byte}, ${each ? times : "once"}, ${type}`).toBe(want);
        }
      }
    }
  });

  it("finds a magic number past the first byte: a tar archive served as HTML", () => {
    const tar = new Uint8Array(600).fill(0x61);
    tar.set(utf8("ustar"), 257);
    expect(sniffContent(tar, "text/html")).toEqual({
      kind: "binary",
      mimeType: "application/x-tar",
    });
  });
});

describe("mayBePlain", () => {
  it("is false only for declared types that no body ever sniffs as plain text", () => {
    const bodies = [
      ...CASES.map(([, body]) => body),
      utf8("just words, line by line\n"),
      utf8("# A heading\n\nMarkdown text"),
      utf8("a,b,c\n1,2,3\n"),
      utf8('{"a": 1}'),
      utf8(RSS),
      utf8("<?xml version='1.0'?><note>x</note>"),
      utf8("<!doctype html><p>x</p>"),
      bytes([0xff, 0xfe], "t\u0000e\u0000x\u0000t\u0000"),
    ];
    const types = [
      "text/html",
      "TEXT/HTML; charset=utf-8",
      "application/xhtml+xml",
      "text/plain",
      "text/markdown",
      "text/csv",
      "application/xml",
      "application/octet-stream",
      "nonsense",
      undefined,
    ];
    for (const type of types) {
      if (mayBePlain(type)) continue;
      for (const body of bodies) {
        const { kind } = sniffContent(body, type, "https://example.com/file.md");
        expect(isPlainKind(kind), `${type}: ${kind}`).toBe(false);
      }
    }
    expect(mayBePlain("text/html")).toBe(false);
    expect(mayBePlain("application/xhtml+xml; charset=utf-8")).toBe(false);
    for (const plain of ["text/plain", "text/markdown", "application/xml", undefined, "x"]) {
      expect(mayBePlain(plain)).toBe(true);
    }
  });
});

describe("hasControlByte", () => {
  /** The rule byte by byte: a byte below a space other than TAB, LF, FF, CR and ESC. */
  const naive = (b: Uint8Array, length: number) =>
    b.subarray(0, length).some((x) => x < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(x));

  it("finds what a byte-by-byte test finds, at every offset, length and place of the byte", () => {
    const random = seededRandom(5);
    const text = utf8("A line of text,\twith tabs,\r\nline ends\fand ESC \x1b$B, é and 日本.\n");
    const backing = new Uint8Array(4200);
    for (let offset = 0; offset < 8; offset++) {
      for (const length of [...Array.from({ length: 41 }, (_, i) => i), 1001, 4096]) {
        for (let trial = 0; trial < 6; trial++) {
          for (let i = 0; i < backing.length; i++) backing[i] = text[i % text.length]!;
          const view = backing.subarray(offset, offset + length);
          // Half the trials put one stray control byte (or NUL) somewhere in the view.
          if (trial % 2 === 1 && length > 0) {
            view[Math.floor(random() * length)] = [0x00, 0x01, 0x08, 0x0b, 0x0e, 0x1f][trial % 6]!;
          }
          expect(hasControlByte(view, length), `offset ${offset}, length ${length}`).toBe(
            naive(view, length),
          );
        }
      }
    }
  });

  it("looks only at the first `length` bytes", () => {
    const b = new Uint8Array([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x00]);
    expect(hasControlByte(b, 8)).toBe(false);
    expect(hasControlByte(b, 9)).toBe(true);
  });
});
