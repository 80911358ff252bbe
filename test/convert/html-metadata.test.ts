/**
 * Metadata of HTML pages: source precedence, JSON-LD shapes (@graph, @id references, author
 * arrays), date normalization, language tags and canonical URLs.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import { normalizeDate } from "../../src/extract/date.js";
import { readJsonLd } from "../../src/extract/jsonld.js";

/** Metadata only. */
function meta(head: string, url = "https://example.com/a/b") {
  const { content: _content, ...rest } = convertHtml(
    `<html><head>${head}</head><body></body></html>`,
    {
      url,
    },
  );
  return rest;
}

/** A JSON-LD script tag. */
function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

describe("precedence", () => {
  it("prefers og:title, then JSON-LD headline, then <title>", () => {
    expect(meta("<title>T | Site</title>").title).toBe("T | Site");
    expect(meta(`<title>T | Site</title>${ld({ "@type": "Article", headline: "H" })}`).title).toBe(
      "H",
    );
    expect(
      meta(
        `<title>T</title><meta property="og:title" content="OG">${ld({ "@type": "Article", headline: "H" })}`,
      ).title,
    ).toBe("OG");
  });

  it("omits unknown fields instead of setting them to undefined or null", () => {
    const result = convertHtml("<p>just text</p>");
    expect(result).toEqual({ content: "just text" });
    expect(Object.keys(result)).toEqual(["content"]);
  });

  it("collapses whitespace in values", () => {
    expect(meta("<title>\n  Two\n  lines </title>").title).toBe("Two lines");
  });

  it("ignores <title> inside SVG", () => {
    expect(
      convertHtml("<body><svg><title>icon</title></svg><p>x</p></body>").title,
    ).toBeUndefined();
  });

  it("reads description, author and site name from meta tags", () => {
    expect(
      meta(
        '<meta name="description" content="D"><meta name="author" content="A"><meta property="og:site_name" content="S">',
      ),
    ).toMatchObject({ description: "D", author: "A", siteName: "S" });
  });

  it("joins citation authors and skips profile URLs as authors", () => {
    expect(
      meta(
        '<meta name="citation_author" content="Curie, M."><meta name="citation_author" content="Curie, P.">',
      ).author,
    ).toBe("Curie, M. and Curie, P.");
    expect(meta('<meta property="article:author" content="https://facebook.com/x">').author).toBe(
      undefined,
    );
  });
});

describe("JSON-LD", () => {
  it("reads @graph, resolves @id references and prefers the WebSite name", () => {
    const facts = readJsonLd([
      JSON.stringify({
        "@context": "https://schema.org",
        "@graph": [
          { "@type": "WebSite", "@id": "#site", name: "The Site" },
          { "@type": "Organization", "@id": "#org", name: "The Org" },
          {
            "@type": "NewsArticle",
            headline: "Headline",
            author: { "@id": "#p1" },
            publisher: { "@id": "#org" },
            datePublished: "2024-05-06",
          },
          { "@type": "Person", "@id": "#p1", name: "Pat" },
        ],
      }),
    ]);
    expect(facts).toEqual({
      title: "Headline",
      author: "Pat",
      publishedAt: "2024-05-06",
      siteName: "The Site",
    });
  });

  it("reads authors as a string, an object, an array, and names as arrays", () => {
    const author = (value: unknown) =>
      readJsonLd([JSON.stringify({ "@type": "Article", author: value })]).author;
    expect(author("Ann")).toBe("Ann");
    expect(author({ "@type": "Person", name: "Ann" })).toBe("Ann");
    expect(author([{ name: "Ann" }, "Bob", { name: ["Cy", "Cyrus"] }, { name: "Ann" }])).toBe(
      "Ann, Bob and Cy",
    );
  });

  it("uses the publisher when no WebSite is described", () => {
    expect(
      readJsonLd([
        JSON.stringify({
          "@type": "BlogPosting",
          publisher: { "@type": "Organization", name: "Pub" },
        }),
      ]).siteName,
    ).toBe("Pub");
  });

  it("skips malformed blocks and reads the next one; strips comment wrappers", () => {
    const facts = readJsonLd(["{ not json", '<!-- {"@type":"Article","headline":"Ok"} -->']);
    expect(facts.title).toBe("Ok");
  });

  it("reads arrays of top-level objects and HTML-escaped strings", () => {
    const facts = readJsonLd([
      JSON.stringify([
        { "@type": "BreadcrumbList" },
        { "@type": "Recipe", name: "Pie &amp; Mash" },
      ]),
    ]);
    expect(facts.title).toBe("Pie & Mash");
  });

  it("normalizes JSON-LD dates through convertHtml", () => {
    expect(
      meta(ld({ "@type": "Article", datePublished: "2024-01-02T09:00:00+09:00" })).publishedAt,
    ).toBe("2024-01-02T00:00:00Z");
  });
});

describe("dates", () => {
  it.each([
    ["2024-01-02", "2024-01-02T00:00:00Z"],
    ["2024-01-02T10:20:30Z", "2024-01-02T10:20:30Z"],
    ["2024-01-02T10:20:30.123Z", "2024-01-02T10:20:30.123Z"],
    ["2024-01-02T10:20:30+0200", "2024-01-02T08:20:30Z"],
    ["2024-01-02T10:20", "2024-01-02T10:20:00Z"],
    ["2024-01-02 10:20:30", "2024-01-02T10:20:30Z"],
    ["2024/1/2", "2024-01-02T00:00:00Z"],
    ["20240102", "2024-01-02T00:00:00Z"],
    ["Tue, 02 Jan 2024 10:00:00 GMT", "2024-01-02T10:00:00Z"],
    ["January 2, 2024", "2024-01-02T00:00:00Z"],
    ["2 Jan 2024 10:00 +0900", "2024-01-02T01:00:00Z"],
    ["2024年1月2日", "2024-01-02T00:00:00Z"],
    ["2024", "2024"],
    ["2024-03", "2024-03"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeDate(input)).toBe(expected);
  });

  it.each(["", "yesterday", "2024-02-31", "2024-13-01", "0000-01-01", "not a date 12"])(
    "rejects %j",
    (input) => {
      expect(normalizeDate(input)).toBeUndefined();
    },
  );

  it("keeps an unreadable date as the page wrote it, preferring a readable one", () => {
    expect(meta('<meta property="article:published_time" content="Spring 2024">').publishedAt).toBe(
      "Spring 2024",
    );
    expect(
      meta(
        '<meta property="article:published_time" content="Spring 2024"><meta name="date" content="2024-04-01">',
      ).publishedAt,
    ).toBe("2024-04-01T00:00:00Z");
  });
});

describe("dates in the body", () => {
  const body = (html: string, head = "") => {
    const { content: _content, ...rest } = convertHtml(
      `<html><head>${head}</head><body>${html}</body></html>`,
      { url: "https://example.com/a" },
    );
    return rest;
  };

  it("reads itemprop=datePublished, else the first <time datetime>, when the head has none", () => {
    const byline =
      '<article><p class="byline">By Ada <time datetime="2024-03-05T10:00:00+01:00">March 5</time></p><p>Text</p>' +
      '<p>Updated <time datetime="2025-01-01">later</time></p></article>';
    expect(body(byline).publishedAt).toBe("2024-03-05T09:00:00Z");
    expect(
      body(`<span itemprop="datePublished" content="2023-07-08">July 8</span>${byline}`)
        .publishedAt,
    ).toBe("2023-07-08T00:00:00Z");
    // Else the short text of an element named like a date.
    expect(
      body(
        '<div class="timeline">Events of 2020 and more words than a date</div><p class="post-date">Published: January 2, 2024</p><p>Text</p>',
      ).publishedAt,
    ).toBe("2024-01-02T00:00:00Z");
    expect(body('<p class="post-date">Soon</p><p>Text</p>').publishedAt).toBeUndefined();
    // The head and structured data speak first.
    expect(
      body(byline, '<meta property="article:published_time" content="2022-02-02">').publishedAt,
    ).toBe("2022-02-02T00:00:00Z");
  });
});

describe("lang and canonical URL", () => {
  it("normalizes language tags and ignores junk", () => {
    expect(convertHtml('<html lang="en_US"><body></body></html>').lang).toBe("en-US");
    expect(convertHtml('<html lang="{{lang}}"><body></body></html>').lang).toBeUndefined();
    expect(meta('<meta property="og:locale" content="pt_BR">').lang).toBe("pt-BR");
  });

  it("resolves a relative canonical against the page (or <base>) and requires http(s)", () => {
    expect(meta('<link rel="canonical" href="/c">').canonicalUrl).toBe("https://example.com/c");
    expect(
      meta('<base href="https://other.example/x/"><link rel="canonical" href="c">').canonicalUrl,
    ).toBe("https://other.example/x/c");
    expect(meta('<link rel="canonical" href="javascript:x">').canonicalUrl).toBeUndefined();
    expect(convertHtml('<link rel="canonical" href="/c">').canonicalUrl).toBeUndefined();
    expect(meta('<meta property="og:url" content="https://example.com/og">').canonicalUrl).toBe(
      "https://example.com/og",
    );
  });
});
