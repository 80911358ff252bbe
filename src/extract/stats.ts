/**
 * Text statistics for every element of a subtree, computed in one iterative pass. Cleaning and
 * main-content scoring both ask "how much text is in here, and how much of it is links" for many
 * nested elements; measuring each element separately would cost depth × size on deep pages.
 */

import {
  type DomElement,
  type DomNode,
  isElement,
  isSpaceCode,
  isText,
  tagOf,
  walk,
} from "./dom.js";

/** Text measures of one element's subtree. */
export interface TextStats {
  /** Characters of visible text, whitespace runs counted as one. */
  chars: number;
  /** Of those, characters inside `<a>` elements. */
  linkChars: number;
  /** Commas (ASCII, full-width and the Japanese 、), a sign of prose. */
  commas: number;
}

/** Stats of every element under `root` (including `root`), keyed by element. */
export type StatsMap = Map<DomElement, TextStats>;

/**
 * Measures text, link text and commas of `root` and each element below it.
 *
 * @example
 * const stats = measureText(body);
 * const density = stats.get(nav)!.linkChars / stats.get(nav)!.chars;
 */
export function measureText(root: DomElement): StatsMap {
  const map: StatsMap = new Map();
  const stack: TextStats[] = [{ chars: 0, linkChars: 0, commas: 0 }];
  map.set(root, stack[0]!);
  let linkDepth = 0;
  walk(
    root,
    (node: DomNode) => {
      if (isText(node)) {
        const data = node.data;
        // Counted in place, as if each whitespace run were replaced by one space and a text
        // that is only whitespace by nothing: no string is built.
        let chars = 0;
        let commas = 0;
        let visible = false;
        let inSpace = false;
        for (let i = 0; i < data.length; i++) {
          const c = data.charCodeAt(i);
          if (isSpaceCode(c)) {
            if (!inSpace) chars++;
            inSpace = true;
            continue;
          }
          chars++;
          inSpace = false;
          visible = true;
          if (c === 44 || c === 0xff0c || c === 0x3001) commas++;
        }
        if (!visible) return false;
        const top = stack[stack.length - 1]!;
        top.chars += chars;
        if (linkDepth > 0) top.linkChars += chars;
        top.commas += commas;
        return false;
      }
      if (!isElement(node)) return false;
      const stats: TextStats = { chars: 0, linkChars: 0, commas: 0 };
      map.set(node, stats);
      stack.push(stats);
      if (tagOf(node) === "a") linkDepth++;
      return true;
    },
    (el) => {
      const done = stack.pop()!;
      if (tagOf(el) === "a") linkDepth--;
      const parent = stack[stack.length - 1]!;
      parent.chars += done.chars;
      parent.linkChars += done.linkChars;
      parent.commas += done.commas;
    },
  );
  return map;
}

/**
 * An element holding more than this share of the page's text is the page itself, not
 * boilerplate nor decoration, whatever its class names or `aria-hidden` say.
 */
export const MAX_REMOVED_SHARE = 0.5;

/** Share of an element's text in links from which the element is a link (a linked title). */
export const LINKED_SHARE = 0.9;
/** Headings linked whole, each at least this long, are posts' titles (a person's name is shorter)… */
export const TEASER_TITLE_CHARS = 25;
/** …and this many of them make a list of other posts. */
export const TEASER_TITLES = 3;

/** True when nearly all of the measured text is link text (LINKED_SHARE), and there is some. */
export function isLinkText(stats: Pick<TextStats, "chars" | "linkChars"> | undefined): boolean {
  return stats !== undefined && stats.chars > 0 && stats.linkChars >= stats.chars * LINKED_SHARE;
}

/** Share of an element's text that is link text, 0 when it has no text. */
export function linkDensity(stats: TextStats | undefined): number {
  if (!stats || stats.chars === 0) return 0;
  return stats.linkChars / stats.chars;
}
