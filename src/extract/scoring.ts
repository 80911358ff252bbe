/**
 * Readability-style scoring, for pages that do not say where their content is: paragraphs give
 * points to their ancestors (paragraph length, commas, link density, class/id hints), and the
 * best block is kept with the siblings that look like content (only those before it when the
 * block already holds most of the page; never other posts' titles over their summaries), with
 * the headings over the siblings that joined. Blocks alike (a thread's posts, a listing's
 * cards) give way to the parent that holds them all.
 */

import {
  childElements,
  type DomElement,
  type DomNode,
  hasDescendant,
  headingLevel,
  isChromeLandmark,
  isElement,
  tagOf,
  textOf,
  walk,
} from "./dom.js";
import {
  isLinkText,
  linkDensity,
  type StatsMap,
  TEASER_TITLE_CHARS,
  TEASER_TITLES,
} from "./stats.js";

/** Paragraphs shorter than this don't score (Readability's 25). */
const MIN_PARAGRAPH_CHARS = 25;
/** How many ancestors a paragraph's score reaches (Readability's 5). */
const SCORE_ANCESTOR_LEVELS = 5;
/** Alternative candidates this close to the best one suggest their common ancestor instead. */
const ALTERNATIVE_SCORE_RATIO = 0.75;
/** How many such alternatives make the common ancestor the root (Readability's 3). */
const MIN_ALTERNATIVES = 3;
/** Most alternatives examined, bounding the ancestor walk. */
const MAX_ALTERNATIVES = 50;
/** Siblings alike (same tag and class, with text) that make their parent the root: posts, cards. */
const MIN_REPEATED_SIBLINGS = 3;
/** How many levels above the best block repeated siblings are looked for. */
const REPEAT_LEVELS = 4;
/** Tags that repeat as units of content even without a class. */
const UNIT_TAGS = new Set(["article", "section", "li", "tr"]);

/** Elements whose own text is a paragraph of content. */
const PARAGRAPH_TAGS = new Set(["p", "pre", "td", "blockquote", "dd"]);
/** Block elements: a `<div>` without any of these as children reads as a paragraph. */
const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
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
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
]);
/** Starting score of a candidate by tag (Readability's initializeNode). */
const TAG_SCORES: ReadonlyMap<string, number> = new Map([
  ["div", 5],
  ["pre", 3],
  ["td", 3],
  ["blockquote", 3],
  ["address", -3],
  ["ol", -3],
  ["ul", -3],
  ["dl", -3],
  ["dd", -3],
  ["dt", -3],
  ["li", -3],
  ["form", -3],
  ["h1", -5],
  ["h2", -5],
  ["h3", -5],
  ["h4", -5],
  ["h5", -5],
  ["h6", -5],
  ["th", -5],
]);
/** Class/id words of content containers (+25). */
const POSITIVE_NAMES =
  /article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|markdown/i;
/** Class/id words of boilerplate containers (-25). */
const NEGATIVE_NAMES =
  /-ad-|hidden|banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;
/** Weight of a class/id hint. */
const NAME_WEIGHT = 25;
/** Sentence end, marking a short sibling as prose. */
const SENTENCE_END = /\.(?: |$)/;

/**
 * The best-scoring block under `body` and the siblings that join it, in document order;
 * `undefined` when no paragraph scores. `wrappers` are the paragraphs made of loose text, which
 * join but do not score.
 *
 * @example
 * const members = bestBlock(body, measureText(body), new Set());
 */
export function bestBlock(
  body: DomElement,
  stats: StatsMap,
  wrappers: ReadonlySet<DomElement>,
): DomElement[] | undefined {
  const scored = scoreCandidates(body, stats, wrappers);
  if (scored === undefined) return undefined;
  return withContentSiblings(scored.top, scored.scores, stats, scored.leadOnly);
}

/** The best-scoring block, every candidate's score, and which of its siblings may join it. */
interface Scored {
  top: DomElement;
  scores: Map<DomElement, number>;
  /** Only the siblings before `top` may join it (see expandOverProse). */
  leadOnly: boolean;
}

/**
 * Readability-style scoring: paragraphs give points to their ancestors. The paragraphs made of
 * loose text (`wrappers`) give none: a page's text between its blocks is kept beside the best
 * block, not used to choose it (a listing's caption would outscore its cards).
 */
function scoreCandidates(
  body: DomElement,
  stats: StatsMap,
  wrappers: ReadonlySet<DomElement>,
): Scored | undefined {
  const scores = new Map<DomElement, number>();
  const paragraphs: DomElement[] = [];
  walk(body, (node) => {
    if (!isElement(node)) return false;
    if (wrappers.has(node)) return true;
    const tag = tagOf(node);
    if (PARAGRAPH_TAGS.has(tag) || (tag === "div" && !hasBlockChild(node))) paragraphs.push(node);
    return true;
  });

  for (const paragraph of paragraphs) {
    const s = stats.get(paragraph);
    if (!s || s.chars < MIN_PARAGRAPH_CHARS) continue;
    const points = 1 + s.commas + Math.min(Math.floor(s.chars / 100), 3);
    let level = 0;
    for (
      let ancestor = paragraph.parentNode;
      isElement(ancestor) && ancestor !== body && level < SCORE_ANCESTOR_LEVELS;
      ancestor = ancestor.parentNode, level++
    ) {
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      const current = scores.get(ancestor) ?? initialScore(ancestor);
      scores.set(ancestor, current + points / divider);
    }
  }

  let top: DomElement | undefined;
  let topScore = Number.NEGATIVE_INFINITY;
  for (const [el, score] of scores) {
    const final = score * (1 - linkDensity(stats.get(el)));
    scores.set(el, final);
    if (final > topScore) {
      top = el;
      topScore = final;
    }
  }
  if (top === undefined) return undefined;
  const common = promoteToCommonAncestor(top, topScore, scores, body);
  const top2 = promoteToRepeatedParent(common, stats, body);
  return { ...expandOverProse(top2, stats, body), scores };
}

/** Text added by moving up one level must have at most this link share to count as prose. */
const PROSE_EXPANSION_LINK_SHARE = 0.25;
/**
 * …and once the block holds this share of the body's text, only through wrappers that add less
 * than MIN_PARAGRAPH_CHARS, and then only the siblings before it join (see expandOverProse).
 */
const EXPANDED_ENOUGH_SHARE = 0.5;
/** Moving up stops before an ancestor holding this share of the body's text (the page). */
const MAX_EXPANDED_SHARE = 0.85;

/**
 * A manual's sections (SYNOPSIS, DESCRIPTION, OPTIONS) are siblings of whichever scored best:
 * move up while what the parent adds is prose, not links, and the parent is not the whole page.
 * A table that scored best (its cells are many short paragraphs) is never the whole story: the
 * prose around it is taken however much of the page the table holds.
 *
 * A block that already holds enough of the page still moves up through wrappers that add less
 * text than a paragraph (none, or a "Read more" link over a folded story), since they change
 * next to nothing in it. At the level where siblings appear, only those before
 * it may join: an article's lead (its intro, its first headings) sits before a wrapped body,
 * as does a body a stray unclosed tag swallowed the rest of the page into; what follows a
 * block that big is the page's after-matter (the author's bio, an ad, related posts).
 */
function expandOverProse(
  top: DomElement,
  stats: StatsMap,
  body: DomElement,
): { top: DomElement; leadOnly: boolean } {
  const bodyChars = stats.get(body)?.chars ?? 0;
  let node = top;
  let leadOnly = false;
  const topIsTable = isTableBlock(top);
  for (
    let parent = node.parentNode;
    isElement(parent) && parent !== body;
    parent = parent.parentNode
  ) {
    const p = stats.get(parent);
    const n = stats.get(node);
    if (!p || !n || (!topIsTable && p.chars > bodyChars * MAX_EXPANDED_SHARE)) break;
    const added = p.chars - n.chars;
    const addedLinks = p.linkChars - n.linkChars;
    if (!topIsTable && n.chars >= bodyChars * EXPANDED_ENOUGH_SHARE) {
      // Never into the page's header or footer, whose siblings would pass for a lead.
      if (added >= MIN_PARAGRAPH_CHARS || isChromeLandmark(parent)) break;
      leadOnly = true;
      node = parent;
      continue;
    }
    if (added > 0 && addedLinks > added * PROSE_EXPANSION_LINK_SHARE) break;
    node = parent;
  }
  return { top: node, leadOnly };
}

/**
 * True when `el` is a table, or holds nothing but one (a responsive wrapper). A best block
 * inside a table (its `<tbody>`, a row) is left to the usual rule: a forum that lays its posts
 * out as rows has its thread there, and the page around it is chrome.
 */
function isTableBlock(el: DomElement): boolean {
  let node: DomElement = el;
  while (tagOf(node) !== "table") {
    const only = node.firstElementChild;
    if (only === null || only.nextElementSibling !== null) return false;
    node = only;
  }
  return true;
}

/** Tag and class/id score of a new candidate. */
function initialScore(el: DomElement): number {
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
  let score = TAG_SCORES.get(tagOf(el)) ?? 0;
  if (POSITIVE_NAMES.test(names)) score += NAME_WEIGHT;
  if (NEGATIVE_NAMES.test(names)) score -= NAME_WEIGHT;
  return score;
}

/** True when `el` has a block-level element child. */
function hasBlockChild(el: DomElement): boolean {
  for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
    if (BLOCK_TAGS.has(tagOf(child))) return true;
  }
  return false;
}

/**
 * When several candidates score nearly as well as the best (cards of a listing, posts of a
 * thread), the content is all of them: move up to the nearest ancestor holding enough of them.
 */
function promoteToCommonAncestor(
  top: DomElement,
  topScore: number,
  scores: Map<DomElement, number>,
  body: DomElement,
): DomElement {
  if (topScore <= 0) return top;
  const alternatives: DomElement[] = [];
  for (const [el, score] of scores) {
    if (el !== top && score >= topScore * ALTERNATIVE_SCORE_RATIO) alternatives.push(el);
    if (alternatives.length >= MAX_ALTERNATIVES) break;
  }
  if (alternatives.length < MIN_ALTERNATIVES) return top;
  const counts = new Map<DomNode, number>();
  for (const alternative of alternatives) {
    for (let a = alternative.parentNode; a !== null && a !== body; a = a.parentNode) {
      counts.set(a, (counts.get(a) ?? 0) + 1);
    }
  }
  for (let a = top.parentNode; isElement(a) && a !== body; a = a.parentNode) {
    if ((counts.get(a) ?? 0) >= MIN_ALTERNATIVES) return a;
  }
  return top;
}

/**
 * The best block is often one of several alike: a post of a thread, a card of a listing, a
 * chapter. When the block, or an ancestor a few levels up, has MIN_REPEATED_SIBLINGS or more
 * siblings of the same tag and class that hold text, their parent is the content. `levels`
 * bounds how far up the ancestors are looked at.
 */
export function promoteToRepeatedParent(
  top: DomElement,
  stats: StatsMap,
  body: DomElement,
  levels = REPEAT_LEVELS,
): DomElement {
  let node: DomElement = top;
  for (let level = 0; level < levels; level++) {
    const parent = node.parentNode;
    if (!isElement(parent) || parent === body) return top;
    const signature = unitSignature(node);
    if (signature !== undefined) {
      let alike = 0;
      for (const sibling of childElements(parent)) {
        const chars = stats.get(sibling)?.chars ?? 0;
        if (chars >= MIN_PARAGRAPH_CHARS && unitSignature(sibling) === signature) alike++;
      }
      if (alike >= MIN_REPEATED_SIBLINGS) return parent;
    }
    node = parent;
  }
  return top;
}

/** Class names that vary between units alike: zebra stripes and position markers. */
const VARYING_CLASS = /^(?:odd|even|alt|alternate|first|last|active|selected|is-[\w-]+)$/i;
/**
 * Small numbers in class names (`row1`/`row2`, `bg1`/`bg2`); an id-like number (`post-101`)
 * names one post, and posts of different ids are not alike.
 */
const CLASS_NUMBER = /(?<!\d)\d{1,2}(?!\d)/g;

/** Tag and class of an element that can repeat as a unit; `undefined` for anonymous blocks. */
function unitSignature(el: DomElement): string | undefined {
  const tag = tagOf(el);
  const names = (el.getAttribute("class") ?? "")
    .trim()
    .split(/\s+/)
    .filter((name) => !VARYING_CLASS.test(name))
    .map((name) => name.replace(CLASS_NUMBER, "#"))
    .sort()
    .join(" ");
  if (names === "" && !UNIT_TAGS.has(tag)) return undefined;
  return `${tag}.${names}`;
}

/**
 * The top block plus siblings that score well or read as prose (Readability's step 3); with
 * `leadOnly`, only the siblings before it.
 */
function withContentSiblings(
  top: DomElement,
  scores: Map<DomElement, number>,
  stats: StatsMap,
  leadOnly: boolean,
): DomElement[] {
  const parent = top.parentNode;
  if (!isElement(parent)) return [top];
  const topScore = scores.get(top) ?? 0;
  const threshold = Math.max(10, topScore * 0.2);
  const topClass = top.getAttribute("class") ?? "";
  const members: DomElement[] = [];
  const siblings = childElements(parent);
  for (const sibling of siblings) {
    if (sibling === top) {
      members.push(sibling);
      if (leadOnly) break;
      continue;
    }
    // Other posts' titles over their summaries: they score, and read as prose, like content.
    if (isTeaserBlock(sibling, stats)) continue;
    const bonus =
      topClass !== "" && sibling.getAttribute("class") === topClass ? topScore * 0.2 : 0;
    const score = scores.get(sibling);
    if (score !== undefined && score + bonus >= threshold) {
      members.push(sibling);
      continue;
    }
    const s = stats.get(sibling);
    if (!s || s.chars === 0) continue;
    const density = linkDensity(s);
    if (s.chars > 80 && density < 0.25) members.push(sibling);
    else if (s.chars < 80 && density === 0 && SENTENCE_END.test(textOf(sibling))) {
      members.push(sibling);
    }
  }
  return withHeadings(siblings, members, stats);
}

/**
 * Adds the headings over members: on a flat page (sections as siblings), a section's title
 * scores nothing and reads as no sentence, but heads the paragraphs that joined.
 */
function withHeadings(
  siblings: DomElement[],
  members: DomElement[],
  stats: StatsMap,
): DomElement[] {
  const joined = new Set(members);
  let next: DomElement | undefined; // the nearest later sibling with text
  for (let i = siblings.length - 1; i >= 0; i--) {
    const el = siblings[i]!;
    const heads = !joined.has(el) && headingLevel(el) > 0 && next !== undefined && joined.has(next);
    // A linked heading is another post's title over its summary, not a section's.
    if (heads && !isLinkText(stats.get(el))) joined.add(el);
    if ((stats.get(el)?.chars ?? 0) > 0) next = el;
  }
  return siblings.filter((el) => joined.has(el));
}

/**
 * True when `el` holds TEASER_TITLES or more headings that are links to posts: other posts'
 * titles over their summaries, which read as prose but are not this page's.
 */
function isTeaserBlock(el: DomElement, stats: StatsMap): boolean {
  let titles = 0;
  return hasDescendant(el, (node) => {
    if (headingLevel(node) === 0) return false;
    const s = stats.get(node);
    return (s?.chars ?? 0) >= TEASER_TITLE_CHARS && isLinkText(s) && ++titles >= TEASER_TITLES;
  });
}
