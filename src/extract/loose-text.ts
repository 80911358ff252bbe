/**
 * Loose text: words straight inside a container beside its blocks (`<body>Intro<h2>…</h2>More
 * words<p>…</p>`), as hand-written and old pages have. Readability wraps such runs in `<p>`; so
 * does this, so that the run is a block of its own, kept or dropped like the paragraphs around
 * it, instead of text no element holds.
 */

import {
  type DomDocument,
  type DomElement,
  type DomNode,
  isElement,
  isText,
  PHRASING_TAGS,
  tagOf,
  walk,
} from "./dom.js";

/** Containers whose loose text is wrapped (a cell's or a list item's stays as it is). */
const LOOSE_TEXT_CONTAINERS = new Set([
  "body",
  "div",
  "section",
  "article",
  "main",
  "center",
  "form",
]);
/** Where text is never loose: code keeps its layout, a paragraph is one already. */
const LEAVE_TAGS = new Set(["pre", "code", "p"]);

/**
 * Wraps each run of text and inline elements that sits beside blocks, in `body` and the
 * containers under it, in a new `<p>`; returns the new paragraphs. Changes `body` in place; one
 * walk over it, whatever its depth.
 *
 * @example
 * // <div>Intro <b>words</b><ul>…</ul></div> → <div><p>Intro <b>words</b></p><ul>…</ul></div>
 * const wrappers = wrapLooseText(body, document);
 */
export function wrapLooseText(body: DomElement, document: DomDocument): Set<DomElement> {
  const shape = measureShape(body);
  const wrappers = new Set<DomElement>();
  for (const container of shape.containers) {
    let run: DomNode[] = [];
    let words = false;
    const flush = (before: DomNode | null): void => {
      if (words) {
        const p = document.createElement("p");
        container.insertBefore(p, before);
        for (const node of run) p.appendChild(node);
        wrappers.add(p);
      }
      run = [];
      words = false;
    };
    for (let child = container.firstChild; child !== null; ) {
      const next = child.nextSibling;
      if (isElement(child) && isBlock(child, shape)) flush(child);
      else {
        run.push(child);
        words ||= isElement(child) ? hasWordsBelow(child) : hasWords(child);
      }
      child = next;
    }
    flush(null);
  }
  return wrappers;
}

/** What one walk learns of the tree: see `wrapLooseText`. */
interface Shape {
  /**
   * Phrasing elements and containers holding an element that is not phrasing content: no other
   * element is asked (every other element is a block itself), and a table's thousands of rows
   * and cells need no entry.
   */
  blocky: Set<DomElement>;
  /** Containers with a block child and a text child with words, outermost first. */
  containers: DomElement[];
}

function measureShape(body: DomElement): Shape {
  const shape: Shape = { blocky: new Set(), containers: [] };
  const candidates: DomElement[] = [];
  let left = 0; // open LEAVE_TAGS elements
  const visit = (el: DomElement): void => {
    if (LOOSE_TEXT_CONTAINERS.has(tagOf(el)) && left === 0) candidates.push(el);
  };
  visit(body);
  walk(
    body,
    (node) => {
      if (!isElement(node)) return false;
      visit(node);
      if (LEAVE_TAGS.has(tagOf(node))) left++;
      return true;
    },
    (el) => {
      if (LEAVE_TAGS.has(tagOf(el))) left--;
      const parent = el.parentNode;
      if (!isElement(parent) || !isBlock(el, shape)) return;
      const tag = tagOf(parent);
      if (PHRASING_TAGS.has(tag) || LOOSE_TEXT_CONTAINERS.has(tag)) shape.blocky.add(parent);
    },
  );
  for (const el of candidates) if (hasLooseText(el, shape)) shape.containers.push(el);
  return shape;
}

/** True when `el` is not phrasing content, or holds an element that is not. */
function isBlock(el: DomElement, shape: Shape): boolean {
  return !PHRASING_TAGS.has(tagOf(el)) || shape.blocky.has(el);
}

/** True when `el` has a block child and a text child with words. */
function hasLooseText(el: DomElement, shape: Shape): boolean {
  if (!shape.blocky.has(el)) return false;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (!isElement(child) && hasWords(child)) return true;
  }
  return false;
}

function hasWords(node: DomNode): boolean {
  return isText(node) && node.data.trim() !== "";
}

/**
 * True when text with words lies below `el`. Asked only of the inline elements in a run beside
 * blocks, which hold no container: each is read at most once.
 */
function hasWordsBelow(el: DomElement): boolean {
  let found = false;
  walk(el, (node) => {
    if (found) return false;
    if (!isElement(node)) {
      found = hasWords(node);
      return false;
    }
    return true;
  });
  return found;
}
