import { describe, expect, it } from "vitest";
import { type DomElement, isElement, tagOf } from "../../src/extract/dom.js";
import { wrapLooseText } from "../../src/extract/loose-text.js";
import { parseDocument } from "../../src/extract/parse.js";

function wrapped(html: string): { body: DomElement; count: number } {
  const document = parseDocument(html);
  let body = document.documentElement?.firstElementChild ?? null;
  while (body !== null && tagOf(body) !== "body") body = body.nextElementSibling;
  if (body === null) throw new Error("no body");
  return { body, count: wrapLooseText(body, document).size };
}

/** Tags of `el`'s children, text nodes with words as "#text". */
function children(el: DomElement): string[] {
  const out: string[] = [];
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child)) out.push(tagOf(child));
    else if ((child.textContent ?? "").trim() !== "") out.push("#text");
  }
  return out;
}

describe("wrapLooseText", () => {
  it("wraps a run of text and inline elements beside blocks in a paragraph", () => {
    const { body, count } = wrapped(
      "<body>Intro <b>words</b> and <a href=/x>a link</a><h2>T</h2>More<p>P</p></body>",
    );
    expect(count).toBe(2);
    expect(children(body)).toEqual(["p", "h2", "p", "p"]);
    expect(children(body.firstElementChild!)).toEqual(["#text", "b", "#text", "a"]);
  });

  it("ends a run at any element that is not inline, or an inline one holding a block", () => {
    const { body } = wrapped(
      "<body><center><h1>Title</h1></center>Loose<details><summary>S</summary>D</details><a href=/c><div>Card</div></a>Tail<hr></body>",
    );
    expect(children(body)).toEqual(["center", "p", "details", "a", "p", "hr"]);
  });

  it("wraps a run of inline elements only when words lie somewhere inside it", () => {
    const { body } = wrapped(
      "<body><div>Lead<h2>T</h2><span><img src=/i.png> </span><p>P</p><span><b><i>deep</i></b></span><hr></div></body>",
    );
    expect(children(body.firstElementChild!)).toEqual(["p", "h2", "span", "p", "p", "hr"]);
  });

  it("leaves text alone where there is no block beside it, and in code and paragraphs", () => {
    expect(wrapped("<body><div>Only <b>inline</b> text</div></body>").count).toBe(0);
    expect(
      wrapped("<body><pre>code<div>x</div></pre><p>para<span>s</span></p><hr></body>").count,
    ).toBe(0);
  });
});
