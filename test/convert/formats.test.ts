/**
 * The html and raw formats of the converter. `html` is the content the Markdown is made from,
 * serialized as HTML with nothing of the page's behaviour left: no scripts, styles, handlers,
 * comments or embedded documents, no URL that runs code, every URL absolute against the page's
 * base URL. `raw` is the decoded document as served; a PDF, which has none, gives its text. Types
 * that are not HTML give their converted text in one `<pre>` as `html`.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import { convertBody } from "../../src/convert/index.js";
import type { DomElement } from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { toHtml } from "../../src/markdown/clean-html.js";
import { buildPdf, layout } from "../helpers/pdf.js";

const url = "https://example.com/a/page";

/** Clean HTML of `body` (the whole page, so extraction keeps short samples). */
function clean(body: string, pageUrl: string | null = url): string {
  const html = `<html><head><title>T</title></head><body>${body}</body></html>`;
  return convertHtml(html, {
    ...(pageUrl ? { url: pageUrl } : {}),
    format: "html",
    extract: "full",
  }).content;
}

/** Every tag name and attribute name in `html`, to check against what may appear. */
function markup(html: string): { tags: Set<string>; attributes: Set<string> } {
  const tags = new Set<string>();
  const attributes = new Set<string>();
  for (const [, name, rest] of html.matchAll(/<\/?([a-z0-9-]+)([^>]*)>/gi)) {
    tags.add(name!.toLowerCase());
    for (const [, attribute] of rest!.matchAll(/\s([^\s=]+)=/g)) attributes.add(attribute!);
  }
  return { tags, attributes };
}

describe("format html: the page's behaviour is left out", () => {
  it("drops scripts, styles, noscript, template, iframes, objects, embeds and comments", () => {
    const out = clean(
      `<p>Kept text.</p><script>alert(1)</script><style>p{}</style><noscript><p>ns</p></noscript>
       <template><p>tpl</p></template><iframe src="https://x.test/"></iframe>
       <object data="x.swf"><embed src="x.swf"></object><!-- a comment --><p>After.</p>`,
    );
    expect(out).toBe("<p>Kept text.</p>\n<p>After.</p>");
  });

  it("keeps no event handler, style or class attribute", () => {
    const out = clean(
      `<p onclick="a()" style="color:red" class="lead" ONMOUSEOVER="b()">Text <b onmouseenter="c()">bold</b></p>
       <img src="/i.png" onerror="d()" onload="e()" alt="i">`,
    );
    expect(out).toBe('<p>Text <b>bold</b></p>\n<img src="https://example.com/i.png" alt="i">');
    expect(out).not.toMatch(/\son|style=|class=/i);
  });

  it("drops scripts inside SVG and MathML with the foreign content", () => {
    const out = clean(
      `<p>Before</p><svg onload="alert(1)"><script>alert(2)</script><a xlink:href="javascript:alert(3)"><text>t</text></a></svg>
       <math><mtext><table><mglyph><style><img src=x onerror=alert(4)></style></mglyph></table></mtext></math><p>After</p>`,
    );
    expect(out).toBe("<p>Before</p>\n<p>After</p>");
  });

  it.each([
    ["javascript:", "javascript:alert(1)"],
    ["spaced and mixed case", " JaVaScRiPt:alert(1)"],
    ["entity-encoded", "&#106;&#97;&#118;&#97;script:alert(1)"],
    ["hex entities", "&#x6A;avascript&#x3A;alert(1)"],
    ["a tab inside", "java&#x09;script:alert(1)"],
    ["a newline inside", "java\nscript:alert(1)"],
    ["vbscript:", "vbscript:msgbox(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
  ])("keeps the text of a %s link but not its URL", (_label, href) => {
    const out = clean(`<p><a href="${href}">label</a></p>`);
    expect(out).toBe("<p><a>label</a></p>");
  });

  it("checks src, poster and cite too, and keeps no form action or formaction", () => {
    const out = clean(
      `<blockquote cite="javascript:alert(1)">Quote</blockquote><q cite="/source">q</q>
       <form action="javascript:alert(2)"><button formaction="javascript:alert(3)">Go</button></form>
       <img src="javascript:alert(4)" alt="x"><img src="data:image/png;base64,AAAA" alt="y">`,
    );
    expect(out).toBe('<blockquote>Quote</blockquote>\n<q cite="https://example.com/source">q</q>');
  });

  it("checks a video's src and poster (the serializer alone: extraction drops video)", () => {
    const body = parseDocument(
      `<video src="javascript:alert(1)" poster="/poster.jpg" autoplay onplay="x()"><track src="/subs.vtt" kind="captions">Fallback text</video>`,
    ).documentElement!.firstElementChild!.nextElementSibling as DomElement;
    expect(toHtml(body, { baseUrl: url })).toBe(
      '<video poster="https://example.com/poster.jpg"><track src="https://example.com/subs.vtt" kind="captions">Fallback text</video>',
    );
  });

  it("holds no tag or attribute outside the allowed sets on a hostile page", () => {
    const out = clean(
      `<div onclick="x" style="x"><a href="/x" target="_blank" rel="opener" ping="/p">a</a>
       <img src="/i.png" usemap="#m" ismap loading="lazy"><input value="v"><select><option>o</option></select>
       <marquee>m</marquee><blink>b</blink><my-widget data-x="1">w</my-widget>
       <meta http-equiv="refresh" content="0;url=https://evil.test/"><link rel="import" href="x">
       <details open><summary>S</summary>D</details></div>`,
    );
    const { tags, attributes } = markup(out);
    expect([...tags].sort()).toEqual(["a", "details", "div", "img", "summary"]);
    expect([...attributes].sort()).toEqual(["href", "open", "src"]);
    expect(out).toContain('href="https://example.com/x"');
    expect(out).toContain("mbw");
  });

  it("escapes text and attribute values again from the decoded tree", () => {
    const out = clean(
      `<p title="&quot;&gt;&lt;script&gt;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>`,
    );
    expect(out).toBe(
      '<p title="&quot;&gt;&lt;script&gt;">&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</p>',
    );
  });
});

describe("format html: URLs are absolute", () => {
  it("resolves href, src, srcset, poster and cite against the page URL", () => {
    const out = clean(
      `<p><a href="next?x=1&amp;y=2">next</a> <a href="/root">root</a> <a href="//cdn.test/f">cdn</a> <a href="#s">s</a></p>
       <img src="img/a.png" srcset="img/a-1x.png 1x, img/a-2x.png 2x, data:image/png;base64,AA 3x" alt="a">
       <picture><source srcset="img/b.avif" type="image/avif"><img src="img/b.jpg" alt="b"></picture>
       <blockquote cite="../cited">c</blockquote>`,
    );
    expect(out).toContain('<a href="https://example.com/a/next?x=1&amp;y=2">next</a>');
    expect(out).toContain('<a href="https://example.com/root">root</a>');
    expect(out).toContain('<a href="https://cdn.test/f">cdn</a>');
    expect(out).toContain('<a href="https://example.com/a/page#s">s</a>');
    expect(out).toContain(
      'srcset="https://example.com/a/img/a-1x.png 1x, https://example.com/a/img/a-2x.png 2x"',
    );
    expect(out).toContain('<source srcset="https://example.com/a/img/b.avif" type="image/avif">');
    expect(out).toContain('cite="https://example.com/cited"');
  });

  it("honours <base href> as the Markdown does", () => {
    const html = `<html><head><base href="https://cdn.example.org/docs/"></head><body>
      <p><a href="guide.html">guide</a> <img src="i.png" alt="i"></p></body></html>`;
    const options = { url, extract: "full" } as const;
    const out = convertHtml(html, { ...options, format: "html" }).content;
    expect(out).toContain('href="https://cdn.example.org/docs/guide.html"');
    expect(out).toContain('src="https://cdn.example.org/docs/i.png"');
    expect(convertHtml(html, options).content).toContain("https://cdn.example.org/docs/guide.html");
  });

  it("shows a lazy image by its real URL and leaves out data URIs and tracking pixels", () => {
    const out = clean(
      `<p><img src="data:image/gif;base64,R0l" data-src="/real.jpg" alt="lazy">
       <img src="https://stats.test/pixel.gif" alt=""><img src="/s.png" width="1" height="1">Text</p>`,
    );
    expect(out).toBe('<p><img src="https://example.com/real.jpg" alt="lazy"> Text</p>');
  });

  it("keeps a relative reference relative when there is no page URL", () => {
    expect(clean(`<p><a href="rel/x">r</a> <a href="javascript:x()">j</a></p>`, null)).toBe(
      '<p><a href="rel/x">r</a> <a>j</a></p>',
    );
  });

  it("keeps mailto: and tel: links, but no other scheme", () => {
    expect(
      clean(
        `<p><a href="mailto:a@b.test">m</a> <a href="tel:+1">t</a> <a href="ftp://f.test/">f</a></p>`,
      ),
    ).toBe('<p><a href="mailto:a@b.test">m</a> <a href="tel:+1">t</a> <a>f</a></p>');
  });
});

describe("format html: the same content as the Markdown", () => {
  const page = `<html><head><title>Story</title></head><body>
    <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
    <article><h1>Story</h1>${"<p>A paragraph of the story that is long enough to be content. ".repeat(1)}</p>
    <p>Second paragraph of the story, with <a href="/more">a link</a> and more words to read.</p>
    <p>Third paragraph, also part of the article body, with plenty of words in it.</p></article>
    <footer>Copyright and footer links</footer></body></html>`;

  it("extracts the main content, or the whole page with extract full", () => {
    const main = convertHtml(page, { url, format: "html" }).content;
    // The <h1> repeats the title, which the result carries.
    expect(main).not.toContain("<h1>Story</h1>");
    expect(main).toContain("A paragraph of the story");
    expect(main).not.toContain("Home");
    expect(main).not.toContain("Copyright");
    const full = convertHtml(page, { url, format: "html", extract: "full" }).content;
    expect(full).toContain("Home");
    expect(full).toContain("Copyright");
  });

  it("applies include and exclude selectors", () => {
    const out = convertHtml(page, {
      url,
      format: "html",
      includeSelectors: ["article"],
      excludeSelectors: ["h1"],
    }).content;
    expect(out).not.toContain("<h1>");
    expect(out).toContain("Second paragraph");
  });

  it("reads the same metadata as the Markdown form", () => {
    const { content: _html, ...htmlMeta } = convertHtml(page, { url, format: "html" });
    const { content: _md, ...mdMeta } = convertHtml(page, { url });
    expect(htmlMeta).toEqual(mdMeta);
  });

  it("is empty for a page with nothing to read, as the Markdown is", () => {
    expect(
      convertHtml("<html><body><div><p> </p></div></body></html>", { format: "html" }).content,
    ).toBe("");
  });
});

describe("format html on hostile pages", () => {
  it("serializes 100,000 unclosed nested <div>s (bounded by the parser's depth cap)", () => {
    const deep = `<html><body>${"<div>".repeat(100_000)}deep text</body></html>`;
    const out = convertHtml(deep, { format: "html", extract: "full" }).content;
    expect(out).toContain("deep text");
    expect(out.split("<div>").length - 1).toBeLessThanOrEqual(400);
  });

  it("serializes a flood of elements and keeps the cut warning", () => {
    const flood = `<html><body>${"<p>x</p>".repeat(250_000)}</body></html>`;
    const doc = convertHtml(flood, { format: "html", extract: "full" });
    expect(doc.content.startsWith("<p>x</p>\n<p>x</p>")).toBe(true);
    expect(doc.limits).toEqual([{ limit: "html-elements", max: 200_000 }]);
  });
});

describe("format raw", () => {
  const page = `<!doctype html><html><head><title>Raw page</title><script>var a = 1;</script></head>
    <body><nav>menu</nav><p onclick="x()">Hello <a href="/x">x</a></p></body></html>`;

  it("is the document as given, not extracted, with the metadata read from it", () => {
    const doc = convertHtml(page, { url, format: "raw" });
    expect(doc.content).toBe(page);
    expect(doc.title).toBe("Raw page");
  });

  it("still lists links and images when asked", () => {
    const doc = convertHtml(page, { url, format: "raw", links: true, images: true });
    expect(doc.content).toBe(page);
    expect(doc.links?.map((link) => link.url)).toEqual(["https://example.com/x"]);
    expect(doc.images).toEqual([]);
  });

  it("takes no selectors: a RangeError names the conflict", () => {
    expect(() => convertHtml(page, { format: "raw", includeSelectors: ["p"] })).toThrow(
      /format raw is the whole document as served: it takes no includeSelectors/,
    );
  });
});

describe("html and raw of other types", () => {
  const options = { url: "https://example.com/data", extract: "main" } as const;
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("JSON: html is the pretty JSON escaped in <pre>; raw is the body as served", async () => {
    const json = '{"a":"<b>&","n":[1,2]}';
    const html = await convertBody(bytes(json), "application/json", { ...options, format: "html" });
    expect(html.content).toBe(
      '<pre>{\n  "a": "&lt;b&gt;&amp;",\n  "n": [\n    1,\n    2\n  ]\n}</pre>',
    );
    const raw = await convertBody(bytes(json), "application/json", { ...options, format: "raw" });
    expect(raw.content).toBe(json);
  });

  it("plain text: html escapes it in <pre>; raw keeps its line endings", async () => {
    const text = "a < b\r\nc & d\r\n";
    const html = await convertBody(bytes(text), "text/plain", { ...options, format: "html" });
    expect(html.content).toBe("<pre>a &lt; b\nc &amp; d\n</pre>");
    const raw = await convertBody(bytes(text), "text/plain", { ...options, format: "raw" });
    expect(raw.content).toBe(text);
  });

  it("a feed: html is its item list in <pre>; raw is the XML with the feed's title", async () => {
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>News &amp; notes</title>
      <item><title>First</title><link>https://example.com/1</link></item></channel></rss>`;
    const type = "application/rss+xml";
    const html = await convertBody(bytes(feed), type, { ...options, format: "html" });
    expect(html.content.startsWith("<pre>")).toBe(true);
    expect(html.content).toContain("[First](https://example.com/1)");
    const raw = await convertBody(bytes(feed), type, { ...options, format: "raw" });
    expect(raw.content).toBe(feed);
    expect(raw.title).toBe("News & notes");
  });

  it("a PDF: html gives headings and paragraphs; raw gives its text and says so", async () => {
    const pdf = buildPdf({
      pages: [
        layout([
          { lines: ["Field Notes"], size: 24 },
          { lines: ["Rain fell on three days <of> five."] },
          { lines: ["• dry soil", "• wet soil"] },
        ]),
      ],
    });
    const pdfOptions = { ...options, url: "https://example.com/notes.pdf" };
    const html = await convertBody(pdf, "application/pdf", { ...pdfOptions, format: "html" });
    expect(html.content).toContain("<h1>Field Notes</h1>");
    expect(html.content).toContain("<p>Rain fell on three days &lt;of&gt; five.</p>");
    expect(html.rawUnavailable).toBeUndefined();
    const raw = await convertBody(pdf, "application/pdf", { ...pdfOptions, format: "raw" });
    const text = await convertBody(pdf, "application/pdf", { ...pdfOptions, format: "text" });
    expect(raw.content).toBe(text.content);
    expect(raw.rawUnavailable).toBe(true);
  });

  it("HTML through convertBody: raw is the decoded source", async () => {
    const html =
      "<html><head><meta charset='windows-1252'><title>Caf\xe9</title></head><body><p>Caf\xe9</p></body></html>";
    const latin1 = Uint8Array.from(html, (ch) => ch.charCodeAt(0));
    const raw = await convertBody(latin1, "text/html", { ...options, format: "raw" });
    expect(raw.content).toBe(html);
    expect(raw.charset).toBe("windows-1252");
  });
});
