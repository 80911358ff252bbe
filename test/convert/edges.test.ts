/**
 * Edge trimming: furniture before the title and after the last paragraph goes; listings' last
 * cards, tables and closing sentences stay.
 */

import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";

/** `n` distinct paragraphs of prose (repeated ones would be merged as duplicates). */
const paragraphs = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the article, long enough to read as prose, with commas, clauses and a full stop at the end.</p>`,
  ).join("");

describe("extract: edges", () => {
  it("drops breadcrumbs before the title, the byline under it and link lines at the end", () => {
    const html = `<body><article>
      <div><a href="/">Home</a> › <a href="/blog">Blog</a></div>
      <h1>Five habits</h1><p>By Ada Writer</p><p>March 3, 2025</p>
      ${paragraphs(6)}<p>Thanks for reading.</p>
      <div><a href="/prev">Previous post</a></div><p>Tags: <a href="/t/x">habits</a></p>
      </article></body>`;
    const { content } = convertHtml(html);
    expect(content.startsWith("# Five habits\n\nParagraph 1")).toBe(true);
    expect(content.endsWith("Thanks for reading.")).toBe(true);
    for (const gone of ["Home", "Ada Writer", "March 3", "Previous post", "Tags"]) {
      expect(content).not.toContain(gone);
    }
  });

  it("drops the byline under a standfirst and tags, and keeps a line that introduces a quote", () => {
    const html = `<body><article><h1>Porting a parser</h1>
      <p>How I built a parser in a new language, from no tests passing to all of them.</p>
      <p>parsing swift performance</p><p>Posted: 2 days ago</p><p>By Kyle Writer</p><p>15 min read</p>
      <p>Posted on the community forum on 2025-07-09:</p>
      ${paragraphs(6)}</article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("How I built a parser");
    expect(content).toContain("Posted on the community forum on 2025-07-09:");
    for (const gone of ["2 days ago", "Kyle Writer", "15 min read"])
      expect(content).not.toContain(gone);
  });

  it("drops dates and link lines over a title that has a summary above it, not the summary", () => {
    const html = `<body><article>
      <p>How I ported a parser to a new language, from no tests passing to all of them, and then how I made it fast.</p>
      <div><a href="/t/parsing">parsing</a> <a href="/t/swift">swift</a></div><p><em>15 Dec, 2025</em></p>
      <h1>Porting a parser</h1>${paragraphs(9)}</article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("How I ported a parser");
    for (const gone of ["swift", "15 Dec"]) expect(content).not.toContain(gone);
  });

  it("keeps a listing's last cards and a closing table", () => {
    const card = (n: number) =>
      `<li class="product"><p class="title"><a href="/p/${n}">Chair ${n}</a></p><p class="price">$${n}9.00</p></li>`;
    const listing = `<body><main><h1>Chairs</h1>${paragraphs(1)}<ul>${[1, 2, 3, 4].map(card).join("")}</ul></main></body>`;
    expect(convertHtml(listing).content).toContain("Chair 4");
    const table = `<body><main><h1>Specs</h1>${paragraphs(3)}<table><tr><td>Weight</td><td>2 kg</td></tr></table></main></body>`;
    expect(convertHtml(table).content).toContain("2 kg");
  });

  it("drops a short list of the site's other stories after an article, not its references", () => {
    const items = (host: string) =>
      [1, 2, 3, 4]
        .map(
          (n) =>
            `<li><a href="https://${host}/news/${n}">Another story number ${n} of the day</a></li>`,
        )
        .join("");
    const page = (host: string) => `<body><article><h1>Free Wi-Fi</h1>${paragraphs(8)}
      <div class="listTitle">【関連記事】</div><ul>${items(host)}</ul></article></body>`;
    const url = "https://headlines.example.co.jp/hl?a=2017";
    // Another host of the same site (its redirector) is still the site.
    const own = convertHtml(page("rd.example.co.jp"), { url }).content;
    expect(own).toContain("Paragraph 8");
    expect(own).not.toContain("Another story number");
    const references = convertHtml(page("nodejs.org"), { url }).content;
    expect(references).toContain("Another story number 4");
  });

  it("drops a box of the site's other stories set into an article, not a section's list", () => {
    const list = (host: string) =>
      `<ul>${[1, 2, 3].map((n) => `<li><a href="https://${host}/story-${n}">Is story ${n} worth a read?</a></li>`).join("")}</ul>`;
    const page = (box: string) =>
      `<body><article><h1>Witch hazel</h1>${paragraphs(3)}${box}${paragraphs(3).replaceAll("Paragraph", "Later paragraph")}</article></body>`;
    const url = "https://www.garden.example/witch-hazel";
    const box = `<div class="embed"><h4>Lesen Sie auch</h4>${list("www.garden.example")}</div>`;
    const own = convertHtml(page(box), { url }).content;
    expect(own).not.toContain("Lesen Sie auch");
    expect(own).not.toContain("story 2");
    expect(own).toContain("Later paragraph 3");
    // A section whose list has prose beside it, and a box of other sites' pages, stay.
    const section = `<div><h4>Our guides</h4>${list("www.garden.example")}<p>Each guide covers one plant, with its care through the year.</p></div>`;
    expect(convertHtml(page(section), { url }).content).toContain("story 2");
    const elsewhere = `<div class="embed"><h4>Sources</h4>${list("journal.example.org")}</div>`;
    expect(convertHtml(page(elsewhere), { url }).content).toContain("story 2");
  });

  it("drops a plain-text 'About the Author' and the bio after it at the end", () => {
    const html = `<body><article><h1>Platforms</h1>${paragraphs(8)}
      <div>About the Author</div><p><a href="/a/geri">Geri Mileva</a></p>
      <p>Geri is a network engineer and writer who covers the creator economy, AI and more.</p>
      </article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Paragraph 8");
    expect(content).not.toContain("About the Author");
    expect(content).not.toContain("network engineer");
  });

  it("drops a plain-text 'Article Sources:' label and the list of links after it", () => {
    const html = `<body><article><h1>Water heaters</h1>${paragraphs(8)}
      <p><span>Article Sources:</span></p>
      <p>https://finance.example.com/news/major-home-appliances-market-2023<br>https://www.example.com/global/heaters/#:~:text=Being%20a%20part<br>https://www.example.org/boilers</p>
      </article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Paragraph 8");
    expect(content).not.toContain("Article Sources");
    expect(content).not.toContain("finance.example.com");
  });

  it("drops other posts' linked titles and summaries that end the text, not a page's resources", () => {
    const teaser = (
      slug: string,
      href: string,
    ) => `<h3><a href="${href}">${slug} and what it means for the neighborhood</a></h3>
      <p>A short summary of the other post on ${slug.toLowerCase()}, in one line.</p>`;
    const page = (
      hrefs: (slug: string) => string,
    ) => `<html><head><link rel="canonical" href="https://news.example.com/a/1"></head>
      <body><article><h1>Bakeries</h1>${paragraphs(8)}<h2>Exclusive Content</h2>
      ${["Bread prices", "Cafe chains", "Night bakers"].map((slug) => teaser(slug, hrefs(slug))).join("")}</article></body></html>`;
    const own = convertHtml(
      page((slug) => `/food/${slug.replace(" ", "-")}`),
      { url: "https://news.example.com/a/1" },
    );
    expect(own.content).toContain("Paragraph 8");
    for (const gone of ["Exclusive Content", "Bread prices", "Night bakers", "short summary"]) {
      expect(own.content).not.toContain(gone);
    }
    // Titles linking to other sites are the article's resources.
    const elsewhere = convertHtml(
      page((slug) => `https://research.example.org/${slug.replace(" ", "-")}`),
      {
        url: "https://news.example.com/a/1",
      },
    );
    expect(elsewhere.content).toContain("Night bakers and what it means");
  });

  it("keeps a page's own final sections linked to their anchors, and other sites' titles", () => {
    const section = (
      title: string,
      href: string,
    ) => `<h2><a href="${href}">${title} for the whole neighborhood</a></h2>
      <p>Section text about ${title.toLowerCase()}, in a sentence or two.</p>`;
    const anchors = ["Ovens", "Flour", "Hours"]
      .map((t) => section(t, `#${t.toLowerCase()}`))
      .join("");
    const url = "https://news.example.com/a/1";
    const own = convertHtml(
      `<body><article><h1>Bakeries</h1>${paragraphs(8)}${anchors}</article></body>`,
      { url },
    );
    expect(own.content).toContain("Hours for the whole neighborhood");
    // A title linking to another site ends the run: it and what follows it stay.
    const mixed =
      ["Ovens", "Flour"].map((t) => section(t, `/food/${t}`)).join("") +
      section("Study", "https://research.example.org/s");
    const withStudy = convertHtml(
      `<body><article><h1>Bakeries</h1>${paragraphs(8)}${mixed}</article></body>`,
      { url },
    );
    expect(withStudy.content).toContain("Study for the whole neighborhood");
    // Without the page's address, a relative title still reads as this site's.
    const teasers = ["Ovens", "Flour", "Hours"].map((t) => section(t, `/food/${t}`)).join("");
    const noUrl = convertHtml(
      `<body><article><h1>Bakeries</h1>${paragraphs(8)}${teasers}</article></body>`,
    );
    expect(noUrl.content).not.toContain("Hours for the whole neighborhood");
  });

  it("keeps a listing whose linked titles start at its top", () => {
    const card = (
      n: number,
    ) => `<h3><a href="/recipes/${n}">Air fryer recipe number ${n} for busy weeknights</a></h3>
      <p>Crispy, quick and healthy: dinner ${n} in twenty minutes.</p>`;
    const html = `<body><main><h1>Air fryer recipes</h1>${Array.from({ length: 8 }, (_, i) => card(i + 1)).join("")}</main></body>`;
    const { content } = convertHtml(html, { url: "https://food.example.com/c/air-fryer" });
    expect(content).toContain("Air fryer recipe number 8");
  });

  it("drops a closing label ending in a colon, in bold over a list of links", () => {
    const html = `<body><article><h1>Woodworking projects</h1>${paragraphs(8)}
      <p><strong>YOU MIGHT ALSO LIKE:</strong></p>
      <ul><li><strong><a href="/deck">12 DIY Deck &amp; Porch Projects</a></strong></li>
      <li><strong><a href="/lego">Turn a Baby Changing Table into a Lego Table (IKEA Hack)</a></strong></li>
      <li><strong><a href="/gallery">Project Gallery</a></strong></li></ul></article></body>`;
    const { content } = convertHtml(html);
    expect(content).toContain("Paragraph 8");
    expect(content).not.toContain("MIGHT ALSO LIKE");
    expect(content).not.toContain("Deck");
  });

  it("drops teasers whose titles sit inside their links, one of them the page itself", () => {
    const teaser = (slug: string) => `<div class="item"><a href="/food/${slug}"><h3>${slug} and
      what it means for the neighborhood</h3></a><p>A short summary of the post on ${slug}.</p></div>`;
    const html = `<body><article><h1>Bakeries</h1>${paragraphs(8)}<h2>Exclusive Content</h2>
      ${["Bread", "Cafes", "Bakers", "bakeries"].map(teaser).join("")}</article></body>`;
    const { content } = convertHtml(html, { url: "https://news.example.com/food/bakeries" });
    expect(content).toContain("Paragraph 8");
    for (const gone of ["Exclusive Content", "Bread and", "Cafes", "short summary"]) {
      expect(content).not.toContain(gone);
    }
    // A link around a whole card, title and price, is not a teaser's title.
    const card = (slug: string, i: number) => `<div class="card"><p>${i + 2} left in stock</p>
      <a href="/shop/${slug}"><h3>${slug} loaf, baked this morning in the old stone oven</h3>
      <p>$4.${i}0 a loaf</p></a></div>`;
    const shop = `<body><main><h1>Bakeries</h1>${paragraphs(8)}${["Rye", "Spelt", "Wheat"].map(card).join("")}</main></body>`;
    expect(convertHtml(shop, { url: "https://news.example.com/food/bakeries" }).content).toContain(
      "Wheat loaf",
    );
  });

  it("keeps a page of documentation's link lists, related pages and closing lines", () => {
    const links = (prefix: string) =>
      ["Install", "Configure", "Deploy", "Upgrade", "Remove", "Debug"]
        .map((step) => `<li><a href="/docs/${step.toLowerCase()}">${prefix} ${step}</a></li>`)
        .join("");
    const html = `<body><main><h1>Getting started</h1>${paragraphs(4)}
      <p>The guide walks through each step:</p><ul>${links("Step")}</ul>${paragraphs(2)}
      <h2>Related content</h2><ul><li><a href="/docs/scenarios">Common scenarios</a></li>
      <li><a href="/docs/concepts">Core concepts</a></li></ul>
      <dl><dt><a href="/docs/syntax">Syntax</a></dt><dd><p>Learn about the file syntax</p></dd>
      <dt><a href="/docs/tips">Tips</a></dt><dd><p>Tips for real projects</p></dd></dl>
      </main></body>`;
    const kept = [
      "Step Debug",
      "Related content",
      "Common scenarios",
      "Core concepts",
      "Tips for real projects",
    ];
    const docs = convertHtml(html, { url: "https://docs.example.com/start" }).content;
    for (const text of kept) expect(docs).toContain(text);
    // On a page that is not documentation, the same lists are a menu and other pages' links.
    const post = convertHtml(html, { url: "https://example.com/blog/post/12" }).content;
    for (const text of kept) expect(post).not.toContain(text);
  });
});
