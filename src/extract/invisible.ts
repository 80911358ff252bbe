/**
 * Removes what a reader never sees, in every extraction mode: scripts, styles, embedded
 * objects, form controls, form status messages, live-region announcements, line-number gutters
 * and hidden elements, by attribute, inline style or a class the page's own style sheet hides
 * (unless the page hides its own content until a script shows it: an `<h1>`, `<main>` or
 * `<article>` inside, or nothing else to read; tab, accordion and disclosure panels are content
 * too). Content that a script would move or show is read as it would show it: React's streamed
 * segments go where their placeholders stand, and a `<noscript>` that holds the page is
 * unwrapped unless the page already shows the same text.
 */

import {
  attr,
  attrMatches,
  childElements,
  type DomElement,
  type DomNode,
  type DomText,
  isElement,
  isHeadingTag,
  isMainLandmark,
  isText,
  linkText,
  tagOf,
  textLength,
  textOf,
  textWithin,
  WHITESPACE_RUN,
  walk,
} from "./dom.js";
import { MAX_REMOVED_SHARE, measureText } from "./stats.js";
import { classesHiddenByStyles } from "./style-sheets.js";

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

/** A page whose visible text is at most this… */
const MAX_VISIBLE_CHARS = 500;
/** …and this share of the text its styles hide is read with the hidden text shown. */
const VISIBLE_SHARE = 0.2;

/**
 * Removes, in place, what `body` never shows a reader: non-text elements, form controls and
 * hidden elements.
 *
 * @example
 * removeInvisible(document.body);
 */
export function removeInvisible(body: DomElement): void {
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
  const scripts: DomElement[] = [];
  const preformatted: DomElement[] = [];
  let preDepth = 0;
  let keepButtons = 0; // inside a heading or <summary>, a button holds the title text
  const disclosed = new Set<string>(); // ids that a control with aria-expanded opens
  const holdsForm = new Map<DomElement, boolean>(); // parents of status-like names: a form child?
  const hiddenClasses = classesHiddenByStyles(body);
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
      if (tag === "script") scripts.push(node);
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
        isFormStatus(node, holdsForm) ||
        isStatusMessage(node)
      ) {
        doomed.push(node);
        return false;
      }
      if (LANDMARK_TAGS.has(tag)) for (const el of styleHidden.open) styleHidden.landmarks.add(el);
      if (isStyleHidden(node, hiddenClasses) && !isPanel(node, disclosed)) {
        if (styleHidden.open.length === 0) styleHidden.outermost.push(node);
        styleHidden.all.push(node);
        styleHidden.open.push(node);
      }
      if (
        attr(node, "aria-hidden").toLowerCase() === "true" &&
        !isPanel(node, disclosed) &&
        !isDetailsBody(node)
      ) {
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
      // Most pages have no element hidden by style: the list is asked for its length first, as
      // reading index -1 of an empty array is a property lookup, many times slower than an index.
      const { open } = styleHidden;
      if (open.length > 0 && open[open.length - 1] === el) open.pop();
    },
  );
  // The scripts' code is read only on a page with streamed segments: most pages have none,
  // and some carry megabytes of script.
  if (segments.length > 0) placeStreamedSegments(segments, placeholders, streamedMoves(scripts));
  for (const node of doomed) node.remove();
  for (const pre of preformatted) removeLineNumberRuns(pre);
  // A script reveals the page's own content (its <main>, <article> or <h1>) hidden by a style,
  // the whole page when next to nothing else shows, and else the content of a <main> that
  // shows next to nothing else.
  const hiddenContent = styleHidden.outermost.filter((el) => !styleHidden.landmarks.has(el));
  if (!holdsThePage(body, hiddenContent)) {
    for (const el of mainHolders(hiddenContent)) styleHidden.landmarks.add(el);
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
 * The elements among `hidden` (the outermost ones hidden by a style that no landmark keeps) that
 * hold the content of the `<main>` (by tag or role, the outermost) they stand in: in each main,
 * the largest one, when it has at least half the main's text and next to nothing in the main is
 * visible beside what it hides. That content waits for a script to show it; smaller hidden
 * elements beside it (a store's notices) stay hidden. Each main is measured once.
 */
function mainHolders(hidden: readonly DomElement[]): DomElement[] {
  const largest = new Map<DomElement, { el: DomElement; chars: number }>();
  for (const el of hidden) {
    let main: DomElement | undefined;
    for (let node = el.parentNode; isElement(node); node = node.parentNode) {
      if (isMainLandmark(node)) main = node;
    }
    if (main === undefined) continue;
    const chars = textLength(el);
    if (chars > (largest.get(main)?.chars ?? 0)) largest.set(main, { el, chars });
  }
  const out: DomElement[] = [];
  let skipped: Set<DomElement> | undefined;
  for (const [main, { el, chars }] of largest) {
    if (chars * 2 < textLength(main)) continue;
    skipped ??= new Set(hidden);
    const visible = visibleChars(main, skipped);
    if (visible <= MAX_VISIBLE_CHARS && visible < chars * VISIBLE_SHARE) out.push(el);
  }
  return out;
}

/**
 * True when elements hidden by a style hold the page: what is visible is next to nothing
 * (MAX_VISIBLE_CHARS) beside them (VISIBLE_SHARE). Such a page hides its content until a
 * script shows it, and is read as the script would show it.
 */
function holdsThePage(body: DomElement, hidden: readonly DomElement[]): boolean {
  if (hidden.length === 0) return false;
  const visible = visibleChars(body, new Set(hidden));
  if (visible > MAX_VISIBLE_CHARS) return false;
  let hiddenChars = 0;
  for (const el of hidden) hiddenChars += textLength(el);
  return visible < hiddenChars * VISIBLE_SHARE;
}

/**
 * Characters of text under `root` outside the `skipped` elements, counted only as far as just
 * past MAX_VISIBLE_CHARS: most pages pass it in their first lines.
 */
function visibleChars(root: DomElement, skipped: ReadonlySet<DomElement>): number {
  let visible = 0;
  walk(root, (node) => {
    if (visible > MAX_VISIBLE_CHARS) return false;
    if (isText(node)) visible += node.data.trim().length;
    return isElement(node) && !skipped.has(node);
  });
  return visible;
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

/** The segment moves `scripts` make: segment id → placeholder id. */
function streamedMoves(scripts: readonly DomElement[]): Map<string, string> {
  const moves = new Map<string, string>();
  for (const script of scripts) {
    // The code as it is: collapsing the whitespace of a large script only costs time.
    let code = "";
    for (let child = script.firstChild; child !== null; child = child.nextSibling) {
      if (isText(child)) code += child.data;
    }
    if (!code.includes("$R")) continue;
    for (const [, kind, a, b] of code.matchAll(STREAMED_MOVE)) {
      if (kind === "C") moves.set(b!, a!);
      else moves.set(a!, b!);
    }
  }
  return moves;
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
    attrMatches(el, "class", CONDITION_INVISIBLE)
  );
}

/** Webflow's class for elements a CMS condition hides (`display: none !important`). */
const CONDITION_INVISIBLE = /(?:^|\s)w-condition-invisible(?:\s|$)/;

/**
 * True for elements an inline style hides (`display:none`, `visibility:hidden`), and for those
 * of a class in `hiddenClasses` that hold no paragraph of prose: a description that a button
 * opens is read, a drawer of products or links is not.
 */
function isStyleHidden(el: DomElement, hiddenClasses: ReadonlySet<string>): boolean {
  const style = el.getAttribute("style");
  if (style !== null && HIDDEN_STYLE.test(style)) return true;
  if (hiddenClasses.size === 0) return false;
  const names = el.getAttribute("class");
  if (names === null) return false;
  for (const name of names.split(WHITESPACE_RUN)) {
    if (hiddenClasses.has(name)) return !holdsProse(el);
  }
  return false;
}

/** A paragraph this long, with under PROSE_LINK_SHARE of it in links, is prose. */
const PROSE_CHARS = 150;
const PROSE_LINK_SHARE = 0.2;

/** True when a `<p>` under `el` is prose (PROSE_CHARS). */
function holdsProse(el: DomElement): boolean {
  let found = false;
  walk(el, (node) => {
    if (found || !isElement(node)) return false;
    if (tagOf(node) !== "p") return true;
    const [chars, linkChars] = linkText(node);
    found = chars >= PROSE_CHARS && linkChars < chars * PROSE_LINK_SHARE;
    return false;
  });
  return found;
}

/**
 * Class names of a form's status messages ("Thank you! Your submission has been received!",
 * "Oops! Something went wrong…"): Webflow's `w-form-done`/`w-form-fail`, Contact Form 7's
 * response box, and names that say so.
 */
const FORM_STATUS =
  /^(?:w-form-(?:done|fail)|wpcf7-response-output|[\w-]*(?:success|error|fail|thank-?you)[-_]?(?:message|msg)[\w-]*|(?:[\w-]*[-_])?form[-_]+(?:success|error|fail|done|message|thank)[\w-]*)$/i;
/** A word that each of FORM_STATUS's alternatives contains. */
const FORM_STATUS_HINT = /form|msg|message|wpcf7/i;
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
  const role = attr(el, "role");
  if (role === "" || !STATUS_ROLES.has(role.toLowerCase())) return false;
  const text = textWithin(el, STATUS_READ_CHARS, STATUS_READ_NODES);
  return text !== undefined && text.trim().length <= MAX_STATUS_CHARS;
}

/**
 * True for a form's status message, which the site's stylesheet hides until the form is sent.
 * Named so, and in its form or beside it: an article's `error-message` box quoting a stack
 * trace is not one.
 */
function isFormStatus(el: DomElement, holdsForm: Map<DomElement, boolean>): boolean {
  const classes = attr(el, "class");
  // Every name FORM_STATUS matches holds one of these: most classes are ruled out at once.
  if (classes === "" || !FORM_STATUS_HINT.test(classes)) return false;
  const names = classes.split(/\s+/);
  if (!names.some((name) => name.length <= MAX_STATUS_NAME && FORM_STATUS.test(name))) return false;
  const parent = el.parentNode;
  if (!isElement(parent)) return false;
  // Whether a parent has a form child is read once per parent: thousands of status-like
  // siblings each reading all the others took their number squared (36,000 took minutes).
  let form = holdsForm.get(parent);
  if (form === undefined) {
    form = childElements(parent).some((sibling) => tagOf(sibling) === "form");
    holdsForm.set(parent, form);
  }
  if (form) return true;
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

/**
 * The body of a `<details>` element, what its `<summary>` opens: the page's own disclosure widget
 * (an FAQ answer), which pages hide from screen readers (`aria-hidden`) while it is closed, but
 * which is there for the reader to open. Hidden otherwise, it goes as anything hidden does.
 */
function isDetailsBody(el: DomElement): boolean {
  const parent = el.parentNode;
  return isElement(parent) && tagOf(parent) === "details" && tagOf(el) !== "summary";
}

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
