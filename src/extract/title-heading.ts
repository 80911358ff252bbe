/**
 * The page's title is returned as its `title`; the content does not say it again. A heading that
 * opens the content and reads as the title, word for word, goes, as Mozilla Readability drops a
 * header that duplicates the title: the tools and the CLI print the title above the content, and
 * a reader would see it twice.
 */

import {
  collapseWhitespace,
  type DomElement,
  type DomNode,
  headingLevel,
  isElement,
  isText,
  textOf,
  walk,
} from "./dom.js";

/**
 * Removes from `root`, in place, the heading that opens it when its text is `title` (compared
 * without regard to case or runs of whitespace). A heading after the content's first text, or
 * one that differs by a word, stays.
 *
 * @example
 * removeTitleHeading(root, metadata.title); // <h1>Post title</h1><p>…</p> → <p>…</p>
 */
export function removeTitleHeading(root: DomElement, title: string | undefined): void {
  if (title === undefined) return;
  const wanted = normalize(title);
  if (wanted === "") return;
  const heading = openingHeading(root);
  if (heading !== undefined && normalize(textOf(heading)) === wanted) heading.remove();
}

/** The heading holding the first text under `root`, if that text is in one. */
function openingHeading(root: DomElement): DomElement | undefined {
  let node = firstText(root)?.parentNode ?? null;
  for (; isElement(node) && node !== root; node = node.parentNode) {
    if (headingLevel(node) > 0) return node;
  }
  return undefined;
}

/** The first text node under `root` that holds more than whitespace. */
function firstText(root: DomNode): DomNode | undefined {
  let found: DomNode | undefined;
  walk(root, (node) => {
    if (found !== undefined) return false;
    if (isText(node) && node.data.trim() !== "") found = node;
    return true;
  });
  return found;
}

function normalize(text: string): string {
  return collapseWhitespace(text).trim().toLowerCase();
}
