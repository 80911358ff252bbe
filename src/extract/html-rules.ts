/**
 * The HTML tree rules htmlparser2 applies, copied so that our tree builder and the nesting
 * pre-pass agree with its tokenizer: void elements, raw-text elements, start tags that close
 * open ones, and the foreign content (SVG, MathML) where `<x/>` closes itself.
 */

/** Elements that never have content or an end tag (htmlparser2's list). */
export const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** Elements whose content is raw text up to their end tag (htmlparser2's special tags). */
export const RAW_TEXT_ELEMENTS = new Set(["script", "style", "title", "textarea", "xmp"]);

/** Start tags that close an open `<p>`: HTML's block-level elements. */
const CLOSES_P = [
  ..."h1 h2 h3 h4 h5 h6 p address article aside blockquote details div dl".split(" "),
  ..."fieldset figcaption figure footer form header hr main nav ol pre section table ul".split(" "),
];

/**
 * Elements laid out as blocks: those that close a `<p>`, list items, definitions and the parts
 * of a table. Text on either side of one never runs together.
 */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  ...CLOSES_P,
  ..."li dd dt caption thead tbody tfoot tr td th".split(" "),
]);

/** Start tags that close open elements, copied from htmlparser2 so the depth count agrees. */
export const OPEN_IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const p = new Set(["p"]);
  const form = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
  const map = new Map<string, ReadonlySet<string>>([
    ["tr", new Set(["tr", "th", "td"])],
    ["th", new Set(["th"])],
    ["td", new Set(["thead", "th", "td"])],
    ["body", new Set(["head", "link", "script"])],
    ["li", new Set(["li"])],
    ["option", new Set(["option"])],
    ["optgroup", new Set(["optgroup", "option"])],
    ["dd", new Set(["dd", "dt"])],
    ["dt", new Set(["dd", "dt"])],
    ["rt", new Set(["rt", "rp"])],
    ["rp", new Set(["rt", "rp"])],
    ["tbody", new Set(["thead", "tbody"])],
    ["tfoot", new Set(["thead", "tbody"])],
  ]);
  for (const tag of ["select", "input", "output", "button", "datalist", "textarea"]) {
    map.set(tag, form);
  }
  for (const tag of CLOSES_P) map.set(tag, p);
  return map;
})();

/** Foreign-content roots, inside which `<x/>` self-closes. */
export const FOREIGN_ROOTS = new Set(["svg", "math"]);

/**
 * HTML islands in foreign content (MathML text, SVG's `foreignObject`, `desc` and `title`):
 * inside them `<x/>` is an ordinary start tag again.
 */
export const HTML_INTEGRATION_ELEMENTS = new Set([
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignobject",
  "desc",
  "title",
]);

/**
 * The names of HTML's elements (and of SVG's and MathML's roots), each one string for every
 * page: an element's name is read by every pass, and compared with names written in the code,
 * which is quickest when both are the same string. Other names are kept as the page spells them.
 */
const TAG_NAMES: ReadonlyMap<string, string> = new Map(
  [
    "a",
    "abbr",
    "address",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "bdi",
    "bdo",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "img",
    "input",
    "ins",
    "kbd",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "marquee",
    "math",
    "menu",
    "meta",
    "meter",
    "nav",
    "nobr",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "script",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
  ].map((name) => [name, name]),
);

/** `name` (lower case) as the one string kept for it, when it is an HTML element's name. */
export function canonicalTagName(name: string): string {
  return TAG_NAMES.get(name) ?? name;
}
