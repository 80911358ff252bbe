import { DomUtils, parseDocument as referenceParse } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { ChunkedText } from "../../src/extract/chunked.js";
import type { DomDocument, DomNode } from "../../src/extract/dom.js";
import { parseDocument } from "../../src/extract/parse.js";
import { buildTree } from "../../src/extract/tree.js";
import { documentBaseUrl } from "../../src/extract/url.js";

/** A tree as one line: elements with their attributes, texts and comments. */
function shapeOf(nodes: ArrayLike<DomNode>): string {
  let out = "";
  for (const node of Array.from(nodes)) {
    if (node.nodeType === 1) {
      const el = node as unknown as {
        localName: string;
        getAttributeNames(): string[];
        getAttribute(name: string): string | null;
        childNodes: ArrayLike<DomNode>;
      };
      const attributes = el
        .getAttributeNames()
        .map((n) => ` ${n}=${JSON.stringify(el.getAttribute(n))}`);
      out += `<${el.localName}${attributes.join("")}>${shapeOf(el.childNodes)}</${el.localName}>`;
    } else if (node.nodeType === 3) {
      out += JSON.stringify((node as unknown as { data: string }).data);
    } else if (node.nodeType === 8) {
      out += `<!--${(node as unknown as { data: string }).data}-->`;
    }
  }
  return out;
}

type ReferenceNode = ReturnType<typeof referenceParse>["children"][number];

/** The same for htmlparser2's own tree (its parser, its tree handler), directives left out. */
function referenceShape(nodes: readonly ReferenceNode[]): string {
  let out = "";
  for (const node of nodes) {
    if (DomUtils.isTag(node)) {
      const attributes = Object.entries(node.attribs).map(([n, v]) => ` ${n}=${JSON.stringify(v)}`);
      out += `<${node.name}${attributes.join("")}>${referenceShape(node.children)}</${node.name}>`;
    } else if (DomUtils.isText(node)) {
      out += JSON.stringify(node.data);
    } else if (DomUtils.isComment(node)) {
      out += `<!--${node.data}-->`;
    }
  }
  return out;
}

function reference(html: string): string {
  const document = referenceParse(html, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  return referenceShape(document.children);
}

/**
 * Adjacent texts as one ("a""b" → "ab"): htmlparser2's handler keeps them apart when a
 * declaration it drops stood between them, ours joins them.
 */
function mergeTexts(shape: string): string {
  return shape.replace(/"((?:[^"\\]|\\.)*)""((?:[^"\\]|\\.)*)"/g, (_m, a: string, b: string) =>
    JSON.stringify(JSON.parse(`"${a}"`) + JSON.parse(`"${b}"`)),
  );
}

function merged(shape: string): string {
  let before = "";
  let after = shape;
  while (before !== after) {
    before = after;
    after = mergeTexts(after);
  }
  return after;
}

const SNIPPETS = [
  "<p>a<p>b<div>c</div>",
  "<ul><li>one<li>two</ul><dl><dt>t<dd>d</dl>",
  "<table><tr><td>1<td>2<tr><th>h</table>",
  "</p>x</br>y</div>z",
  '<a HREF="/x" href="/y" Title=t>dup</a><img src=a.png alt="x &amp; y">',
  "<p>caf&eacute; &copy 2024 &#x41;&#66; &notanentity; a&ampb</p>",
  "<script>if (a < b && c > d) { x = '</div>'; }</script><style>p{}</style><p>after",
  "<title>A &amp; B</title><textarea>x <b>y</b></textarea><xmp><i>raw</i></xmp>",
  "<svg><path/><circle r=1/><title>t<x/></title><g/></svg><p/>text<br/>",
  "<math><mi>x<y/></mi><mo/></math><div/>inside",
  "<!-- comment --><!--x--y--><!doctype html><?xml x?><!bogus>tail",
  "<select><option>a<option>b<optgroup><option>c</select><input><button>b</button>",
  "<h1>t<p>p</h1><p>q</p></p></p>",
  "<div a='1' b=2 c d=\"4\">x</div><span/>y</span>",
  "<body><head><link rel=x><script>s</script><body>b</body>",
  "text < not a tag > and </ 3> done <3 and <>",
];

describe("buildTree", () => {
  it("builds the tree htmlparser2's own parser builds", () => {
    for (const html of SNIPPETS) {
      expect(merged(shapeOf(buildTree(html).document.childNodes)), html).toBe(
        merged(reference(html)),
      );
    }
  });

  it("builds the same tree from pieces cut anywhere", () => {
    // A piece too short to stand alone is joined to the next: fillers make every cut stand.
    const filler = "<!-- pad -->".repeat(800);
    for (const html of SNIPPETS) {
      const text = `${filler}${html}${filler}`;
      const whole = shapeOf(buildTree(text).document.childNodes);
      for (let cut = 1; cut < html.length; cut++) {
        const at = filler.length + cut;
        const pieces = new ChunkedText([text.slice(0, at), text.slice(at)]);
        expect(pieces.chunks).toHaveLength(2);
        expect(shapeOf(buildTree(pieces).document.childNodes), `${html} cut at ${cut}`).toBe(whole);
      }
    }
  });

  it("drops start tags past the depth limit with their end tags, keeping their text", () => {
    const { document } = buildTree("<div><b><i>x</i></b>y</div>z", { maxDepth: 2, maxNodes: 100 });
    expect(shapeOf(document.childNodes)).toBe('<div><b>"x"</b>"y"</div>"z"');
  });

  it("keeps the text of block elements dropped past the depth limit apart, not inline ones", () => {
    const { document } = buildTree("<div><p>a</p><p>b</p><b>c</b>d</div>", {
      maxDepth: 1,
      maxNodes: 100,
    });
    expect(shapeOf(document.childNodes)).toBe('<div>" a  b cd"</div>');
  });

  it("reads up to the tag past the node limit, and says so", () => {
    const limited = buildTree("<p>a</p><p>b</p><p>c</p>", { maxDepth: 10, maxNodes: 2 });
    expect(shapeOf(limited.document.childNodes)).toBe('<p>"a"</p><p>"b"</p>');
    expect(limited.truncated).toBe(true);
    expect(buildTree("<p>a</p>", { maxDepth: 10, maxNodes: 2 }).truncated).toBe(false);
  });
});

describe("the document's base URL", () => {
  /** The first `<base href>` as a walk of the whole tree finds it (the document's record hidden). */
  const walked = (document: DomDocument, page: string) =>
    documentBaseUrl(
      {
        documentElement: document.documentElement,
        childNodes: document.childNodes,
        createElement: (name) => document.createElement(name),
        appendChild: (node) => document.appendChild(node),
      },
      page,
    );
  const page = "https://example.com/a/b";

  it.each([
    ["no base", "<p>text</p>", page],
    [
      "a base in the head",
      '<head><base href="/docs/"></head><p>x</p>',
      "https://example.com/docs/",
    ],
    ["a base in the body", '<p>x</p><base href="https://cdn.example/">', "https://cdn.example/"],
    [
      "a base without href, then one with",
      '<base target="_top"><base href="/x/">',
      "https://example.com/x/",
    ],
    ["a base inside a heading", '<h1>T<base href="/h/"></h1>', "https://example.com/h/"],
    [
      "two, which normalizing the structure reorders",
      '<base href="/first/"><p>x</p><head><base href="/second/"></head>',
      "https://example.com/second/",
    ],
  ])("finds it as a walk does: %s", (_name, html, expected) => {
    const { document } = buildTree(html);
    const normalized = parseDocument(html);
    expect(documentBaseUrl(normalized, page)).toBe(expected);
    expect(documentBaseUrl(normalized, page)).toBe(walked(normalized, page));
    expect(documentBaseUrl(document, page)).toBe(walked(document, page));
  });

  it("ignores a base that was removed, and sees one made and added after parsing", () => {
    const document = parseDocument('<head><base href="/gone/"></head><p>x</p>');
    const base = (document.baseElements ?? [])[0]!;
    base.remove();
    expect(documentBaseUrl(document, page)).toBe(page);
    const added = document.createElement("base");
    added.setAttribute("href", "/added/");
    document.documentElement!.firstElementChild!.appendChild(added);
    expect(documentBaseUrl(document, page)).toBe("https://example.com/added/");
    expect(walked(document, page)).toBe("https://example.com/added/");
  });
});
