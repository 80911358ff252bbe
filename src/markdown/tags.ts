/**
 * Tag sets of the DOM walk: what is never rendered, what is a block, and which elements map to
 * code, emphasis, headings and lists.
 */

import type { EmphasisKind } from "./dialect.js";

/** Elements that are never rendered. */
export const SKIPPED_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "title",
  "meta",
  "link",
  "base",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "canvas",
  "audio",
  "video",
  "map",
  "select",
  "option",
  "datalist",
  "textarea",
  "input",
  "rt",
  "rp",
]);

/** Block elements without a syntax of their own: blank lines around them. */
export const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "details",
  "dialog",
  "dd",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
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
  "hgroup",
  "html",
  "legend",
  "li",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "search",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);

/** Inline elements rendered as code spans. */
export const CODE_TAGS = new Set(["code", "kbd", "samp", "tt", "var"]);
/** Elements rendered as code blocks. */
export const PRE_TAGS = new Set(["pre", "xmp", "listing", "plaintext"]);
/** Emphasis by tag. */
export const EMPHASIS_TAGS: ReadonlyMap<string, EmphasisKind> = new Map([
  ["strong", "strong"],
  ["b", "strong"],
  ["em", "em"],
  ["i", "em"],
  ["del", "del"],
  ["s", "del"],
  ["strike", "del"],
]);
/** Heading levels by tag. */
export const HEADING_LEVELS: ReadonlyMap<string, number> = new Map([
  ["h1", 1],
  ["h2", 2],
  ["h3", 3],
  ["h4", 4],
  ["h5", 5],
  ["h6", 6],
]);
/** List containers. */
export const LIST_TAGS = new Set(["ul", "ol", "menu", "dir"]);
