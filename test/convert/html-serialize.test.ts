/**
 * Edge cases of the DOM → Markdown and → text serializers, through convertHtml with
 * `extract: "full"` so main-content selection stays out of the way.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";

/** Markdown of a fragment, whole page kept. */
function md(html: string, url = "https://example.com/dir/page"): string {
  return convertHtml(html, { url, extract: "full" }).content;
}

/** Plain text of a fragment, whole page kept. */
function text(html: string): string {
  return convertHtml(html, { url: "https://example.com/", extract: "full", format: "text" })
    .content;
}

describe("code", () => {
  it("fences a block with the language from the class", () => {
    expect(md('<pre><code class="language-rust">fn main() {}</code></pre>')).toBe(
      "```rust\nfn main() {}\n```",
    );
    expect(md('<pre class="lang-go">x := 1</pre>')).toBe("```go\nx := 1\n```");
    expect(
      md('<div class="highlight-python"><div class="highlight"><pre>x = 1</pre></div></div>'),
    ).toBe("```python\nx = 1\n```");
    expect(md('<pre class="brush: ruby">puts 1</pre>')).toBe("```ruby\nputs 1\n```");
    expect(md('<pre data-lang="SQL">SELECT 1</pre>')).toBe("```sql\nSELECT 1\n```");
  });

  it("makes the fence longer than any backtick run inside", () => {
    expect(md("<pre>a ``` b</pre>")).toBe("````\na ``` b\n````");
    expect(md("<pre>a ````` b</pre>")).toBe("``````\na ````` b\n``````");
  });

  it("keeps whitespace and blank lines in pre, drops the first newline, turns <br> into lines", () => {
    expect(md("<pre>\n  indented\n\n\n  after blanks\n</pre>")).toBe(
      "```\n  indented\n\n\n  after blanks\n```",
    );
    expect(md("<pre>one<br>two</pre>")).toBe("```\none\ntwo\n```");
  });

  it("drops line numbers rendered at the start of each line, not numbers in the code", () => {
    const numbered =
      '<pre data-lang="sh"><div><span>1</span><div>composer require x</div></div>' +
      "<div><span>2</span><div>composer install</div></div></pre>";
    expect(md(numbered)).toBe("```sh\ncomposer require x\ncomposer install\n```");
    expect(md("<pre><span>x = [</span><span>1</span>, <span>2</span>]</pre>")).toBe(
      "```\nx = [1, 2]\n```",
    );
    // Not one after another: not a gutter.
    expect(
      md(
        "<pre><div><span>7</span><span>a</span></div><div><span>9</span><span>b</span></div></pre>",
      ),
    ).toBe("```\n7a\n9b\n```");
    // Numbers that are the code: an array one item a line (Shiki), indented or not.
    const line = (inner: string) => `<span class="line">${inner}</span>\n`;
    expect(
      md(
        `<pre>${line("<span>[</span>")}${line("<span>  1</span><span>,</span>")}${line("<span>2</span><span>,</span>")}${line("<span>3</span>")}${line("<span>]</span>")}</pre>`,
      ),
    ).toBe("```\n[\n  1,\n2,\n3\n]\n```");
  });

  it("sizes inline code fences and pads backticks at the edges", () => {
    expect(md("<p><code>a`b</code></p>")).toBe("``a`b``");
    expect(md("<p><code>`x`</code></p>")).toBe("`` `x` ``");
    expect(md("<p><code>a  *  b</code></p>")).toBe("`a * b`");
  });
});

describe("tables", () => {
  it("renders a GFM table with escaped pipes and one-line cells", () => {
    const html =
      "<table><tr><th>a|b</th><th>c</th></tr><tr><td>1<br>2</td><td><p>x</p><p>y</p></td></tr></table>";
    expect(md(html)).toBe("| a\\|b | c |\n| --- | --- |\n| 1 2 | x y |");
  });

  it("expands colspan and pads short rows", () => {
    const html =
      "<table><thead><tr><td>A</td><td>B</td><td>C</td></tr></thead><tr><td colspan=2>wide</td><td>c</td></tr><tr><td>short</td></tr></table>";
    expect(md(html)).toBe("| A | B | C |\n| --- | --- | --- |\n| wide | | c |\n| short | | |");
  });

  it("leaves the header empty when the first row is not a header", () => {
    const html =
      "<table><tr><th>Weight</th><td>1 kg</td></tr><tr><th>Size</th><td>M</td></tr></table>";
    expect(md(html)).toBe("| | |\n| --- | --- |\n| Weight | 1 kg |\n| Size | M |");
  });

  it("reads layout tables as blocks: one column, one row, nested tables, role=presentation", () => {
    expect(md("<table><tr><td>a</td></tr><tr><td>b</td></tr></table>")).toBe("a\n\nb");
    expect(md("<table><tr><td>left</td><td>right</td></tr></table>")).toBe("left\n\nright");
    expect(
      md(
        '<table role="presentation"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>',
      ),
    ).toBe("a\n\nb\n\nc\n\nd");
    const nested =
      "<table><tr><td><h2>Menu</h2></td><td><table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr><tr><td>x</td><td>y</td></tr></table>";
    expect(md(nested)).toBe("## Menu\n\n| k | v |\n| --- | --- |\n| 1 | 2 |\n\nx\n\ny");
  });

  it("joins cells with tabs in plain text", () => {
    expect(text("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>")).toBe(
      "a\tb\n1\t2",
    );
  });
});

describe("lists", () => {
  it("nests bullets by two spaces and numbers by the marker width", () => {
    const html =
      "<ul><li>a<ul><li>b<ol><li>c</li><li>d<ul><li>e</li></ul></li></ol></li></ul></li></ul>";
    expect(md(html)).toBe("- a\n  - b\n    1. c\n    2. d\n       - e");
  });

  it("indents under two-digit numbers by four", () => {
    const html = `<ol start="10"><li>ten<ul><li>sub</li></ul></li></ol>`;
    expect(md(html)).toBe("10. ten\n    - sub");
  });

  it("keeps paragraphs of an item together under the item", () => {
    expect(md("<ol><li><p>one</p><p>more</p></li><li>two</li></ol>")).toBe(
      "1. one\n\n   more\n2. two",
    );
  });

  it("skips empty items but keeps counting", () => {
    expect(md("<ol><li>a</li><li> </li><li>c</li></ol>")).toBe("1. a\n3. c");
  });

  it("indents what an item holds under it at every depth: breaks, code, quotes, definitions, tables", () => {
    const html = `<body><ol start="9"><li>Nine<br>after a break<ul><li>Deep<pre><code>

first line after blank ones
  indented

last</code></pre><blockquote><p>Quoted</p><ul><li>In quote<ul><li>Deeper in quote</li></ul></li></ul></blockquote></li>
<li value="20"><dl><dt>Term</dt><dd>Definition<ul><li>In a definition<br>broken</li></ul></dd></dl></li><li>   </li></ul></li>
<li><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></li></ol></body>`;
    // Blank lines stay empty, in code too; a quote's lines are prefixed, then indented.
    expect(md(html)).toBe(
      "9. Nine  \n   after a break\n   - Deep\n\n     ```\n\n     first line after blank ones\n       indented\n\n     last\n     ```\n\n     > Quoted\n     >\n     > - In quote\n     >   - Deeper in quote\n   - **Term**\n     : Definition\n\n       - In a definition  \n         broken\n10. | A | B |\n    | --- | --- |\n    | 1 | 2 |",
    );
    expect(text(html)).toBe(
      "Nine\n  after a break\n  Deep\n\n\n    first line after blank ones\n      indented\n\n    last\n\n    Quoted\n\n    In quote\n      Deeper in quote\n  Term\n    Definition\n\n    In a definition\n      broken\nA\tB\n  1\t2",
    );
  });

  it("drops markers in plain text and indents nested items", () => {
    expect(text("<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>")).toBe("a\n  b\nc");
  });
});

describe("links and images", () => {
  it("resolves relative URLs against the page URL", () => {
    expect(md('<a href="../up?q=1#f">up</a>')).toBe("[up](https://example.com/up?q=1#f)");
    expect(md('<a href="//cdn.example.org/x">proto</a>')).toBe(
      "[proto](https://cdn.example.org/x)",
    );
  });

  it("resolves against <base href> when present", () => {
    const html =
      '<head><base href="/other/"></head><body><a href="x">x</a><img src="i.png" alt="i"></body>';
    expect(md(html)).toBe("[x](https://example.com/other/x)![i](https://example.com/other/i.png)");
  });

  it("keeps relative URLs as they are without any base", () => {
    expect(convertHtml('<a href="rel/x">r</a>', { extract: "full" }).content).toBe("[r](rel/x)");
  });

  it("drops javascript:, vbscript: and data: links but keeps their text", () => {
    expect(md('<p><a href="javascript:alert(1)">run</a> <a href=" JaVaScRiPt:x">x</a></p>')).toBe(
      "run x",
    );
    expect(md('<a href="vbscript:msgbox">vb</a> <a href="data:text/html,hi">data</a>')).toBe(
      "vb data",
    );
  });

  it("percent-encodes spaces and parentheses in URLs", () => {
    expect(md('<a href="/a (1).html">p</a>')).toBe("[p](https://example.com/a%20%281%29.html)");
  });

  it("percent-encodes parentheses a link takes from its base, and none where there are none", () => {
    const wiki = "https://en.example.org/wiki/Foo_(bar)";
    expect(md('<a href="#History">h</a> <a href="/wiki/Plain">p</a>', wiki)).toBe(
      "[h](https://en.example.org/wiki/Foo_%28bar%29#History) [p](https://en.example.org/wiki/Plain)",
    );
    // The base's user name, and a host named by the link itself, are read as well.
    expect(md('<a href="/x">x</a>', "https://u(1)@example.com/")).toBe(
      "[x](https://u%281%29@example.com/x)",
    );
    // A host's full-width parentheses are read as ASCII ones.
    expect(md('<a href="//a（b）.example/y">y</a> <a href="/\\a（b）.example/z">z</a>')).toBe(
      "[y](https://a%28b%29.example/y) [z](https://a%28b%29.example/z)",
    );
    expect(text('<a href="/a (1)">t</a>')).toBe("t");
  });

  it("keeps balanced brackets in link text and escapes unbalanced ones", () => {
    expect(md('<a href="/x">see [1]</a>')).toBe("[see [1]](https://example.com/x)");
    expect(md('<a href="/x">a ] b</a>')).toBe("[a \\] b](https://example.com/x)");
    expect(md('<a href="/x">[a](b)</a>')).toBe("[\\[a\\](b)](https://example.com/x)");
  });

  it("links the first text line of a link that wraps blocks", () => {
    const html = '<a href="/post"><img src="/t.jpg" alt=""><h3>Title</h3><p>Summary.</p></a>';
    expect(md(html)).toBe(
      "![](https://example.com/t.jpg)\n\n### [Title](https://example.com/post)\n\nSummary.",
    );
  });

  it("skips data: images and tracking pixels, uses lazy-load sources", () => {
    expect(md('<img src="data:image/png;base64,AAAA" alt="x">')).toBe("");
    expect(md('<img src="/p.gif" width="1" height="1" alt="">')).toBe("");
    expect(md('<img src="https://t.example.com/pixel.gif?id=1">')).toBe("");
    expect(md('<img src="data:image/gif;base64,R0" data-src="/real.jpg" alt="r">')).toBe(
      "![r](https://example.com/real.jpg)",
    );
    expect(md('<img srcset="/a-1x.jpg 1x, /a-2x.jpg 2x" alt="s">')).toBe(
      "![s](https://example.com/a-1x.jpg)",
    );
  });

  it("drops permalink anchors", () => {
    expect(md('<h2>Setup<a href="#setup">¶</a></h2>')).toBe("## Setup");
  });
});

describe("text and whitespace", () => {
  it("writes a long output whole, in Markdown and text, blocks inside a list item included", () => {
    // Output past 64 KiB is kept in pieces; none may be lost or put out of order.
    const words = Array.from({ length: 12_000 }, (_, i) => `w${i}`);
    const paragraphs = words.map((w) => `<p>${w} <a href="/${w}">${w}</a></p>`).join("");
    expect(md(paragraphs)).toBe(
      words.map((w) => `${w} [${w}](https://example.com/${w})`).join("\n\n"),
    );
    expect(text(paragraphs)).toBe(words.map((w) => `${w} ${w}`).join("\n\n"));
    expect(md(`<ul><li>${words.map((w) => `<p>${w}</p>`).join("")}</li></ul>`)).toBe(
      `- ${words.join("\n\n  ")}`,
    );
  });

  it("collapses whitespace like a browser, NBSP included", () => {
    expect(md("<p>  a \n\t b&nbsp;&nbsp;c  </p>")).toBe("a b c");
    // Each kind of run alone in a text: spaces only, a lone tab, newline or NBSP, a hidden one.
    for (const run of [
      "  ",
      "   ",
      "\t",
      "\n",
      "\r\n",
      "\f",
      "&nbsp;",
      " &shy;",
      "&#8203; ",
      "&#8288;",
      "&#65279;",
    ]) {
      expect(md(`<p>one${run}two</p>`), JSON.stringify(run)).toMatch(/^one ?two$/);
      expect(md(`<p>one${run}two</p>`), JSON.stringify(run)).not.toMatch(
        /\s{2}|[\u00ad\u200b\u2060\ufeff]/,
      );
    }
  });

  it("drops invisible characters, and joiners that join nothing (Webflow's empty paragraphs)", () => {
    expect(md("<p>co&shy;op&#8203;erate</p><p>&zwj;</p><p> &zwnj; &zwj;</p><p>b</p>")).toBe(
      "cooperate\n\nb",
    );
    expect(md("<p>A coder 👩&zwj;💻 at work</p>")).toBe("A coder 👩\u200d💻 at work");
    // Between two elements a joiner still joins, and a non-joiner keeps apart, what they hold.
    expect(md("<p><span>👩</span>&zwj;<span>💻</span></p>")).toBe("👩\u200d💻");
    expect(md("<p><em>می</em>&zwnj;<em>خواهم</em></p>")).toBe("*می*\u200c*خواهم*");
  });

  it("puts spaces outside emphasis and drops empty emphasis", () => {
    expect(md("<p>a<strong> b </strong>c <em> </em>d</p>")).toBe("a **b** c d");
  });

  it("does not double emphasis when nested", () => {
    expect(md("<b>x <strong>y</strong></b>")).toBe("**x y**");
  });

  it("escapes Markdown only where it would change the meaning", () => {
    expect(md("<p># h</p><p>1. x</p><p>- y</p><p>+ z</p><p>> q</p>")).toBe(
      "\\# h\n\n1\\. x\n\n\\- y\n\n\\+ z\n\n\\> q",
    );
    expect(md("<p>a_b_c _d_ 2 * 3 *e*</p>")).toBe("a_b_c \\_d\\_ 2 * 3 \\*e\\*");
    expect(md("<p>C# 3.0 - fine</p>")).toBe("C# 3.0 - fine");
    // Line starts with nothing else to escape, in paragraphs and in table cells.
    expect(md("<p>===</p><p>--</p><p>9) x</p>")).toBe("\\===\n\n\\--\n\n9\\) x");
    expect(md("<table><tr><th>#</th><th>n</th></tr><tr><td>- 1</td><td>2.</td></tr></table>")).toBe(
      "| \\# | n |\n| --- | --- |\n| \\- 1 | 2\\. |",
    );
  });

  it("turns <br> into a line break and runs of them into one blank line", () => {
    expect(md("<p>a<br>b<br><br><br><br>c<br></p>")).toBe("a  \nb\n\nc");
    expect(text("<p>a<br>b</p>")).toBe("a\nb");
  });

  it("never leaves more than one blank line", () => {
    const out = md("<div><p>a</p><div><div><p></p></div></div><p>b</p><hr><hr></div>");
    expect(out).not.toMatch(/\n{3,}/);
    expect(out).toBe("a\n\nb\n\n---\n\n---");
  });

  it("renders headings, quotes, rules and definition lists", () => {
    expect(
      md(
        "<h3>  Three  </h3><blockquote><p>q1</p><p>q2</p></blockquote><hr><dl><dt>T</dt><dd>D</dd></dl>",
      ),
    ).toBe("### Three\n\n> q1\n>\n> q2\n\n---\n\n**T**\n: D");
  });

  it("quotes every line with '> ' and an empty one with '>', in lists and code too", () => {
    const cases: [string, string][] = [
      ["<blockquote><pre>a\n\n\nb</pre></blockquote>", "> ```\n> a\n>\n>\n> b\n> ```"],
      ["<blockquote>a<br>b<br><br>c</blockquote>", "> a  \n> b\n>\n> c"],
      [
        "<blockquote><p>x</p><ul><li>a<p>b</p></li><li>c</li></ul></blockquote>",
        "> x\n>\n> - a\n>\n>   b\n> - c",
      ],
      [
        "<ul><li>item<blockquote><p>q1</p><p>q2</p></blockquote></li></ul>",
        "- item\n\n  > q1\n  >\n  > q2",
      ],
      ["<ul><li><blockquote><p>q1</p><p>q2</p></blockquote></li></ul>", "- > q1\n  >\n  > q2"],
      [
        "<blockquote><p>a</p><blockquote><p>b</p><p></p><p>c</p></blockquote><p>d</p></blockquote>",
        "> a\n>\n> > b\n> >\n> > c\n>\n> d",
      ],
      ["<blockquote> </blockquote><p>z</p>", "z"],
    ];
    for (const [html, markdown] of cases) expect(md(html)).toBe(markdown);
  });

  it("writes a link around one text as one around more: spaces outside, seams, empty ones", () => {
    const e = "https://example.com";
    const cases: [string, string][] = [
      ['<p>a <a href="/x"> b </a> c</p>', `a [b](${e}/x) c`],
      ['<p>x<a href="/y">\u2009</a>y</p><p>q<a href="/w">\u200d</a>r</p>', "xy\n\nqr"],
      ['<p><a href="/a">Home</a><a href="/b">Blog</a></p>', `[Home](${e}/a) [Blog](${e}/b)`],
      ['<p><span>Merrell</span><a href="/m">Moab</a></p>', `Merrell [Moab](${e}/m)`],
      ['<p>See<a href="/s" role="button">Buy</a>now</p>', `See [Buy](${e}/s) now`],
      ['<p><em> <a href="/e">in em</a></em></p>', `*[in em](${e}/e)*`],
      ['<ul><li><a href="/l">1. not a list</a></li></ul>', `- [1. not a list](${e}/l)`],
      ['<p><a href="/z">a_b *c* [d]</a></p>', `[a_b \\*c\\* [d]](${e}/z)`],
      ['<p><a href="/p">  </a>x</p>', "x"],
      ['<p><a href="/u?q=a b(c)">u</a></p>', `[u](${e}/u?q=a%20b%28c%29)`],
    ];
    for (const [html, markdown] of cases) expect(md(html)).toBe(markdown);
  });

  it("marks quotes nested past 16 levels no deeper, and their text is written once", () => {
    const deep = `${"<blockquote>".repeat(40)}<p>in</p><p>in2</p>${"</blockquote>".repeat(40)}`;
    const marks = "> ".repeat(16);
    expect(md(deep)).toBe(`${marks}in\n${marks.trimEnd()}\n${marks}in2`);
  });

  it("writes plain text without any markup", () => {
    expect(
      text(
        '<h1>H</h1><p><strong>b</strong> <a href="/x">l</a> <code>c</code></p><blockquote>q</blockquote><img src="/i.png" alt="i">',
      ),
    ).toBe("H\n\nb l c\n\nq");
  });
});

describe("neighbours with no whitespace between them", () => {
  it("keeps the words of buttons, tabs and menu items apart", () => {
    const tabs =
      '<p>Pick one:</p><div role="tablist"><span role="tab">Python</span><span role="tab">Node.js</span><span role="tab">C#</span></div>';
    expect(text(tabs)).toBe("Pick one:\n\nPython Node.js C#");
    expect(text('<p>Size<span role="button">S</span><span role="button">M</span>guide</p>')).toBe(
      "Size S M guide",
    );
    // Buttons go (their labels are controls, not content), and leave their neighbours apart.
    expect(text("<p>Size<button>S</button><button>M</button>guide</p>")).toBe("Size guide");
    expect(text('<p><span role="menuitem">Home</span>Blog</p>')).toBe("Home Blog");
  });

  it("keeps links to different places and neighbouring labels apart", () => {
    expect(md('<p><a href="/a">Facebook</a><a href="/b">LinkedIn</a></p>')).toBe(
      "[Facebook](https://example.com/a) [LinkedIn](https://example.com/b)",
    );
    expect(text('<p><label><input type="checkbox">Cotton</label><label>Merino</label></p>')).toBe(
      "Cotton Merino",
    );
  });

  it("parts a link from one that ends its neighbour, when they point to different places", () => {
    expect(
      md(
        '<p><b><a href="https://e.example/news">Hacker News</a></b><a href="https://e.example/newest">new</a></p>',
      ),
    ).toBe("**[Hacker News](https://e.example/news)** [new](https://e.example/newest)");
    expect(text('<p><span><a href="/a">One</a></span><a href="/b">two</a></p>')).toBe("One two");
    expect(text('<p><b><a href="/c">cer</a></b><a href="/c">emony</a></p>')).toBe("ceremony");
  });

  it("joins a link an editor split in two, pointing to one place", () => {
    expect(text('<p>order of <a href="/c">cer</a><a href="/c">emony</a> booklets</p>')).toBe(
      "order of ceremony booklets",
    );
  });

  it("parts spans where a lower-case letter or digit meets a capital or digit", () => {
    expect(text("<p><span>Merrell</span><span>Moab 3</span></p>")).toBe("Merrell Moab 3");
    expect(text("<p><span>Accessories</span><span>1385</span></p>")).toBe("Accessories 1385");
    expect(text("<p><span>Merrell</span><span><b>Moab</b></span></p>")).toBe("Merrell Moab");
  });

  it("parts other inline neighbours at a case seam too: a name link, its italic title, a label", () => {
    expect(
      text('<h2><a href="/a">Earth Ball</a><em>Outside Over There</em><span>Upset</span></h2>'),
    ).toBe("Earth Ball Outside Over There Upset");
    expect(text("<p><b>Warren</b><small>Reviewed</small></p>")).toBe("Warren Reviewed");
    expect(md('<h2><a href="https://a.example/">Earth Ball</a><em>Outside</em></h2>')).toBe(
      "## [Earth Ball](https://a.example/) *Outside*",
    );
    expect(md("<p><b>Earth</b><span>Outside</span></p>")).toBe("**Earth** Outside");
    expect(text('<p><b>W</b>ord by <em>Ann</em><a href="/x">’s</a> hand</p>')).toBe(
      "Word by Ann’s hand",
    );
  });

  it("keeps words that spans split for styling", () => {
    expect(text("<p><span>Le</span><span>arn</span> more</p>")).toBe("Learn more");
    expect(text("<p><span>F</span><span>l</span><span>o</span><span>w</span></p>")).toBe("Flow");
    expect(text("<p>the <span>3</span><span>rd</span> of <span>19</span><span>99</span></p>")).toBe(
      "the 3rd of 1999",
    );
    expect(text("<p><span>abc</span><span></span>Def</p>")).toBe("abcDef");
  });
});
