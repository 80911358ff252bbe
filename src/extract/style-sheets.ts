/**
 * The classes a page's own style sheets hide: a class that a rule of its `<style>` elements
 * hides on its own (`.drawer { display: none }`, outside any `@media` or `@supports`), and that
 * no rule of them shows again (`.drawer.open { display: block }`, `@media (…) { .drawer {
 * display: flex } }`). An element of such a class waits for a script to show it: a cart drawer,
 * a table comparing the products a visitor picks, the menu's copy for small screens. Style
 * sheets the page links to are not read.
 */

import {
  type DomDocument,
  type DomElement,
  type DomNode,
  isSpaceCode,
  isText,
  walkElements,
} from "./dom.js";

const NO_CLASSES: ReadonlySet<string> = new Set();

/** A selector that is one class and nothing else. */
const ONE_CLASS = /^\s*\.(-?[_a-zA-Z][\w-]*)\s*$/;
/** A class a selector names. */
const CLASS_NAME = /\.(-?[_a-zA-Z][\w-]*)/g;
const COMMENT = /\/\*[\s\S]*?(?:\*\/|$)/g;
/** The at-rule whose rules hold everywhere: a cascade layer's. Others hold only sometimes. */
const LAYER = /^@layer\b/i;
/** Elements whose `<style>` elements style no page. */
const INERT_TAGS = new Set(["template"]);

/**
 * The classes that the `<style>` elements of the document `body` stands in hide, and that none
 * of their rules shows again.
 *
 * @example
 * // <style>.drawer { display: none }</style> … <div class="drawer">
 * classesHiddenByStyles(body); // Set { "drawer" }
 */
export function classesHiddenByStyles(body: DomElement): ReadonlySet<string> {
  const sheets: string[] = [];
  let hides = false;
  for (const style of styleElements(body)) {
    let text = "";
    for (let child = style.firstChild; child !== null; child = child.nextSibling) {
      if (isText(child)) text += child.data;
    }
    sheets.push(text);
    // A rule in a comment passes too, and is dropped with the comments below.
    hides ||= hidesOneClass(text);
  }
  if (!hides) return NO_CLASSES;
  // Each sheet is read apart, as a browser does: a comment or a block left open ends with it.
  const hidden = new Set<string>();
  const shows: { css: string; showing: number[] }[] = [];
  for (const sheet of sheets) {
    const css = sheet.includes("/*") ? sheet.replace(COMMENT, "") : sheet;
    const showing: number[] = [];
    readRules(css, hidden, showing);
    shows.push({ css, showing });
  }
  for (const { css, showing } of shows) {
    for (let i = 0; i < showing.length && hidden.size > 0; i += 2) {
      for (const [, name] of preludeOf(css, showing[i]!, showing[i + 1]!).matchAll(CLASS_NAME)) {
        hidden.delete(name!);
      }
    }
  }
  return hidden.size === 0 ? NO_CLASSES : hidden;
}

/**
 * The `<style>` elements that style the document `body` is in: those the parser listed, else
 * found; not one inside a `<template>`. One inside a `<noscript>` counts: it styles the page for
 * a reader without scripts, which is how the page is read here.
 */
function styleElements(body: DomElement): DomElement[] {
  let top: DomNode = body;
  while (top.parentNode !== null) top = top.parentNode;
  const listed = (top as Partial<DomDocument>).styleElements;
  if (listed !== undefined) return listed.filter((style) => applies(style, top));
  const found: DomElement[] = [];
  walkElements(top, (el) => {
    const tag = el.localName;
    if (tag === "style") found.push(el);
    return !INERT_TAGS.has(tag);
  });
  return found;
}

/** True when `style` is still under `top`, and under no INERT_TAGS element. */
function applies(style: DomElement, top: DomNode): boolean {
  for (let node = style.parentNode; node !== null; node = node.parentNode) {
    if (node === top) return true;
    if (INERT_TAGS.has((node as DomElement).localName)) return false;
  }
  return false;
}

/**
 * Reads the rules of the sheet `css`: a class a rule outside conditional at-rules hides on its
 * own goes to `hidden`; where each rule that shows something starts and where its block opens
 * go to `showing`, whose selectors are read only if a class is hidden. Sheets run to hundreds of
 * kilobytes: the next brace, `@` and `display` are each searched for once and kept, and only
 * the selectors of a rule that sets `display` are read.
 */
function readRules(css: string, hidden: Set<string>, showing: number[]): void {
  /** The blocks open around the reading position: true for a conditional at-rule's. */
  const open: boolean[] = [];
  let conditional = 0;
  let at = 0;
  let start = css.indexOf("{");
  let end = css.indexOf("}");
  let atSign = css.indexOf("@");
  let display = css.indexOf("display");
  while (end !== -1) {
    if (start === -1 || end < start) {
      if (open.pop() === true) conditional--;
      at = end + 1;
      end = css.indexOf("}", at);
      continue;
    }
    const next = css.indexOf("{", start + 1);
    let prelude: string | undefined;
    if (atSign !== -1 && atSign < at) atSign = css.indexOf("@", at);
    if (atSign !== -1 && atSign < start) prelude = preludeOf(css, at, start);
    if (prelude?.startsWith("@") || (next !== -1 && next < end)) {
      // An at-rule's block, or a rule with rules nested in it: what it holds may hold only
      // sometimes (a nested rule's selector is read from its parent's).
      const sometimes = prelude === undefined || !LAYER.test(prelude);
      open.push(sometimes);
      if (sometimes) conditional++;
      at = start + 1;
      start = next;
      continue;
    }
    while (display !== -1 && display < start) display = css.indexOf("display", display + 7);
    if (display !== -1 && display < end) {
      const hides = displaysNone(css, display);
      if (hides === false) showing.push(at, start);
      else if (hides && conditional === 0) {
        for (const selector of (prelude ?? preludeOf(css, at, start)).split(",")) {
          const name = ONE_CLASS.exec(selector)?.[1];
          if (name !== undefined) hidden.add(name);
        }
      }
    }
    at = end + 1;
    start = next;
    end = css.indexOf("}", at);
  }
}

/**
 * True when a rule of `css` may hide a class on its own: a `display: none` in the block of a
 * selector list one of whose selectors is one class. Most pages' sheets have none, and are
 * then not read rule by rule.
 */
function hidesOneClass(css: string): boolean {
  for (let at = css.indexOf("none"); at !== -1; at = css.indexOf("none", at + 4)) {
    let i = at - 1;
    while (isSpaceCode(css.charCodeAt(i))) i--;
    if (css.charCodeAt(i) !== 58) continue; // :
    i--;
    while (isSpaceCode(css.charCodeAt(i))) i--;
    if (i < 6 || !css.startsWith("display", i - 6) || displaysNone(css, i - 6) !== true) continue;
    const open = css.lastIndexOf("{", i);
    const comment = css.lastIndexOf("*/", open); // comments are still in
    const from = Math.max(
      css.lastIndexOf("}", open),
      css.lastIndexOf("{", open - 1),
      css.lastIndexOf(";", open),
      comment === -1 ? -1 : comment + 1,
    );
    if (
      css
        .slice(from + 1, open)
        .split(",")
        .some((selector) => ONE_CLASS.test(selector))
    )
      return true;
  }
  return false;
}

/**
 * Whether the `display` declaration at `at` hides (`none`) or shows (any other value);
 * undefined when the word there is no declaration of it (`--display`, a selector's
 * `.display`).
 */
function displaysNone(css: string, at: number): boolean | undefined {
  const before = css.charCodeAt(at - 1);
  if (!(before === 123 || before === 59 || isSpaceCode(before))) return undefined; // { ;
  let i = at + 7;
  while (isSpaceCode(css.charCodeAt(i))) i++;
  if (css.charCodeAt(i) !== 58) return undefined; // :
  i++;
  while (isSpaceCode(css.charCodeAt(i))) i++;
  return css.slice(i, i + 4).toLowerCase() === "none" && !isNameCode(css.charCodeAt(i + 4));
}

/** True for a character that continues a CSS keyword. */
function isNameCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45;
}

/** The prelude of the block opening at `start`: statements before it (`@import …;`) left out. */
function preludeOf(css: string, at: number, start: number): string {
  const text = css.slice(at, start);
  return text.slice(text.lastIndexOf(";") + 1).trim();
}
