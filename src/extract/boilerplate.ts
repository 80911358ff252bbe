/**
 * Removes what a reader never wants, for main-content extraction: page chrome (navigation,
 * headers, footers, sidebars), cookie banners, ads, share widgets and blog comment sections,
 * recognized by tag, ARIA role and class/id patterns in the manner of Mozilla Readability's
 * REGEXPS. A component's header (a card's or section's title and lead) is not the page's, and an
 * `<aside>` of prose amid the content's paragraphs is a side note, not a sidebar.
 *
 * Pattern matches are guesses, so they are guarded: an element holding more than
 * MAX_REMOVED_SHARE of the page's text is kept (a forum whose posts sit in `class="comments"`,
 * a restaurant page whose content is `class="menu"`), and so are its descendants of the same
 * kind. A `<header>`, `<footer>` or `<nav>` is surer evidence and may hold more
 * (MAX_CHROME_LANDMARK_SHARE).
 */

import {
  attr,
  attrMatches,
  type DomElement,
  type DomNode,
  hasDescendant,
  hasDescendantNear,
  headingLevel,
  isElement,
  tagOf,
  walk,
} from "./dom.js";
import { namesOf, telltaleNames, withoutComponentHeaders } from "./names.js";
import type { PageType } from "./page-type.js";
import { linkDensity, MAX_REMOVED_SHARE, measureText, type StatsMap } from "./stats.js";

/** Page chrome by tag, removed for main content. */
const CHROME_TAGS = new Set(["nav", "aside", "footer", "header", "form", "dialog"]);

/**
 * Inside these, `<header>` belongs to the content (an article's title), as ARIA maps it to a
 * landmark only outside sectioning content.
 */
const CONTENT_ROOT_TAGS = new Set(["article", "main", "section", "blockquote"]);

/** Code, which is never boilerplate, nor anything in it, whatever its class names say. */
const HIGHLIGHTED_TAGS = new Set(["pre", "code"]);

/** ARIA landmark and widget roles of page chrome. */
const CHROME_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menu",
  "menubar",
  "toolbar",
  "dialog",
  "alertdialog",
  "tooltip",
]);
/** A breadcrumb trail marked up as schema.org microdata, whatever its class says. */
const BREADCRUMB_TYPE = /schema\.org\/BreadcrumbList\s*$/i;

/** Cookie and consent banners (OneTrust, Didomi, Quantcast, …): substrings of class/id. */
const CONSENT = /cookie|consent|gdpr|onetrust|didomi|qc-cmp|cmp-banner|privacy-banner/i;
/**
 * Names only consent managers use: their dialogs are long legal prose, read as content were the
 * name not this certain (OneTrust's preference centre, Cookiebot, Usercentrics, TrustArc).
 */
const CONSENT_MANAGER =
  /onetrust|didomi|qc-cmp|cookiebot|usercentrics|truste-|trustarc|cookie-?(?:banner|consent|notice|law|bar|modal)|consent-?(?:banner|manager|modal|dialog)|gdpr-?(?:banner|consent)|cmp-(?:banner|container|dialog)/i;

/**
 * Ad slots, as whole `-`/`_`-separated words so "header", "shadow" and "add" never match; a
 * slot number or size may follow (`ad2`, `ad300x250`), but not the rest of a generated name
 * (Elementor's `elementor-element-ad2c87f`, a CSS module's `__Ad7Wx`). `adv` is an ad in
 * Italian names (`adv-box`), but Kadence's advanced heading (`kt-adv-heading`) holds headings.
 */
const ADS =
  /(?:^|[\s_-])(?:ads?|adv(?!-heading)|advert\w*|adsense|adsbygoogle|ad-?slot|ad-?unit|ad-?container|ad-?wrapper|dfp|sponsor(?:ed)?|taboola|outbrain|promoted)(?:\d{1,3}(?:x\d{2,3})?)?(?=$|[\s_-])/i;

/** UUIDs in names (`block-8b12d038-81ff-4352-ad15-30e5cd82b0a9`): their `ad15` is no ad. */
const UUID = /[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}/gi;

/**
 * BEM modifiers (`block--modifier`): an ad word there says what a block carries or how a CMS
 * flags it (`container--section-more-ads` around a news feed, Drupal's `node--promoted` on the
 * article itself), not that the block is an ad slot.
 */
const BEM_MODIFIER = /--[\w-]*/g;

/** Share buttons and social widgets. */
const SHARE =
  /(?:^|[\s_-])(?:share|sharing|sharedaddy|shareaholic|addthis|social\w*|sociable|follow-us)(?=$|[\s_-])/i;

/** Blog comment sections (kept when they are most of the page, as on forums). */
const COMMENTS =
  /(?:^|[\s_-])(?:comments?|commentlist|comment-?list|comments-area|disqus\w*|respond|replies)(?=$|[\s_-])/i;

/**
 * Menus, sidebars, breadcrumbs, pagination, related links, newsletter boxes, popups, tables of
 * contents, screen-reader-only text and wiki "[edit]" links.
 */
const CHROME =
  /(?:^|[\s_-])(?:sidebar|side-bar|breadcrumbs?|pagination|pager|menu|navbar|nav|navigation|masthead|site-header|site-footer|footer|header|related|recommended|newsletter|subscribe|signup|popup|modal|overlay|toc|table-of-contents|skip-link|skiplink|screen-reader-text|screen-reader-only|screenreader|sr-only|visually-hidden|widget|editsection|author-?bio|about-?(?:the-?)?author|author-?box|author-?card|author-?info)(?=$|[\s_-])/i;

/** Class/id words that make even a block of prose chrome: a bio, a signature, a post's footer. */
const CHROME_EVEN_AS_PROSE_WORDS = "footer|signature|bio|flair|usertitle|userextras";
/** …as a pattern of whole `-`/`_`-separated words. */
const CHROME_EVEN_AS_PROSE = wholeWords(CHROME_EVEN_AS_PROSE_WORDS);
/**
 * Chrome names that stay chrome beside a content word: those above (an `entry-footer`, a
 * `post-signature`) and disclaimers, which can be prose a page means (a calculator's terms).
 */
const UNMISTAKABLE_CHROME = wholeWords(`${CHROME_EVEN_AS_PROSE_WORDS}|disclaimer|disclosure`);

/** A case-insensitive pattern matching any of `words` as a whole `-`/`_`-separated word. */
function wholeWords(words: string): RegExp {
  return new RegExp(`(?:^|[\\s_-])(?:${words})(?=$|[\\s_-])`, "i");
}

/** "overlay" as a whole word of a class name: on a link, a card's click target (see below). */
const LINK_OVERLAY = /(?<=^|[\s_-])overlay(?=$|[\s_-])/gi;

/** Class/id words that mark content even when CHROME matches too (Readability's okMaybe…). */
const CHROME_EXEMPT = /article|body|content|main|column|post|entry|story|text|shadow/i;

/** Elements never removed by class/id pattern: the content roots themselves. */
const PATTERN_EXEMPT_TAGS = new Set(["html", "body", "main", "article"]);

/**
 * The page's banner, footer and navigation say what they are by their tag: one goes even when
 * it holds this much of the page's text (a mega-menu, a footer of a hundred links and blurbs).
 */
const MAX_CHROME_LANDMARK_SHARE = 0.7;
const CHROME_LANDMARK_TAGS = new Set(["header", "footer", "nav"]);

/** Text length from which a block matched only by class/id is prose, kept if not link-heavy. */
const PROSE_CHARS = 500;
/** Link share below which such a block reads as prose. */
const PROSE_LINK_DENSITY = 0.3;

/** Share of the page's text from which a forum's "comments" block is the thread itself. */
const FORUM_THREAD_SHARE = 0.08;

/** Share of the page's text that cleaning by class names must leave. */
const MIN_LEFT_SHARE = 0.1;

/** Text left beside a blog's comment section for the section to go whatever its size. */
const MIN_POST_CHARS = 1500;

/** Link share from which a navigation landmark is a menu whatever its size… */
const MENU_LINK_DENSITY = 0.6;
/** …and from which a block only named like chrome (`sidebar`, `toc`) is. */
const NAMED_MENU_LINK_DENSITY = 0.8;

/** One comment (not a list of them), by class or id: on a forum, a post of the thread. */
const SINGLE_COMMENT = /(?:^|[\s_-])comment(?=$|[\s_-])/i;

/** Kinds of removable element; a kept (large) element protects descendants of its kind. */
type Kind = "chrome" | "noise" | "comments";

/**
 * Removes, in place, page chrome and boilerplate from `body` (already rid of invisible
 * elements), guarded by the share of text each element holds.
 *
 * @example
 * removeInvisible(document.body);
 * removeBoilerplate(document.body, "page");
 */
export function removeBoilerplate(body: DomElement, pageType: PageType): void {
  const stats = measureText(body);
  const total = stats.get(body)?.chars ?? 0;
  const doomed: DomElement[] = [];
  /** Link-heavy chrome bigger than MAX_REMOVED_SHARE of the page: removed only if the page stays. */
  const menus: DomElement[] = [];
  /** Chrome found by class or id alone, kept if removing it would leave next to nothing. */
  const named = new Set<DomElement>();
  const protectedKinds = new Map<DomElement, Kind>();
  const protecting: Record<Kind, number> = { chrome: 0, noise: 0, comments: 0 };
  let contentRoots = 0; // open CONTENT_ROOT_TAGS elements
  let quotes = 0; // open <blockquote> elements
  let headings = 0; // open h1–h6 elements
  // Whether to descend into `node`; the counters of open elements are kept by the walk below.
  const decide = (node: DomNode): boolean => {
    if (!isElement(node)) return false;
    const tag = tagOf(node);
    // In code, class names are the highlighter's tokens (`hljs-comment`, Prism's `token
    // comment`): the code's own text, whatever they say.
    if (HIGHLIGHTED_TAGS.has(tag)) return false;
    const names = namesToRead(node, tag, headings > 0);
    const kind = boilerplateKind(node, tag, names, contentRoots > 0, quotes > 0);
    if (kind !== undefined && protecting[kind] === 0) {
      const s = stats.get(node);
      const chars = s?.chars ?? 0;
      // A card's or section's header of prose is its lead ("Recipes: What's for dinner?…"),
      // and one holding a heading is the section's title ("Related content"), or a card's
      // when the heading is all of it (a job's linked title).
      const prosy = linkDensity(s) < PROSE_LINK_DENSITY;
      const lead = chars >= COMPONENT_HEADER_CHARS && prosy;
      if (
        namedOnlyAsComponentHeader(node, tag, names) &&
        (lead || isTitleHeader(node, chars, prosy, stats))
      ) {
        return true;
      }
      // On a forum a "comments" block this big is the thread, and one "comment" block is a
      // post; smaller lists of comments are the remarks under each answer (Stack Exchange's
      // `li.comment`).
      if (
        kind === "comments" &&
        pageType === "forum" &&
        (chars >= total * FORUM_THREAD_SHARE ||
          (tag !== "li" && SINGLE_COMMENT.test(namesOf(node))))
      ) {
        return true;
      }
      // Elsewhere comments go however many there are, as long as a post is left beside them.
      if (kind === "comments" && pageType !== "forum" && total - chars >= MIN_POST_CHARS) {
        doomed.push(node);
        return false;
      }
      // A consent manager's dialog goes however much prose it holds, even more than the
      // page's own text, as long as a post is left beside it.
      if (
        kind === "noise" &&
        total - chars >= MIN_POST_CHARS &&
        CONSENT_MANAGER.test(namesOf(node))
      ) {
        doomed.push(node);
        return false;
      }
      // A class name is a weak sign: a block of prose is read as content whatever it is
      // called ("elementor-widget", Drupal's "sidebar-first-only" layout).
      // On a forum a <form> is as weak a sign: posts are wrapped in one (to quote several).
      const forumForm = tag === "form" && pageType === "forum";
      // A post wrapped in a form (old Reddit's comments) is prose however short.
      const prose = (chars >= PROSE_CHARS || (forumForm && wrapsPost(node))) && prosy;
      // An <aside> of prose amid the content's paragraphs is a side note ("A note on other
      // devices"), which a page's sidebar is not: it is read by size like a named block.
      const note =
        prose &&
        tag === "aside" &&
        contentRoots > 0 &&
        pageType !== "forum" &&
        isSideNote(node, stats);
      const byName =
        (forumForm || note || !CHROME_TAGS.has(tag)) &&
        !CHROME_ROLES.has(attr(node, "role").toLowerCase());
      const removable =
        total === 0 ||
        chars <=
          total * (CHROME_LANDMARK_TAGS.has(tag) ? MAX_CHROME_LANDMARK_SHARE : MAX_REMOVED_SHARE);
      // …except under a name that leaves no doubt: an author's bio or a signature is prose too,
      // and so is a list of related posts whose summaries read as prose.
      const unmistakable =
        removable && (CHROME_EVEN_AS_PROSE.test(namesOf(node)) || isTeaserList(node));
      if (byName && prose && kind !== "comments" && !unmistakable) return true;
      // A menu bigger than the page it serves (a docs site's whole tree) is still a menu.
      const menu =
        kind === "chrome" &&
        linkDensity(s) >= (byName ? NAMED_MENU_LINK_DENSITY : MENU_LINK_DENSITY) &&
        total - chars >= MIN_POST_CHARS;
      if (removable) {
        doomed.push(node);
        if (byName && kind === "chrome") named.add(node);
        return false;
      }
      if (menu) {
        menus.push(node);
        return false;
      }
      // A page-wide <form> (ASP.NET wraps every page in one) or <header> says nothing about
      // what it holds: chrome inside it still goes. A class name that covers the page does
      // speak for its descendants of the same kind (a restaurant's "menu").
      if (byName) {
        protectedKinds.set(node, kind);
        protecting[kind]++;
      }
    }
    return true;
  };
  walk(
    body,
    (node) => {
      const descend = decide(node);
      if (descend && isElement(node)) {
        const tag = tagOf(node);
        if (CONTENT_ROOT_TAGS.has(tag)) contentRoots++;
        if (tag === "blockquote") quotes++;
        if (headingLevel(node) > 0) headings++;
      }
      return descend;
    },
    (el) => {
      const tag = tagOf(el);
      if (CONTENT_ROOT_TAGS.has(tag)) contentRoots--;
      if (tag === "blockquote") quotes--;
      if (headingLevel(el) > 0) headings--;
      const kind = protectedKinds.get(el);
      if (kind !== undefined) protecting[kind]--;
    },
  );
  // A menu bigger than the page goes only if the page is left: on a directory of links (a
  // launch list, a link board) whose header and footer also go, the "menu" is the page.
  const charsOf = (list: DomElement[]): number =>
    list.reduce((sum, el) => sum + (stats.get(el)?.chars ?? 0), 0);
  const removed = charsOf(doomed);
  if (total - removed - charsOf(menus) >= MIN_POST_CHARS) doomed.push(...menus);
  // Class names are guesses (a shop's product grid called "related-product"): when trusting
  // them would leave next to nothing, the page is read without them, as Readability retries
  // without its "unlikely candidate" names.
  const left = total - removed;
  const keepNamed = named.size > 0 && left < total * MIN_LEFT_SHARE && left < MIN_POST_CHARS;
  for (const el of doomed) if (!(keepNamed && named.has(el))) el.remove();
}

/** Class/id words of a list of other posts. */
const TEASER_NAMES = wholeWords("related|recommended");
/** Links from which such a block is a list of posts, however much each summary says. */
const MIN_TEASER_LINKS = 3;

/** True when `el` is named a list of related posts and links to several. */
function isTeaserList(el: DomElement): boolean {
  if (!TEASER_NAMES.test(namesOf(el))) return false;
  let links = 0;
  return hasDescendant(
    el,
    (node) => tagOf(node) === "a" && attr(node, "href") !== "" && ++links >= MIN_TEASER_LINKS,
  );
}

/** Tags of a form's fields that stay after its controls are gone. */
const FIELD_TAGS = new Set(["label", "legend", "fieldset"]);
/** Tags of a post's text. */
const POST_TEXT_TAGS = new Set(["p", "blockquote", "pre"]);

/** True when a form wraps a post (paragraphs, no fields to fill in), as on old Reddit. */
function wrapsPost(form: DomElement): boolean {
  let paragraphs = false;
  let fields = false;
  walk(form, (node) => {
    if (!isElement(node) || fields) return false;
    const tag = tagOf(node);
    fields ||= FIELD_TAGS.has(tag);
    paragraphs ||= POST_TEXT_TAGS.has(tag);
    return !fields;
  });
  return paragraphs && !fields;
}

/** What kind of boilerplate `el` looks like, if any. */
function boilerplateKind(
  el: DomElement,
  tag: string,
  names: string,
  inContentRoot: boolean,
  inQuote: boolean,
): Kind | undefined {
  // An article's <header> holds its title; its <footer> holds tags and share links, but a
  // quote's <footer> names the source.
  const own = (tag === "header" && inContentRoot) || (tag === "footer" && inQuote);
  if (CHROME_TAGS.has(tag) && !own) {
    return "chrome";
  }
  const role = attr(el, "role").toLowerCase();
  if (role !== "" && CHROME_ROLES.has(role)) return "chrome";
  if (PATTERN_EXEMPT_TAGS.has(tag) || role === "main") return undefined;
  if (attr(el, "itemprop").toLowerCase() === "articlebody") return undefined;
  if (attrMatches(el, "itemtype", BREADCRUMB_TYPE)) return "chrome";
  if (isRemarkOnAnswer(el)) return "comments";
  return kindByNames(names);
}

/**
 * The class and id words of `el` that say what it is (`telltaleNames`, with a heading's own
 * words dropped inside one too), read once for both boilerplateKind and the component-header
 * test. On a link, "overlay" is a card's whole-card click target (its product's name), not a
 * pop-up.
 */
function namesToRead(el: DomElement, tag: string, inHeading: boolean): string {
  const names = telltaleNames(el, tag, inHeading);
  return tag === "a" && names !== "" ? names.replace(LINK_OVERLAY, " ") : names;
}

/** What kind of boilerplate class and id `names` say an element is, if any. */
function kindByNames(names: string): Kind | undefined {
  if (names === "") return undefined;
  // Modifiers are cut only from names that name an ad: most names name none.
  const ad = ADS.test(names) && ADS.test(names.replace(BEM_MODIFIER, "").replace(UUID, ""));
  if (CONSENT.test(names) || ad || SHARE.test(names)) return "noise";
  if (COMMENTS.test(names)) return "comments";
  if (CHROME.test(names) && !CHROME_EXEMPT.test(names)) return "chrome";
  if (UNMISTAKABLE_CHROME.test(names)) return "chrome";
  return undefined;
}

/**
 * True when `el`, named `names`, is chrome by those names only for a component's "header"
 * (`category-header_description`, `PageSection_header`, `section-header-copy`): the head of a
 * card or section, which is content, unlike the page's header (`site-header`, `header-nav`).
 */
function namedOnlyAsComponentHeader(el: DomElement, tag: string, names: string): boolean {
  if (CHROME_TAGS.has(tag) || CHROME_ROLES.has(attr(el, "role").toLowerCase())) return false;
  return (
    kindByNames(names) !== undefined && kindByNames(withoutComponentHeaders(names)) === undefined
  );
}

/** Shortest paragraph that makes an aside a note of prose. */
const NOTE_PARAGRAPH_CHARS = 80;
/** Nodes looked at for that paragraph. */
const NOTE_NODES = 200;
/** Blocks of running text that a side note follows. */
const FLOW_TAGS = new Set(["p", "ul", "ol", "blockquote", "pre", "table", "figure"]);

/**
 * True when the aside `el` follows the content's running text (its previous element is a
 * paragraph, a list, a heading…) and has a paragraph near its top: a note, not a sidebar.
 */
function isSideNote(el: DomElement, stats: StatsMap): boolean {
  let before = el.previousSibling;
  while (before !== null && !isElement(before)) before = before.previousSibling;
  if (!isElement(before)) return false;
  const tag = tagOf(before);
  if (!FLOW_TAGS.has(tag) && headingLevel(before) === 0) return false;
  const isParagraph = (node: DomElement): boolean =>
    tagOf(node) === "p" && (stats.get(node)?.chars ?? 0) >= NOTE_PARAGRAPH_CHARS;
  return hasDescendantNear(el, isParagraph, NOTE_NODES);
}

/** Text from which a component's header of prose, not links, is content. */
const COMPONENT_HEADER_CHARS = 100;
/** Nodes looked at for a heading at the top of a component's header. */
const HEADER_HEADING_NODES = 20;

/** Share of a header's text its heading must hold when the header is mostly links. */
const LINKED_TITLE_SHARE = 0.8;

/**
 * True when the header `el` (of `chars` characters) is a title: a heading near its top, and
 * either little else in links (`prosy`) or little else at all.
 */
function isTitleHeader(el: DomElement, chars: number, prosy: boolean, stats: StatsMap): boolean {
  let heading: DomElement | undefined = headingLevel(el) > 0 ? el : undefined;
  const isHeading = (node: DomElement): boolean => {
    if (headingLevel(node) === 0) return false;
    heading = node;
    return true;
  };
  if (heading === undefined && !hasDescendantNear(el, isHeading, HEADER_HEADING_NODES))
    return false;
  return prosy || (stats.get(heading!)?.chars ?? 0) >= chars * LINKED_TITLE_SHARE;
}

/** Microdata types of a Q&A site's question and answers. */
const ANSWER_TYPE = /schema\.org\/(?:Answer|Question)\s*$/i;

/**
 * True for a comment marked up as one (`itemprop=comment`) on a question or an answer: Stack
 * Overflow's remarks under a post, however its classes are named. A forum's replies are
 * comments on the thread (DiscussionForumPosting), not on an answer, and stay.
 */
function isRemarkOnAnswer(el: DomElement): boolean {
  if (attr(el, "itemprop").toLowerCase() !== "comment") return false;
  for (let node = el.parentNode; isElement(node); node = node.parentNode) {
    if (node.hasAttribute("itemscope")) return ANSWER_TYPE.test(attr(node, "itemtype"));
  }
  return false;
}
