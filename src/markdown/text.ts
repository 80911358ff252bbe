/**
 * DOM → plain text: the same blocks as the Markdown form, with no markup at all. Headings,
 * paragraphs and list items are lines separated as in Markdown; nested list items are indented;
 * table cells are joined by tabs; links keep their text, images are left out.
 */

import type { DomElement } from "../extract/dom.js";
import type { Dialect, RenderOptions } from "./dialect.js";
import { oneLine, render } from "./render.js";
import { tableGrid } from "./table.js";

/** Spaces before the lines of a list item after its first (nested lists step in by this). */
const ITEM_INDENT = 2;

/** The plain-text "syntax" for render(). */
export const textDialect: Dialect = {
  escape: (text) => text,
  hardBreak: "\n",
  rule: "",
  heading: (_level, content) => content,
  emphasis: (_kind, content) => content,
  inlineCode: (code) => code,
  url: (resolved) => resolved,
  link: (content) => content,
  image: () => "",
  codeBlock: (code) => code,
  quotePrefix: "",
  listItem: (content) => content,
  itemIndent: () => ITEM_INDENT,
  term: (content) => content,
  definition: (content) => content,
  definitionIndent: 0,
  table: (table) =>
    tableGrid(table, oneLine)
      .map((cells) => cells.join("\t").trimEnd())
      .join("\n"),
};

/**
 * Renders the subtree at `root` as plain text.
 *
 * @example
 * toText(parseDocument("<h1>Hi</h1><p>See <a href='/x'>this</a>.</p>").body); // "Hi\n\nSee this."
 */
export function toText(root: DomElement, options: RenderOptions = {}): string {
  return render(root, textDialect, options);
}
