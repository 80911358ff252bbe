/**
 * Removes what a reader never sees or never wants: scripts, styles, embedded objects, form
 * controls, form status messages, live-region announcements and hidden elements always (unless
 * the page hides its own content until a script shows it: an `<h1>`, `<main>` or `<article>`
 * inside, or nothing else to read; tab, accordion and disclosure panels are content too); and
 * for main-content extraction also page chrome (navigation, headers, footers, sidebars), cookie
 * banners, ads, share widgets and blog comment sections, recognized by tag, ARIA role and
 * class/id patterns in the manner of Mozilla Readability's REGEXPS. A component's header (a
 * card's or section's title and lead) is not the page's, and an `<aside>` of prose amid the
 * content's paragraphs is a side note, not a sidebar.
 *
 * Pattern matches are guesses, so they are guarded: an element holding more than
 * MAX_REMOVED_SHARE of the page's text is kept (a forum whose posts sit in `class="comments"`,
 * a restaurant page whose content is `class="menu"`), and so are its descendants of the same
 * kind. A `<header>`, `<footer>` or `<nav>` is surer evidence and may hold more
 * (MAX_CHROME_LANDMARK_SHARE).
 */

import {
  attr,
  childElements,
  type DomElement,
  type DomNode,
  type DomText,
  hasDescendant,
  hasDescendantNear,
  headingLevel,
  isElement,
  isHeadingTag,
  isText,
  tagOf,
  textOf,
  textWithin,
  WHITESPACE_RUN,
  walk,
} from "./dom.js";
import { namesOf, telltaleNames, withoutComponentHeaders } from "./names.js";
import type { PageType } from "./page-type.js";
import { linkDensity, measureText, type StatsMap } from "./stats.js";

/** Which part of the page is wanted: the main content, or everything visible. */
export type CleanMode = "main" | "full";

/** Elements with no readable text of their own, removed in every mode. */
const ALWAYS_REMOVED_TAGS = new Set([
  "script",
  "style",
  "template",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "canvas",
  "audio",
  "video",
  "map",
  "head",
  "link",
  "meta",
  "base",
  "input",
  "select",
  "option",
  "optgroup",
  "datalist",
  "textarea",
  "output",
  "progress",
  "meter",
]);

/**
 * A `<noscript>` with at least this much text is the page itself for clients without
 * JavaScript (Discourse serves its whole thread that way): it is unwrapped, not removed.
 */
const NOSCRIPT_CONTENT_CHARS = 200;
/** Leading text of such a `<noscript>` looked for elsewhere on the page, to spot a duplicate. */
const NOSCRIPT_SAMPLE_CHARS = 120;

/** Ids of React's streamed segments (`S:n`) and of the placeholders they fill (`B:n`, `P:n`). */
const STREAMED_ID = /^[SBP]:[0-9a-z]+$/i;

/** Elements that mark a page's own content: a hidden element holding one is revealed later. */
const LANDMARK_TAGS = new Set(["main", "article", "h1"]);

/** Line-number gutters of code listings, removed in every mode (numbers are not content). */
const LINE_NUMBERS = /(?:^|\s)(?:linenos|lineno|line-numbers-rows|hljs-ln-numbers)(?:\s|$)/i;
/** A table cell of line numbers (Pygments, Rouge and Hexo tables). */
const GUTTER_CELL = /(?:^|\s)(?:gutter|linenos|rouge-gutter)(?:\s|$)/i;

/** Inline styles that hide an element. */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b/i;

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

/** A page whose visible text is at most this… */
const MAX_VISIBLE_CHARS = 500;
/** …and this share of the text its styles hide is read with the hidden text shown. */
const VISIBLE_SHARE = 0.2;

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
 * An element holding more than this share of the page's text is not boilerplate, whatever its
 * class says.
 */
const MAX_REMOVED_SHARE = 0.5;

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
 * Cleans `body` in place. `"full"` removes only invisible and non-text elements; `"main"` also
 * removes page chrome and boilerplate.
 *
 * @example
 * cleanDocument(document.body, "main");
 */
export function cleanDocument(
  body: DomElement,
  mode: CleanMode,
  pageType: PageType = "page",
): void {
  removeInvisible(body);
  if (mode === "main") removeBoilerplate(body, pageType);
}

/** Removes non-text elements, form controls and hidden elements. */
function removeInvisible(body: DomElement): void {
  const doomed: DomNode[] = [];
  const unwrapped: DomElement[] = [];
  const ariaHidden: DomElement[] = [];
  const segments: DomElement[] = [];
  /**
   * Elements hidden by inline style (`all`; `outermost`, those not inside another; `open`, the
   * ones the walk is inside); those holding a landmark stay (see below).
   */
  const styleHidden = {
    all: [] as DomElement[],
    outermost: [] as DomElement[],
    open: [] as DomElement[],
    landmarks: new Set<DomElement>(),
  };
  const placeholders = new Map<string, DomElement>();
  const moves = new Map<string, string>(); // segment id → placeholder id, from the scripts
  const preformatted: DomElement[] = [];
  let preDepth = 0;
  let keepButtons = 0; // inside a heading or <summary>, a button holds the title text
  const disclosed = new Set<string>(); // ids that a control with aria-expanded opens
  walk(
    body,
    (node) => {
      if (!isElement(node)) {
        if (node.nodeType === 8) doomed.push(node); // comments
        return false;
      }
      const tag = tagOf(node);
      if (tag === "noscript") {
        const text = textOf(node).trim();
        if (text.length < NOSCRIPT_CONTENT_CHARS || isScriptNotice(text) || isMarkupAsText(text)) {
          doomed.push(node);
          return false;
        }
        unwrapped.push(node);
        return true;
      }
      if (tag === "script") readStreamedMoves(node, moves);
      const id = node.getAttribute("id");
      if (id !== null && STREAMED_ID.test(id)) {
        if (tag === "template") placeholders.set(id, node);
        else if (tag === "div" && node.hasAttribute("hidden")) {
          segments.push(node);
          return true;
        }
      }
      readDisclosure(node, disclosed);
      if (
        ALWAYS_REMOVED_TAGS.has(tag) ||
        (isHidden(node, tag) && !isPanel(node, disclosed)) ||
        isLineNumbers(node, tag) ||
        isFormStatus(node) ||
        isStatusMessage(node)
      ) {
        doomed.push(node);
        return false;
      }
      if (LANDMARK_TAGS.has(tag)) for (const el of styleHidden.open) styleHidden.landmarks.add(el);
      if (isStyleHidden(node) && !isPanel(node, disclosed)) {
        if (styleHidden.open.length === 0) styleHidden.outermost.push(node);
        styleHidden.all.push(node);
        styleHidden.open.push(node);
      }
      if (attr(node, "aria-hidden").toLowerCase() === "true" && !isPanel(node, disclosed)) {
        ariaHidden.push(node);
      }
      if (tag === "button" && keepButtons === 0) {
        // Emptied, not removed: the renderer still parts the words on either side (`Size|guide`).
        for (let child = node.firstChild; child !== null; child = child.nextSibling)
          doomed.push(child);
        return false;
      }
      if (isTitleHolder(tag)) keepButtons++;
      if (tag === "pre" && preDepth++ === 0) preformatted.push(node); // outermost only
      return true;
    },
    (el) => {
      if (isTitleHolder(tagOf(el))) keepButtons--;
      if (tagOf(el) === "pre") preDepth--;
      if (styleHidden.open[styleHidden.open.length - 1] === el) styleHidden.open.pop();
    },
  );
  placeStreamedSegments(segments, placeholders, moves);
  for (const node of doomed) node.remove();
  for (const pre of preformatted) removeLineNumberRuns(pre);
  // A script reveals the page's own content (its <main>, <article> or <h1>) hidden by a style.
  const hiddenContent = styleHidden.outermost.filter((el) => !styleHidden.landmarks.has(el));
  if (!holdsThePage(body, hiddenContent)) {
    for (const el of styleHidden.all) if (!styleHidden.landmarks.has(el)) el.remove();
  }
  removeAriaHidden(body, ariaHidden);
  if (unwrapped.length === 0) return;
  // Pages that render the same content for scripts and in a <noscript> keep one copy.
  const pageText = textOf(body);
  for (const el of unwrapped) {
    const sample = textOf(el).slice(0, NOSCRIPT_SAMPLE_CHARS);
    if (pageText.indexOf(sample) !== pageText.lastIndexOf(sample)) el.remove();
    else unwrap(el);
  }
}

/**
 * True when elements hidden by a style hold the page: what is visible is next to nothing
 * (MAX_VISIBLE_CHARS) beside them (VISIBLE_SHARE). Such a page hides its content until a
 * script shows it, and is read as the script would show it.
 */
function holdsThePage(body: DomElement, hidden: readonly DomElement[]): boolean {
  if (hidden.length === 0) return false;
  // Visible text is counted only as far as the limit: most pages pass it in their first lines.
  const skipped = new Set(hidden);
  let visible = 0;
  walk(body, (node) => {
    if (visible > MAX_VISIBLE_CHARS) return false;
    if (isText(node)) visible += node.data.trim().length;
    return isElement(node) && !skipped.has(node);
  });
  if (visible > MAX_VISIBLE_CHARS) return false;
  let hiddenChars = 0;
  for (const el of hidden) hiddenChars += textOf(el).length;
  return visible < hiddenChars * VISIBLE_SHARE;
}

/**
 * React's streaming server rendering sends the page's content late, in `<div hidden id="S:n">`,
 * and a script moves it to where `<template id="B:n">` (or `"P:n"`) holds its place. Without
 * scripts we do that move: the content lands where it belongs, the loading fallback stays out.
 */
function placeStreamedSegments(
  segments: DomElement[],
  placeholders: Map<string, DomElement>,
  moves: Map<string, string>,
): void {
  for (const segment of segments) {
    const id = segment.getAttribute("id")!;
    const n = id.slice(2);
    const target = moves.get(id);
    const place = target
      ? placeholders.get(target)
      : (placeholders.get(`B:${n}`) ?? placeholders.get(`P:${n}`));
    const parent = place?.parentNode as DomElement | null | undefined;
    if (place && parent) {
      if (place.getAttribute("id")!.startsWith("B:")) removeFallback(place);
      while (segment.firstChild !== null) parent.insertBefore(segment.firstChild, place);
      segment.remove();
    } else {
      unwrap(segment);
    }
  }
}

/** Removes a Suspense boundary's fallback: the nodes after its template, up to `<!--/$-->`. */
function removeFallback(template: DomElement): void {
  let depth = 0;
  for (let node = template.nextSibling; node !== null; ) {
    const next = node.nextSibling;
    if (node.nodeType === 8) {
      const data = (node as DomText).data;
      if (data === "/$") {
        if (depth === 0) return;
        depth--;
      } else if (data === "$" || data === "$?" || data === "$!") depth++;
    }
    node.remove();
    node = next;
  }
}

/** React's moves: `$RC("B:0","S:0")` fills a boundary, `$RS("S:1","P:1")` a placeholder. */
const STREAMED_MOVE = /\$R([CS])\("([BPS]:[0-9a-z]+)","([BPS]:[0-9a-z]+)"/gi;

/** Records the segment moves a script makes. */
function readStreamedMoves(script: DomElement, moves: Map<string, string>): void {
  // The code as it is: collapsing the whitespace of a large script only costs time.
  let code = "";
  for (let child = script.firstChild; child !== null; child = child.nextSibling) {
    if (isText(child)) code += child.data;
  }
  if (!code.includes("$R")) return;
  for (const [, kind, a, b] of code.matchAll(STREAMED_MOVE)) {
    if (kind === "C") moves.set(b!, a!);
    else moves.set(a!, b!);
  }
}

/**
 * `aria-hidden` hides decoration from screen readers, and also the whole page behind an open
 * dialog (a consent banner marks `<main>` hidden until it is answered): an element holding
 * more than MAX_REMOVED_SHARE of the text is the page and stays.
 */
function removeAriaHidden(body: DomElement, candidates: DomElement[]): void {
  if (candidates.length === 0) return;
  const stats = measureText(body);
  const total = stats.get(body)?.chars ?? 0;
  for (const el of candidates) {
    if ((stats.get(el)?.chars ?? 0) <= total * MAX_REMOVED_SHARE) el.remove();
  }
}

/** Replaces `el` by its children. */
function unwrap(el: DomElement): void {
  const parent = el.parentNode as DomElement | null;
  if (parent === null) return;
  while (el.firstChild !== null) parent.insertBefore(el.firstChild, el);
  el.remove();
}

/** A `<noscript>` asking for JavaScript ("Your browser does not seem to support JavaScript…"). */
const SCRIPT_NOTICE = /\bjavascript\b/i;
/** Longest such notice; a longer `<noscript>` mentioning JavaScript is a page's copy. */
const MAX_SCRIPT_NOTICE_CHARS = 600;

/** A tag written out as text (`<span class="x">`, `</div>`): markup escaped into a noscript. */
const TAG_AS_TEXT = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?>/gi;
/** Share of a noscript's text in written-out tags past which it is markup, not a page. */
const MARKUP_SHARE = 0.5;

/**
 * True for a noscript whose text is mostly tags written out: a widget's fallback markup that
 * was escaped, which a reader would see as raw HTML, not as the page.
 */
function isMarkupAsText(text: string): boolean {
  let tags = 0;
  for (const match of text.matchAll(TAG_AS_TEXT)) tags += match[0].length;
  return tags >= text.length * MARKUP_SHARE;
}

/** True for a noscript's "enable JavaScript" notice. */
function isScriptNotice(text: string): boolean {
  return text.length <= MAX_SCRIPT_NOTICE_CHARS && SCRIPT_NOTICE.test(text);
}

/** Line-number gutters beside code. */
function isLineNumbers(el: DomElement, tag: string): boolean {
  const names = el.getAttribute("class");
  if (names === null) return false;
  return LINE_NUMBERS.test(names) || (tag === "td" && GUTTER_CELL.test(names));
}

/** Text of a line-number element, untrimmed: code indented to a number (`  1,`) is code. */
const LINE_NUMBER = /^\d{1,5}$/;
/** Text after a number that makes it part of an expression (`1,` in an array, `2)`). */
const EXPRESSION_GOES_ON = /^[,;:.)\]}]/;

/**
 * Removes line numbers that a code block renders as an element at the start of each line,
 * without a class that says so (styled unselectable by a stylesheet): elements whose text is
 * only a number, first in their line's element, and numbered one after another. Left in, they
 * glue to the code ("1composer require…").
 */
function removeLineNumberRuns(pre: DomElement): void {
  const numbers: DomElement[] = [];
  walk(pre, (node) => {
    if (!isElement(node)) return false;
    if (
      node.firstElementChild === null &&
      LINE_NUMBER.test(node.textContent ?? "") &&
      startsLine(node) &&
      !EXPRESSION_GOES_ON.test(textAfter(node))
    ) {
      numbers.push(node);
      return false;
    }
    return true;
  });
  if (numbers.length < 2) return;
  const first = Number(textOf(numbers[0]!));
  if (!numbers.every((el, i) => Number(textOf(el)) === first + i)) return;
  for (const el of numbers) el.remove();
}

/** The text that follows `el` in its parent, leading whitespace dropped. */
function textAfter(el: DomElement): string {
  for (let node = el.nextSibling; node !== null; node = node.nextSibling) {
    const text = (node.textContent ?? "").trimStart();
    if (text !== "") return text;
  }
  return "";
}

/** True when nothing with text comes before `el` in its parent (a blank line has only its number). */
function startsLine(el: DomElement): boolean {
  for (let node = el.previousSibling; node !== null; node = node.previousSibling) {
    if ((node.textContent ?? "").trim() !== "") return false;
  }
  return true;
}

/** Headings and `<summary>`, whose buttons (accordions) carry text. */
function isTitleHolder(tag: string): boolean {
  return tag === "summary" || isHeadingTag(tag);
}

/** True for elements the `hidden` attribute hides, closed dialogs, and what Webflow hides by class. */
function isHidden(el: DomElement, tag = tagOf(el)): boolean {
  return (
    (el.hasAttribute("hidden") && attr(el, "hidden").toLowerCase() !== "until-found") ||
    (tag === "dialog" && !el.hasAttribute("open")) ||
    CONDITION_INVISIBLE.test(attr(el, "class"))
  );
}

/** Webflow's class for elements a CMS condition hides (`display: none !important`). */
const CONDITION_INVISIBLE = /(?:^|\s)w-condition-invisible(?:\s|$)/;

/** True for elements an inline style hides (`display:none`, `visibility:hidden`). */
function isStyleHidden(el: DomElement): boolean {
  const style = el.getAttribute("style");
  return style !== null && HIDDEN_STYLE.test(style);
}

/**
 * Class names of a form's status messages ("Thank you! Your submission has been received!",
 * "Oops! Something went wrong…"): Webflow's `w-form-done`/`w-form-fail`, Contact Form 7's
 * response box, and names that say so.
 */
const FORM_STATUS =
  /^(?:w-form-(?:done|fail)|wpcf7-response-output|[\w-]*(?:success|error|fail|thank-?you)[-_]?(?:message|msg)[\w-]*|(?:[\w-]*[-_])?form[-_]+(?:success|error|fail|done|message|thank)[\w-]*)$/i;
/**
 * Longest class name FORM_STATUS is tried on: its two open-ended runs cost time quadratic in
 * a name that repeats a keyword ("successmsgsuccessmsg…").
 */
const MAX_STATUS_NAME = 100;
/** Levels above a status message looked at for the form holding it. */
const FORM_STATUS_LEVELS = 3;

/**
 * Roles of live regions that announce what a script just did ("loaded 154 results", "Showing
 * 1–16 of 29 results"). Not `alert`: Bootstrap's visible callouts carry it ("Deprecated since
 * v3").
 */
const STATUS_ROLES = new Set(["status", "log"]);
/** Longest status message; a longer live region is content (a chat log, a score table). */
const MAX_STATUS_CHARS = 100;
/** Text read from a live region to tell, indentation included… */
const STATUS_READ_CHARS = 2000;
/** …and nodes: a region with more is not a short message, and nested ones each read this few. */
const STATUS_READ_NODES = 100;

/** True for a short live-region message: a screen reader's announcement, not page text. */
function isStatusMessage(el: DomElement): boolean {
  if (!STATUS_ROLES.has(attr(el, "role").toLowerCase())) return false;
  const text = textWithin(el, STATUS_READ_CHARS, STATUS_READ_NODES);
  return text !== undefined && text.trim().length <= MAX_STATUS_CHARS;
}

/**
 * True for a form's status message, which the site's stylesheet hides until the form is sent.
 * Named so, and in its form or beside it: an article's `error-message` box quoting a stack
 * trace is not one.
 */
function isFormStatus(el: DomElement): boolean {
  const names = attr(el, "class").split(/\s+/);
  if (!names.some((name) => name.length <= MAX_STATUS_NAME && FORM_STATUS.test(name))) return false;
  const parent = el.parentNode;
  if (!isElement(parent)) return false;
  if (childElements(parent).some((sibling) => tagOf(sibling) === "form")) return true;
  let up: DomNode | null = parent;
  for (let level = 0; level < FORM_STATUS_LEVELS && isElement(up); level++, up = up.parentNode) {
    if (tagOf(up) === "form") return true;
  }
  return false;
}

/** Names of collapsible sections… */
const ACCORDION_NAMES = /accordion|collaps|expand|faq/i;
/** …of the lists that hold them… */
const ACCORDION_LIST_NAMES = /accordion|faq/i;
/** …and of menus that collapse too (Bootstrap's `navbar-collapse`), which are not content. */
const MENU_NAMES = /nav|menu/i;

/**
 * Accordion panels: closed until their heading is clicked, but content (FAQ answers, a guide's
 * steps). ARIA marks them `role=region` labelled by their heading; pages name them, or the
 * accordion holding them.
 */
function isAccordionPanel(el: DomElement): boolean {
  if (attr(el, "role").toLowerCase() === "region" && el.hasAttribute("aria-labelledby")) {
    return true;
  }
  const names = `${attr(el, "class")} ${attr(el, "id")}`;
  if (MENU_NAMES.test(names)) return false;
  if (ACCORDION_NAMES.test(names)) return true;
  const parent = el.parentNode;
  return (
    isElement(parent) && ACCORDION_LIST_NAMES.test(`${attr(parent, "class")} ${attr(parent, "id")}`)
  );
}

/**
 * Panels that a click opens, which hold content though hidden: tab and accordion panels, and
 * any element a control's `aria-controls` opens (`aria-expanded`), the ARIA disclosure pattern,
 * unless it is the site's: a menu, a drawer, a dialog, a search or cart panel.
 */
function isPanel(el: DomElement, disclosed: ReadonlySet<string>): boolean {
  if (isTabPanel(el) || isAccordionPanel(el)) return true;
  const id = el.getAttribute("id");
  if (id === null || !disclosed.has(id) || tagOf(el) === "dialog") return false;
  if (DISCLOSED_CHROME_ROLES.has(attr(el, "role").toLowerCase())) return false;
  return !DISCLOSED_CHROME_NAMES.test(`${id} ${attr(el, "class")}`);
}

/** Names of panels a control opens that are the site's, not the page's content… */
const DISCLOSED_CHROME_NAMES =
  /nav|menu|drawer|offcanvas|off-canvas|modal|popup|popover|dropdown|flyout|search|cart|basket|account|login|sign-?in|dialog/i;
/** …and their roles. */
const DISCLOSED_CHROME_ROLES = new Set(["dialog", "alertdialog", "menu", "listbox", "navigation"]);

/** Records the ids a disclosure control opens; the control comes before its panel. */
function readDisclosure(el: DomElement, disclosed: Set<string>): void {
  const controls = el.getAttribute("aria-controls");
  if (controls === null || !el.hasAttribute("aria-expanded")) return;
  for (const id of controls.split(WHITESPACE_RUN)) if (id !== "") disclosed.add(id);
}

/** Tab panels: hidden until their tab is chosen, but every one is content (install steps per OS). */
const TAB_PANEL_CLASS = /(?:^|\s)(?:tab-pane|tabpanel|tab-panel|tabs?-content)(?:\s|$)/i;

function isTabPanel(el: DomElement): boolean {
  return attr(el, "role").toLowerCase() === "tabpanel" || TAB_PANEL_CLASS.test(attr(el, "class"));
}

/** Removes page chrome and boilerplate, guarded by the share of text each element holds. */
function removeBoilerplate(body: DomElement, pageType: PageType): void {
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
  if (BREADCRUMB_TYPE.test(attr(el, "itemtype"))) return "chrome";
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
  return tag === "a" ? names.replace(LINK_OVERLAY, " ") : names;
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
