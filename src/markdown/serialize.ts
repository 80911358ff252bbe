/**
 * DOM → Markdown (CommonMark with GFM tables and strikethrough). The walk lives in render.ts;
 * this file is only the syntax: ATX headings, `**strong**`, `*em*`, code spans and fences that
 * outgrow the backticks inside them, `- ` and `1. ` lists indented to their marker, `> ` quotes,
 * `[text](url)` links and pipe tables.
 */

import type { DomElement } from "../extract/dom.js";
import { longestRun } from "./code.js";
import type { Dialect, RenderOptions } from "./dialect.js";
import { escapeMarkdown, markdownUrl } from "./escape.js";
import { oneLine, render } from "./render.js";
import { type TableModel, tableGrid } from "./table.js";

/** Emphasis delimiters. */
const EMPHASIS_MARKS = { strong: "**", em: "*", del: "~~" } as const;
/** A run of `#` closing a heading line, which Markdown would strip. */
const CLOSING_HASHES = /(\s)(#+)$/;

/** The Markdown syntax for render(). */
export const markdownDialect: Dialect = {
  escape: escapeMarkdown,
  hardBreak: "  \n",
  rule: "---",

  heading(level, content) {
    return `${"#".repeat(level)} ${content.replace(CLOSING_HASHES, "$1\\$2")}`;
  },

  emphasis(kind, content) {
    const mark = EMPHASIS_MARKS[kind];
    return `${mark}${content}${mark}`;
  },

  inlineCode(code) {
    const fence = "`".repeat(longestRun(code, "`") + 1);
    const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
    return `${fence}${pad}${code}${pad}${fence}`;
  },

  url: markdownUrl,

  link(content, href) {
    return `[${content}](${href})`;
  },

  image(alt, src) {
    return `![${alt.replace(/[[\]\\]/g, "\\$&")}](${src})`;
  },

  codeBlock(code, language) {
    const fence = "`".repeat(Math.max(3, longestRun(code, "`") + 1));
    return `${fence}${language ?? ""}\n${code}\n${fence}`;
  },

  quotePrefix: "> ",

  listItem(content, marker) {
    return `${marker}${content}`;
  },

  itemIndent(marker) {
    return marker.length;
  },

  term(content) {
    return content.startsWith("**") ? content : `**${content}**`;
  },

  definition(content) {
    return `: ${content}`;
  },

  definitionIndent: 2,

  table(table) {
    return gfmTable(table);
  },
};

/**
 * Renders the subtree at `root` as Markdown.
 *
 * @example
 * toMarkdown(parseDocument("<h1>Hi</h1><p>See <a href='/x'>this</a>.</p>").body, { baseUrl: "https://e.com/" });
 * // "# Hi\n\nSee [this](https://e.com/x)."
 */
export function toMarkdown(root: DomElement, options: RenderOptions = {}): string {
  return render(root, markdownDialect, options);
}

/**
 * A GFM pipe table. The first row is the header when it is one (in `<thead>`, or all `<th>`);
 * otherwise, as in key/value tables with `<th>` down the first column, the header is left empty.
 */
function gfmTable(table: TableModel): string {
  const grid = tableGrid(table, cellText);
  const first = table.rows[0];
  const hasHeader =
    first !== undefined && (first.inHead || first.cells.every((cell) => cell.header));
  const columns = grid[0]?.length ?? 0;
  const [header, ...body] = hasHeader ? grid : [Array<string>(columns).fill(""), ...grid];
  if (!header) return "";
  return [tableLine(header), tableLine(header.map(() => "---")), ...body.map(tableLine)].join("\n");
}

/** A cell's content on one line, its pipes escaped. */
function cellText(content: string): string {
  const text = oneLine(content);
  return text.includes("|") ? text.replace(/\|/g, "\\|") : text;
}

/** One row of a pipe table: `| a | b |`, an empty cell `| |`. */
function tableLine(cells: readonly string[]): string {
  // Joined natively when no cell is empty: one flat string, not a chain of a dozen pieces.
  if (!cells.includes("")) return `| ${cells.join(" | ")} |`;
  let line = "|";
  for (const cell of cells) line += cell === "" ? " |" : ` ${cell} |`;
  return line;
}
