/**
 * Trims the edges of the chosen root. Boilerplate that survives selection sits mostly at the
 * two ends of the content: breadcrumbs, category labels and "follow" prompts before the title;
 * "subscribe", "previous/next post", "sign in" and tag lists after the last paragraph. Measured
 * on the tuning pages, seven in ten boilerplate snippets left in the output were in its first
 * or last tenth.
 *
 * The root is read as a sequence of text blocks. From the end, short blocks that do not read as
 * prose go until the first one that does; a closing label ("About the Author", "Article
 * Sources") near the end goes with what follows it; the author's bio near the end goes (a
 * paragraph that opens with the byline's name: "Jane Doe is a writer…", or the last paragraph,
 * under a line that names its person alone); other posts' linked titles ending the text go
 * with their summaries; before the page's `<h1>`, short blocks go. Boxes of other stories set
 * into an article (a short heading over a list of links to the site's other pages, nothing
 * else) go wherever they stand. Tables, code and lists of a
 * section stay, and a trim never takes more than a bounded share of the text (other posts'
 * teasers, at most the text's last half).
 */

import { siteOf } from "../sites.js";
import { type DomElement, hasDescendant, isElement, tagOf, textOf, walk } from "./dom.js";
import type { PageType } from "./page-type.js";
import {
  isLinkText,
  measureText,
  type StatsMap,
  TEASER_TITLE_CHARS,
  TEASER_TITLES,
} from "./stats.js";

/** Elements whose text is one block; their descendants are not split further. */
const LEAF_BLOCK_TAGS = new Set([
  "p",
  "dt",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "figcaption",
  "caption",
  "address",
]);
/** Blocks that are content whatever their length: tables, code, media. */
const KEPT_TAGS = new Set(["table", "pre", "code", "figure", "img", "picture", "math"]);
/** Containers that hold blocks; a container with no block inside is a block itself. */
const CONTAINER_TAGS = new Set([
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "nav",
  "ul",
  "ol",
  "dl",
  "li",
  "dd",
  "blockquote",
  "form",
  "details",
  "summary",
  "center",
]);

/** A block longer than this reads as content, not furniture. */
const MAX_FURNITURE_CHARS = 100;
/** A short block with this share of links is a link line, unless it is a sentence… */
const LINK_LINE_SHARE = 0.5;
/** …and with this share it is one whatever its punctuation. */
const ALL_LINKS_SHARE = 0.8;
/** Sentence end: a short block ending so is prose ("Thanks for reading."). */
const SENTENCE_END = /[.!?。！？…"”')]\s*$/;
/** Content shorter than this is left whole: a short page has no room for furniture. */
const MIN_TRIMMED_CHARS = 500;
/** Ends of a call to action or a prompt. */
const CALL_END = /[!?]\s*$/;
/** Longest call to action. */
const MAX_CALL_CHARS = 60;
/** Most of the root's text a trim at either end may take. */
const MAX_TRIM_SHARE = 0.2;
/** The `<h1>` must come within this many blocks for what precedes it to be trimmed. */
const MAX_BLOCKS_BEFORE_TITLE = 12;

class Block {
  #text: string | undefined;

  constructor(
    readonly el: DomElement,
    readonly tag: string,
    readonly chars: number,
    readonly linkChars: number,
  ) {}

  /**
   * The block's text, read when first asked for: the trims look at a few blocks from each end,
   * and a page's tables and long lists need not be read out whole (the tree does not change
   * until they are done).
   */
  get text(): string {
    this.#text ??= textOf(this.el);
    return this.#text;
  }
}

/** What trimEdges knows of the page. */
export interface TrimEdgesOptions {
  /** The page's type: on a forum the last reply may be one short line. @default "page" */
  pageType?: PageType;
  /** The byline's author (metadata), whose bio at the end goes. */
  author?: string | undefined;
  /**
   * The URL the page's links resolve against (its address, or its `<base href>`): titles at
   * the end linking to other pages of that site are other posts'.
   */
  baseUrl?: string | undefined;
}

/**
 * Removes furniture blocks at the start (before the `<h1>`) and at the end of `root`, in place.
 *
 * @example
 * const root = selectMainContent(body, document);
 * trimEdges(root, { pageType: "page", author: metadata.author, baseUrl: "https://example.com/post" });
 */
export function trimEdges(
  root: DomElement,
  { pageType = "page", author, baseUrl }: TrimEdgesOptions = {},
): void {
  const stats = measureText(root);
  const total = stats.get(root)?.chars ?? 0;
  if (total < MIN_TRIMMED_CHARS) return;
  const blocks = textBlocks(root, stats);
  if (blocks.length < 3) return;
  const doomed = new Set<DomElement>();
  const page = pageUrlOf(baseUrl);
  // On a page of documentation, a product or a listing, links at the end are its own.
  const inCard = cardTest(root, blocks, stats, total, pageType === "page" ? page : undefined);
  // On a forum the last reply may be one short line ("Thanks, that fixed it!"). Documentation
  // ends in short lines of its own: see-also entries, next steps, the date of its last update.
  const isEnd = pageType === "forum" ? isLinkLine : isFurniture;
  if (pageType !== "documentation") {
    trimTail(blocks, total, doomed, (block) => isEnd(block) && !inCard(block));
  }
  if (pageType !== "forum") trimClosingSection(blocks, total, doomed);
  if (pageType !== "forum") trimAuthorBio(blocks, total, doomed, author ?? "");
  if (pageType !== "forum") trimTeaserTail(blocks, total, doomed, page);
  trimHead(blocks, total, doomed);
  if (pageType === "page") findStoryBoxes(root, stats, page, doomed);
  for (const el of doomed) el.remove();
}

/** Most characters of the label over a box of other stories ("Lesen Sie auch", "Related"). */
const STORY_BOX_LABEL_CHARS = 40;
/** Fewest stories in such a box. */
const MIN_BOX_STORIES = 3;

/**
 * Boxes of other stories set into an article, whatever their language: an element holding only a
 * short unlinked heading and a list whose items (three or more) are each a link to another page
 * of the site. A list under a heading with anything else beside it is a section of the article.
 */
function findStoryBoxes(
  root: DomElement,
  stats: StatsMap,
  page: PageUrl,
  doomed: Set<DomElement>,
): void {
  walk(root, (node) => {
    if (!isElement(node)) return false;
    const heading = node.firstElementChild;
    const list = heading?.nextElementSibling ?? null;
    if (
      heading === null ||
      list === null ||
      list.nextElementSibling !== null ||
      !TEASER_TITLE_TAGS.has(tagOf(heading)) ||
      (tagOf(list) !== "ul" && tagOf(list) !== "ol")
    ) {
      return true;
    }
    const label = stats.get(heading);
    if (!label || label.chars > STORY_BOX_LABEL_CHARS || label.linkChars > 0) return true;
    let stories = 0;
    for (let item = list.firstElementChild; item !== null; item = item.nextElementSibling) {
      const s = stats.get(item);
      if (!s || s.chars === 0) continue;
      if (!isLinkText(s) || !linksToSitePage(item, page, { anyHostOfSite: true })) return true;
      stories++;
    }
    if (stories < MIN_BOX_STORIES) return true;
    doomed.add(node);
    return false;
  });
}

/** Other posts' titles ending the text (TEASER_TITLES of them) come after this share of it… */
const TEASER_START_SHARE = 0.5;
/** …with at most this many blocks of more than a short line beside each (its summary)… */
const TEASER_SUMMARY_BLOCKS = 3;
/** …each no longer than this. */
const TEASER_SUMMARY_CHARS = 400;
/** A label over teasers ("Exclusive Content", "More from us") is at most this long. */
const TEASER_LABEL_CHARS = 40;
/** Blocks that are a page's own data, never a teaser's: tables, code, formulas. */
const DATA_TAGS = new Set(["table", "pre", "code", "math"]);
/** Heading tags a teaser's title may have. */
const TEASER_TITLE_TAGS = new Set(["h2", "h3", "h4", "h5", "h6"]);

/**
 * Other posts' teasers at the end go: three or more headings that are whole links to pages of
 * this site (other posts, and this one when a box lists it among them), each over at most
 * TEASER_SUMMARY_BLOCKS short summaries, all in the text's last half, with no linked heading
 * before them (a listing's or a round-up's cards start at its top), and the short label heading
 * over them. A title linking elsewhere (a resource), a link within the page (`#section`), a
 * table or code ends the run: those are the page's own.
 */
function trimTeaserTail(
  blocks: Block[],
  total: number,
  doomed: Set<DomElement>,
  page: PageUrl,
): void {
  let titles = 0;
  let start = -1;
  let after = 0;
  let summaries = 0;
  for (let i = blocks.length - 1; i > 0; i--) {
    const block = blocks[i]!;
    if (after + block.chars > total * (1 - TEASER_START_SHARE)) break;
    if (isLinkedTitle(block)) {
      if (!linksToSitePage(block.el, page, { orThisPage: true })) break;
      titles++;
      start = i;
      summaries = 0;
    } else {
      const summary = !DATA_TAGS.has(block.tag) && block.chars <= TEASER_SUMMARY_CHARS;
      // Short lines (a date, a byline, a picture's empty block) come with any teaser.
      const counted = block.chars > TEASER_LABEL_CHARS;
      if (!summary || (counted && ++summaries > TEASER_SUMMARY_BLOCKS)) break;
    }
    after += block.chars;
  }
  if (titles < TEASER_TITLES || start <= 0) return;
  for (let j = 0; j < start; j++) if (isLinkedTitle(blocks[j]!)) return;
  for (let j = start; j < blocks.length; j++) doomed.add(blocks[j]!.el);
  const label = blocks[start - 1]!;
  if (
    TEASER_TITLE_TAGS.has(label.tag) &&
    label.chars <= TEASER_LABEL_CHARS &&
    label.linkChars === 0
  ) {
    doomed.add(label.el);
  }
}

/** A heading linked whole, a post's title's length. */
function isLinkedTitle(block: Block): boolean {
  return TEASER_TITLE_TAGS.has(block.tag) && block.chars >= TEASER_TITLE_CHARS && isLinkText(block);
}

/** The page's address, as teaser links are compared with it. */
interface PageUrl {
  /** The page's URL without its fragment, or undefined when it is not known. */
  href: string | undefined;
  /** Its host without "www.". */
  host: string | undefined;
}

/** Reads `baseUrl` for trimTeaserTail. */
function pageUrlOf(baseUrl: string | undefined): PageUrl {
  const url = parseUrl(baseUrl);
  if (url === undefined || url.hostname === "") return { href: undefined, host: undefined };
  url.hash = "";
  return { href: url.href, host: url.hostname.replace(WWW, "") };
}

/**
 * True when the first link in `el` (or the link `el` fills, for a title set inside its `<a>`)
 * goes to another page of the page's own site: a relative link or one to the same host (with
 * `anyHostOfSite`, to any host of the same registered domain, as a news site's redirector), not
 * a fragment of this page nor `javascript:`. With `orThisPage`, a link to the page itself counts
 * too: a box of other stories may list the one being read among them.
 */
function linksToSitePage(
  el: DomElement,
  page: PageUrl,
  { anyHostOfSite = false, orThisPage = false } = {},
): boolean {
  let href: string | undefined;
  hasDescendant(el, (node) => {
    if (tagOf(node) !== "a") return false;
    href = node.getAttribute("href")?.trim() ?? "";
    return true;
  });
  // A title inside a link that holds nothing else (`<a href="/story"><h3>…</h3></a>`); a link
  // around a whole card, its title and price, is a card's.
  for (let a = el.parentNode; href === undefined && isElement(a); a = a.parentNode) {
    if (tagOf(a) !== "a") continue;
    if (textOf(a) !== textOf(el)) return false;
    href = a.getAttribute("href")?.trim() ?? "";
  }
  if (href === undefined || href === "" || href.startsWith("#")) return false;
  if (page.href === undefined) return !ABSOLUTE_URL.test(href);
  const url = parseUrl(href, page.href);
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) return false;
  url.hash = "";
  const host = url.hostname.replace(WWW, "");
  const sameSite = anyHostOfSite
    ? page.host !== undefined && siteOf(host) === siteOf(page.host)
    : host === page.host;
  return sameSite && (url.href !== page.href || orThisPage);
}

/** "www." at the start of a host. */
const WWW = /^www\./;

/** A URL with a scheme, or protocol-relative. */
const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:|^\/\//i;

/** `url` parsed (against `base`), or undefined when it does not parse. */
function parseUrl(url: string | undefined, base?: string): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

/** From the last block back, furniture goes until a block that reads as content. */
function trimTail(
  blocks: Block[],
  total: number,
  doomed: Set<DomElement>,
  isEnd: (block: Block) => boolean,
): void {
  let taken = 0;
  for (let i = blocks.length - 1; i > 0; i--) {
    const block = blocks[i]!;
    if (!isEnd(block)) return;
    taken += block.chars;
    if (taken > total * MAX_TRIM_SHARE) return;
    doomed.add(block.el);
  }
}

/**
 * Labels that open the furniture after an article, written as plain text rather than as a
 * heading ("About the Author" over a bio, "Related posts" over cards).
 */
const CLOSING_LABEL =
  /^(?:about the (?:author|writer)|(?:related|recommended|similar|popular|recent|more) (?:posts|articles|stories|reads|reading)|you (?:may|might) also (?:like|enjoy)|more from\b.{0,40}|read (?:more|next)|tags?|categories|filed under|(?:view )?article sources|share (?:this|on)\b.{0,20}|leave a (?:comment|reply)|\d* ?comments?):?$/i;
/** A closing label must come in the last part of the text: this share from the end. */
const CLOSING_TAIL_SHARE = 0.3;

/** From a closing label near the end, the label and everything after it go. */
function trimClosingSection(blocks: Block[], total: number, doomed: Set<DomElement>): void {
  let after = 0;
  for (let i = blocks.length - 1; i > 0; i--) {
    const block = blocks[i]!;
    if (after + block.chars > total * CLOSING_TAIL_SHARE) return;
    if (block.chars <= MAX_BYLINE_CHARS && CLOSING_LABEL.test(block.text.trim())) {
      for (let j = i; j < blocks.length; j++) doomed.add(blocks[j]!.el);
      return;
    }
    after += block.chars;
  }
}

/** A person's name as bylines give it: two to four capitalized words, not "The …". */
const PERSON_NAME = /^(?!(?:The|A|An|Our|Your) )\p{Lu}[\p{L}'’.-]+(?: \p{Lu}[\p{L}'’.-]+){1,3}$/u;
/**
 * How a bio goes on after the name: "is a health reporter", "has over 20 years", "co-founded",
 * "writes about". Not "was" or "has" alone, which open reporting ("Jane Doe was clear…").
 */
const BIO_OPENING =
  "(?:is (?:a|an|the|our|currently)|has (?:been|over|more than|\\d)|holds|brings|writes|joined|lives|serves|co-?founded|founded|leads|covers|specializes)";
/** Longest paragraph read as a bio. */
const MAX_BIO_CHARS = 1500;
/** Share of the text that may follow the bio (social links, a sign-up line). */
const AFTER_BIO_SHARE = 0.3;
/** Short lines over a bio that go with it: the name again, a role, "About the author". */
const MAX_BIO_HEAD_BLOCKS = 3;
/** Longest such line. */
const MAX_BIO_HEAD_CHARS = 40;

/**
 * The author's bio at the end goes: the last block that opens with the byline's full name and
 * a bio's phrasing ("Jane Doe is a health reporter…"), with the few short lines right over it
 * (the name, a role). Without a byline, a bio headed by its person's name on a line of its own
 * is as plain ("Brian Becker¶Brian Becker is the co-founder of…"). A company named as author is
 * not a person, and a first name alone is too weak a sign.
 */
function trimAuthorBio(
  blocks: Block[],
  total: number,
  doomed: Set<DomElement>,
  author: string,
): void {
  const names = author
    .split(/,|&|\band\b/)
    .map((name) => name.trim())
    .filter((name) => PERSON_NAME.test(name));
  const bylined = names.length > 0 ? bioOf(names) : undefined;
  let after = 0;
  for (let i = blocks.length - 1; i > 0 && after <= total * AFTER_BIO_SHARE; i--) {
    const block = blocks[i]!;
    const text = block.text.trim();
    // Headed by a name alone, it must be the very end, and the only one: a list of people (or
    // of products named like people) heads each entry so.
    const headed =
      after === 0 && isHeadedBio(blocks[i - 1]!, text) && !hasHeadedBioBefore(blocks, i - 1);
    const bio = block.chars <= MAX_BIO_CHARS && (bylined?.test(text) || headed);
    if (!bio) {
      // What an earlier trim already took (a "Share" line) does not count as after the bio.
      if (!doomed.has(block.el)) after += block.chars;
      continue;
    }
    doomed.add(block.el);
    for (let j = i - 1; j > i - 1 - MAX_BIO_HEAD_BLOCKS && j > 0; j--) {
      const head = blocks[j]!;
      const line =
        !KEPT_TAGS.has(head.tag) && head.tag !== "li" && head.chars <= MAX_BIO_HEAD_CHARS;
      if (!line || SENTENCE_END.test(head.text)) break;
      doomed.add(head.el);
    }
    return;
  }
}

/** A bio's opening for any of `names`: the name, then "is a…", "has over…". */
function bioOf(names: string[]): RegExp {
  return new RegExp(`^(?:${names.map(escapeRegExp).join("|")}) ${BIO_OPENING}\\b`);
}

/** True when `text` is a bio opening with the person's name that the line `head` gives alone. */
function isHeadedBio(head: Block, text: string): boolean {
  const name = head.text.trim();
  return (
    head.chars <= MAX_BIO_HEAD_CHARS &&
    PERSON_NAME.test(name) &&
    text.startsWith(`${name} `) &&
    bioOf([name]).test(text)
  );
}

/** True when a name line over a bio comes in `blocks` before index `end`. */
function hasHeadedBioBefore(blocks: Block[], end: number): boolean {
  for (let j = 1; j < end; j++)
    if (isHeadedBio(blocks[j - 1]!, blocks[j]!.text.trim())) return true;
  return false;
}

/** `text` as a literal inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Before the page's single `<h1>`, near the start, short blocks go; right after it, the byline
 * and dates go (the title's metadata is in the result's fields).
 */
function trimHead(blocks: Block[], total: number, doomed: Set<DomElement>): void {
  const titles = blocks.filter((b) => b.tag === "h1");
  if (titles.length !== 1) return;
  const at = blocks.indexOf(titles[0]!);
  // Between the title and the text: a standfirst, tags, then the byline and dates.
  for (let i = at + 1; i < blocks.length && i <= at + MAX_BYLINE_BLOCKS; i++) {
    const block = blocks[i]!;
    if (block.chars > MAX_STANDFIRST_CHARS) break;
    if (isByline(block)) doomed.add(block.el);
  }
  if (at === 0 || at > MAX_BLOCKS_BEFORE_TITLE) return;
  // Images before the title (a product's photo) are content; their neighbours are not.
  const before = blocks.slice(0, at).filter((b) => !KEPT_TAGS.has(b.tag));
  const chars = before.reduce((sum, b) => sum + b.chars, 0);
  if (chars > total * MAX_TRIM_SHARE) return;
  // With a longer block among them (a summary over the title), only bylines and link lines go.
  const whole = before.every((b) => b.chars <= MAX_FURNITURE_CHARS);
  for (const block of before) {
    if (whole || isLinkLine(block) || isByline(block)) doomed.add(block.el);
  }
}

/** Levels above a block looked at for the card it belongs to. */
const CARD_LEVELS = 4;
/** Siblings alike that make an element one card of a listing. */
const MIN_CARDS = 3;
/** Elements that repeat as units even without a class. */
const UNIT_TAGS = new Set(["li", "article", "tr"]);

/**
 * A test for blocks inside a card: an element with MIN_CARDS or more siblings of its tag and
 * class that holds two blocks or more (a title and a line under it), or one block alone. The
 * last cards of a listing are short and made of links, but they are the listing; a footer's
 * link list, one link per item, is not cards, and neither, with `page` given, is a short list
 * whose items are each a link to another page of that site (other stories after an article).
 */
function cardTest(
  root: DomElement,
  blocks: Block[],
  stats: StatsMap,
  total: number,
  page: PageUrl | undefined,
): (block: Block) => boolean {
  const counts = new Map<DomElement, number>();
  for (const block of blocks) {
    let level = 0;
    for (let a = block.el.parentNode; isElement(a) && a !== root; a = a.parentNode) {
      counts.set(a, (counts.get(a) ?? 0) + 1);
      if (++level >= CARD_LEVELS) break;
    }
  }
  return (block) => {
    // A card with no block inside (`<article><a><img><h3>…</h3></a></article>`) is one block.
    const parent = block.el.parentNode;
    if (!LEAF_BLOCK_TAGS.has(block.tag) && isElement(parent) && isRepeated(block.el, parent)) {
      // Items that are each a link to another page of the site, in a list that is a small part
      // of the text, are other stories listed after it, not cards. (Links elsewhere are the
      // post's references or recommendations.)
      const linksOnly = block.linkChars >= block.chars * ALL_LINKS_SHARE;
      return (
        page === undefined ||
        !linksOnly ||
        (stats.get(parent)?.chars ?? 0) > total * MAX_TRIM_SHARE ||
        !linksToSitePage(block.el, page, { anyHostOfSite: true })
      );
    }
    let level = 0;
    for (let a = block.el.parentNode; isElement(a) && a !== root; a = a.parentNode) {
      const parent = a.parentNode;
      if (!isElement(parent) || ++level > CARD_LEVELS) return false;
      if ((counts.get(a) ?? 0) >= 2 && isRepeated(a, parent)) return true;
    }
    return false;
  };
}

/**
 * True when `el` is one of MIN_CARDS or more children of `parent` alike: the same tag and first
 * class (cards carry their own ids and categories in later classes: `post post-97497 …`).
 */
function isRepeated(el: DomElement, parent: DomElement): boolean {
  const tag = tagOf(el);
  const kind = firstClass(el);
  if (kind === "" && !UNIT_TAGS.has(tag)) return false;
  let alike = 0;
  for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
    if (tagOf(child) === tag && firstClass(child) === kind) alike++;
    if (alike >= MIN_CARDS) return true;
  }
  return false;
}

function firstClass(el: DomElement): string {
  return (el.getAttribute("class") ?? "").trim().split(/\s+/, 1)[0]!;
}

/** Bylines, dates and reading times under a title. */
const BYLINE =
  /^(?:(?:by|posted|published|updated|last updated|written by|author)\b|\d+\s*min(?:ute)?s?\s+read\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+\d{4}$|\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4}$|\d{4}-\d{2}-\d{2}$)/i;
/** Longest byline line. */
const MAX_BYLINE_CHARS = 80;
/** How many blocks under a title are looked at for the byline. */
const MAX_BYLINE_BLOCKS = 6;
/** A block longer than this under the title is the text: the byline is above it. */
const MAX_STANDFIRST_CHARS = 300;

/** A byline or date line; "Posted on the forum on 2025-07-09:" introduces what follows. */
function isByline(block: Block): boolean {
  const text = block.text.trim();
  return block.chars <= MAX_BYLINE_CHARS && BYLINE.test(text) && !text.endsWith(":");
}

/** Short and mostly links; a sentence that carries a link ("See the guide for more.") is not. */
function isLinkLine(block: Block): boolean {
  if (KEPT_TAGS.has(block.tag) || block.chars > MAX_FURNITURE_CHARS) return false;
  const share = block.linkChars / block.chars;
  return share >= ALL_LINKS_SHARE || (share >= LINK_LINE_SHARE && !SENTENCE_END.test(block.text));
}

/** Short, and either mostly links, a call to action or not a sentence. */
function isFurniture(block: Block): boolean {
  if (KEPT_TAGS.has(block.tag) || block.chars > MAX_FURNITURE_CHARS) return false;
  if (isLinkLine(block)) return true;
  // A short exclamation or question is a call to action ("Get the free eBook!").
  if (block.chars <= MAX_CALL_CHARS && CALL_END.test(block.text)) return true;
  return !SENTENCE_END.test(block.text);
}

/** The root's text blocks in document order (kept blocks included, as barriers). */
function textBlocks(root: DomElement, stats: StatsMap): Block[] {
  const blocks: Block[] = [];
  walk(root, (node) => {
    if (!isElement(node) || node === root) return node === root;
    const tag = tagOf(node);
    const s = stats.get(node);
    if (!s) return false;
    const isLeaf = LEAF_BLOCK_TAGS.has(tag) || KEPT_TAGS.has(tag) || !hasBlockInside(node, stats);
    if (!isLeaf) return true;
    if (s.chars === 0 && !KEPT_TAGS.has(tag)) return false;
    blocks.push(new Block(node, tag, s.chars, s.linkChars));
    return false;
  });
  return blocks;
}

/** True when a container holds a block element with text. */
function hasBlockInside(el: DomElement, stats: StatsMap): boolean {
  for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
    const tag = tagOf(child);
    if ((stats.get(child)?.chars ?? 0) === 0 && !KEPT_TAGS.has(tag)) continue;
    if (LEAF_BLOCK_TAGS.has(tag) || KEPT_TAGS.has(tag) || CONTAINER_TAGS.has(tag)) return true;
  }
  return false;
}
