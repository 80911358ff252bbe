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
  tagOf,
  walk,
} from "./dom.js";

/** Block elements: a `<div>` without any of these as children reads as a paragraph. */
export const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
]);
/** Containers whose loose text is wrapped (a cell's or a list item's stays as it is). */
const CONTAINER_TAGS = new Set(["body", "div", "section", "article", "main", "center", "form"]);
/** Where text is not loose: code keeps its layout, a paragraph is one already. */
const LEAVE_TAGS = new Set(["pre", "code", "p"]);

/**
 * Wraps each run of text and inline elements that sits beside blocks, in `body` and the
 * containers under it, in a new `<p>`; returns the new paragraphs.
 *
 * @example
 * // <div>Intro words<ul>…</ul></div> → <div><p>Intro words</p><ul>…</ul></div>
 * const wrappers = wrapLooseText(body, document);
 */
export function wrapLooseText(body: DomElement, document: DomDocument): Set<DomElement> {
  const containers: DomElement[] = [];
  if (hasLooseText(body)) containers.push(body);
  walk(body, (node) => {
    if (!isElement(node)) return false;
    const tag = tagOf(node);
    if (LEAVE_TAGS.has(tag)) return false;
    if (CONTAINER_TAGS.has(tag) && hasLooseText(node)) containers.push(node);
    return true;
  });
  const wrappers = new Set<DomElement>();
  for (const container of containers) {
    let run: DomNode[] = [];
    const flush = (before: DomNode | null): void => {
      if (run.some((node) => (node.textContent ?? "").trim() !== "")) {
        const p = document.createElement("p");
        container.insertBefore(p, before);
        for (const node of run) p.appendChild(node);
        wrappers.add(p);
      }
      run = [];
    };
    for (let child = container.firstChild; child !== null; ) {
      const next = child.nextSibling;
      if (isElement(child) && BLOCK_TAGS.has(tagOf(child))) flush(child);
      else run.push(child);
      child = next;
    }
    flush(null);
  }
  return wrappers;
}

/** True when `el` has a block child and a text child with words. */
function hasLooseText(el: DomElement): boolean {
  let block = false;
  let text = false;
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isElement(child)) block ||= BLOCK_TAGS.has(tagOf(child));
    else text ||= isText(child) && child.data.trim() !== "";
  }
  return block && text;
}
