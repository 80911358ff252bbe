/**
 * The link and image lists: absolute http(s) URLs only, each once, in page order; a link knows
 * whether it points to the page's host and whether it sits in the main content.
 */
import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";

const PAGE = `<html><head><title>T</title></head><body>
<nav><a href="/">Home</a> <a href="https://other.example/x">Elsewhere</a> <a href="javascript:void(0)">Menu</a></nav>
<main><article><h1>Title</h1>
<p>The first paragraph has enough words and a <a href="/guide">guide link</a> to be content here.</p>
<p>The second paragraph links <a href="https://other.example/x">elsewhere again</a> and shows
<img src="/img/a.png" alt="A chart"> a chart, plus <img src="data:image/png;base64,AAAA" alt="inline">.</p>
<p><a href="/pic"><img src="/img/b.png" alt="[B] photo"></a> and <img src="/img/a.png" alt="same"></p>
</article></main>
<footer><a href="mailto:x@example.com">Mail</a> <a href="/about">About</a></footer>
</body></html>`;

describe("links and images", () => {
  it("lists each http(s) link once, in page order, internal and in-main marked", () => {
    const { links, images } = convertHtml(PAGE, {
      url: "https://www.example.com/post",
      links: true,
    });
    expect(images).toBeUndefined();
    expect(links).toEqual([
      { url: "https://www.example.com/", text: "Home", internal: true, inMain: false },
      { url: "https://other.example/x", text: "Elsewhere", internal: false, inMain: true },
      { url: "https://www.example.com/guide", text: "guide link", internal: true, inMain: true },
      { url: "https://www.example.com/pic", text: "[B] photo", internal: true, inMain: true },
      { url: "https://www.example.com/about", text: "About", internal: true, inMain: false },
    ]);
  });

  it("lists each image once with its alt, no inline data", () => {
    const { images, links } = convertHtml(PAGE, { url: "https://example.com/post", images: true });
    expect(links).toBeUndefined();
    expect(images).toEqual([
      { url: "https://example.com/img/a.png", alt: "A chart" },
      { url: "https://example.com/img/b.png", alt: "[B] photo" },
    ]);
  });

  it("gives empty lists for a page with no body text to list, and leaves content alone", () => {
    const plain = convertHtml(PAGE, { url: "https://example.com/post" });
    const listed = convertHtml(PAGE, {
      url: "https://example.com/post",
      links: true,
      images: true,
    });
    expect(listed.content).toBe(plain.content);
    expect(convertHtml("<p>no links</p>", { links: true, images: true })).toMatchObject({
      links: [],
      images: [],
    });
  });
});
