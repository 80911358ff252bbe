import { describe, expect, it } from "vitest";
import { convertFeed } from "../../src/convert/feed.js";

const RSS2 = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>Example &amp; Co Blog</title>
    <atom:link href="https://example.com/feed.xml" rel="self" type="application/rss+xml"/>
    <link>https://example.com/blog/</link>
    <description>News from &lt;b&gt;Example&lt;/b&gt;</description>
    <image><title>Logo</title><url>https://example.com/logo.png</url></image>
    <item>
      <title>Hello [World]</title>
      <media:title>Not this one</media:title>
      <link>/blog/hello</link>
      <pubDate>Fri, 02 Jan 2026 23:30:00 -0500</pubDate>
      <description><![CDATA[<p>First <b>post</b>.</p><p>Second&nbsp;paragraph &amp; more.</p><script>alert(1)</script>]]></description>
    </item>
    <item>
      <title><![CDATA[Tom &amp; Jerry <i>return</i>]]></title>
      <guid isPermaLink="true">https://example.com/blog/tom-and-jerry</guid>
      <pubDate>not a date</pubDate>
      <content:encoded><![CDATA[<div>Only <em>content:encoded</em> here</div>]]></content:encoded>
    </item>
    <item>
      <title>No link, opaque guid</title>
      <guid isPermaLink="false">tag:example.com,2026:3</guid>
    </item>
    <item>
      <title>Evil link</title>
      <link>javascript:alert(1)</link>
    </item>
    <item>
      <title>Parens</title>
      <link>https://en.example.org/wiki/Foo_(bar)</link>
    </item>
  </channel>
</rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title type="html">Atom &lt;em&gt;Feed&lt;/em&gt;</title>
  <subtitle>All the news</subtitle>
  <link href="https://atom.example/" rel="alternate"/>
  <link href="https://atom.example/feed" rel="self"/>
  <updated>2026-01-05T12:00:00Z</updated>
  <entry>
    <title>Entry one</title>
    <link rel="self" href="https://atom.example/api/1"/>
    <link rel="alternate" type="text/html" href="/posts/1"/>
    <link rel="enclosure" href="https://atom.example/1.mp3"/>
    <published>2026-01-02T10:00:00+09:00</published>
    <updated>2026-01-04T10:00:00Z</updated>
    <summary type="text">A &lt;plain&gt; text summary</summary>
    <content type="html">&lt;p&gt;Full content&lt;/p&gt;</content>
  </entry>
  <entry>
    <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">XHTML <b>title</b></div></title>
    <link href="https://atom.example/posts/2"/>
    <updated>2026-01-03T00:00:00Z</updated>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Para one.</p><p>Para two.</p></div></content>
  </entry>
</feed>`;

const RSS1 = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://rdf.example/">
    <title>RDF Site</title>
    <link>https://rdf.example/</link>
    <description>An RSS 1.0 feed</description>
    <items><rdf:Seq><rdf:li resource="https://rdf.example/a"/></rdf:Seq></items>
  </channel>
  <item rdf:about="https://rdf.example/a">
    <title>Item A</title>
    <link>https://rdf.example/a</link>
    <dc:date>2025-12-31T23:59:59+09:00</dc:date>
    <description>Plain description</description>
  </item>
</rdf:RDF>`;

describe("convertFeed", () => {
  it("RSS 2.0: title, description, items with absolute links, dates and summaries", () => {
    const result = convertFeed(RSS2, { url: "https://example.com/feed.xml" });
    expect(result.title).toBe("Example & Co Blog");
    expect(result.description).toBe("News from Example");
    expect(result.content).toBe(
      [
        "# Example & Co Blog",
        "",
        "News from Example",
        "",
        "- [Hello \\[World\\]](https://example.com/blog/hello) — 2026-01-02",
        "  First post. Second paragraph & more.",
        "- [Tom & Jerry return](https://example.com/blog/tom-and-jerry) — not a date",
        "  Only content:encoded here",
        "- No link, opaque guid",
        "- Evil link",
        "- [Parens](https://en.example.org/wiki/Foo_%28bar%29)",
      ].join("\n"),
    );
  });

  it("Atom: rel=alternate link preferred, published date, text/html/xhtml constructs", () => {
    const result = convertFeed(ATOM);
    expect(result.title).toBe("Atom Feed");
    expect(result.description).toBe("All the news");
    expect(result.content).toBe(
      [
        "# Atom Feed",
        "",
        "All the news",
        "",
        "- [Entry one](https://atom.example/posts/1) — 2026-01-02",
        "  A <plain> text summary",
        "- [XHTML title](https://atom.example/posts/2) — 2026-01-03",
        "  Para one. Para two.",
      ].join("\n"),
    );
  });

  it("RSS 1.0 (RDF): items are siblings of the channel", () => {
    const result = convertFeed(RSS1);
    expect(result.content).toBe(
      [
        "# RDF Site",
        "",
        "An RSS 1.0 feed",
        "",
        "- [Item A](https://rdf.example/a) — 2025-12-31",
        "  Plain description",
      ].join("\n"),
    );
  });

  it("relative links without a feed URL resolve against the channel link", () => {
    const xml = `<rss><channel><title>T</title><link>https://site.example/news/</link>
      <item><title>A</title><link>a.html</link></item></channel></rss>`;
    expect(convertFeed(xml).content).toBe("# T\n\n- [A](https://site.example/news/a.html)");
  });

  it("truncates long summaries at a word boundary with an ellipsis", () => {
    const long = "word ".repeat(200);
    const xml = `<rss><channel><title>T</title><item><title>A</title><description>${long}</description></item></channel></rss>`;
    const summary = convertFeed(xml).content.split("\n").at(-1)!.trim();
    expect(summary.endsWith("word…")).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(301);
    expect(summary.length).toBeGreaterThan(200);
  });

  it("truncates summaries without spaces (CJK) without splitting surrogate pairs", () => {
    const cjk = "日本語".repeat(200);
    const xml = `<rss><channel><item><title>A</title><description>${cjk}</description></item></channel></rss>`;
    const summary = convertFeed(xml).content.split("\n").at(-1)!.trim();
    expect(summary).toBe(`${cjk.slice(0, 300)}…`);
    const emoji = "😀".repeat(200);
    const xml2 = `<rss><channel><item><title>A</title><description>${emoji}</description></item></channel></rss>`;
    const cut = convertFeed(xml2).content.split("\n").at(-1)!.trim();
    expect(cut).toBe(`${"😀".repeat(150)}…`);
  });

  it("decodes double-escaped entities in titles", () => {
    const xml = "<rss><channel><item><title>Tom &amp;amp; Jerry</title></item></channel></rss>";
    expect(convertFeed(xml).content).toBe("- Tom & Jerry");
  });

  it("does not expand DTD entities", () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "AAAAAAAAAA"><!ENTITY b "&a;&a;&a;&a;">]>
      <rss><channel><title>&b;</title></channel></rss>`;
    expect(convertFeed(xml).content).not.toContain("AAAA");
  });

  it("copes with empty, non-feed and deeply nested input", () => {
    expect(convertFeed("")).toEqual({ content: "" });
    expect(convertFeed("not xml at all")).toEqual({ content: "" });
    const deep = `${"<div>".repeat(3_000)}x${"</div>".repeat(3_000)}`;
    const xml = `<rss><channel><title>T</title><item><title>A</title><description><![CDATA[${deep}]]></description></item></channel></rss>`;
    expect(convertFeed(xml).content).toContain("- A\n  x");
  });

  it("caps the number of items", () => {
    const items = Array.from({ length: 205 }, (_, i) => `<item><title>I${i}</title></item>`).join(
      "",
    );
    const { content } = convertFeed(`<rss><channel><title>T</title>${items}</channel></rss>`);
    expect(content).toContain("- I199");
    expect(content).not.toContain("- I200");
    expect(content.endsWith("_(5 more items not shown)_")).toBe(true);
  });

  it("counts the items it leaves unread, in the channel and beside it, and keeps what follows them", () => {
    const items = (n: number, from: number, tag = "item") =>
      Array.from({ length: n }, (_, i) => `<${tag}><title>I${from + i}</title></${tag}>`).join("");
    // RSS 1.0 puts items beside the channel; channel fields may follow the items.
    const rdf = `<rdf:RDF><channel>${items(250, 0)}<title>Late title</title></channel>${items(300, 1000)}<entry/><entry/></rdf:RDF>`;
    const doc = convertFeed(rdf);
    expect(doc.title).toBe("Late title");
    expect(doc.content).toContain("- I199");
    expect(doc.content).not.toContain("- I200");
    expect(doc.content).not.toContain("I1000");
    expect(doc.content.endsWith("_(352 more items not shown)_")).toBe(true);
    expect(doc.limits).toEqual([{ limit: "feed-items", max: 200 }]);
    // An item the input ends inside of is still counted.
    const open = convertFeed(`<feed><title>F</title>${items(201, 0, "entry")}<entry><title>X`);
    expect(open.content.endsWith("_(2 more items not shown)_")).toBe(true);
  });
});

describe("convertFeed: hostile nesting", () => {
  it("refuses XML nested deeper than 512 levels, quickly", () => {
    const deep = `${"<x>".repeat(100_000)}y${"</x>".repeat(100_000)}`;
    expect(() =>
      convertFeed(`<rss><channel><item><description>${deep}</description></item></channel></rss>`),
    ).toThrow(expect.objectContaining({ code: "PARSE_ERROR" }));
  });

  it("reads deeply nested summary HTML with its tags stripped", () => {
    const deep = `${"<div>".repeat(3_000)}deep &amp; text${"</div>".repeat(3_000)}`;
    const xml = `<rss><channel><item><title>A</title><description><![CDATA[${deep}]]></description></item></channel></rss>`;
    expect(convertFeed(xml).content).toBe("- A\n  deep & text");
  });

  it("reads a title of 200,000 '<a' with no '>' in linear time", () => {
    // Each '<' once started a scan to the end for the '>' that would make a tag (over 20 s).
    const xml = `<rss><channel><title>${"&lt;a".repeat(200_000)}</title><item><title>A</title></item></channel></rss>`;
    expect(convertFeed(xml).content).toContain("- A");
  });
});
