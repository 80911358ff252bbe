/**
 * CSS selectors scope a page: excluded elements go first, only the outermost included ones are
 * converted (main-content extraction inside each, a part it would empty kept whole), a selector
 * that matches nothing is SELECTOR_NOT_FOUND, one that does not parse is INVALID_INPUT, and
 * matching stays bounded on hostile pages.
 */
import { describe, expect, it } from "vitest";
import { convertHtml } from "../../src/convert/html.js";
import { isWebFetchError } from "../../src/errors.js";
import { MAX_NODES } from "../../src/extract/parse.js";

const PAGE = `<html><head><title>T</title></head><body>
<nav><a href="/a">Alpha</a> <a href="/b">Beta</a></nav>
<main><article><h1>Title</h1>
<p class="lead">The lead paragraph has plenty of words, so it reads as content of the article.</p>
<div class="promo">Subscribe to our letter today.</div>
<p>The second paragraph also has enough words, commas, and substance to be kept.</p>
</article></main>
<aside id="side"><p>Side note with a few words in it.</p></aside>
<footer>Footer text</footer></body></html>`;

/** The error a call throws, for its code and message. */
function thrown(call: () => unknown): { code?: string; message: string } {
  try {
    call();
  } catch (error) {
    return { ...(isWebFetchError(error) ? { code: error.code } : {}), message: String(error) };
  }
  throw new Error("expected an error");
}

describe("CSS selectors", () => {
  it("keeps only what include selectors match, after removing what exclude selectors match", () => {
    const { content, title } = convertHtml(PAGE, {
      includeSelectors: ["article"],
      excludeSelectors: [".promo"],
    });
    expect(content).toContain("The lead paragraph");
    expect(content).toContain("The second paragraph");
    expect(content).not.toContain("Subscribe");
    expect(content).not.toContain("Side note");
    // Metadata reads the whole page, before any selector.
    expect(title).toBe("T");
  });

  it("converts the outermost matches once each, in document order", () => {
    const { content } = convertHtml(PAGE, {
      includeSelectors: ["#side", "p", "article"],
      extract: "full",
    });
    expect(content.indexOf("The lead paragraph")).toBeLessThan(content.indexOf("Side note"));
    expect(content.match(/The lead paragraph/g)).toHaveLength(1);
  });

  it("keeps a part whole that main-content extraction would empty", () => {
    const { content } = convertHtml(PAGE, { includeSelectors: ["nav"] });
    expect(content).toContain("[Alpha](/a)");
  });

  it("says which include selector matched nothing", () => {
    const error = thrown(() => convertHtml(PAGE, { includeSelectors: ["article", ".missing"] }));
    expect(error.code).toBe("SELECTOR_NOT_FOUND");
    expect(error.message).toContain('".missing"');
  });

  it("refuses a selector that does not parse, with the parser's reason", () => {
    const error = thrown(() => convertHtml(PAGE, { excludeSelectors: ["div[class="] }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("excludeSelectors");
    expect(error.message).toContain("is not a valid CSS selector (");
  });

  it("stays bounded on a hostile page: many elements, deep nesting, a costly :has()", () => {
    const many = `<html><body>${"<div><span>x</span></div>".repeat(MAX_NODES / 2)}</body></html>`;
    const costly = thrown(() => convertHtml(many, { includeSelectors: ["div:has(~ div span)"] }));
    expect(costly.code).toBe("INVALID_INPUT");
    expect(costly.message).toContain("too costly");
    const nest = (n: number, inner: string) => `${"<div>".repeat(n)}${inner}${"</div>".repeat(n)}`;
    const deep = `<html><body>${nest(50_000, "<p>lost in the depths</p>")}${nest(3, '<p class="x">shallow text here</p>')}</body></html>`;
    const found = convertHtml(deep, { includeSelectors: ["div p.x"], extract: "full" });
    expect(found.content).toBe("shallow text here");
  });
});
