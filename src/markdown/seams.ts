/**
 * Where the words of neighbouring elements meet without whitespace between them
 * (`<a>Home</a><a>Blog</a>`): pages space such neighbours with CSS, which the renderer does not
 * see, so it asks here whether to part them. Controls and links to different places are always
 * parted; inline elements styled apart are parted only where the case changes.
 */

import { attr, type DomElement, isElement, tagOf } from "../extract/dom.js";

/** ARIA roles of controls drawn as boxes of their own. */
const WIDGET_ROLES = new Set(["button", "tab", "menuitem", "option"]);

/** Buttons, tabs, menu items: a box of its own, whatever text stands around it. */
export function isWidget(el: DomElement, tag: string): boolean {
  if (tag === "button") return true;
  const role = el.getAttribute("role"); // most elements have none
  return role !== null && WIDGET_ROLES.has(role.trim().toLowerCase());
}

/**
 * How `el`'s words meet those of the element right before it when no whitespace stands between
 * them (`<a>Home</a><a>Blog</a>`, `<span>Merrell</span><span>Moab</span>`). Pages space such
 * neighbours with CSS, which we do not see, so joining them makes one word of two.
 * - `space`: separate always. Controls are boxes; so are neighbouring labels, and links to
 *   different places (links to the same place are one link split by an editor: `cer`+`emony`).
 * - `case`: separate only where a lower-case letter or digit meets a capital or digit
 *   (`MerrellMoab`, `Accessories1385`, `<a>Earth Ball</a><em>Outside Over There</em>`): inline
 *   elements also split words for styling (`Le`+`arn`, `3`+`rd`, one span a letter), and those
 *   joins stay.
 */
export type Seam = "space" | "case" | undefined;

export function seamBefore(el: DomElement, tag: string): Seam {
  if (isWidget(el, tag)) return "space";
  const before = el.previousSibling;
  if (!isElement(before)) return undefined;
  const beforeTag = tagOf(before);
  if (isWidget(before, beforeTag)) return "space";
  const link = edgeLink(el, "first");
  const linkBefore = link && edgeLink(before, "last");
  if (link && linkBefore)
    return attr(link, "href") === attr(linkBefore, "href") ? undefined : "space";
  if (tag === "label" && beforeTag === "label") return "space";
  if (CASE_SEAM_TAGS.has(tag) && CASE_SEAM_TAGS.has(beforeTag)) return "case";
  return undefined;
}

/** How far into an element a link at its edge is looked for (`<b><a>Hacker News</a></b>`). */
const EDGE_LINK_DEPTH = 3;

/** The link `el` is, or starts or ends with (its first or last element, a few levels down). */
function edgeLink(el: DomElement, edge: "first" | "last"): DomElement | undefined {
  let node: DomElement | null = el;
  for (let depth = 0; node !== null && depth <= EDGE_LINK_DEPTH; depth++) {
    if (tagOf(node) === "a") return node;
    node = edge === "first" ? node.firstElementChild : lastElementChild(node);
  }
  return undefined;
}

function lastElementChild(el: DomElement): DomElement | null {
  let last: DomElement | null = null;
  for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling)
    last = child;
  return last;
}

/** Inline elements pages style apart: a name link, its italic title, its label span. */
const CASE_SEAM_TAGS = new Set([
  "a",
  "abbr",
  "b",
  "cite",
  "dfn",
  "em",
  "i",
  "label",
  "mark",
  "small",
  "span",
  "strong",
  "time",
  "u",
]);

/**
 * True when text starting with `next` after the character `end` starts a new word at a `case`
 * seam: a lower-case letter or digit meets a capital or digit, but not digit to digit (`19`+`99`).
 */
export function startsWordAtCase(end: string, next: string): boolean {
  if (!/[\p{Ll}\d]/u.test(end) || !/^[\p{Lu}\d]/u.test(next)) return false;
  return !(/\d/.test(end) && /^\d/.test(next));
}
