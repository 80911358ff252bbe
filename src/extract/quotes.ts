/**
 * Quoted repeats in a thread: a reply that quotes an earlier post ("PeterT said: …") repeats
 * text the thread already shows. The quote goes when every long line of it is shown again
 * elsewhere in the content; one the page does not otherwise show (its post is on another page
 * of the thread) is kept, and so is every reply around a quote.
 */

import {
  attr,
  type DomElement,
  type DomNode,
  isElement,
  isText,
  PHRASING_TAGS,
  tagOf,
  WHITESPACE_RUN,
  walk,
} from "./dom.js";

/**
 * Class words of a forum's quote block: XenForo's `bbCodeBlock--quote`, Invision's `ipsQuote`,
 * vBulletin's `bbcode_quote`, phpBB's and Discourse's `quote`.
 */
const QUOTE_NAMES = /(?:^|[\s_-])(?:ips|bbcode_?)?quote(?=$|[\s_-])|bbCodeBlock--quote/i;

/** NodeBB's preview of the post a reply answers. */
const PARENT_POST = "post/parent";

/** Tags that can hold a quote named by its class. */
const QUOTE_HOLDER_TAGS = new Set(["div", "aside", "section", "blockquote"]);

/**
 * Lines with fewer words than this are not compared: the attribution ("PeterT said:"), "Click to
 * expand…" and short lines ("Thanks!") repeat legitimately.
 */
const MIN_QUOTED_WORDS = 8;

/**
 * Quotes examined at most, and the text they may hold together as a multiple of the content's:
 * nested quotes are read once per level, and this bounds the work on a hostile page.
 */
const MAX_QUOTES = 500;
const QUOTE_WORK_RATIO = 4;

const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * Removes quote blocks inside `root` whose every long line is also found outside them, in
 * place. Nested quotes are weighed from the outside in: a kept quote's own quotes are still
 * examined.
 *
 * @example
 * removeRepeatedQuotes(threadRoot); // "Ann said: <the text of Ann's post>" goes, the reply stays
 */
export function removeRepeatedQuotes(root: DomElement): void {
  const quotes: DomElement[] = [];
  walk(root, (node) => {
    if (!isElement(node)) return false;
    if (quotes.length < MAX_QUOTES && isQuote(node)) quotes.push(node);
    return true;
  });
  if (quotes.length === 0) return;
  // Copies of each line left in the content: a removed quote uses one up, so a post quoted
  // twice but shown nowhere else keeps one of its quotes.
  const copies = new Map<string, number>();
  let budget = 0;
  for (const line of textLines(root)) {
    copies.set(line, (copies.get(line) ?? 0) + 1);
    budget += line.length * QUOTE_WORK_RATIO;
  }
  for (const quote of quotes) {
    if (!isUnder(quote, root)) continue; // inside a quote removed already
    const lines = textLines(quote);
    for (const line of lines) budget -= line.length;
    if (budget < 0) return;
    const long = lines.filter((line) => wordCount(line) >= MIN_QUOTED_WORDS);
    if (long.length === 0 || !long.every((line) => (copies.get(line) ?? 0) >= 2)) continue;
    for (const line of lines) copies.set(line, (copies.get(line) ?? 1) - 1);
    quote.remove();
  }
}

/** True when `node` still hangs under `root` (a removed quote takes its nested ones along). */
function isUnder(node: DomNode, root: DomElement): boolean {
  for (let at = node.parentNode; at !== null; at = at.parentNode) if (at === root) return true;
  return false;
}

/**
 * True when `el` is a quote block: a `<blockquote>`, a block its class names a quote, or a
 * reply's preview of the post it answers (NodeBB's `component="post/parent"`).
 */
function isQuote(el: DomElement): boolean {
  const tag = tagOf(el);
  if (tag === "blockquote") return true;
  if (!QUOTE_HOLDER_TAGS.has(tag)) return false;
  return QUOTE_NAMES.test(attr(el, "class")) || attr(el, "component") === PARENT_POST;
}

/** Lines of text under `el` as a browser breaks them, whitespace collapsed, empty ones left out. */
function textLines(el: DomElement): string[] {
  const lines: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const line = current.join("").replace(WHITESPACE_RUN, " ").trim();
    if (line !== "") lines.push(line);
    current = [];
  };
  walk(
    el,
    (node) => {
      if (isText(node)) {
        current.push(node.data);
        return false;
      }
      if (!isElement(node)) return false;
      if (endsLine(node)) flush();
      return true;
    },
    (closed) => {
      if (endsLine(closed)) flush();
    },
  );
  flush();
  return lines;
}

function wordCount(line: string): number {
  return line.match(WORD)?.length ?? 0;
}

/** Inside phrasing elements text runs on; any other element, and `<br>`, ends a line. */
function endsLine(el: DomElement): boolean {
  const tag = tagOf(el);
  return tag === "br" || !PHRASING_TAGS.has(tag);
}
