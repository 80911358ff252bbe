/**
 * Hostile and malformed HTML: deep nesting, huge single lines, floods of tags, broken
 * structure. Every case must finish (well inside the test timeout) without throwing; times are
 * measured in bench runs, not asserted here.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import { removeBoilerplate } from "../../src/extract/boilerplate.js";
import type { DomElement } from "../../src/extract/dom.js";
import { removeInvisible } from "../../src/extract/invisible.js";
import { selectMainContent } from "../../src/extract/main.js";
import {
  capLength,
  limitNesting,
  MAX_HTML_LENGTH,
  MAX_NESTING_DEPTH,
  parseDocument,
} from "../../src/extract/parse.js";
import { measureText } from "../../src/extract/stats.js";
import { toMarkdown } from "../../src/markdown/serialize.js";
import { toText } from "../../src/markdown/text.js";

/** The `<body>` of a parsed document. */
function bodyOf(html: string): { body: DomElement; document: ReturnType<typeof parseDocument> } {
  const document = parseDocument(html);
  const body = document.documentElement?.firstElementChild?.nextElementSibling;
  if (!body) throw new Error("no body");
  return { body, document };
}

describe("deep nesting", () => {
  const deepDivs = `<html><body>${"<div>".repeat(100_000)}deep text</body></html>`;

  it("converts 100,000 unclosed nested <div>s in every mode", () => {
    for (const extract of ["main", "full"] as const) {
      for (const format of ["markdown", "text"] as const) {
        expect(convertHtml(deepDivs, { extract, format }).content).toBe("deep text");
      }
    }
  });

  it("converts 100,000 closed nested <div>s", () => {
    const html = `${"<div>".repeat(100_000)}x${"</div>".repeat(100_000)}<p>after</p>`;
    expect(convertHtml(html, { extract: "full" }).content).toBe("x\n\nafter");
  });

  it("caps quote and list prefixes instead of growing them with depth", () => {
    const quotes = convertHtml(`${"<blockquote>".repeat(100_000)}q`).content;
    expect(quotes.endsWith("q")).toBe(true);
    expect(quotes.length).toBeLessThan(100);
    const lists = convertHtml(`${"<ul><li>".repeat(50_000)}x`).content;
    expect(lists.endsWith("x")).toBe(true);
    expect(lists.length).toBeLessThan(100);
  });

  it("weighs a thread's quotes within bounds: 100,000 nested, or 20,000 of one post", () => {
    const url = "https://forum.example.com/threads/quotes.1/";
    const line = "<p>A line of a post with more than eight words in it, quoted over and over.</p>";
    const nested = `<main>${line}${"<blockquote>".repeat(100_000)}${line}x</main>`;
    expect(convertHtml(nested, { url, format: "text" }).content).toContain("quoted over");
    const many = `<main>${line}${`<blockquote>${line}</blockquote>`.repeat(20_000)}</main>`;
    const { content } = convertHtml(many, { url, format: "text" });
    expect(content.split("quoted over").length - 1).toBe(1);
  });

  it("survives deep nests of tables, links and inline formatting", () => {
    expect(convertHtml(`${"<table><tr><td>".repeat(30_000)}cell`).content).toBe("cell");
    expect(
      convertHtml(`${'<a href="/x">'.repeat(100_000)}link`, { url: "https://e.com/" }).content,
    ).toBe("[link](https://e.com/x)");
    expect(convertHtml(`${"<b><i>".repeat(50_000)}x`).content).toBe("***x***");
  });

  it("walks a 100,000-deep tree built without the parser's depth limit (no recursion)", () => {
    const { body, document } = bodyOf("<p>top</p>");
    let parent = body;
    for (let i = 0; i < 100_000; i++) {
      const div = document.createElement("div");
      parent.appendChild(div);
      parent = div;
    }
    const p = bodyOf("<p>bottom, with a comma</p>").body.firstElementChild!;
    parent.appendChild(p);
    expect(measureText(body).get(body)?.chars).toBe(23);
    expect(toMarkdown(body)).toBe("top\n\nbottom, with a comma");
    expect(toText(body)).toBe("top\n\nbottom, with a comma");
    removeInvisible(body);
    removeBoilerplate(body, "page");
    expect(toMarkdown(selectMainContent(body, document))).toContain("bottom, with a comma");
  });
});

describe("size", () => {
  it("cuts a 20 MB single line at MAX_HTML_LENGTH", () => {
    const html = `<p>${"lorem ipsum dolor sit amet ".repeat(800_000)}`;
    expect(html.length).toBeGreaterThan(20_000_000);
    const { content } = convertHtml(html);
    expect(content.length).toBeLessThanOrEqual(MAX_HTML_LENGTH);
    expect(content.startsWith("lorem ipsum")).toBe(true);
  });

  it("cuts a 20 MB line without spaces", () => {
    const { content } = convertHtml(`<p>${"x".repeat(20_000_000)}`, { extract: "full" });
    expect(content.length).toBe(MAX_HTML_LENGTH - 3);
  });

  it("never splits a surrogate pair when cutting", () => {
    const html = `${"a".repeat(MAX_HTML_LENGTH - 1)}😀tail`;
    const cut = capLength(html);
    expect(cut.length).toBe(MAX_HTML_LENGTH - 1);
    expect(cut.endsWith("a")).toBe(true);
  });

  it("stops after MAX_NODES tags (1 million tiny paragraphs)", () => {
    const { content } = convertHtml("<p>x".repeat(1_000_000), { extract: "full" });
    expect(content.startsWith("x\n\nx")).toBe(true);
    expect(content.length).toBeLessThan(3 * 200_001);
  });

  it("reads headings ending in 300,000 colons, dots, dashes or emoji in linear time", () => {
    // The trims of a heading's end once cost time quadratic in such a run (hours at this size).
    const article = `<p>${"Some prose, with commas, that reads like an article. ".repeat(20)}</p>`;
    for (const fill of [":", "…", "-", "🔥", "\u200D"]) {
      const html = `<body><article><h2>Related${fill.repeat(300_000)}x</h2>${article}</article></body>`;
      expect(convertHtml(html).content).toContain("Some prose, with commas");
    }
  });

  describe("long runs in linear time", () => {
    // Each of these once cost time quadratic in the run: over 20 s (the test timeout) here.
    const article = `<p>${"Some prose, with commas, that reads like an article. ".repeat(20)}</p>`;
    const spaces = " ".repeat(300_000);
    const emSpaces = "\u2003".repeat(300_000);

    it("reads a title or og:title with 300,000 spaces in it", () => {
      const title = `<title>Long${spaces}title</title>`;
      const og = `<meta property="og:title" content="Long${spaces}title">`;
      for (const head of [title, og]) {
        const html = `<html><head>${head}</head><body><article>${article}</article></body></html>`;
        expect(convertHtml(html).title).toBe("Long title");
      }
    });

    it("reads a class name of 500,000 characters that repeats a form status word", () => {
      for (const word of ["successmsg", "_form-done"]) {
        const html = `<body><article>${article}<div class="${word.repeat(50_000)}!">Kept.</div></article></body>`;
        expect(convertHtml(html).content).toContain("Kept.");
      }
    });

    it("puts table cells, headings and terms with 300,000 spaces on one line", () => {
      for (const run of [`<pre>a${spaces}b</pre>`, `a${emSpaces}b`]) {
        const html = `<body><article>${article}<table><tr><th>A</th><th>B</th></tr>
          <tr><td>${run}</td><td>c</td></tr></table><h2>${run}</h2><dl><dt>${run}</dt><dd>d</dd></dl>
          </article></body>`;
        for (const format of ["markdown", "text"] as const) {
          expect(convertHtml(html, { format }).content).toContain("Some prose");
        }
      }
    });
  });

  it("handles floods of stray end tags, unclosed comments and unterminated attributes", () => {
    expect(convertHtml(`<p>a</p>${"</div>".repeat(500_000)}<p>b</p>`).content).toBe("a\n\nb");
    expect(convertHtml(`<p>a</p><!--${"x".repeat(1_000_000)}`).content).toBe("a");
    expect(convertHtml(`<p>a</p><div title="${"x".repeat(1_000_000)}`).content).toBe("a");
  });
});

describe("limitNesting", () => {
  it("drops start tags past the depth and their end tags, keeping the content", () => {
    expect(limitNesting("<b><i><u>x</u></i></b>", 2).html).toBe("<b><i>x</i></b>");
    expect(limitNesting(`${"<div>".repeat(MAX_NESTING_DEPTH + 5)}x`).html).toBe(
      `${"<div>".repeat(MAX_NESTING_DEPTH)}     x`,
    );
  });

  it("leaves a space where it drops a block element, so words past the depth stay apart", () => {
    expect(limitNesting("<div><p>a</p><p>b</p><b>c</b>d</div>", 1).html).toBe(
      "<div> a  b cd</div>",
    );
    // Both parse paths (the pre-pass runs on a page with CDATA) read a page nested too deep alike.
    const paragraphs = "<p>One.</p><p>Two.</p><p>Three.</p>";
    const deep = `<body>${"<div>".repeat(MAX_NESTING_DEPTH + 10)}${paragraphs}</body>`;
    for (const html of [deep, deep.replace("<body>", "<body><![CDATA[x]]>")]) {
      expect(convertHtml(html, { extract: "full" }).content).toMatch(/One\. +Two\. +Three\./);
    }
  });

  it("counts implied closes like the parser (p, li, td)", () => {
    const html = `${"<p>x".repeat(1000)}${"<li>y".repeat(1000)}`;
    expect(limitNesting(html, 3).html).toBe(html);
  });

  it("does not read tags inside scripts, styles, comments or quoted attributes", () => {
    const html =
      '<div><script>if (a<b) "<div><div><div>"</script><!-- <div><div> --><span title="<div><div>">x</span></div>';
    expect(limitNesting(html, 2).html).toBe(html);
  });

  it("self-closes in SVG only", () => {
    expect(limitNesting("<svg><path/><path/><path/></svg><p>x</p>", 2).html).toBe(
      "<svg><path/><path/><path/></svg><p>x</p>",
    );
  });

  it("ends a stray <![CDATA[ in HTML at the next > (a bogus comment), as browsers do", () => {
    const html = "<body><![CDATA[\n<div id=top></div><p>The thread is all here.</p></body>";
    expect(convertHtml(html).content).toBe("The thread is all here.");
    // Inside SVG a CDATA section is real and stays whole.
    expect(limitNesting("<svg><![CDATA[a>b]]></svg>").html).toBe("<svg><![CDATA[a>b]]></svg>");
  });

  it("reads upper-case attribute names", () => {
    expect(convertHtml('<A HREF="/x">old page</A>', { url: "https://e.com/" }).content).toBe(
      "[old page](https://e.com/x)",
    );
  });
});

describe("document structure", () => {
  it("wraps fragments, stray heads and bodies into html/head/body", () => {
    for (const html of [
      "",
      "text only",
      "<p>fragment</p>",
      "<title>T</title><p>x</p>",
      "<head><title>T</title></head><body><p>x</p></body><p>after body</p>",
      "<html><p>no body</p></html>",
      "<body><p>one</p></body><body><p>two</p></body>",
    ]) {
      const document = parseDocument(html);
      const root = document.documentElement;
      expect(root?.localName).toBe("html");
      expect(root?.firstElementChild?.localName).toBe("head");
      expect(root?.firstElementChild?.nextElementSibling?.localName).toBe("body");
      expect(() => convertHtml(html)).not.toThrow();
    }
    expect(convertHtml("<title>T</title><p>x</p>")).toEqual({ content: "x", title: "T" });
    expect(convertHtml("<body><p>x</p></body><p>after body</p>").content).toBe("x\n\nafter body");
  });

  it("reads a head left open as a browser does: from its first body node on, the body", () => {
    // No </head>, no <body>: a <br> among the head's scripts ends the head.
    const html = `<html><head><title>Wages</title><script>var a = 1;</script>
      <noscript><img src="/px"></noscript><br><script>var b = 2;</script>
      <div id="article"><h1>Good wages are not enough</h1><p>The centre held a round table, with its staff, on hiring.</p></div>`;
    const document = parseDocument(html);
    const head = document.documentElement!.firstElementChild!;
    expect(head.localName).toBe("head");
    expect(head.textContent).not.toContain("round table");
    const { content, title } = convertHtml(html);
    expect(title).toBe("Wages");
    expect(content).toContain("The centre held a round table");
  });

  it("reads a page that an unclosed <header> swallowed, not as a page of chrome", () => {
    const html = `<body><header id="branding"><nav><a href="/">Home</a> <a href="/news">News</a></nav>
      <div id="content"><article><h1>Emden's art hall</h1><p>The art hall in Emden opened in 1986, with a collection of modern paintings, and it shows them still.</p>
      <p>Adults pay three euros, children enter free, and the hall opens every day but Monday.</p></article></div></body>`;
    expect(convertHtml(html).content).toContain("The art hall in Emden opened in 1986");
    // A shop whose only text is its header's menu still gives nothing.
    const shop = `<body><header><div class="nav">${Array.from({ length: 12 }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(" ")}</div></header><main id="app"></main></body>`;
    expect(convertHtml(shop).content).toBe("");
  });

  it("rejects wrong argument types as programmer errors", () => {
    expect(() => convertHtml(42 as unknown as string)).toThrow(TypeError);
    expect(() => convertHtml("", { format: "pdf" as "text" })).toThrow(TypeError);
  });
});
