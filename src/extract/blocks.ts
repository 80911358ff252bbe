/**
 * The blocks of a main-content root and what each looks like, for the learned block scorer
 * (block-model.ts): a block is an element outside running text (a paragraph, a list item, a
 * heading, a caption, a leaf `<div>`) whose text is all its own. Each is described by numbers a
 * model can weigh: its length and link share and those of its parents and neighbours, where it
 * stands in the root (before or after the prose), the shape of its sentences, its tag and the
 * tags around it, and the words of its and its ancestors' class and id.
 *
 * These are signals that hold across sites; which of them mark page furniture is learned from
 * the dev data by scripts/train-blocks.ts, not written down here.
 */

import {
  collapseWhitespace,
  type DomElement,
  type DomNode,
  headingLevel,
  isElement,
  isText,
  PHRASING_TAGS,
  tagOf,
  walk,
} from "./dom.js";
import { namesOf } from "./names.js";
import type { PageType } from "./page-type.js";
import { measureText, type StatsMap } from "./stats.js";

/** One block of the root: its element, its text and its features (FEATURE_NAMES order). */
export interface Block {
  el: DomElement;
  text: string;
  /** Numeric features, in FEATURE_NAMES order. */
  features: number[];
  /** Class and id words of the block and its nearest ancestors under the root. */
  names: Set<string>;
  /** A paragraph of prose: long, and with few links. */
  prose: boolean;
}

/** Names of the numeric features, in the order `Block.features` holds them. */
export const FEATURE_NAMES = [
  "log_chars",
  "log_words",
  "link_share",
  "links",
  "parent_link_share",
  "grandparent_link_share",
  "parent_log_chars",
  "parent_blocks",
  "parent_mean_log_chars",
  "siblings_alike",
  "prev_log_chars",
  "prev_link_share",
  "next_log_chars",
  "next_link_share",
  "text_before_share",
  "prose_before_share",
  "prose_after_share",
  "index_share",
  "root_log_chars",
  "root_blocks",
  "root_prose_share",
  "root_link_share",
  "root_list_share",
  "depth",
  "heading_level",
  "nearest_heading_log_chars",
  "nearest_heading_link_share",
  "section_log_chars",
  "section_link_share",
  "section_prose_share",
  "section_blocks",
  "prose_after_section_share",
  "sentence_ends",
  "ends_sentence",
  "comma_rate",
  "digit_share",
  "upper_start_share",
  "short_word_share",
  "mean_word_chars",
  "separators",
  "emphasis_share",
  "repeated",
  "tag_p",
  "tag_li",
  "tag_heading",
  "tag_div",
  "tag_caption",
  "tag_quote",
  "tag_dd_dt",
  "tag_other",
  "in_list",
  "in_table",
  "in_figure",
  "in_aside",
  "in_header_footer",
  "in_form",
  "in_section",
  "has_media_near",
  "type_forum",
  "type_product",
  "type_listing",
  "type_documentation",
] as const;

/** Elements that are never blocks of their own, or whose text is not read. */
const SKIPPED_TAGS = new Set(["script", "style", "noscript", "template", "svg", "math"]);
/**
 * Blocks that are never scored: the page's title, code, and table cells (a row without a cell
 * is broken).
 */
const UNSCORED_TAGS = new Set([
  "h1",
  "pre",
  "td",
  "th",
  "caption",
  "table",
  "tr",
  "tbody",
  "thead",
]);
/** How many ancestors above a block give it their class and id words. */
const NAME_LEVELS = 4;
/** A block this long with few links is prose: what the page is about. */
const PROSE_CHARS = 120;
const PROSE_LINK_SHARE = 0.2;
/**
 * Most blocks read: a root with more is no article (a list of 300,000 items), and their
 * features would cost more memory than the page.
 */
const MAX_BLOCKS = 5000;
const WORD = /[\p{L}\p{N}]+/gu;
const SENTENCE_END = /[.!?。！？…](?:["'”’)\]]*)(?=\s|$)/gu;
const ENDS_SENTENCE = /[.!?。！？…:]["'”’)\]]*$/u;
const DIGIT = /\p{N}/gu;
const SEPARATOR = /[|•·»›/\\]/g;
const COMMA = /[,\uff0c\u3001]/g;
/** Splits class and id into words: non-letters, and camelCase humps. */
const NAME_SPLIT = /[^a-zA-Z]+|(?<=[a-z])(?=[A-Z])/;
const MIN_NAME_CHARS = 3;
const MAX_NAME_CHARS = 24;

const LIST_TAGS = new Set(["ul", "ol", "dl", "menu"]);
const ASIDE_TAGS = new Set(["aside", "nav"]);
const CHROME_TAGS = new Set(["header", "footer"]);
const MEDIA_TAGS = new Set(["img", "picture", "video", "iframe", "figure", "audio"]);

/** A root as its blocks make it, known before their features are. */
export interface RootShape {
  /** How many blocks it has. */
  blocks: number;
  /** Share of its text in blocks of prose. */
  proseShare: number;
}

/**
 * The blocks under `root`, in document order, with their features; none when `wanted` turns
 * down the root's shape (a root no model reads is not worth its blocks' features).
 *
 * @example
 * for (const block of collectBlocks(root, "page")) score(block.features, block.names);
 */
export function collectBlocks(
  root: DomElement,
  pageType: PageType,
  wanted?: (shape: RootShape) => boolean,
): Block[] {
  const stats = measureText(root);
  const rootChars = stats.get(root)?.chars ?? 0;
  if (rootChars === 0) return [];
  const found = findBlocks(root, stats);
  if (found === undefined || found.length === 0) return [];
  // Text and prose before each block, for where it stands relative to the page's prose.
  const proseTotal = found.reduce((sum, b) => sum + (isProse(b, stats) ? b.chars : 0), 0);
  if (wanted && !wanted({ blocks: found.length, proseShare: proseTotal / rootChars })) return [];

  const textCounts = new Map<string, number>();
  for (const b of found) textCounts.set(b.text, (textCounts.get(b.text) ?? 0) + 1);
  // Per parent: its blocks' count and mean log length; per parent and tag/class: how many.
  const parentBlocks = new Map<DomElement, number>();
  const parentMeans = new Map<DomElement, number>();
  const parentIds = new Map<DomElement, number>();
  const parentIndex: number[] = [];
  const signatures = new Map<string, number>();
  for (const b of found) {
    const parent = b.el.parentNode;
    if (!isElement(parent)) {
      parentIndex.push(-1);
      continue;
    }
    const id = parentIds.get(parent) ?? parentIds.size;
    parentIds.set(parent, id);
    parentIndex.push(id);
    parentBlocks.set(parent, (parentBlocks.get(parent) ?? 0) + 1);
    parentMeans.set(parent, (parentMeans.get(parent) ?? 0) + Math.log1p(b.chars));
    const key = `${id}|${signatureOf(b.el)}`;
    signatures.set(key, (signatures.get(key) ?? 0) + 1);
  }
  for (const [parent, sum] of parentMeans) parentMeans.set(parent, sum / parentBlocks.get(parent)!);
  const namesCache = new Map<DomElement, string[]>();
  const ancestries = new Map<DomNode | null, Ancestry>();
  const listShare = found.filter((b) => tagOf(b.el) === "li").length / found.length;

  const blocks: Block[] = [];
  let textBefore = 0;
  let proseBefore = 0;
  let nearestHeading = 0;
  let nearestHeadingLinks = 0;
  const sections = sectionsOf(found, stats, proseTotal);
  for (let i = 0; i < found.length; i++) {
    const b = found[i]!;
    const section = sections[i]!;
    const el = b.el;
    const s = stats.get(el)!;
    const parent = el.parentNode;
    // What lies outside the root counts for nothing: the model learned without it.
    const parentStats = isElement(parent) && el !== root ? stats.get(parent) : undefined;
    const grand = isElement(parent) ? parent.parentNode : null;
    const grandStats =
      isElement(grand) && parent !== root && el !== root ? stats.get(grand) : undefined;
    const siblingCount = isElement(parent) ? (parentBlocks.get(parent) ?? 1) : 1;
    const prev = found[i - 1];
    const next = found[i + 1];
    const tag = tagOf(el);
    const words = wordStats(b.text);
    const context = ancestry(el, root, ancestries);
    const prose = isProse(b, stats);
    const level = headingLevel(el);

    const alike = (signatures.get(`${parentIndex[i]}|${signatureOf(el)}`) ?? 1) - 1;
    const parentMeanLog = isElement(parent) ? (parentMeans.get(parent) ?? 0) : Math.log1p(b.chars);

    const features = [
      Math.log1p(b.chars),
      Math.log1p(words.count),
      share(s.linkChars, s.chars),
      Math.log1p(b.links),
      share(parentStats?.linkChars ?? 0, parentStats?.chars ?? 0),
      share(grandStats?.linkChars ?? 0, grandStats?.chars ?? 0),
      Math.log1p(parentStats?.chars ?? 0),
      Math.log1p(siblingCount),
      parentMeanLog,
      Math.log1p(alike),
      prev ? Math.log1p(prev.chars) : -1,
      prev ? share(stats.get(prev.el)!.linkChars, prev.chars) : -1,
      next ? Math.log1p(next.chars) : -1,
      next ? share(stats.get(next.el)!.linkChars, next.chars) : -1,
      textBefore / rootChars,
      proseTotal === 0 ? 0 : proseBefore / proseTotal,
      proseTotal === 0 ? 0 : (proseTotal - proseBefore - (prose ? b.chars : 0)) / proseTotal,
      i / found.length,
      Math.log1p(rootChars),
      Math.log1p(found.length),
      proseTotal / rootChars,
      share(stats.get(root)?.linkChars ?? 0, rootChars),
      listShare,
      Math.min(context.depth, 20),
      level,
      Math.log1p(nearestHeading),
      nearestHeadingLinks,
      Math.log1p(section.chars),
      share(section.linkChars, section.chars),
      share(section.prose, section.chars),
      Math.log1p(section.blocks),
      proseTotal === 0 ? 0 : section.proseAfter / proseTotal,
      count(b.text, SENTENCE_END),
      ENDS_SENTENCE.test(b.text) ? 1 : 0,
      share(count(b.text, COMMA), b.chars) * 100,
      share(count(b.text, DIGIT), b.chars),
      share(words.capitalized, words.count),
      share(words.short, words.count),
      words.count === 0 ? 0 : words.chars / words.count,
      count(b.text, SEPARATOR),
      share(b.emphasisChars, b.chars),
      (textCounts.get(b.text) ?? 1) > 1 ? 1 : 0,
      tag === "p" ? 1 : 0,
      tag === "li" ? 1 : 0,
      level > 0 ? 1 : 0,
      tag === "div" || tag === "section" || tag === "article" ? 1 : 0,
      tag === "figcaption" ? 1 : 0,
      tag === "blockquote" ? 1 : 0,
      tag === "dd" || tag === "dt" ? 1 : 0,
      KNOWN_TAGS.has(tag) || level > 0 ? 0 : 1,
      context.inList ? 1 : 0,
      context.inTable ? 1 : 0,
      context.inFigure ? 1 : 0,
      context.inAside ? 1 : 0,
      context.inChrome ? 1 : 0,
      context.inForm ? 1 : 0,
      context.inSection ? 1 : 0,
      b.mediaNear ? 1 : 0,
      pageType === "forum" ? 1 : 0,
      pageType === "product" ? 1 : 0,
      pageType === "listing" ? 1 : 0,
      pageType === "documentation" ? 1 : 0,
    ];
    blocks.push({ el, text: b.text, features, names: namesAround(el, root, namesCache), prose });

    textBefore += b.chars;
    if (prose) proseBefore += b.chars;
    if (level > 0) {
      nearestHeading = b.chars;
      nearestHeadingLinks = share(s.linkChars, s.chars);
    }
  }
  return blocks;
}

const KNOWN_TAGS = new Set([
  "p",
  "li",
  "div",
  "section",
  "article",
  "figcaption",
  "blockquote",
  "dd",
  "dt",
]);

/** The run of blocks from one heading to the next that a block belongs to. */
interface Section {
  chars: number;
  linkChars: number;
  prose: number;
  blocks: number;
  /** Prose characters after the section's end. */
  proseAfter: number;
}

/** Each block's section: a heading opens a new one. */
function sectionsOf(found: readonly Found[], stats: StatsMap, proseTotal: number): Section[] {
  const out: Section[] = [];
  let current: Section | undefined;
  let proseSoFar = 0;
  for (const b of found) {
    if (current === undefined || headingLevel(b.el) > 0) {
      current = { chars: 0, linkChars: 0, prose: 0, blocks: 0, proseAfter: 0 };
    }
    current.chars += b.chars;
    current.linkChars += stats.get(b.el)?.linkChars ?? 0;
    current.blocks++;
    if (isProse(b, stats)) {
      current.prose += b.chars;
      proseSoFar += b.chars;
    }
    current.proseAfter = proseTotal - proseSoFar;
    out.push(current);
  }
  return out;
}

/** A block as found, before its features. */
interface Found {
  el: DomElement;
  text: string;
  chars: number;
  links: number;
  emphasisChars: number;
  mediaNear: boolean;
}

/**
 * Leaf blocks: elements outside running text that hold text, none of it inside another such
 * element. A block with blocks inside (a `<li>` holding a list) is not one: its parts are.
 * Undefined past MAX_BLOCKS.
 */
function findBlocks(root: DomElement, stats: StatsMap): Found[] | undefined {
  const found: Found[] = [];
  let over = false;
  // Per open element: does a block below it hold text (then it is no leaf)?
  const blockBelow: boolean[] = [];
  const mediaParents = new Map<DomElement, boolean>();
  const runs: { text: string[]; links: number; emphasis: number; media: boolean }[] = [];
  let emphasisDepth = 0;
  walk(
    root,
    (node) => {
      if (over) return false;
      if (isText(node)) {
        if (runs.length === 0) return false;
        const run = runs[runs.length - 1]!;
        run.text.push(node.data);
        if (emphasisDepth > 0) run.emphasis += node.data.trim().length;
        return false;
      }
      if (!isElement(node)) return false;
      const tag = tagOf(node);
      if (SKIPPED_TAGS.has(tag)) return false;
      if (UNSCORED_TAGS.has(tag) && node !== root) {
        // No block is in it (a table's cells): its text only makes the block above no leaf.
        const holdsText = (stats.get(node)?.chars ?? 0) > 0;
        if (holdsText && blockBelow.length > 0) blockBelow[blockBelow.length - 1] = true;
        return false;
      }
      if (tag === "a" && runs.length > 0) runs[runs.length - 1]!.links++;
      if (EMPHASIS_TAGS.has(tag)) emphasisDepth++;
      if (MEDIA_TAGS.has(tag) && runs.length > 0) runs[runs.length - 1]!.media = true;
      if (!PHRASING_TAGS.has(tag)) {
        blockBelow.push(false);
        runs.push({ text: [], links: 0, emphasis: 0, media: false });
      }
      return true;
    },
    (el) => {
      const tag = tagOf(el);
      if (EMPHASIS_TAGS.has(tag)) emphasisDepth--;
      if (PHRASING_TAGS.has(tag)) return;
      const below = blockBelow.pop()!;
      const run = runs.pop()!;
      const chars = stats.get(el)?.chars ?? 0;
      const holdsText = chars > 0;
      if (holdsText && blockBelow.length > 0) blockBelow[blockBelow.length - 1] = true;
      // Only the root can be a table or code block here: the walk does not enter one below it.
      if (!holdsText || below || UNSCORED_TAGS.has(tag)) return;
      if (found.length >= MAX_BLOCKS) {
        over = true;
        return;
      }
      const text = collapseWhitespace(run.text.join("")).trim();
      if (text === "") return;
      found.push({
        el,
        text,
        chars,
        links: run.links,
        emphasisChars: run.emphasis,
        mediaNear: run.media || hasMediaChild(el.parentNode, mediaParents),
      });
    },
  );
  return over ? undefined : found;
}

const EMPHASIS_TAGS = new Set(["strong", "b", "em", "i"]);

/** Tag and class of a block, which its siblings alike share. */
function signatureOf(el: DomElement): string {
  return `${tagOf(el)}.${el.getAttribute("class") ?? ""}`;
}

/**
 * True when `parent` has an image or other media child (a caption beside its picture; a
 * block's own media count as well). Cached: siblings ask about the same parent.
 */
function hasMediaChild(parent: DomNode | null, cache: Map<DomElement, boolean>): boolean {
  if (!isElement(parent)) return false;
  let found = cache.get(parent);
  if (found === undefined) {
    found = false;
    for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (MEDIA_TAGS.has(tagOf(child))) found = true;
    }
    cache.set(parent, found);
  }
  return found;
}

/** Where a block sits: which kinds of container hold it below the root. */
interface Ancestry {
  depth: number;
  inList: boolean;
  inTable: boolean;
  inFigure: boolean;
  inAside: boolean;
  inChrome: boolean;
  inForm: boolean;
  inSection: boolean;
}

/** Where `el` sits below `root`, kept in `cache` for its siblings. */
function ancestry(
  el: DomElement,
  root: DomElement,
  cache: Map<DomNode | null, Ancestry>,
): Ancestry {
  // Siblings share their ancestors: on a deep page each block would otherwise climb them all.
  const cached = cache.get(el.parentNode);
  if (cached !== undefined) return cached;
  const a: Ancestry = {
    depth: 0,
    inList: false,
    inTable: false,
    inFigure: false,
    inAside: false,
    inChrome: false,
    inForm: false,
    inSection: false,
  };
  for (let node = el.parentNode; isElement(node) && node !== root; node = node.parentNode) {
    a.depth++;
    const tag = tagOf(node);
    if (LIST_TAGS.has(tag)) a.inList = true;
    else if (tag === "table") a.inTable = true;
    else if (tag === "figure") a.inFigure = true;
    else if (ASIDE_TAGS.has(tag)) a.inAside = true;
    else if (CHROME_TAGS.has(tag)) a.inChrome = true;
    else if (tag === "form") a.inForm = true;
    else if (tag === "section" || tag === "article") a.inSection = true;
  }
  cache.set(el.parentNode, a);
  return a;
}

/** Class and id words of `el` and its NAME_LEVELS nearest ancestors below `root`. */
function namesAround(
  el: DomElement,
  root: DomElement,
  cache: Map<DomElement, string[]>,
): Set<string> {
  const out = new Set<string>();
  let node: DomElement | null = el;
  for (let level = 0; level <= NAME_LEVELS && node !== null && node !== root; level++) {
    let words = cache.get(node);
    if (words === undefined) {
      words = nameWords(namesOf(node));
      cache.set(node, words);
    }
    for (const w of words) out.add(w);
    const parent: DomElement | null = isElement(node.parentNode) ? node.parentNode : null;
    node = parent;
  }
  return out;
}

/** Lower-case words of a class and id string (`relatedPosts__item` → related, posts, item). */
export function nameWords(names: string): string[] {
  if (names === "") return [];
  const out: string[] = [];
  for (const part of names.split(NAME_SPLIT)) {
    if (part.length < MIN_NAME_CHARS || part.length > MAX_NAME_CHARS) continue;
    out.push(part.toLowerCase());
  }
  return out;
}

function isProse(b: Found, stats: StatsMap): boolean {
  const s = stats.get(b.el);
  return b.chars >= PROSE_CHARS && share(s?.linkChars ?? 0, b.chars) < PROSE_LINK_SHARE;
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

/**
 * Matches of the global `pattern` in `text`, counted one at a time: an array of every match
 * would grow with the text and be copied by each collection while it grows.
 */
function count(text: string, pattern: RegExp): number {
  let n = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text) !== null) n++;
  return n;
}

/**
 * Words of `text` (WORD matches): how many, how many start with a capital, how many have at most
 * three characters, and their characters, read match by match without keeping the words.
 */
function wordStats(text: string): {
  count: number;
  capitalized: number;
  short: number;
  chars: number;
} {
  const out = { count: 0, capitalized: 0, short: 0, chars: 0 };
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const w = m[0];
    const first = w[0]!;
    out.count++;
    if (first !== first.toLowerCase()) out.capitalized++;
    if (w.length <= 3) out.short++;
    out.chars += w.length;
  }
  return out;
}
