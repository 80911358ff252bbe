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
  isSpaceCode,
  TEXT_NODE,
  tagOf,
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

/** Stats of every element under `root` (including `root`), looked up by element. */
export interface StatsMap {
  get(el: DomElement): TextStats | undefined;
}

/** An element as measureText sees it: the tree gives each element a slot for its stats. */
interface Slotted {
  textStats: Measured | undefined;
}

/** One element's stats, and the measurement they belong to. */
interface Measured extends TextStats {
  readonly by: Measurement;
}

/**
 * The stats of one measureText call. Each element keeps the stats of the latest measurement
 * that covered it in its own slot, which is cheaper than a Map of every element. A later
 * measurement of the same element hands the earlier stats back to their measurement, which
 * lists them and looks them up only when asked for one of them: every measurement keeps
 * answering with its own numbers.
 */
class Measurement implements StatsMap {
  /** Elements measured again since, each followed by this measurement's stats of it. */
  readonly #replaced: (DomElement | TextStats)[] = [];
  /** #replaced as a map, built when first needed, holding its first `#mapped` pairs. */
  #earlier: Map<DomElement, TextStats> | undefined;
  #mapped = 0;

  get(el: DomElement): TextStats | undefined {
    const slot = (el as unknown as Slotted).textStats;
    if (slot !== undefined && slot.by === this) return slot;
    const replaced = this.#replaced;
    if (replaced.length === 0) return undefined;
    this.#earlier ??= new Map();
    for (; this.#mapped < replaced.length; this.#mapped += 2) {
      this.#earlier.set(
        replaced[this.#mapped] as DomElement,
        replaced[this.#mapped + 1] as TextStats,
      );
    }
    return this.#earlier.get(el);
  }

  /** New zeroed stats for `el`, taking its slot. */
  claim(el: DomElement): Measured {
    const target = el as unknown as Slotted;
    const previous = target.textStats;
    if (previous !== undefined) previous.by.#replaced.push(el, previous);
    const stats: Measured = { chars: 0, linkChars: 0, commas: 0, by: this };
    target.textStats = stats;
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
  const measurement = new Measurement();
  // The walk is written out: it runs over every element several times per page, where a
  // callback per node costs more than the counting.
  let top = measurement.claim(root);
  const stack: Measured[] = [top];
  let linkDepth = 0;
  let node = root.firstChild;
  while (node !== null) {
    const type = node.nodeType;
    if (type === TEXT_NODE || type === CDATA_SECTION_NODE) {
      const { chars, commas } = measureData((node as DomText).data);
      if (chars > 0) {
        top.chars += chars;
        if (linkDepth > 0) top.linkChars += chars;
        top.commas += commas;
      }
    } else if (type === ELEMENT_NODE) {
      const stats = measurement.claim(node as DomElement);
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
  return measurement;
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
