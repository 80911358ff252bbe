/**
 * Chooses the element that holds a page's main content, after cleaning. Pages that say where it
 * is (`<main>`, a dominant `<article>`, `role=main`, `itemprop=articleBody`) are taken at their
 * word; others are scored the way Mozilla Readability does (scoring.ts): the best block, with
 * the siblings that look like content.
 *
 * Whatever is chosen must not lose the page: when it holds less than MIN_ROOT_SHARE of the
 * cleaned body's text (counted with and without the page's header, footer, navigation and
 * sidebars outside it) and the text outside it is not nearly all links, the whole body is
 * used. And it must not pass the site's chrome off as content: a root inside the page's header
 * or footer, or a page that is nine tenths footer, gives no content at all.
 * A later extractor will replace the scoring; the guard and the interface stay.
 */

import {
  attrMatches,
  contains,
  type DomDocument,
  type DomElement,
  type DomNode,
  hasDescendant,
  isElement,
  isMainLandmark,
  tagOf,
  walk,
} from "./dom.js";
import { wrapLooseText } from "./loose-text.js";
import { bestBlock, promoteToRepeatedParent } from "./scoring.js";
import { chromeText, measureText, type StatsMap, type TextStats } from "./stats.js";

/** A chosen root must hold at least this share of the body's text… */
const MIN_ROOT_SHARE = 0.25;
/**
 * …unless at least this share of the text outside it is link text (menus, link lists). Cards
 * of a listing are mostly links too (a linked title over a short excerpt or a price), but not
 * this much: a feed left outside a small `<main>` is the page.
 */
const OUTSIDE_LINK_SHARE = 0.9;
/** A root this short must hold MIN_SMALL_ROOT_SHARE of the body's text, links outside or not. */
const MIN_ROOT_CHARS = 300;
const MIN_SMALL_ROOT_SHARE = 0.1;
/** An `<article>` is dominant when it has this many times the text of the next largest. */
const DOMINANT_ARTICLE_RATIO = 3;

/**
 * Returns the main-content root under `body` (which must already be cleaned): an existing
 * element, a new `<div>` gathering the best block and its content siblings, or `body` itself.
 * Changes `body` in place: loose text beside blocks is first wrapped in paragraphs (see
 * loose-text.ts), and the gathering `<div>` takes its members out of the page.
 *
 * @example
 * removeInvisible(body);
 * removeBoilerplate(body, pageType);
 * const root = selectMainContent(body, document);
 */
export function selectMainContent(body: DomElement, document: DomDocument): DomElement {
  const wrappers = wrapLooseText(body, document);
  const stats = measureText(body);
  const members = chooseRoot(body, stats, wrappers);
  // A page whose only text is its site header or footer (a shop that builds everything else
  // with scripts) has no main content: handing back the footer would pass a menu off as it.
  // (Choosing the body changed nothing in it, so its stats still hold.)
  if (members[0] === body) {
    return footerShare(body, stats) >= FOOTER_ONLY_SHARE ? document.createElement("div") : body;
  }
  if (members.every((el) => inPageChrome(el, body, stats) || inNamedFooter(el, body))) {
    return document.createElement("div");
  }
  if (members.length === 1) return members[0]!;
  const wrapper = document.createElement("div");
  for (const el of members) wrapper.appendChild(el);
  return wrapper;
}

/** Share of a page's text in its footers from which the footer is all there is. */
const FOOTER_ONLY_SHARE = 0.9;

/**
 * True when `el` lies within the page's `<header>` or `<footer>` (or `role=banner`/`contentinfo`):
 * one outside sectioning content, as ARIA maps it to a landmark. An article's own header is not,
 * nor is a header holding most of the page and its `<main>` or `<article>`: left unclosed, it
 * swallowed the page. (A shop's header that is all the text a page has is still chrome.)
 */
function inPageChrome(el: DomElement, body: DomElement, stats: StatsMap): boolean {
  const most = (stats.get(body)?.chars ?? 0) * SWALLOWED_PAGE_SHARE;
  let chrome = false;
  for (let node: DomNode | null = el; isElement(node) && node !== body; node = node.parentNode) {
    if (chrome && SECTIONING_TAGS.has(tagOf(node))) return false;
    const role = node.getAttribute("role")?.trim().toLowerCase();
    const byRole = role === "banner" || role === "contentinfo";
    const landmark = byRole || tagOf(node) === "header" || tagOf(node) === "footer";
    if (!landmark || ((stats.get(node)?.chars ?? 0) >= most && holdsContent(node, stats))) {
      continue;
    }
    if (byRole) return true;
    chrome = true;
  }
  return chrome;
}

/** True when `el` holds a `<main>`, `role=main` or `<article>` with text. */
function holdsContent(el: DomElement, stats: StatsMap): boolean {
  return hasDescendant(
    el,
    (node) =>
      (isMainLandmark(node) || tagOf(node) === "article") && (stats.get(node)?.chars ?? 0) > 0,
  );
}

/** Share of the page's text from which a header or footer holding it is not chrome. */
const SWALLOWED_PAGE_SHARE = 0.7;

/** Sectioning content: a `<header>` or `<footer>` inside one belongs to it, not to the page. */
const SECTIONING_TAGS = new Set(["article", "aside", "main", "nav", "section"]);

/**
 * Share of `body`'s text inside footers: `<footer>`, `role=contentinfo`, and the footers pages
 * built of `<div>`s name so (see isNamedFooter).
 */
function footerShare(body: DomElement, stats: StatsMap): number {
  const total = stats.get(body)?.chars ?? 0;
  if (total === 0) return 0;
  let inFooters = 0;
  walk(body, (node) => {
    if (!isElement(node)) return false;
    const role = node.getAttribute("role")?.trim().toLowerCase();
    if (tagOf(node) !== "footer" && role !== "contentinfo" && !isNamedFooter(node)) return true;
    inFooters += stats.get(node)?.chars ?? 0;
    return false;
  });
  return inFooters / total;
}

/** True when `el` is or lies within an element named a footer, below `body`. */
function inNamedFooter(el: DomElement, body: DomElement): boolean {
  for (let node: DomNode | null = el; isElement(node) && node !== body; node = node.parentNode) {
    if (isNamedFooter(node)) return true;
  }
  return false;
}

/**
 * "footer" as a whole `-`/`_`-separated word of a class or id (`site-footer`, `part-footer`),
 * not denied (Weebly's content is `wsite-not-footer`).
 */
const FOOTER_NAME = /(?:^|\s|(?<!\b(?:not|non|no))[_-])footer(?=$|[\s_-])/i;

/**
 * True for an element whose class or id calls it a footer and that holds none of the page's own
 * parts (a title, a `<main>` or `<article>`, a header or navigation): a layout's wrapper can be
 * named for its sticky footer, and an article's footer ends the article, not the page.
 */
function isNamedFooter(el: DomElement): boolean {
  if (!attrMatches(el, "class", FOOTER_NAME) && !attrMatches(el, "id", FOOTER_NAME)) return false;
  return !hasDescendant(el, (node) => PAGE_PART_TAGS.has(tagOf(node)) || isMainLandmark(node));
}

/** Parts of a page a footer does not hold. */
const PAGE_PART_TAGS = new Set(["h1", "main", "article", "header", "nav"]);

/**
 * The main-content root, before the check that it is not the page's chrome: one element (`body`
 * when nothing smaller will do), or the best block and its content siblings, to be gathered.
 */
function chooseRoot(
  body: DomElement,
  stats: StatsMap,
  wrappers: ReadonlySet<DomElement>,
): readonly DomElement[] {
  const bodyStats = stats.get(body);
  if (!bodyStats || bodyStats.chars === 0) return [body];
  const accept = (candidate: TextStats, el?: DomElement): boolean =>
    isEnough(candidate, bodyStats) ||
    (el !== undefined && isEnough(candidate, withoutChrome(body, el, stats, bodyStats)));

  for (const candidate of declaredRoots(body, stats)) {
    const candidateStats = stats.get(candidate);
    if (candidateStats && accept(candidateStats, candidate)) return [candidate];
  }

  const members = bestBlock(body, stats, wrappers);
  if (members === undefined) return [body];
  const combined = members.reduce<TextStats>(
    (sum, el) => {
      const s = stats.get(el);
      return s
        ? { chars: sum.chars + s.chars, linkChars: sum.linkChars + s.linkChars, commas: 0 }
        : sum;
    },
    { chars: 0, linkChars: 0, commas: 0 },
  );
  return accept(combined) ? members : [body];
}

/**
 * The body's text without the page's chrome that lies outside `el`: its header, footer,
 * navigation and sidebars are not content a root could have left out. A news article's live
 * feed in the sidebar can outweigh the article itself.
 */
function withoutChrome(
  body: DomElement,
  el: DomElement,
  stats: StatsMap,
  bodyStats: TextStats,
): TextStats {
  const chrome = chromeText(body, stats, [el]);
  return {
    chars: bodyStats.chars - chrome.chars,
    linkChars: bodyStats.linkChars - chrome.linkChars,
    commas: 0,
  };
}

/** The "not too little" rule: enough of the body's text, or what is left out is all but links. */
function isEnough(candidate: TextStats, body: TextStats): boolean {
  if (candidate.chars === 0) return false;
  if (candidate.chars >= body.chars * MIN_ROOT_SHARE) return true;
  // A notice or a caption beside a grid of product cards is not the page.
  if (candidate.chars < MIN_ROOT_CHARS && candidate.chars < body.chars * MIN_SMALL_ROOT_SHARE) {
    return false;
  }
  const outside = body.chars - candidate.chars;
  const outsideLinks = body.linkChars - candidate.linkChars;
  return outsideLinks >= outside * OUTSIDE_LINK_SHARE;
}

/** Roots the page declares, in order of trust: `<main>`, dominant `<article>`, role, itemprop. */
function declaredRoots(body: DomElement, stats: StatsMap): DomElement[] {
  const mains: DomElement[] = [];
  const articles: DomElement[] = [];
  const roleMains: DomElement[] = [];
  const articleBodies: DomElement[] = [];
  let articleDepth = 0;
  walk(
    body,
    (node) => {
      if (!isElement(node)) return false;
      const tag = tagOf(node);
      if (tag === "main") mains.push(node);
      if (tag === "article") {
        if (articleDepth === 0) articles.push(node);
        articleDepth++;
      }
      if (node.getAttribute("role")?.trim().toLowerCase() === "main") roleMains.push(node);
      if (node.getAttribute("itemprop")?.trim().toLowerCase() === "articlebody") {
        articleBodies.push(node);
      }
      return true;
    },
    (el) => {
      if (tagOf(el) === "article") articleDepth--;
    },
  );
  const chars = (el: DomElement): number => stats.get(el)?.chars ?? 0;
  const largest = (list: DomElement[]): DomElement[] =>
    list.length === 0 ? [] : [list.reduce((a, b) => (chars(b) > chars(a) ? b : a))];

  const roots = [...largest(mains)];
  const byText = [...articles].sort((a, b) => chars(b) - chars(a));
  const [largestArticle, second] = byText;
  if (
    largestArticle !== undefined &&
    (!second || chars(largestArticle) >= chars(second) * DOMINANT_ARTICLE_RATIO)
  ) {
    // The largest of a thread's posts (articles alike, side by side) is not the page: the
    // thread is.
    const article = promoteToRepeatedParent(largestArticle, stats, body, 1);
    // An article that is most of <main> and holds the title is the content without main's
    // extras (related posts, newsletter boxes); otherwise <main> comes first.
    const main = roots[0];
    const narrower =
      main !== undefined &&
      contains(main, article) &&
      chars(article) >= chars(main) * ARTICLE_IN_MAIN_SHARE &&
      holdsTitleOf(article, main);
    if (narrower) roots.unshift(article);
    else roots.push(article);
  }
  roots.push(...largest(roleMains), ...largest(articleBodies));
  return roots;
}

/** Share of <main>'s text an article must hold to be taken instead of it. */
const ARTICLE_IN_MAIN_SHARE = 0.5;

/** True when `scope` has no `<h1>` outside `el`. */
function holdsTitleOf(el: DomElement, scope: DomElement): boolean {
  let outside = false;
  walk(scope, (node) => {
    if (outside || !isElement(node) || node === el) return false;
    if (tagOf(node) === "h1") outside = true;
    return !outside;
  });
  return !outside;
}
