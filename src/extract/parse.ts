/**
 * HTML → DOM (our small tree, extract/tree), made safe for hostile input: the input is capped
 * (MAX_HTML_LENGTH characters, MAX_NODES tags), start tags nested deeper than
 * MAX_NESTING_DEPTH are dropped with their end tags (their content stays, flattened into the
 * ancestor, a block's text kept apart from its neighbours' by a space), and the tree is
 * normalized so that `<html>`, `<head>` and `<body>` always exist.
 * limitNesting() applies the same bounds to the HTML text, for input the tokenizer must not
 * read as it is (see parseBounded).
 */

import type { LimitHit } from "../warnings.js";
import { ChunkedText, type HtmlText } from "./chunked.js";
import {
  type DomDocument,
  type DomElement,
  type DomNode,
  isElement,
  isSpaceCode,
  isText,
  tagOf,
} from "./dom.js";
import {
  BLOCK_ELEMENTS,
  FOREIGN_ROOTS,
  OPEN_IMPLIES_CLOSE,
  RAW_TEXT_ELEMENTS,
  VOID_ELEMENTS,
} from "./html-rules.js";
import { buildTree } from "./tree.js";

/**
 * Longest HTML parsed, in UTF-16 code units (about 5 MB of ASCII). Longer input is cut here;
 * real article pages are far smaller, and parse time grows with size.
 */
export const MAX_HTML_LENGTH = 5_000_000;

/**
 * Deepest element nesting kept. Real pages rarely pass 60; past this, start tags are dropped
 * and their content joins the ancestor, which keeps parsing linear.
 */
export const MAX_NESTING_DEPTH = 400;

/**
 * Most tags and comments parsed; the HTML is cut before the next one. 5 MB of `<p>x`
 * (1.25 million elements) would take hundreds of megabytes and seconds; this bounds the worst
 * case well under the conversion thread's heap. Long real
 * articles stay far below it.
 */
export const MAX_NODES = 200_000;

/** Elements that belong in `<head>` when they come before any body content. */
const HEAD_ELEMENTS = new Set(["base", "link", "meta", "noscript", "script", "style", "title"]);

/** True for the code of an ASCII letter, the start of a tag name. */
function isAsciiAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Parses HTML into a document that always has `<html>`, `<head>` and `<body>`. Never throws on
 * malformed input; time is linear in the (capped) input size.
 *
 * @example
 * const document = parseDocument("<p>Hello</p>");
 * document.documentElement; // <html><head></head><body><p>Hello</p></body></html>
 */
export function parseDocument(html: string): DomDocument {
  return parseBounded(html).document;
}

/** A parsed document, and the limit that cut its input, if one did. */
export interface BoundedDocument {
  document: DomDocument;
  cut?: LimitHit;
}

/**
 * parseDocument, telling whether the input was cut (at MAX_HTML_LENGTH characters or
 * MAX_NODES tags), so the caller can say the content ends early.
 */
export function parseBounded(html: HtmlText): BoundedDocument {
  const capped = capLength(html);
  // Outside SVG and MathML the tokenizer would read `<![CDATA[` on to a `]]>` that may never
  // come: the pre-pass reads it as HTML does, a comment up to the next `>`.
  const prepared =
    capped.indexOf("<![CDATA[") === -1 ? { html: capped, truncated: false } : limitNesting(capped);
  const built = buildTree(prepared.html, { maxDepth: MAX_NESTING_DEPTH, maxNodes: MAX_NODES });
  const { document } = built;
  const truncated = prepared.truncated || built.truncated;
  normalizeStructure(document);
  if (capped.length < html.length) {
    return { document, cut: { limit: "html-length", max: MAX_HTML_LENGTH } };
  }
  return truncated ? { document, cut: { limit: "html-elements", max: MAX_NODES } } : { document };
}

/** Cuts input to MAX_HTML_LENGTH without splitting a surrogate pair. */
export function capLength<T extends HtmlText>(html: T): T {
  if (html.length <= MAX_HTML_LENGTH) return html;
  const last = html.charCodeAt(MAX_HTML_LENGTH - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_HTML_LENGTH - 1 : MAX_HTML_LENGTH;
  return (typeof html === "string" ? html.slice(0, end) : html.cut(end)) as T;
}

/** Result of the nesting pre-pass. */
export interface LimitedHtml<T extends HtmlText = string> {
  /** The HTML, with start tags deeper than the limit (and their end tags) removed. */
  html: T;
  /** Whether the HTML was cut at MAX_NODES tags and comments. */
  truncated: boolean;
}

/**
 * One linear scan that tracks open elements the way htmlparser2 will, dropping start tags that
 * would nest deeper than `maxDepth` and the end tags that match them, and end tags that close
 * nothing (the parser would ignore them, at a cost of the depth each). The HTML is cut before
 * the tag or comment past `maxNodes`.
 *
 * @example
 * limitNesting("<b><b><b>x", 2).html; // "<b><b>x"
 */
export function limitNesting<T extends HtmlText>(
  html: T,
  maxDepth = MAX_NESTING_DEPTH,
  maxNodes = MAX_NODES,
): LimitedHtml<T> {
  const length = html.length;
  let nodes = 0;
  let truncated = false;
  const out: string[] = [];
  let copied = 0; // html[0, copied) is in `out`
  const stack: string[] = [];
  const openCount = new Map<string, number>();
  const dropped = new Map<string, number>();
  let foreignDepth = 0;

  const keep = (start: number, end: number): void => {
    if (typeof html === "string") out.push(html.slice(start, end));
    else html.pieces(start, end, out);
  };
  /** Leaves html[start, end) out; a dropped block element leaves a space (see keepApart). */
  const drop = (start: number, end: number, name?: string): void => {
    keep(copied, start);
    if (name !== undefined && BLOCK_ELEMENTS.has(name)) out.push(" ");
    copied = end;
  };
  const pop = (): void => {
    const name = stack.pop()!;
    openCount.set(name, (openCount.get(name) ?? 1) - 1);
    if (FOREIGN_ROOTS.has(name)) foreignDepth--;
  };

  let i = html.indexOf("<");
  while (i !== -1 && i < length - 1) {
    const next = html.charCodeAt(i + 1);
    const alpha = isAsciiAlpha(next);
    const opensNode = next === 33 /* ! */ || next === 63 /* ? */ || alpha;
    if (opensNode && ++nodes > maxNodes) {
      truncated = true;
      break;
    }
    if (next === 33 /* ! */ && foreignDepth === 0 && html.startsWith("<![CDATA[", i)) {
      // Outside SVG and MathML, HTML reads `<![CDATA[` as a bogus comment that ends at the
      // next `>`; htmlparser2 would wait for a `]]>` that never comes and lose the page.
      const close = html.indexOf(">", i + 9);
      const end = close === -1 ? length : close + 1;
      drop(i, end);
      i = html.indexOf("<", end);
      continue;
    }
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      i = html.indexOf("<", skipMarkupDeclaration(html, i));
      continue;
    }
    if (next === 47 /* / */) {
      const nameStart = i + 2;
      if (!isAsciiAlpha(html.charCodeAt(nameStart))) {
        // `</>` and `</3` are ignored or bogus comments: skip to the next `>`.
        const close = html.indexOf(">", nameStart);
        i = close === -1 ? -1 : html.indexOf("<", close + 1);
        continue;
      }
      const nameEnd = findTagNameEnd(html, nameStart);
      const name = html.slice(nameStart, nameEnd).toLowerCase();
      const close = html.indexOf(">", nameEnd);
      const end = close === -1 ? length : close + 1;
      if ((openCount.get(name) ?? 0) > 0) {
        let top = stack[stack.length - 1];
        while (top !== undefined && top !== name) {
          pop();
          top = stack[stack.length - 1];
        }
        pop();
      } else if ((dropped.get(name) ?? 0) > 0) {
        dropped.set(name, dropped.get(name)! - 1);
        drop(i, end, name);
      } else if (name !== "p" && name !== "br" && !VOID_ELEMENTS.has(name)) {
        drop(i, end); // closes nothing; `</p>` and `</br>` still create elements
      }
      i = html.indexOf("<", end);
      continue;
    }
    if (!alpha) {
      i = html.indexOf("<", i + 1);
      continue;
    }
    const nameEnd = findTagNameEnd(html, i + 1);
    const name = html.slice(i + 1, nameEnd).toLowerCase();
    const tag = scanAttributes(html, nameEnd);
    const end = tag.end;
    const implied = OPEN_IMPLIES_CLOSE.get(name);
    if (implied) {
      while (stack.length > 0 && implied.has(stack[stack.length - 1]!)) pop();
    }
    if (RAW_TEXT_ELEMENTS.has(name)) {
      i = html.indexOf("<", findRawTextEnd(html, name, end));
      continue;
    }
    const selfClosing = tag.selfClosing && foreignDepth > 0;
    if (!VOID_ELEMENTS.has(name) && !selfClosing) {
      if (stack.length >= maxDepth) {
        dropped.set(name, (dropped.get(name) ?? 0) + 1);
        drop(i, end, name);
      } else {
        stack.push(name);
        openCount.set(name, (openCount.get(name) ?? 0) + 1);
        if (FOREIGN_ROOTS.has(name)) foreignDepth++;
      }
    }
    i = end >= length ? -1 : html.indexOf("<", end);
  }

  if (truncated) {
    keep(copied, i);
    return { html: joined(html, out), truncated };
  }
  if (copied === 0) return { html, truncated };
  keep(copied, length);
  return { html: joined(html, out), truncated };
}

/** `pieces` as text of the same kind as `html`: one string, or pieces. */
function joined<T extends HtmlText>(html: T, pieces: string[]): T {
  return (typeof html === "string" ? pieces.join("") : new ChunkedText(pieces)) as T;
}

/** Index just past a comment, CDATA section, doctype or processing instruction at `start`. */
function skipMarkupDeclaration(html: HtmlText, start: number): number {
  if (html.startsWith("<!--", start)) {
    const close = html.indexOf("-->", start + 4);
    return close === -1 ? html.length : close + 3;
  }
  if (html.startsWith("<![CDATA[", start)) {
    const close = html.indexOf("]]>", start + 9);
    return close === -1 ? html.length : close + 3;
  }
  const close = html.indexOf(">", start + 2);
  return close === -1 ? html.length : close + 1;
}

/** Index where the tag name starting at `start` ends: at whitespace, `/` or `>`. */
function findTagNameEnd(html: HtmlText, start: number): number {
  let j = start;
  for (; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (c === 47 /* / */ || c === 62 /* > */ || isSpaceCode(c)) break;
  }
  return j;
}

/** Result of scanAttributes, reused: scanning allocates nothing per tag. */
const scanned = { end: 0, selfClosing: false };

/**
 * End of a start tag's attributes (just past its `>`, or the end of the input), scanned the way
 * htmlparser2 reads quotes, and whether the tag ends in `/>`.
 */
function scanAttributes(html: HtmlText, from: number): { end: number; selfClosing: boolean } {
  scanned.end = html.length;
  scanned.selfClosing = false;
  let j = from;
  while (j < html.length) {
    const c = html.charCodeAt(j);
    if (c === 62 /* > */) {
      scanned.end = j + 1;
      scanned.selfClosing = html.charCodeAt(j - 1) === 47; /* / */
      return scanned;
    }
    if (c === 61 /* = */) {
      j++;
      while (j < html.length && isSpaceCode(html.charCodeAt(j))) j++;
      const quote = html.charCodeAt(j);
      if (quote === 34 /* " */ || quote === 39 /* ' */) {
        const close = html.indexOf(quote === 34 ? '"' : "'", j + 1);
        if (close === -1) return scanned;
        j = close + 1;
      }
      continue;
    }
    j++;
  }
  return scanned;
}

/**
 * Index just past the end tag of the raw-text element `name` whose content starts at `from`:
 * `</name` in any case, then whitespace, `/` or `>`.
 */
function findRawTextEnd(html: HtmlText, name: string, from: number): number {
  for (let at = html.indexOf("</", from); at !== -1; at = html.indexOf("</", at + 2)) {
    if (!namedAt(html, name, at + 2)) continue;
    const after = html.charCodeAt(at + 2 + name.length);
    if (after !== 47 /* / */ && after !== 62 /* > */ && !isSpaceCode(after)) continue;
    const close = html.indexOf(">", at);
    return close === -1 ? html.length : close + 1;
  }
  return html.length;
}

/** True when the lower-case ASCII `name` stands at `at`, in any case. */
function namedAt(html: HtmlText, name: string, at: number): boolean {
  for (let j = 0; j < name.length; j++) {
    // ASCII letters only: setting 0x20 lower-cases them, and no other code unit becomes one.
    const c = html.charCodeAt(at + j);
    if ((c >= 65 && c <= 90 ? c | 0x20 : c) !== name.charCodeAt(j)) return false;
  }
  return true;
}

/**
 * Gives the document exactly one `<html>` with `<head>` then `<body>`, moving stray top-level
 * nodes into them (the parser leaves fragments as they are), and what a head left open holds
 * from its first node that cannot be in a head on into the body.
 */
function normalizeStructure(document: DomDocument): void {
  const topLevel = Array.from(document.childNodes).filter((node) => node.nodeType !== 10);
  const html = topLevel.find(
    (node): node is DomElement => isElement(node) && tagOf(node) === "html",
  );
  const root = html ?? document.createElement("html");
  const nodes: DomNode[] = [];
  for (const node of topLevel) {
    if (node === root) nodes.push(...childNodes(root));
    else nodes.push(node);
  }
  let head: DomElement | undefined;
  let body: DomElement | undefined;
  for (const node of nodes) {
    if (!isElement(node)) continue;
    if (!head && tagOf(node) === "head") head = node;
    if (!body && tagOf(node) === "body") body = node;
  }
  head ??= document.createElement("head");
  body ??= document.createElement("body");
  // What a browser reads as the body though the head was never closed: from the first node that
  // cannot be in a head (a `<br>`, a `<div>`, text), the rest of the head is the body's start.
  const spilled = spillFromHead(head);

  let inBody = false;
  for (const node of nodes) {
    if (node === head || node === body) {
      if (node === body) inBody = true;
      continue;
    }
    if (isElement(node)) {
      const tag = tagOf(node);
      if (tag === "head" || tag === "body") {
        // A second head or body: keep its content, not the element.
        const target = tag === "head" && !inBody ? head : body;
        for (const child of childNodes(node)) target.appendChild(child);
        node.remove();
        continue;
      }
      if (!inBody && HEAD_ELEMENTS.has(tag)) {
        head.appendChild(node);
        continue;
      }
    } else if (!inBody && (!isText(node) || node.data.trim() === "")) {
      head.appendChild(node); // comments and whitespace before the body
      continue;
    }
    inBody = true;
    body.appendChild(node);
  }
  const first = body.firstChild;
  for (const node of spilled) body.insertBefore(node, first);
  root.appendChild(head);
  root.appendChild(body);
  if (root.parentNode === null) document.appendChild(root);
}

/** Takes out of `head` its first node that cannot be in a head and every node after it. */
function spillFromHead(head: DomElement): DomNode[] {
  let node = head.firstChild;
  while (node !== null) {
    const inHead = isElement(node)
      ? HEAD_ELEMENTS.has(tagOf(node)) || tagOf(node) === "template"
      : !isText(node) || node.data.trim() === "";
    if (!inHead) break;
    node = node.nextSibling;
  }
  const spilled: DomNode[] = [];
  for (; node !== null; node = node.nextSibling) spilled.push(node);
  for (const moved of spilled) moved.remove();
  return spilled;
}

/** A node's children as an array (safe to iterate while moving them). */
function childNodes(node: DomNode): DomNode[] {
  const out: DomNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) out.push(child);
  return out;
}
