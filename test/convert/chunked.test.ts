import { describe, expect, it } from "vitest";
import { convertBody } from "../../src/convert/index.js";
import { ChunkedText } from "../../src/extract/chunked.js";
import { type DomNode, isElement } from "../../src/extract/dom.js";
import { limitNesting, parseBounded } from "../../src/extract/parse.js";

/** The tree under `node` as a string: each node's type, name, attributes and text. */
function serializeOuter(node: DomNode): string {
  if (!isElement(node))
    return `${node.nodeType}:${JSON.stringify((node as { data?: string }).data)}`;
  const attributes = Array.from(
    node.getAttributeNames(),
    (n: string) => `${n}=${JSON.stringify(node.getAttribute(n))}`,
  );
  const children: string[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    children.push(serializeOuter(child));
  }
  return `<${node.localName} ${attributes.join(" ")}>${children.join("")}</${node.localName}>`;
}

/** `text` cut into pieces at the given positions. */
function piecesOf(text: string, cuts: readonly number[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    out.push(text.slice(from, cut));
    from = cut;
  }
  return out;
}

/** Cut positions every `step` characters, shifted by `offset`. */
const every = (text: string, step: number, offset = 0) =>
  Array.from(
    { length: Math.floor((text.length - offset) / step) },
    (_, i) => offset + (i + 1) * step,
  );

describe("ChunkedText", () => {
  const text = `${"<p>a&amp;b</p><!-- note -->".repeat(40)}<![CDATA[x]]></SCRIPT >${"é😀".repeat(50)}`;

  it("answers charCodeAt, indexOf, startsWith and slice as the joined string does", () => {
    for (const step of [64, 65, 97, 200]) {
      for (const offset of [0, 1, 7]) {
        const chunked = new ChunkedText(piecesOf(text, every(text, step, offset)));
        expect(chunked.length).toBe(text.length);
        expect(chunked.toString()).toBe(text);
        for (let i = -1; i <= text.length; i += 3) {
          expect(chunked.charCodeAt(i)).toEqual(text.charCodeAt(i));
        }
        for (const needle of ["<", "</", "-->", "]]>", "<![CDATA[", "&amp;", "😀", "absent"]) {
          for (let from = 0; from <= text.length; from += 11) {
            expect(chunked.indexOf(needle, from)).toBe(text.indexOf(needle, from));
          }
          for (let at = 0; at < text.length; at += 13) {
            expect(chunked.startsWith(needle, at)).toBe(text.startsWith(needle, at));
          }
        }
        for (let start = 0; start < text.length; start += 37) {
          expect(chunked.slice(start, start + 150)).toBe(text.slice(start, start + 150));
          expect(chunked.slice(start, start + 5)).toBe(text.slice(start, start + 5));
        }
        for (const [start, end] of [
          [-5, 3],
          [10, 10],
          [12, 4],
          [text.length - 2, text.length + 9],
        ]) {
          expect(chunked.slice(start!, end)).toBe(text.slice(Math.max(0, start!), end));
        }
        expect(chunked.cut(500).toString()).toBe(text.slice(0, 500));
      }
    }
  });

  it("joins a piece too short to stand alone to the one before it", () => {
    const chunked = new ChunkedText(["x".repeat(100), "ab", "", "y".repeat(100)]);
    expect(chunked.chunks).toHaveLength(2);
    expect(chunked.indexOf("xaby")).toBe(99);
    expect(chunked.indexOf("aby", 102)).toBe(-1);
    expect(chunked.toString()).toBe(`${"x".repeat(100)}ab${"y".repeat(100)}`);
  });
});

describe("parsing HTML in pieces", () => {
  // Every kind of token, so that some piece boundary falls inside each of them.
  const html = `<!doctype html><html><head><title>T &amp; t</title><style>p{a:b}</style></head><body>${Array.from(
    { length: 30 },
    (_, i) =>
      `<div class="c${i}" data-x='q "${i}"'><p>Text ${i} caf&eacute; &#x1F600; é</p><!-- comment ${i} --><script>var s = "</div>" + ${i};</SCRIPT><svg><![CDATA[raw ${i}]]></svg><b><i>x</b></i></div>`,
  ).join("")}${"<span>".repeat(40)}deep</body></html>`;

  it("builds the same tree whatever the pieces", () => {
    const whole = parseBounded(html);
    const expected = serializeOuter(whole.document.documentElement!);
    for (const step of [64, 71, 128, 1000]) {
      for (const offset of [0, 5, 33]) {
        const chunked = new ChunkedText(piecesOf(html, every(html, step, offset)));
        const parsed = parseBounded(chunked);
        expect(serializeOuter(parsed.document.documentElement!)).toBe(expected);
        expect(parsed.cut).toEqual(whole.cut);
      }
    }
  });

  it("limits nesting and cuts at the node limit the same way", () => {
    for (const [depth, nodes] of [
      [8, 10_000],
      [500, 100],
    ] as const) {
      const whole = limitNesting(html, depth, nodes);
      const chunked = limitNesting(new ChunkedText(piecesOf(html, every(html, 97))), depth, nodes);
      expect(chunked.html.toString()).toBe(whole.html);
      expect(chunked.truncated).toBe(whole.truncated);
    }
  });

  it("converts a UTF-8 body decoded in pieces as the same page in one string", async () => {
    // Over 32 KB, with multi-byte characters across the byte boundaries of the pieces.
    const page = `<html><body><article><h1>Title</h1>${"<p>Ünïcödé text 😀 and more words here.</p>".repeat(1200)}</article></body></html>`;
    const bytes = new TextEncoder().encode(page);
    const options = { url: "https://example.com/a", format: "markdown", extract: "main" } as const;
    const fromBytes = await convertBody(bytes, "text/html; charset=utf-8", options);
    const fromLatin = await convertBody(
      new TextEncoder().encode(page.replace(/[^\x00-\x7f]/g, "")),
      "text/html; charset=utf-8",
      options,
    );
    expect(fromBytes.content).toContain("Ünïcödé text 😀");
    expect(fromBytes.content).not.toContain("\ufffd");
    expect(fromBytes.content.split("😀")).toHaveLength(1201);
    expect(fromLatin.content.length).toBeLessThan(fromBytes.content.length);
  });
});
