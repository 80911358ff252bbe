/**
 * Page types read from what a page says about itself and from its URL: the profile extraction
 * follows (on a forum the replies are content, on a blog they are not).
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import { gatherMetadata } from "../../src/extract/metadata.js";
import { classifyPage } from "../../src/extract/page-type.js";
import { parseDocument } from "../../src/extract/parse.js";

/** The type of a page with `head` markup at `url`. */
function typeOf(url: string, head = ""): string {
  const document = parseDocument(`<html><head>${head}</head><body><p>Text</p></body></html>`);
  return classifyPage(gatherMetadata(document), url);
}

describe("classifyPage", () => {
  it("knows forums by their software, their JSON-LD, their host and their thread paths", () => {
    expect(typeOf("https://example.com/x", '<meta name="generator" content="Discourse 3.2">')).toBe(
      "forum",
    );
    const qa = '<script type="application/ld+json">{"@type":"QAPage"}</script>';
    expect(typeOf("https://example.com/x", qa)).toBe("forum");
    expect(typeOf("https://forum.example.com/anything")).toBe("forum");
    expect(typeOf("https://lemmy.ml/post/21018364")).toBe("forum");
    expect(typeOf("https://example.com/threads/chains.42/")).toBe("forum");
  });

  it("tells products, listings and documentation apart, and calls the rest a page", () => {
    const offer = '<script type="application/ld+json">{"@type":"Product","offers":{}}</script>';
    expect(typeOf("https://shop.example.com/p", offer)).toBe("product");
    const list = '<script type="application/ld+json">{"@type":"ItemList"}</script>';
    expect(typeOf("https://example.com/best", list)).toBe("listing");
    expect(typeOf("https://docs.example.com/start")).toBe("documentation");
    expect(typeOf("https://example.com/blog/post/12")).toBe("page");
  });

  it("reads an article with an ItemList of related stories as the article", () => {
    const ld = (types: string[]) =>
      types.map((t) => `<script type="application/ld+json">{"@type":"${t}"}</script>`).join("");
    expect(typeOf("https://example.pe/noticia/", ld(["NewsArticle", "ItemList"]))).toBe("page");
    expect(typeOf("https://example.pe/x", ld(["ReportageNewsArticle", "ItemList"]))).toBe("page");
    expect(typeOf("https://example.com/x", ld(["Article", "CollectionPage"]))).toBe("listing");
  });

  it("reads a buying guide that recommends products with offers as the article", () => {
    const guide = `<script type="application/ld+json">${JSON.stringify({
      "@graph": [
        { "@type": "NewsArticle", headline: "The best kettles" },
        {
          "@type": "ItemList",
          itemListElement: [{ "@type": "Product", name: "Kettle", offers: { price: "40" } }],
        },
      ],
    })}</script>`;
    expect(typeOf("https://news.example.com/best-kettles", guide)).toBe("page");
    // A shop's page whose SEO plugin calls every page an article in og:type is still a shop's.
    const shop =
      '<meta property="og:type" content="article">' +
      '<script type="application/ld+json">{"@type":"WebPage"}</script>' +
      '<script type="application/ld+json">{"@type":"Product","offers":{"price":"40"}}</script>';
    expect(typeOf("https://shop.example.com/kettle", shop)).toBe("product");
  });

  it("keeps a buying guide's reviews, which a product page's would lose as asides", () => {
    const review = (name: string) =>
      `<div class="product-review"><h2>${name}</h2>${`<p>The ${name} boils a litre in under three minutes, pours without dripping and stays cool to the touch, which is why it earned its place on this list.</p>`.repeat(3)}</div>`;
    const html = `<html><head><title>The best kettles</title><script type="application/ld+json">${JSON.stringify(
      {
        "@graph": [
          { "@type": "Article", headline: "The best kettles" },
          { "@type": "Product", name: "Kettle", offers: { price: "40" } },
        ],
      },
    )}</script></head><body><article><h1>The best kettles</h1><p>We tested thirty kettles over six months, in three kitchens, to find the ones worth buying, and these are the ones we recommend.</p>${review("Swan")}${review("Bodum")}</article></body></html>`;
    const { content } = convertHtml(html, { url: "https://news.example.com/best-kettles" });
    expect(content).toContain("The Swan boils a litre");
    expect(content).toContain("The Bodum boils a litre");
  });

  it("knows product pages by their paths, app store pages among them", () => {
    for (const url of [
      "https://www.amazon.com/Trail-Shoe/dp/B0C1234567",
      "https://www.ebay.com/itm/296607459180",
      "https://store.steampowered.com/app/730/CounterStrike_2/",
      "https://apps.apple.com/us/app/notes/id1110145109",
    ]) {
      expect(typeOf(url), url).toBe("product");
    }
    for (const url of ["https://example.com/app/settings", "https://example.com/apps/"]) {
      expect(typeOf(url), url).toBe("page");
    }
  });
});
