/**
 * Text statistics for every element of a subtree, computed in one iterative pass. Cleaning and
 * main-content scoring both ask "how much text is in here, and how much of it is links" for many
 * nested elements; measuring each element separately would cost depth × size on deep pages.
 */

import {
  CDATA_SECTION_NODE,
  type DomElement,
  type DomNode,
  type DomText,
  ELEMENT_NODE,
  isChromeLandmark,
  isElement,
  isSpaceCode,
  TEXT_NODE,
  tagOf,
  walk,
} from "./dom.js";
import { namesOf } from "./names.js";
import { observeTrees } from "./tree.js";

/** Text measures of one element's subtree. */
export interface TextStats {
  /** Characters of visible text, whitespace runs counted as one. */
  chars: number;
  /** Of those, characters inside `<a>` elements. */
  linkChars: number;
  /** Commas (ASCII, full-width and the Japanese 、), a sign of prose. */
  commas: number;
}

/** Stats of every element under `root` (including `root`), looked up by element. */
export interface StatsMap {
  get(el: DomElement): TextStats | undefined;
}

/**
 * One element's stats, and the id of the measurement they belong to (0 for none). The tree keeps
 * them in each element, which measureText reads as one of these. An id, not the measurement: an
 * element in the old generation pointing to the measurement (and through its root to the whole
 * tree) would keep each converted page's tree alive until the next full collection.
 */
interface Measured extends TextStats {
  measuredBy: number;
}

/** `el`'s stats as the tree keeps them in it. */
function statsOf(el: DomNode): Measured {
  return el as unknown as Measured;
}

/** Ids given to measurements so far in this thread. */
let measurements = 0;

/**
 * The stats of one measureText call. Each element keeps the stats of the latest measurement
 * that covered it in itself, which is cheaper than a Map of every element and holds no stats
 * past the next measurement. An element measured again since (by a later call) is
 * measured afresh when this measurement is asked for it, so its numbers are those of the tree
 * as it is now.
 */
class Measurement implements StatsMap {
  readonly root: DomElement;
  /** Its id, which its elements' stats carry; a new one retires them (see catchUp). */
  id = ++measurements;

  constructor(root: DomElement) {
    this.root = root;
  }

  /**
   * Brings the stats up to date with `taken` (node, former parent, … in the order taken out):
   * each node's measures are subtracted from its former parent and every element above it up to
   * the root, if that chain still reaches the root (a node taken out of a subtree taken out
   * since is in that subtree's measures, which go whole). False when a node's measures are not
   * this measurement's, and only measuring again will do: the measurement then takes a new id,
   * so that the stats it had subtracted from in part are measured afresh if it is still asked.
   */
  catchUp(taken: readonly DomNode[]): boolean {
    if (this.subtract(taken)) return true;
    this.id = ++measurements;
    return false;
  }

  /** catchUp's subtractions; false at the first node whose measures are not this one's. */
  private subtract(taken: readonly DomNode[]): boolean {
    for (let i = 0; i < taken.length; i += 2) {
      const node = taken[i]!;
      const parent = taken[i + 1]!;
      const links = linksUpTo(parent, this.root);
      if (links === undefined) continue;
      let chars: number;
      let linkChars: number;
      let commas: number;
      if (node.nodeType === ELEMENT_NODE) {
        const slot = statsOf(node);
        if (slot.measuredBy !== this.id) return false;
        ({ chars, linkChars, commas } = slot);
      } else if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) {
        ({ chars, commas } = countsOf(node as DomText & Counted));
        linkChars = links > 0 ? chars : 0;
      } else {
        continue;
      }
      for (let up: DomNode | null = parent; up !== null; up = up.parentNode) {
        const slot = statsOf(up);
        if (slot.measuredBy !== this.id) return false;
        slot.chars -= chars;
        slot.linkChars -= linkChars;
        slot.commas -= commas;
        if (up === this.root) break;
      }
    }
    return true;
  }

  /**
   * True when this measurement, caught up, holds `root`'s stats and those of everything under
   * it as a measurement of `root` would: `root` is its root or below it with no link between
   * (a link above counts all text below as link text). The main content, measured again by each
   * pass of cleaning, is measured once with the body around it.
   */
  covers(root: DomElement): boolean {
    if (root === this.root) return true;
    return statsOf(root).measuredBy === this.id && linksUpTo(root, this.root) === 0;
  }

  get(el: DomElement): TextStats | undefined {
    const slot = statsOf(el);
    if (slot.measuredBy === this.id) return slot;
    if (slot.measuredBy === 0) return undefined; // never measured
    // Measured again since: measure it again from here, with the links above it up to the root.
    const links = linksUpTo(el, this.root);
    return links === undefined ? undefined : measureFrom(el, links, null);
  }

  /**
   * `el`'s stats, zeroed and made this measurement's: those an earlier measurement left in it
   * are overwritten (stats read from a measurement are used before the next one is taken).
   */
  claim(el: DomElement): Measured {
    const stats = statsOf(el);
    stats.chars = 0;
    stats.linkChars = 0;
    stats.commas = 0;
    stats.measuredBy = this.id;
    return stats;
  }
}

/**
 * Measures text, link text and commas of `root` and each element below it.
 *
 * @example
 * const stats = measureText(body);
 * const density = stats.get(nav)!.linkChars / stats.get(nav)!.chars;
 */
export function measureText(root: DomElement): StatsMap {
  const previous = latest;
  if (previous?.catchUp(removals)) {
    removals.length = 0;
    if (previous.covers(root)) return previous;
  }
  const measurement = new Measurement(root);
  measureFrom(root, 0, measurement);
  latest = measurement;
  removals.length = 0;
  return measurement;
}

/**
 * The latest measurement, and the nodes taken out of a tree since, each after the parent it left:
 * measuring the same root again with nothing put in since subtracts what went instead of
 * reading the whole tree again. Each pass of cleaning measures the page, and most only remove.
 */
let latest: Measurement | undefined;
const removals: DomNode[] = [];
/**
 * Most removals kept to catch up with: each climbs to the root, and past this many a deep page's
 * climbs would cost more than measuring again, so the measurement is forgotten instead (which
 * also bounds the log when nothing measures again).
 */
const MAX_CAUGHT_UP = 4096;

observeTrees({
  removed(node, parent) {
    if (latest === undefined) return;
    if (removals.length < MAX_CAUGHT_UP * 2) removals.push(node, parent);
    else forgetMeasurements();
  },
  inserted: forgetMeasurements,
});

/**
 * The `<a>` elements from `node` (itself included) up to `root` (not included), or undefined
 * when `root` is not above it.
 */
function linksUpTo(node: DomNode, root: DomElement): number | undefined {
  let links = 0;
  for (let up: DomNode | null = node; up !== null; up = up.parentNode) {
    if (up === root) return links;
    if (up.nodeType === ELEMENT_NODE && tagOf(up as DomElement) === "a") links++;
  }
  return undefined;
}

/**
 * Forgets the latest measurement and what it holds: a page's tree is not kept past its
 * conversion for a measurement the next page will not use.
 */
export function forgetMeasurements(): void {
  latest = undefined;
  removals.length = 0;
}

/**
 * Measures `root`'s subtree with `links` links around it, giving each element its stats in
 * `measurement`, or in none (only the root's totals count then). The walk is written out: it
 * runs over every element several times per page, where a callback per node costs more than the
 * counting.
 */
function measureFrom(root: DomElement, links: number, measurement: Measurement | null): TextStats {
  const claim = (el: DomElement): Measured =>
    measurement === null
      ? { chars: 0, linkChars: 0, commas: 0, measuredBy: 0 }
      : measurement.claim(el);
  const rootStats = claim(root);
  let top = rootStats;
  const stack: Measured[] = [top];
  let linkDepth = links;
  let node = root.firstChild;
  while (node !== null) {
    const type = node.nodeType;
    if (type === TEXT_NODE || type === CDATA_SECTION_NODE) {
      const { chars, commas } = countsOf(node as DomText & Counted);
      if (chars > 0) {
        top.chars += chars;
        if (linkDepth > 0) top.linkChars += chars;
        top.commas += commas;
      }
    } else if (type === ELEMENT_NODE) {
      const stats = claim(node as DomElement);
      const link = tagOf(node as DomElement) === "a";
      if (node.firstChild !== null) {
        if (link) linkDepth++;
        stack.push(stats);
        top = stats;
        node = node.firstChild;
        continue;
      }
    }
    // Climb until a next sibling exists, adding each finished element into its parent.
    while (node.nextSibling === null) {
      const parent: DomNode | null = node.parentNode;
      if (parent === null || parent === root) break;
      const done = stack.pop()!;
      top = stack[stack.length - 1]!;
      top.chars += done.chars;
      top.linkChars += done.linkChars;
      top.commas += done.commas;
      if (tagOf(parent as DomElement) === "a") linkDepth--;
      node = parent;
    }
    node = node.nextSibling;
  }
  return rootStats;
}

/**
 * A text node as measureFrom sees it: the tree gives each one slots for its counts, -1 until
 * they are taken.
 */
interface Counted {
  measuredChars: number;
  measuredCommas: number;
}

/**
 * The counts of a text node's data, kept on the node: a page is measured several times over,
 * and the tree's text never changes once it is built.
 */
function countsOf(text: DomText & Counted): { chars: number; commas: number } {
  if (text.measuredChars >= 0) {
    measured.chars = text.measuredChars;
    measured.commas = text.measuredCommas;
    return measured;
  }
  const counts = measureData(text.data);
  text.measuredChars = counts.chars;
  text.measuredCommas = counts.commas;
  return counts;
}

/** Result of measureData, reused: measuring allocates nothing per text node. */
const measured = { chars: 0, commas: 0 };

/**
 * Characters of `data` with each whitespace run counted as one (none when it is all
 * whitespace), and its commas (ASCII, full-width and 、): the counts of the collapsed text, in
 * one pass that builds no string, so a text node of millions of words costs its length and no
 * garbage.
 */
function measureData(data: string): { chars: number; commas: number } {
  let chars = 0;
  let commas = 0;
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c > 32 && c < 127) {
      chars++;
      inRun = false;
      if (c === 44 /* , */) commas++;
    } else if (isSpaceCode(c)) {
      if (!inRun) runs++;
      inRun = true;
    } else {
      chars++;
      inRun = false;
      if (c === 0xff0c || c === 0x3001) commas++;
    }
  }
  measured.chars = chars === 0 && runs === 1 ? 0 : chars + runs;
  measured.commas = commas;
  return measured;
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

/**
 * The text of `root`'s header, footer, navigation and sidebars (`<aside>`, `role=complementary`,
 * or a class or id word `sidebar`) outside `content`: the page's chrome, which no choice of
 * content could have left out of its count. A landmark holding some of `content` (a page-wide
 * header left open) is not chrome, and nothing inside `content` is counted.
 *
 * @example
 * const chrome = chromeText(body, stats, [root]);
 */
export function chromeText(
  root: DomElement,
  stats: StatsMap,
  content: readonly DomElement[],
): Pick<TextStats, "chars" | "linkChars"> {
  const inside = new Set<DomNode>(content);
  const around = new Set<DomNode>();
  for (const el of content) {
    for (let node = el.parentNode; node !== null && node !== root; node = node.parentNode) {
      if (around.has(node)) break;
      around.add(node);
    }
  }
  let chars = 0;
  let linkChars = 0;
  walk(root, (node) => {
    if (!isElement(node) || inside.has(node)) return false;
    if (around.has(node) || !(isChromeLandmark(node) || NAMED_SIDEBAR.test(namesOf(node)))) {
      return true;
    }
    const s = stats.get(node);
    chars += s?.chars ?? 0;
    linkChars += s?.linkChars ?? 0;
    return false;
  });
  return { chars, linkChars };
}

/** A sidebar named so by a class or id word, as many layouts mark theirs instead of `<aside>`. */
const NAMED_SIDEBAR = /(?:^|[\s_-])sidebar(?=$|[\s_-])/i;
