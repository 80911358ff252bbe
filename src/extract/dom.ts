/**
 * The small slice of the DOM that webfetch uses, typed by hand (the project compiles without the
 * DOM lib), plus iterative traversal helpers. Every walk here moves along firstChild /
 * nextSibling / parentNode pointers, so no code path recurses over the tree: a hostile page of
 * any depth costs time in proportion to its size, never stack.
 */

/** `Node.ELEMENT_NODE`. */
export const ELEMENT_NODE = 1;
/** `Node.TEXT_NODE`. */
export const TEXT_NODE = 3;
/** `Node.CDATA_SECTION_NODE` (text in foreign content). */
export const CDATA_SECTION_NODE = 4;

/** Any node of the tree. */
export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomNode | null;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  readonly textContent: string | null;
  remove(): void;
}

/** A text node. */
export interface DomText extends DomNode {
  readonly data: string;
}

/** An element (linkedom gives HTML elements upper-case `tagName`, lower-case `localName`). */
export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly firstElementChild: DomElement | null;
  readonly nextElementSibling: DomElement | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  getAttributeNames(): ArrayLike<string>;
  appendChild<T extends DomNode>(node: T): T;
  insertBefore<T extends DomNode>(node: T, reference: DomNode | null): T;
}

/** The document. */
export interface DomDocument {
  readonly documentElement: DomElement | null;
  /** Every `<base>` element made for the document, when it keeps them: none found, none walked. */
  readonly baseElements?: readonly DomElement[];
  /** Every `<style>` element the parser made, when it keeps them. */
  readonly styleElements?: readonly DomElement[];
  readonly childNodes: ArrayLike<DomNode>;
  createElement(tagName: string): DomElement;
  appendChild<T extends DomNode>(node: T): T;
}

/** Phrasing content: HTML's inline elements, and old ones like `<font>` and `<tt>`. */
export const PHRASING_TAGS = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "big",
  "br",
  "cite",
  "code",
  "data",
  "del",
  "dfn",
  "em",
  "font",
  "i",
  "img",
  "ins",
  "kbd",
  "label",
  "mark",
  "nobr",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strike",
  "strong",
  "sub",
  "sup",
  "time",
  "tt",
  "u",
  "var",
  "wbr",
]);

/** True for element nodes. */
export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node?.nodeType === ELEMENT_NODE;
}

/** True for text (and CDATA) nodes. */
export function isText(node: DomNode | null | undefined): node is DomText {
  return node?.nodeType === TEXT_NODE || node?.nodeType === CDATA_SECTION_NODE;
}

/**
 * Lower-case tag name of an element (`"div"`). The tree (tree.ts) stores names lower-cased
 * already, so this is a read, not a conversion.
 */
export function tagOf(el: DomElement): string {
  return el.localName;
}

/** Reads an attribute, trimmed; `""` when absent. */
export function attr(el: DomElement, name: string): string {
  return el.getAttribute(name)?.trim() ?? "";
}

/**
 * True when `el` has attribute `name` and `pattern` finds its trimmed value. Most elements have
 * no class, role or itemtype, and are answered without running the pattern.
 */
export function attrMatches(el: DomElement, name: string, pattern: RegExp): boolean {
  const value = el.getAttribute(name);
  return value !== null && pattern.test(value.trim());
}

/**
 * Visits the descendants of `root` in document order without recursion. `enter` is called for
 * every node and returns whether to descend into it; `exit` is called, after its children, for
 * every element that was descended into. The tree must not change during the walk: collect
 * nodes and change them afterwards.
 *
 * @example
 * walk(body, (node) => { if (isText(node)) count += node.data.length; return true; });
 */
export function walk(
  root: DomNode,
  enter: (node: DomNode) => boolean,
  exit?: (el: DomElement) => void,
): void {
  let node = root.firstChild;
  while (node !== null) {
    const descend = enter(node) && isElement(node);
    if (descend && node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    if (descend && exit) exit(node as DomElement);
    // Climb until a next sibling exists, closing the elements left behind.
    let current: DomNode = node;
    node = null;
    while (current !== root) {
      const next: DomNode | null = current.nextSibling;
      if (next !== null) {
        node = next;
        break;
      }
      const parent: DomNode | null = current.parentNode;
      if (parent === null || parent === root) break;
      if (exit) exit(parent as DomElement);
      current = parent;
    }
  }
}

/** Visits every element under `root`; return `false` from `visit` to skip its subtree. */
export function walkElements(root: DomNode, visit: (el: DomElement) => boolean): void {
  walk(root, (node) => isElement(node) && visit(node));
}

/**
 * True when an element below `root` passes `test`; stops at the first one.
 *
 * @example
 * hasDescendant(figure, (el) => tagOf(el) === "img");
 */
export function hasDescendant(root: DomNode, test: (el: DomElement) => boolean): boolean {
  let found = false;
  walk(root, (node) => {
    if (found || !isElement(node)) return false;
    found = test(node);
    return !found;
  });
  return found;
}

/** True when `inner` is `outer` or below it (a removed subtree no longer reaches it). */
export function contains(outer: DomNode, inner: DomNode): boolean {
  for (let node: DomNode | null = inner; node !== null; node = node.parentNode) {
    if (node === outer) return true;
  }
  return false;
}

/**
 * The first `max` characters of the text under `root` (as written, whitespace kept), read in
 * document order; stops there, or after `maxNodes` nodes, however large the rest of the subtree
 * or any one text node in it.
 *
 * @example
 * textStart(section, 200); // "Respond to review comments¶ Your patch will…"
 */
export function textStart(root: DomNode, max: number, maxNodes = max * 4): string {
  return readText(root, max, maxNodes).text;
}

/**
 * The whole text under `root` when it is read within `max` characters and `maxNodes` nodes, or
 * undefined when the subtree holds more: a bounded look at whether a block is short.
 *
 * @example
 * textWithin(status, 2000, 100); // "loaded 154 results"
 */
export function textWithin(root: DomNode, max: number, maxNodes: number): string | undefined {
  const { text, complete } = readText(root, max + 1, maxNodes);
  return complete && text.length <= max ? text : undefined;
}

/** Text under `root` up to `max` characters or `maxNodes` nodes; `complete` if all was read. */
function readText(
  root: DomNode,
  max: number,
  maxNodes: number,
): { text: string; complete: boolean } {
  let text = "";
  let node = root.firstChild;
  for (let seen = 0; node !== null && text.length < max && seen < maxNodes; seen++) {
    if (isText(node)) text += node.data.slice(0, max - text.length);
    node = nextInOrder(node, root);
  }
  return { text, complete: node === null };
}

/**
 * True when one of the first `maxNodes` nodes under `root`, in document order, is an element
 * passing `test`: a look near the top of a subtree that costs the same however large it is.
 */
export function hasDescendantNear(
  root: DomNode,
  test: (el: DomElement) => boolean,
  maxNodes: number,
): boolean {
  let node = root.firstChild;
  for (let seen = 0; node !== null && seen < maxNodes; seen++) {
    if (isElement(node) && test(node)) return true;
    node = nextInOrder(node, root);
  }
  return false;
}

/** The node after `node` under `root` in document order (its first child first), or null. */
function nextInOrder(node: DomNode, root: DomNode): DomNode | null {
  if (isElement(node) && node.firstChild !== null) return node.firstChild;
  let current: DomNode | null = node;
  while (current !== null && current !== root && current.nextSibling === null) {
    current = current.parentNode;
  }
  return current === null || current === root ? null : current.nextSibling;
}

/** Element children of `el`, in order. */
export function childElements(el: DomElement): DomElement[] {
  const out: DomElement[] = [];
  for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
    out.push(child);
  }
  return out;
}

/** Whitespace runs (including NBSP) collapse to one space, as a browser renders text. */
export const WHITESPACE_RUN = /[\s\u00a0]+/g;

/**
 * The whitespace runs that collapsing changes: two or more characters, or one that is not a
 * plain space. A lone space already is its own collapsed form, so it is left unmatched.
 */
const CHANGED_WHITESPACE = /\s{2,}|[^\S ]/g;

/**
 * `text` with each whitespace run as one space: the same string as replacing WHITESPACE_RUN,
 * but only the runs that change are matched, so one text node of millions of words costs one
 * scan instead of a replacement per word (which took seconds and most of the heap's churn).
 */
export function collapseWhitespace(text: string): string {
  // Most texts (a word, a cell, a link's) have nothing to change: one search, not a replacement.
  return CHANGES_WHITESPACE.test(text) ? text.replace(CHANGED_WHITESPACE, " ") : text;
}

/** CHANGED_WHITESPACE, for a test (a global pattern's test would move its lastIndex). */
const CHANGES_WHITESPACE = new RegExp(CHANGED_WHITESPACE.source);

/** True for the UTF-16 code units that `\s` matches (Unicode spaces and line ends, BOM). */
export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Text of a subtree, whitespace collapsed and trimmed; iterative, unlike some DOM getters. */
export function textOf(root: DomNode): string {
  // The walk is written out: this runs for many small elements, where a callback per node and
  // an array of parts cost more than the text itself.
  let text = isText(root) ? root.data : "";
  let node = root.firstChild;
  while (node !== null) {
    const type = node.nodeType;
    if (type === TEXT_NODE || type === CDATA_SECTION_NODE) text += (node as DomText).data;
    else if (type === ELEMENT_NODE && node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node.nextSibling === null) {
      const parent: DomNode | null = node.parentNode;
      node = parent === root ? null : parent;
    }
    if (node !== null) node = node.nextSibling;
  }
  return collapseWhitespace(text).trim();
}

/**
 * `textOf(root).length`, counted without building the text: each whitespace run counts one,
 * and none counts at either end.
 */
export function textLength(root: DomNode): number {
  let length = 0;
  let started = false; // a visible character was counted
  let space = false; // whitespace since the last one
  const count = (data: string) => {
    for (let i = 0; i < data.length; i++) {
      if (isSpaceCode(data.charCodeAt(i))) {
        space = started;
        continue;
      }
      if (space) length++;
      length++;
      started = true;
      space = false;
    }
  };
  if (isText(root)) count(root.data);
  let node = root.firstChild;
  while (node !== null) {
    const type = node.nodeType;
    if (type === TEXT_NODE || type === CDATA_SECTION_NODE) count((node as DomText).data);
    else if (type === ELEMENT_NODE && node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    while (node !== null && node.nextSibling === null) {
      const parent: DomNode | null = node.parentNode;
      node = parent === root ? null : parent;
    }
    if (node !== null) node = node.nextSibling;
  }
  return length;
}

/** Characters of text in `el` (as textLength counts them), and of those inside links. */
export function linkText(el: DomElement): [number, number] {
  let links = 0;
  walk(el, (node) => {
    if (!isElement(node)) return false;
    if (tagOf(node) === "a") {
      links += textLength(node);
      return false;
    }
    return true;
  });
  return [textLength(el), links];
}

/** Heading level 1–6 of `el`, or 0. */
export function headingLevel(el: DomElement): number {
  const tag = tagOf(el);
  return isHeadingTag(tag) ? Number(tag[1]) : 0;
}

/** True for `h1` to `h6`. */
export function isHeadingTag(tag: string): boolean {
  return tag.length === 2 && tag[0] === "h" && tag[1]! >= "1" && tag[1]! <= "6";
}

/**
 * True for the page's header, footer, navigation or sidebar, by tag or landmark role (an
 * article's own `<header>` answers true too: callers look at the page's level).
 */
export function isChromeLandmark(el: DomElement): boolean {
  if (CHROME_LANDMARK_TAGS.has(tagOf(el))) return true;
  const role = el.getAttribute("role")?.trim().toLowerCase();
  return role !== undefined && CHROME_LANDMARK_ROLES.has(role);
}

/** True for the element a page marks as its main content: `<main>`, or `role=main`. */
export function isMainLandmark(el: DomElement): boolean {
  return tagOf(el) === "main" || el.getAttribute("role")?.trim().toLowerCase() === "main";
}

const CHROME_LANDMARK_TAGS = new Set(["header", "footer", "nav", "aside"]);
const CHROME_LANDMARK_ROLES = new Set(["banner", "contentinfo", "navigation", "complementary"]);
