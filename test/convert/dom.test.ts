import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  childElements,
  type DomElement,
  type DomNode,
  hasDescendantNear,
  textStart,
  textWithin,
} from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { forgetMeasurements, measureText } from "../../src/extract/stats.js";

function bodyOf(html: string) {
  const root = parseDocument(html).documentElement;
  let body = root?.firstElementChild ?? null;
  while (body !== null && body.localName !== "body") body = body.nextElementSibling;
  if (body === null) throw new Error("no body");
  return body;
}

describe("textStart", () => {
  it("reads text in document order, down and across, up to max characters", () => {
    const body = bodyOf(
      "<body><h2>Respond <b>to</b> review</h2><p>comments and more words</p></body>",
    );
    expect(textStart(body, 200)).toBe("Respond to reviewcomments and more words");
    expect(textStart(body, 10)).toBe("Respond to");
  });

  it("gives up after its node budget, however many empty elements come first", () => {
    const body = bodyOf(`<body>${"<i></i>".repeat(10_000)}late words</body>`);
    expect(textStart(body, 200)).toBe("");
    expect(textStart(body, 200, 20_000)).toBe("late words");
  });
});

describe("textWithin", () => {
  it("gives the whole text only when it fits both the character and the node budget", () => {
    const body = bodyOf("<body><div><b>loaded</b> 154 results</div></body>");
    expect(textWithin(body, 100, 10)).toBe("loaded 154 results");
    expect(textWithin(body, 10, 10)).toBeUndefined();
    expect(textWithin(body, 100, 2)).toBeUndefined();
  });

  it("reads no more of a huge text node than it needs", () => {
    const body = bodyOf(`<body><p>a</p><p>${"x".repeat(1_000_000)}</p></body>`);
    expect(textStart(body, 5)).toBe("axxxx");
    expect(textWithin(body, 5, 10)).toBeUndefined();
  });
});

describe("hasDescendantNear", () => {
  const isHeading = (el: { localName: string }) => /^h[1-6]$/.test(el.localName);

  it("finds an element near the top of the subtree, down and across", () => {
    const body = bodyOf(
      "<body><div><span></span></div><div><div><h2>Title</h2></div></div></body>",
    );
    expect(hasDescendantNear(body, isHeading, 20)).toBe(true);
    expect(hasDescendantNear(body, isHeading, 3)).toBe(false);
  });

  it("looks no further than its node budget", () => {
    const body = bodyOf(`<body>${"<i></i>".repeat(10_000)}<h2>Late</h2></body>`);
    expect(hasDescendantNear(body, isHeading, 20)).toBe(false);
    expect(hasDescendantNear(body, isHeading, 20_000)).toBe(true);
  });
});

describe("parsed elements", () => {
  it("keep their attributes as written, the first of a name winning, whatever the names", () => {
    const body = bodyOf(
      '<body><p data-b="2" __proto__="p" constructor="c" DATA-B="dup" toString="t" a="1">x</p></body>',
    );
    const p = body.firstElementChild!;
    expect(Array.from(p.getAttributeNames())).toEqual([
      "data-b",
      "__proto__",
      "constructor",
      "tostring",
      "a",
    ]);
    expect(p.getAttribute("data-b")).toBe("2");
    expect(p.getAttribute("__proto__")).toBe("p");
    expect(p.getAttribute("constructor")).toBe("c");
    expect(p.getAttribute("toString")).toBe("t");
    expect(p.getAttribute("valueOf")).toBeNull();
    p.setAttribute("a", "changed");
    expect(p.getAttribute("a")).toBe("changed");
    expect(p.getAttribute("data-b")).toBe("2");
    expect(Array.from(p.getAttributeNames())).toHaveLength(5);
  });

  it("answer for attributes they were parsed without, and take new ones", () => {
    const body = bodyOf('<body><p>plain</p><p class="x" ID="y">named</p></body>');
    const [plain, named] = [body.firstElementChild!, body.firstElementChild!.nextElementSibling!];
    expect(plain.getAttribute("class")).toBeNull();
    expect(plain.hasAttribute("class")).toBe(false);
    expect(Array.from(plain.getAttributeNames())).toEqual([]);
    plain.setAttribute("Class", "added");
    expect(plain.getAttribute("class")).toBe("added");
    expect(plain.getAttribute("CLASS")).toBe("added");
    expect(plain.hasAttribute("CLASS")).toBe(true);
    plain.removeAttribute("class");
    expect(plain.getAttribute("class")).toBeNull();
    expect(plain.hasAttribute("class")).toBe(false);
    expect(named.getAttribute("id")).toBe("y");
    expect(named.getAttribute("Id")).toBe("y");
    expect(named.hasAttribute("id")).toBe(true);
    expect(named.hasAttribute("Id")).toBe(true);
    expect(named.hasAttribute("title")).toBe(false);
    expect(named.getAttribute("title")).toBeNull();
  });

  it("find an attribute asked in any case after names of the same length and letter", () => {
    const body = bodyOf('<body><p class="x" data-a="1">named</p></body>');
    const p = body.firstElementChild!;
    // Asked in lower case first, missing and found: then each in other cases.
    for (const name of ["cover", "class", "data-b", "data-a"]) p.getAttribute(name);
    expect(p.getAttribute("clasS")).toBe("x");
    expect(p.getAttribute("CLASS")).toBe("x");
    expect(p.hasAttribute("Data-A")).toBe(true);
    expect(p.getAttribute("coveR")).toBeNull();
    expect(p.getAttribute("class")).toBe("x");
  });
});

describe("measureText", () => {
  it("keeps nothing of the tree it measured once the measurement is forgotten", async () => {
    // A converted page's tree must go with the next collection, not wait for a full one.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const measured = () => {
      const root = bodyOf("<div><p>Alpha, beta</p><p>gamma <a href=/x>delta</a></p></div>");
      const { chars, linkChars, commas } = measureText(root).get(root.firstElementChild!)!;
      forgetMeasurements();
      return { counts: { chars, linkChars, commas }, tree: new WeakRef(root) };
    };
    const { counts, tree } = measured();
    expect(counts).toEqual({ chars: 22, linkChars: 5, commas: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(tree.deref()).toBeUndefined();
  });

  it("answers for elements measured again since from the tree as it is now, within its own root", () => {
    const document = parseDocument(
      "<div id=r><p>Alpha, beta</p><a href=/x><span>gamma delta</span></a><p>gone</p></div>",
    );
    const root =
      document.documentElement!.firstElementChild!.nextElementSibling!.firstElementChild!;
    const span = root.firstElementChild!.nextElementSibling!.firstElementChild!;
    const first = measureText(root);
    expect(first.get(root)).toMatchObject({ chars: 26, linkChars: 11, commas: 1 });
    root.firstElementChild!.nextElementSibling!.nextElementSibling!.remove();
    const second = measureText(root);
    const inner = measureText(span);
    expect(second.get(root)).toMatchObject({ chars: 22, linkChars: 11, commas: 1 });
    // Measured from the span down, its text is not inside a link.
    expect(inner.get(span)).toMatchObject({ chars: 11, linkChars: 0 });
    expect(second.get(span)).toMatchObject({ chars: 11, linkChars: 11 });
    // The first measurement is asked after the paragraph went and its elements were measured again.
    expect(first.get(root)).toMatchObject({ chars: 22, linkChars: 11, commas: 1 });
    expect(first.get(span)).toMatchObject({ chars: 11, linkChars: 11 });
    expect(inner.get(root)).toBeUndefined();
  });

  it("measures the root again as it is after nodes were taken out, as a new measurement would", () => {
    const html = `<div id=r><p>One, two <a href=/a>three <b>four</b></a> five</p>
      <ul><li><a href=/b>six, seven</a></li><li>eight <i>nine</i></li><li>ten</li></ul>
      <a href=/c><span>eleven</span> <em>twelve, thirteen</em></a><p>last words</p></div>`;
    const document = parseDocument(html);
    const root =
      document.documentElement!.firstElementChild!.nextElementSibling!.firstElementChild!;
    const all = (el: DomElement): DomElement[] => [el, ...childElements(el).flatMap(all)];
    const snapshot = () => {
      const stats = measureText(root);
      return all(root).map((el) => {
        const { chars, linkChars, commas } = stats.get(el)!;
        return { chars, linkChars, commas };
      });
    };
    measureText(root);
    const [p, ul, link] = childElements(root) as [DomElement, DomElement, DomElement];
    const [first, second] = childElements(ul) as [DomElement, DomElement];
    // Text in a link, an element in a link, a child then its parent, a parent then its child.
    (p.firstElementChild!.firstChild as DomNode & { remove(): void }).remove();
    link.firstElementChild!.remove();
    first.firstElementChild!.remove();
    first.remove();
    const italic = second.firstElementChild!;
    second.remove();
    italic.remove();
    const caughtUp = snapshot();
    // Putting a node in makes the next measurement read the tree again.
    root.appendChild(document.createElement("hr")).remove();
    expect(caughtUp).toEqual(snapshot());
    expect(caughtUp[0]).toMatchObject({ chars: 47, linkChars: 20, commas: 2 });
  });

  it("answers for an element inside the latest root, with no link between, as its own measurement would", () => {
    const html = `<div id=r><nav><a href=/a>Home</a></nav><section><p>One, two
      <a href=/b>three</a></p><p>gone, too</p></section><a href=/c><b>linked</b></a></div>`;
    const root = bodyOf(`<body>${html}</body>`).firstElementChild!;
    const [, section, link] = childElements(root) as [DomElement, DomElement, DomElement];
    const whole = measureText(root);
    childElements(section)[1]!.remove();
    const inner = measureText(section);
    const fromWhole = inner.get(section.firstElementChild!);
    forgetMeasurements();
    expect(measureText(section).get(section)).toMatchObject({ chars: 14, linkChars: 5, commas: 1 });
    expect(fromWhole).toMatchObject({ chars: 14, linkChars: 5, commas: 1 });
    expect(whole.get(section)).toMatchObject({ chars: 14, linkChars: 5, commas: 1 });
    // Below a link, text is link text only when the link is measured too.
    expect(measureText(link.firstElementChild!).get(link.firstElementChild!)).toMatchObject({
      chars: 6,
      linkChars: 0,
    });
  });
});
