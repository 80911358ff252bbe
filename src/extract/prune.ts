/**
 * Trims the chosen main-content root of what sits inside it but is not content: sections that
 * announce themselves as boilerplate by their heading ("Related articles", "About the author",
 * "Subscribe to our newsletter"), call-to-action buttons made of links, and blocks that repeat
 * text already shown (responsive duplicates, carousels, quoted posts).
 *
 * Like Trafilatura's and Readability's post-selection passes, this runs on the root only, so a
 * guess here can cost a section but never changes which part of the page was chosen.
 */

import {
  attr,
  attrMatches,
  childElements,
  type DomElement,
  type DomNode,
  hasDescendant,
  headingLevel,
  isElement,
  isSpaceCode,
  isText,
  linkText,
  tagOf,
  textLength,
  textOf,
  walk,
} from "./dom.js";
import type { PageType } from "./page-type.js";
import { removePostTemplate } from "./post-template.js";
import { removeRepeatedQuotes } from "./quotes.js";
import { measureText } from "./stats.js";

/** Headings that open a section of page furniture, which ends at the next heading as high. */
const BOILERPLATE_HEADING =
  /^(?:related\b.*|(?:other|more|browse|see|explore)(?: \w+)?(?: \w+)? (?:articles|posts|stories|reads|resources|guides|news)\b.*|(?:you|we think you) (?:may|might|will|could) (?:also )?(?:like|enjoy|be interested in)\b.*|more (?:articles|stories|posts|news|reading|to read|from (?:the |our )?\w+(?: \w+)?)|(?:most )?(?:recent|latest|popular|top|other|similar|trending|featured|recommended|suggested) (?:posts|articles|stories|news|reads|guides|topics|content|blog posts|insights)|read (?:more|next|this next)(?: (?:from|by|on|in|like this)\b.*)?|further reading|keep reading|trending(?: now| topics)?|recommended(?: for you)?|editor'?s? picks|don'?t miss|share(?: this)?(?: article| post| story| page)?(?: with (?:your )?friends)?|about the (?:author|writer)s?|(?:leave|post|add|write) a (?:comment|reply)|(?:subscribe|sign up|join)(?: (?:now|today|us|here|free))?!?|(?:subscribe|sign up|join) or (?:sign|log) ?in|(?:subscribe|sign up|join)(?: [\w,+-]+){0,6} (?:(?:e-?)?newsletters?|mailing list|e-?mail list|email updates|community|conversation|discussion|club|insiders?|inbox)\b.*|(?:subscribe|sign up) (?:to|for) (?:receive|get)\b.*|join(?: the| over| more than)? \d[\d,.]*\+?(?: (?:million|thousand)\+?)?(?: [\w-]+){0,2} (?:readers|subscribers|people|users|members|others|professionals|marketers|customers)\b.*|(?:get|join) our newsletter|newsletter|follow us(?: on \w+)?|tags|categories|archives|blog archives?|you may also want to read|(?:people|customers) who (?:viewed|bought)\b.*|(?:customers|shoppers) also (?:viewed|bought|liked)\b.*|frequently bought together|complete the (?:set|look)\b.*|recently viewed(?: items| products)?|more to explore|(?:view )?article sources|(?:recent|latest|more|other) (?:posts|articles|stories) (?:by|from) .{1,60}|(?:(?:explore|shop|browse|see|view)(?: all| more)? )?(?:related|similar) (?:items|products|threads|topics|discussions|questions)|recommend(?:ed)? (?:posts|articles)|show me more)$/i;

/**
 * The same headings in the languages the most pages are in after English: German, French,
 * Spanish, Portuguese, Italian, Dutch and Polish ("Mehr zum Thema", "À lire aussi", "Le puede
 * interesar", "Czytaj też"): related stories, most-read lists and recommendations.
 */
const OTHER_LANGUAGE_BOILERPLATE_HEADING =
  /^(?:mehr (?:zum thema|themen|aus (?:der|dem|den|unserem|unserer) .{1,40}|aus \p{Lu}.{0,40}|artikel|beiträge|nachrichten|news)|(?:das|dies) könnte (?:sie|dich|euch) auch interessieren|auch interessant|(?:lesen|lest|lies) (?:sie )?(?:auch|mehr)(?: die folgenden beiträge)?|weitere (?:artikel|beiträge|nachrichten|news|themen)(?: (?:aus|zu|zum) .{1,40})?|(?:meist|viel) ?gelesen(?:e)?(?: artikel| in .{1,40})?|ähnliche (?:artikel|beiträge|themen)|verwandte (?:artikel|beiträge|themen)|(?:die )?redaktion empfiehlt|empfehlungen der redaktion|(?:à )?lire (?:aussi|également)|sur le même (?:sujet|thème)|(?:articles|contenus) (?:similaires|liés|associés)|vous aimerez aussi|les plus lus|(?:le|te) puede(?:n)? interesar|(?:lee|leer|ver|vea) también|(?:noticias|artículos|notas) relacionad[ao]s|lo más (?:leído|visto)|más noticias|(?:leia|veja) também|(?:notícias|artigos) relacionad[ao]s|(?:os )?mais lidos|leggi anche|potrebbe(?:ro)? interessarti|articoli correlati|(?:i )?più letti|lees (?:ook|meer)|meer (?:over|nieuws)|gerelateerde (?:artikelen|berichten)|meest gelezen|(?:czytaj|zobacz) (?:też|także|również)|polecane(?: artykuły)?|najczęściej czytane)$/iu;

/**
 * Headings over links to related pages ("Related content", "See also", "Further reading"): on a
 * page of documentation that section is the page's own, a reader's next step through the docs.
 */
const RELATED_PAGES_HEADING =
  /^(?:related\b.*|see also|further reading|(?:other|more|browse|see|explore)(?: \w+)?(?: \w+)? (?:articles|resources|guides)\b.*)$/i;

/** Headings of a blog's comment section ("59 Comments on “Title”", "Leave a Reply"). */
const COMMENTS_HEADING =
  /^(?:(?:\d+|one|no)\s+(?:comments?|responses?|replies|thoughts?|reactions?)(?:\s+(?:on|to)\b.*)?|comments?|responses?|replies|join the discussion)$/i;

/** Headings of a product page's sections that are not about the product: reviews, Q&A, shipping. */
const PRODUCT_ASIDE_HEADING =
  /^(?:(?:customer |product )?reviews?(?: \(\d+\))?(?: for .{1,80})?|(?:what )?(?:our )?(?:customers|buyers|shoppers|reviewers) (?:say|are saying)|ratings?(?: (?:&|and) reviews?)?|customer (?:ratings?|questions?)(?: (?:&|and) answers?)?|questions? (?:&|and) answers?|q ?& ?a|shipping(?: (?:&|and) returns?)?|delivery(?: (?:&|and) returns?)?|returns?(?: policy)?|write a review)$/i;

/** Headings of an in-page table of contents: only the link list after them goes. */
const TOC_HEADING =
  /^(?:table of contents|contents|in this (?:article|post|guide)|on this page|jump to|quick links|skip to)$/i;

/** Classes of links styled as buttons or named as actions (call to action, a teaser's action link). */
const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button|cta|action)(?:$|[\s_-])/i;
/** A button-like link with more text than this is read as content. */
const MAX_BUTTON_CHARS = 60;

/** Blocks whose text is compared for repeats. */
const DEDUPE_TAGS = new Set([
  "p",
  "li",
  "blockquote",
  "dd",
  "figcaption",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
]);
/** Repeats shorter than this are kept ("Read more", prices, dates repeat legitimately). */
const MIN_DUPLICATE_CHARS = 40;
/**
 * Shortest element other than a block compared whole for repeats: a card or a feature list, not
 * a label or a price line that repeats legitimately.
 */
const MIN_REPEATED_TREE_CHARS = 80;
/**
 * Longest element compared whole: a larger one repeated has its parts compared instead, and
 * reading every large element's text would cost a page's size times its depth.
 */
const MAX_REPEATED_TREE_CHARS = 5000;

/** Longest heading read as a section label ("Related articles"); longer ones are titles. */
const MAX_SECTION_HEADING_CHARS = 80;
/**
 * Longest comments heading: it may repeat the post's title. No longer heading is read at all,
 * which also bounds the time headingText's end-anchored trims take.
 */
const MAX_COMMENTS_HEADING_CHARS = 240;

/** A boilerplate-headed section holding more than this share of the root's prose is kept. */
const MAX_SECTION_SHARE = 0.5;

/** Text left beside a boilerplate-headed section that makes it furniture whatever its size. */
const MIN_POST_BESIDE_CHARS = 1000;

/** Link share above which the blocks after a contents heading are its list. */
const TOC_LINK_SHARE = 0.5;

/**
 * Removes boilerplate sections, button links and repeated blocks from `root`, in place.
 *
 * @example
 * const root = selectMainContent(body, document);
 * pruneContent(root);
 */
export function pruneContent(root: DomElement, pageType: PageType = "page"): void {
  removeEchoesButtonsAndCaptions(root, pageType !== "documentation");
  // Sections first: a furniture line can be a section's heading ("Subscribe"), and the section
  // must go with it.
  removeBoilerplateSections(root, pageType);
  if (pageType === "forum") removePostTemplate(root);
  const rules =
    pageType === "forum" ? FORUM_NOTICES : pageType === "product" ? SHOP_NOTICES : NOTICES;
  removeShortBlocks(root, MAX_DISCLOSURE_CHARS, rules);
  if (pageType === "product") removeProductAsides(root);
  // On a page of documentation, lists of many short links are its own: an index of a guide's
  // pages, a module's members, steps that each link to their page (its menus went with the
  // page's chrome).
  if (pageType !== "documentation") removeLinkLists(root);
  removeRepeats(root);
  if (pageType === "forum") removeRepeatedQuotes(root);
}

/**
 * Removes, in this order, as if each went before the next was looked for:
 * - echoes: text said twice in a row for screen readers (eBay's `EUR 20.99<span
 *   class="clipped">EUR 20.99</span>`, a visually hidden copy of the phrase just before it);
 * - call-to-action links (buttons);
 * - when `captions` is set, figure captions: on articles, shops and forums they are photo
 *   credits and picture descriptions ("Credit: Apple", "Courtesy the gallery"), not the text;
 *   documentation keeps them, where "Figure 3: …" explains a diagram. Only captions of images
 *   go (a quote's caption names its source); the image itself stays, with its alt text.
 *
 * One walk finds all three. An echo is judged on the tree as it came; a link is a button only
 * outside another link, and by its text once the echoes in it are gone; a caption is one only
 * outside a figcaption, and whether its figure holds media is asked once the buttons are gone
 * (a button may hold its only image) and before any caption goes.
 */
function removeEchoesButtonsAndCaptions(root: DomElement, captions: boolean): void {
  const echoes: DomElement[] = [];
  const buttonLike: DomElement[] = [];
  const named: DomElement[] = [];
  const figcaptions: DomElement[] = [];
  let openLinks = 0;
  let openFigcaptions = 0;
  walk(
    root,
    (node) => {
      if (!isElement(node)) return false;
      const tag = tagOf(node);
      if (isEcho(node, tag)) {
        echoes.push(node);
        return false;
      }
      // Whether a button-like link is short enough is known once its echoes are gone; what is
      // found inside one that goes goes with it.
      if (tag === "a" && openLinks === 0 && looksLikeButton(node)) buttonLike.push(node);
      if (captions && openFigcaptions === 0) {
        // Captions and credits outside a <figure>, named so by their class.
        if (attrMatches(node, "class", PHOTO_CAPTION_NAMES)) {
          named.push(node);
          return false;
        }
        if (tag === "figcaption") figcaptions.push(node);
      }
      if (tag === "a") openLinks++;
      else if (tag === "figcaption") openFigcaptions++;
      return true;
    },
    (el) => {
      const tag = tagOf(el);
      if (tag === "a") openLinks--;
      else if (tag === "figcaption") openFigcaptions--;
    },
  );
  for (const el of echoes) el.remove();
  for (const el of buttonLike) if (textLength(el) <= MAX_BUTTON_CHARS) el.remove();
  // A quote's or a listing's caption (its source, its title) is text, not a photo credit.
  const doomed = figcaptions.filter((el) => isElement(el.parentNode) && holdsMedia(el.parentNode));
  for (const el of named) el.remove();
  for (const el of doomed) el.remove();
}

/**
 * True when `el`, a phrasing element and a leaf, repeats the text of the element or text just
 * before it. Leaves only: a copy is plain text, and each subtree is read once (deep nests stay
 * linear).
 */
function isEcho(el: DomElement, tag: string): boolean {
  if (!INLINE_TAGS.has(tag)) return false;
  let before = el.previousSibling;
  while (before !== null && !isElement(before) && (before.textContent ?? "").trim() === "") {
    before = before.previousSibling;
  }
  if (before === null || el.firstElementChild !== null) return false;
  // What comes before is read first: most often it is too short to echo (a comma, "and").
  const previous = textOf(before);
  return previous.length >= MIN_ECHO_CHARS && textOf(el) === previous;
}

/** Shorter repeats can be meant ("no, no"). */
const MIN_ECHO_CHARS = 3;

/** Class words of a photo's caption or credit. */
const PHOTO_CAPTION_NAMES =
  /(?:^|[\s_-])(?:(?:photo|image|img|picture)-?(?:caption|credit)s?|credit-?caption|wp-caption-text)(?=$|[\s_-])/i;

/** Media a caption can describe. */
const MEDIA_TAGS = new Set(["img", "picture", "video", "iframe", "svg", "canvas"]);

/** True when `el` holds an image or other media. */
function holdsMedia(el: DomElement): boolean {
  return hasDescendant(el, (node) => MEDIA_TAGS.has(tagOf(node)));
}

/**
 * Emoji opening or closing a heading ("🔥 Related", "👍🏻 Related posts"), with their variation
 * selectors, joiners, skin tones, flags' letters and keycaps. Like the trims after it, it costs
 * time quadratic in a long run, so headingText bounds the text first.
 */
const EMOJI_EDGES =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\uFE0F|\u200D|\u20E3|\s)+|(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\uFE0F|\u200D|\u20E3|\s)+$/gu;

/** Heading text normalized for matching: emoji at its edges, trailing colons, arrows, counts dropped. */
function headingText(el: DomElement): string {
  const text = textOf(el);
  // Too long to be read as a heading of boilerplate anyway; and the trims below, anchored at
  // the end, would cost time quadratic in a long run of what they trim.
  if (text.length > MAX_COMMENTS_HEADING_CHARS) return text;
  return text
    .toLowerCase()
    .replace(EMOJI_EDGES, "")
    .replace(/[\s:.…»›→>|–—-]+$/u, "")
    .replace(/\s*\(\d+\)$/, "")
    .trim();
}

/** True for a link styled as a button or named as an action. */
function looksLikeButton(link: DomElement): boolean {
  return attrMatches(link, "class", BUTTON_CLASS) || attr(link, "role").toLowerCase() === "button";
}

/** Page furniture on any page: ad labels, share prompts, reading times, skip links. */
const FURNITURE =
  /^(?:(?:previous|next|prev|older|newer)(?: post| article| story| entry| episode)?:?|(?:sign up|subscribe)(?: now| today| here)?(?: (?:for|to) (?:our|the) newsletter)?!?|join (?:the|our) (?:conversation|mailing list|newsletter)!?|see more in:?|you might (?:also )?like|more like this|advertisement(?: \([^)]{1,40}\))?|advertising|sponsored(?: content)?|skip to (?:main )?content|share(?: this)?(?: article| post| story| page)?|share on \w+|\d+\s*min(?:ute)?s?\s+read|reading time:?\s*\d+\s*min(?:ute)?s?|listen to (?:this )?article|print(?: this)?(?: article| page)?|back to (?:top|blog|blogs|news|articles)|scroll to top|(?:click|tap) to (?:copy|share)\b.*|edit (?:this page|on github)|suggest (?:an )?edits?|improve this (?:page|doc|article)|(?:was|did you find) this (?:page|article|post|doc|content|information|guide) helpful\??|thank you for your feedback[.!]?|copy(?: code)?|copy to clipboard|copied!?|(?:log|sign) ?(?:in|up)(?: (?:free|for free|now|here|today))?|register(?: now| for free| here| today)?|create (?:an|your|a free) account|(?:join|sign up) for free(?: or log ?in)?|(?:create an account or )?(?:sign|log) in to (?:answer|reply|comment|post)\b.*|create an account or (?:sign|log) in\b.*|contact us(?: today| now)?|get in touch|(?:schedule|book|request|get) a (?:free )?(?:call|demo|consultation|quote)(?: now| today)?!?|(?:sign|log) ?in or (?:join|register|sign ?up)|follow the author|pin (?:this|it) for later!?|(?:article|story) continues below|get (?:the|a|your|our) free [\w -]{1,30}!|stay (?:connected|in touch)(?: with (?:me|us))?!?|get started(?: today| now| for free| free)?|start (?:your |a )?free trial|continue reading|follow us(?: on (?:social media|\w+))?|share this (?:article|post|story|page) with (?:your )?friends|loading(?:\.\.\.|…)?|filters?|sort(?: by)?(?::.{0,30})?|(?:show|view|see) (?:more|all|less)|table of contents|in this (?:article|post|guide)|on this page|(?:written|edited|reviewed|fact[- ]checked) by:?|author:?|learn more|(?:check|see|view|compare) (?:the )?(?:latest |current |best )?prices? (?:at|on) .{1,40}|shop now|results per page:?|filter (?:&|and) sort|shopping options|(?:you must |please )?(?:log ?in|sign ?in|sign up|register)(?: or (?:log ?in|sign ?in|sign up|register|create an account))?(?: (?:for )?an account)? to (?:reply|answer|comment|post)(?: here| to this (?:topic|thread|question)| this (?:question|topic|thread|post))?[.!]?|sign up to request clarification\b.*|already have an account\?.*|sign up for (?:a|an|your) (?:new |free )?account(?: (?:in|on|with) [\w ]{1,30})?[.!]?(?: it'?s (?:easy|free)[.!]?)?|(?:for .{1,40}, )?(?:sign up|subscribe) (?:for|to) (?:our|the) .{0,40}newsletters?[.!]?|add .{1,30}? as a (?:preferred|trusted) source on google\b.*|add \S+ on google)$/i;
/**
 * Forum furniture the post template (post-template.ts) does not catch, as boards in general
 * word it: post numbers, edit notes and relative times, reply and quote buttons, counters and
 * member ranks on pages of fewer posts, and sign-in prompts.
 */
const FORUM_FURNITURE =
  /^(?:#\s?\d{1,6}|last edited:.{0,60}|reply(?: with quote)?|quote|report(?: post| inappropriate content)?|share|posts?:?\s*[\d,.]+k?|location:?.*|(?:new|junior|senior|active|valued|well-known|premium|established|registered|banned|elite|veteran|distinguished)? ?member|original poster|op|moderator|(?:sign|log) ?(?:in|up)(?: (?:for free|to reply|to comment))?|edited (?:on )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}(?:, \d{4})? by .{1,40}|posted (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}(?: \(edited\))?|(?:posted )?(?:\d+|an?) (?:minutes?|hours?|days?|weeks?|months?|years?) ago(?:\s*#\d+)?|followers?(?: \d+)?|(?:new )?members|wrote on|(?:[\d,.]+k? (?:posts?|solutions?|reputation|views?|watching|posters?|replies|likes?|reactions?)\s*)+)$/i;
/** Store furniture on product pages: cart, stock, shipping and returns notices. */
const SHOP_NOTICE =
  /^(?:loading(?:\.\.\.|…)?|ready to ship|cost to ship\b.*|order (?:today|now|within|by)\b.*|(?:enjoy now with|pay in|or \d+ (?:interest-free )?payments)\b.*|one-time purchase\b.*|(?:replenish|subscribe) (?:&|and) save\b.*|frequently bought together|[★☆\s]+(?:read )?(?:\d+ )?reviews?|[\d.,]+\s*(?:out of 5\s*)?(?:stars?)?\s*\(?[\d,.]+k?\)?\s*(?:reviews?|ratings?)|add(?:ed)? to (?:cart|bag|basket|wish ?list|favou?rites)\b.*|(?:in|out of|low in) stock\b.*|sold out|only \d+ left\b.*|(?:free|fast|express|standard) (?:shipping|delivery|returns?)\b.*|ships? (?:from|by|in|within|today|free)\b.*|returns? (?:&|and) exchanges?\b.*|select (?:a |your )?(?:size|color|colour|option|quantity)\b.*|quantity|qty|subscribe (?:&|and) save\b.*|buy now|notify me\b.*|get notified\b.*|pay in \d+ installments\b.*|coming soon!?|no longer available)$/i;

/**
 * A site's statement that it earns from the links it carries, said in the first person ("As an
 * Amazon Associate I earn from qualifying purchases") or of the site by name ("If you buy from a
 * link, Vox Media may earn a commission").
 */
const AFFILIATE_DISCLOSURE =
  /^(?:(?=.*\b(?:we|i(?=\s)|this (?:site|post|article|page))\b.{0,60}\b(?:earn|receive|make|be paid|get paid|compensated|paid)\b)(?=.*\b(?:affiliate|commissions?|compensat\w*|qualifying purchases)\b)|(?=.*\bmay (?:earn|receive|get|be paid) (?:a )?(?:small )?(?:commission|compensation)\b)(?=.*\b(?:links?|purchases?|buy)\b))/i;
/**
 * A word every affiliate disclosure holds: the disclosure's lookaheads try each position of a
 * text, and most texts hold none of these.
 */
const AFFILIATE_WORD = /affiliate|commission|compensat|qualifying purchases/i;
/** Longest block read as a notice or furniture. */
const MAX_NOTICE_CHARS = 100;
/** Longest affiliate disclosure. */
const MAX_DISCLOSURE_CHARS = 400;

/**
 * The fine print under a sign-up form: "By signing up, you agree to receive recurring automated
 * SMS marketing messages…", "By clicking Subscribe you consent to … processing your data".
 */
const SIGNUP_CONSENT =
  /^by (?:signing up|subscribing|clicking|tapping|submitting|registering|continuing|creating an account|providing your|entering your)\b.{0,160}?\byou(?:'re| are)? (?:also )?(?:agree|consent|confirm|acknowledge|accept|authorize)/i;

/** Blocks of at most `maxChars` whose whole text matches `pattern` go. */
interface ShortBlockRule {
  pattern: RegExp;
  maxChars: number;
  /** A quicker pattern that every text `pattern` matches matches too, tried first. */
  hint?: RegExp;
}

/** Furniture and statements of the site about itself that go wherever they stand. */
const NOTICES: readonly ShortBlockRule[] = [
  { pattern: FURNITURE, maxChars: MAX_NOTICE_CHARS },
  { pattern: AFFILIATE_DISCLOSURE, maxChars: MAX_DISCLOSURE_CHARS, hint: AFFILIATE_WORD },
  { pattern: SIGNUP_CONSENT, maxChars: MAX_DISCLOSURE_CHARS },
];
/** The notices of a forum thread. */
const FORUM_NOTICES = [...NOTICES, { pattern: FORUM_FURNITURE, maxChars: MAX_NOTICE_CHARS }];
/** The notices of a product page. */
const SHOP_NOTICES = [...NOTICES, { pattern: SHOP_NOTICE, maxChars: MAX_NOTICE_CHARS }];

/**
 * Removes the whole blocks of at most `maxChars` characters that one of `rules` takes, in one
 * walk from the root down: a block taken goes with what it holds, the blocks inside one that is
 * not are asked in turn. An inline element is taken only when it stands alone on its line:
 * inside a sentence a phrase is the sentence's ("… a back to top link").
 */
function removeShortBlocks(
  root: DomElement,
  maxChars: number,
  rules: readonly ShortBlockRule[],
): void {
  // Measured once: reading each element's text on the way down would cost size × depth.
  const stats = measureText(root);
  const doomed: DomElement[] = [];
  // The only child of an element not taken has the same text, and is left as its wrapper was
  // (read again at every level, a chain of wrappers around a short text cost depth squared).
  let passed: DomNode | null = null;
  walk(root, (node) => {
    if (!isElement(node)) return false;
    // The measure collapses whitespace, so it is at most the text's length.
    if ((stats.get(node)?.chars ?? 0) > maxChars) return true;
    if (node === passed) {
      passed = onlyChild(node);
      return true;
    }
    // A table cell is never taken itself, which would move the cells after it a column left;
    // what it holds is asked.
    const tag = tagOf(node);
    if (tag === "td" || tag === "th") return true;
    // A phrase with text beside it on its line is the sentence's whatever it says (a link in a
    // paragraph), and is not read. One whose only child is an element still is: when a rule
    // takes the phrase, that child, alone inside it, is asked in turn.
    if (inRunningText(node) && onlyChild(node) === null) return true;
    const text = textOf(node);
    if (text.length <= maxChars && matchesRule(rules, text)) {
      if (isWholeBlock(node, text)) {
        doomed.push(node);
        return false;
      }
      return true;
    }
    passed = onlyChild(node);
    return true;
  });
  for (const el of doomed) el.remove();
}

/**
 * True when `el` is an inline element with text beside it (a sibling text that is not all
 * whitespace): such an element never stands alone on its line.
 */
function inRunningText(el: DomElement): boolean {
  if (!INLINE_TAGS.has(tagOf(el))) return false;
  const before = el.previousSibling;
  const after = el.nextSibling;
  return (
    (isText(before) && NOT_SPACE.test(before.data)) || (isText(after) && NOT_SPACE.test(after.data))
  );
}

/** Any character `trim` keeps. */
const NOT_SPACE = /\S/;

/** True when `el`, of text `text`, is a block or an inline element alone on its line. */
function isWholeBlock(el: DomElement, text: string): boolean {
  return !INLINE_TAGS.has(tagOf(el)) || standsAlone(el, text);
}

/** The element that is all `el` holds, or null. */
function onlyChild(el: DomElement): DomElement | null {
  const child = el.firstChild;
  return child !== null && child.nextSibling === null && isElement(child) ? child : null;
}

/** True when one of `rules` takes `text`: a loop, not a callback made for every element. */
function matchesRule(rules: readonly ShortBlockRule[], text: string): boolean {
  for (const rule of rules) {
    if (text.length > rule.maxChars || (rule.hint && !rule.hint.test(text))) continue;
    if (rule.pattern.test(text)) return true;
  }
  return false;
}

/**
 * Parts of a product page that are about other products or other people: reviews and ratings,
 * Q&A, recommendation carousels, bundles, recently viewed items. Whole `-`/`_`-separated words
 * of class or id.
 */
const PRODUCT_ASIDE_NAMES =
  /(?:^|[\s_-])(?:reviews?|ratings?|testimonials?|questions?|qa|q-and-a|recommend\w*|recs|related|similar|also-?(?:bought|viewed|like)?|carousel|slider|upsells?|cross-?sells?|recently(?:-?viewed)?|bundles?|sponsored|cart|basket|wishlist|breadcrumbs?)(?=$|[\s_\d-])/i;
/** A product aside holding more than this share of the root's text is kept (it is the page). */
const MAX_PRODUCT_ASIDE_SHARE = 0.6;

/** Removes reviews, recommendations and other products from a product page's root. */
function removeProductAsides(root: DomElement): void {
  const stats = measureText(root);
  const rootChars = stats.get(root)?.chars ?? 0;
  const doomed: DomElement[] = [];
  walk(root, (node) => {
    if (!isElement(node) || node === root) return true;
    const names = `${attr(node, "class")} ${attr(node, "id")}`;
    if (names.length > 1 && PRODUCT_ASIDE_NAMES.test(names)) {
      const chars = stats.get(node)?.chars ?? 0;
      if (chars <= rootChars * MAX_PRODUCT_ASIDE_SHARE && !holdsTitle(node)) {
        doomed.push(node);
        return false;
      }
    }
    return true;
  });
  for (const el of doomed) el.remove();
}

/** True when `el` holds the page's `<h1>`. */
function holdsTitle(el: DomElement): boolean {
  return hasDescendant(el, (node) => tagOf(node) === "h1");
}

/** Phrasing elements, which are furniture only when they are all their parent says. */
const INLINE_TAGS = new Set([
  "a",
  "span",
  "strong",
  "em",
  "b",
  "i",
  "small",
  "label",
  "time",
  "abbr",
  "code",
  "sup",
  "sub",
]);

/**
 * True when a phrasing element reads as a line of its own: it is all its parent says, or only
 * block elements (or nothing) stand beside it, as a button link under a paragraph does.
 */
function standsAlone(el: DomElement, text: string): boolean {
  const parent = el.parentNode;
  if (isElement(parent) && textOf(parent) === text) return true;
  return lineEdge(el.previousSibling, "previousSibling") && lineEdge(el.nextSibling, "nextSibling");
}

/** True when the nearest sibling with something in it, going `way`, ends a line (or is none). */
function lineEdge(start: DomNode | null, way: "previousSibling" | "nextSibling"): boolean {
  for (let node = start; node !== null; node = node[way]) {
    if (isElement(node)) return tagOf(node) === "br" || !INLINE_TAGS.has(tagOf(node));
    if ((node.textContent ?? "").trim() !== "") return false;
  }
  return true;
}

/** Blocks that can be a menu. */
const LIST_TAGS = new Set(["ul", "ol", "div", "section", "nav", "aside", "table", "dl"]);
/** A menu has at least this many links… */
const MIN_MENU_LINKS = 5;
/** …that make up this share of its text… */
const MENU_LINK_SHARE = 0.75;
/** …with labels this short on average (cards and article lists have longer titles). */
const MAX_MENU_LABEL_CHARS = 30;

/**
 * Removes menus left inside the root (a docs sidebar inside `<main>`, a category list): blocks
 * of many short links with little other text, each less than half of the root, that are neither
 * a section's body nor a part of cards alike.
 */
function removeLinkLists(root: DomElement): void {
  // Measured when a block first has links enough to be a menu (nothing goes before the walk ends).
  let rootChars: number | undefined;
  const measures = measureLists(root);
  const units: UnitCounts = new Map();
  const cards: CardParts = { root, decided: new Map() };
  const doomed: DomElement[] = [];
  walk(root, (node) => {
    if (!isElement(node)) return false;
    if (!LIST_TAGS.has(tagOf(node))) return true;
    const { links, linkChars, chars } = measures.get(node)!;
    if (links < MIN_MENU_LINKS) return links > 0;
    rootChars ??= textLength(root);
    const isMenu =
      chars < rootChars * MAX_SECTION_SHARE &&
      linkChars >= chars * MENU_LINK_SHARE &&
      linkChars / links <= MAX_MENU_LABEL_CHARS &&
      !followsHeading(node, root) &&
      !isRepeatedUnit(node, units) &&
      // A list in each of many cards, saying something else in each (a paper's authors), is
      // part of the cards; a widget saying the same in every card (rating stars) is a menu.
      !(attr(node, "class") !== "" && isCardPart(node, cards));
    if (isMenu) doomed.push(node);
    return !isMenu;
  });
  for (const el of doomed) el.remove();
}

/**
 * Of a list: its links (the `<a>` elements in it that are in no other `<a>` in it), their text's
 * length and its own, each as textOf() would count it.
 */
interface ListMeasure {
  links: number;
  linkChars: number;
  chars: number;
}

/** An open list or link while measuring: the text read in it so far, and the links counted. */
interface MeasureFrame extends TextRun {
  link: boolean;
  links: number;
  linkChars: number;
}

/**
 * Measures every list (LIST_TAGS) under `root` in one walk: each list's and link's text is
 * summed from its children's when it closes, never read again from its nodes, so lists nested a
 * hundred deep cost the page's size once instead of once per level (a nested `div` is a list).
 */
function measureLists(root: DomElement): Map<DomElement, ListMeasure> {
  const measures = new Map<DomElement, ListMeasure>();
  const frames: MeasureFrame[] = [];
  walk(
    root,
    (node) => {
      if (isText(node)) {
        // Outside every list there is no frame (and reading index -1 of an empty array is a
        // property lookup, many times slower than an index).
        if (frames.length > 0) appendText(frames[frames.length - 1]!, node.data);
        return false;
      }
      if (!isElement(node)) return false;
      const tag = tagOf(node);
      // A link outside every list is counted by none: it is not followed.
      if (tag === "a" ? frames.length > 0 : LIST_TAGS.has(tag)) {
        frames.push({
          link: tag === "a",
          length: 0,
          startsWithSpace: false,
          endsWithSpace: false,
          links: 0,
          linkChars: 0,
        });
      }
      return true;
    },
    (el) => {
      const tag = tagOf(el);
      // A link that opened no frame closes none (its own lists closed theirs).
      if (tag === "a" ? frames.length === 0 : !LIST_TAGS.has(tag)) return;
      const frame = frames.pop()!;
      const chars = runLength(frame);
      if (!frame.link) measures.set(el, { links: frame.links, linkChars: frame.linkChars, chars });
      if (frames.length === 0) return;
      const parent = frames[frames.length - 1]!;
      appendRun(parent, frame.length, frame.startsWithSpace, frame.endsWithSpace);
      // A link counts once for the lists around it, up to the nearest link around it, which
      // hides it; a list passes up what it counted unless a link is around it.
      if (parent.link) return;
      parent.links += frame.link ? 1 : frame.links;
      parent.linkChars += frame.link ? chars : frame.linkChars;
    },
  );
  return measures;
}

/**
 * Text as textOf() measures it, without the text: `length` after collapsing whitespace runs,
 * before trimming, and whether it starts and ends with whitespace. Two joined texts measure as
 * the sum, less one where a run ending the first meets a run starting the second.
 */
interface TextRun {
  length: number;
  startsWithSpace: boolean;
  endsWithSpace: boolean;
}

/** Adds one text node's data to `run`, as if its text followed the run's. */
function appendText(run: TextRun, data: string): void {
  if (data === "") return;
  let length = 0;
  let inRun = false;
  for (let i = 0; i < data.length; i++) {
    const space = isSpaceCode(data.charCodeAt(i));
    if (!space || !inRun) length++;
    inRun = space;
  }
  appendRun(
    run,
    length,
    isSpaceCode(data.charCodeAt(0)),
    isSpaceCode(data.charCodeAt(data.length - 1)),
  );
}

/**
 * Extends `run` by a run measured `length`, starting and ending as given. Changed in place:
 * a table's every cell would otherwise leave an object behind.
 */
function appendRun(
  run: TextRun,
  length: number,
  startsWithSpace: boolean,
  endsWithSpace: boolean,
): void {
  if (length === 0) return;
  if (run.length === 0) {
    run.length = length;
    run.startsWithSpace = startsWithSpace;
  } else {
    run.length += length - (run.endsWithSpace && startsWithSpace ? 1 : 0);
  }
  run.endsWithSpace = endsWithSpace;
}

/** textOf()'s length: the collapsed text trimmed (all whitespace trims to nothing). */
function runLength(run: TextRun): number {
  const trimmed = run.length - (run.startsWithSpace ? 1 : 0) - (run.endsWithSpace ? 1 : 0);
  return Math.max(0, trimmed);
}

/** Siblings alike (tag and class) that make a block one card of a listing, not a menu. */
const MIN_CARDS = 3;

/** True when `el` is one of MIN_CARDS or more siblings of its tag and class. */
function isRepeatedUnit(el: DomElement, units: UnitCounts): boolean {
  const parent = el.parentNode;
  const names = attr(el, "class");
  if (!isElement(parent) || names === "") return false;
  let counts = units.get(parent);
  if (counts === undefined) {
    counts = new Map();
    for (const sibling of childElements(parent)) {
      const key = unitKey(sibling);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    units.set(parent, counts);
  }
  return (counts.get(unitKey(el)) ?? 0) >= MIN_CARDS;
}

/**
 * Children of a parent counted by tag and class, once per parent: counting the siblings again
 * for each of thousands of lists side by side cost their number squared.
 */
type UnitCounts = Map<DomElement, Map<string, number>>;

/**
 * The elements of `root` with a class, by tag and class, none inside another of its key
 * (sublists of one menu, a contents list's sections, are that menu, not cards alike).
 */
function outermostByKey(root: DomElement): Map<string, DomElement[]> {
  const outermost = new Map<string, DomElement[]>();
  const open = new Map<string, number>(); // how many elements of each key the walk is inside
  walk(
    root,
    (node) => {
      if (!isElement(node)) return false;
      if (attr(node, "class") === "") return true;
      const key = unitKey(node);
      const depth = open.get(key) ?? 0;
      open.set(key, depth + 1);
      if (depth === 0) {
        const list = outermost.get(key);
        if (list === undefined) outermost.set(key, [node]);
        else list.push(node);
      }
      return true;
    },
    (el) => {
      if (attr(el, "class") === "") return;
      const key = unitKey(el);
      open.set(key, open.get(key)! - 1);
    },
  );
  return outermost;
}

/**
 * True when `el` is one of MIN_CARDS or more elements alike across the page that say at least
 * MIN_CARDS different things: a part of cards (a paper's authors, a letter's categories). A
 * widget that says the same in every card (rating stars) is not. Decided once per key.
 */
function isCardPart(el: DomElement, cards: CardParts): boolean {
  const key = unitKey(el);
  let answer = cards.decided.get(key);
  if (answer === undefined) {
    cards.outermost ??= outermostByKey(cards.root);
    const alike = cards.outermost.get(key) ?? [];
    const texts = new Set<string>();
    for (const other of alike) {
      texts.add(textOf(other));
      if (texts.size >= MIN_CARDS) break;
    }
    answer = texts.size >= MIN_CARDS;
    cards.decided.set(key, answer);
  }
  return answer;
}

/** What isCardPart knows of a root: its elements by key, read when first asked, and answers. */
interface CardParts {
  root: DomElement;
  outermost?: Map<string, DomElement[]>;
  decided: Map<string, boolean>;
}

/** What makes siblings alike: tag and class. */
function unitKey(el: DomElement): string {
  return `${tagOf(el)} ${attr(el, "class")}`;
}

/** Wrappers climbed to find what a list follows (a column layout around it). */
const MAX_WRAPPER_DEPTH = 2;

/**
 * True when the nearest element before `el` is a heading: a list that is a section's body. A
 * list that opens its wrapper (Wikipedia's `div-col`) follows what its wrapper follows, and a
 * heading may sit in a wrapper of its own (`div.mw-heading`).
 */
function followsHeading(el: DomElement, root: DomElement): boolean {
  let current = el;
  for (let depth = 0; depth <= MAX_WRAPPER_DEPTH; depth++) {
    let prev = current.previousSibling;
    while (prev !== null && !isElement(prev)) prev = prev.previousSibling;
    if (isElement(prev)) return isHeadingLike(prev);
    const parent = current.parentNode;
    if (!isElement(parent) || parent === root) return false;
    current = parent;
  }
  return false;
}

/** A heading, or an element whose only child element is one. */
function isHeadingLike(el: DomElement): boolean {
  if (headingLevel(el) > 0) return true;
  const children = childElements(el);
  return children.length === 1 && headingLevel(children[0]!) > 0;
}

function removeBoilerplateSections(root: DomElement, pageType: PageType): void {
  const headings: DomElement[] = [];
  walk(root, (node) => {
    if (!isElement(node)) return false;
    if (headingLevel(node) > 0) {
      headings.push(node);
      return false;
    }
    return true;
  });
  // The root's length before any removal, measured once a section may go: most headings are no
  // section's, and the measure walks the whole root.
  let rootChars: number | undefined;
  const measureRoot = () => (rootChars ??= textLength(root));
  for (const heading of headings) {
    if (!heading.parentNode) continue; // removed with an earlier section
    const text = headingText(heading);
    if (text.length === 0 || text.length > MAX_COMMENTS_HEADING_CHARS) continue;
    // On a forum the replies are the content. ("59 Comments on “<the post's title>”" is long.)
    const comments = pageType !== "forum" && COMMENTS_HEADING.test(text);
    if (!comments && text.length > MAX_SECTION_HEADING_CHARS) continue;
    // Comments can outweigh the post; other sections that large are kept (see removeSection).
    const productAside = pageType === "product" && PRODUCT_ASIDE_HEADING.test(text);
    if (comments || productAside) {
      measureRoot();
      removeSection(heading, root, Number.POSITIVE_INFINITY, false);
    } else if (
      BOILERPLATE_HEADING.test(text) &&
      !(pageType === "documentation" && RELATED_PAGES_HEADING.test(text))
    ) {
      removeSection(heading, root, measureRoot(), false);
    }
    // Only the links under it: these headings also stand over a box in the middle of the text.
    else if (OTHER_LANGUAGE_BOILERPLATE_HEADING.test(text) || TOC_HEADING.test(text)) {
      removeSection(heading, root, measureRoot(), true);
    }
  }
}

/**
 * Removes a heading and the section it opens: from the heading (or the wrapper it alone fills)
 * through the following siblings, up to one that holds a heading as high. With `linksOnly`, the
 * section ends at the first sibling that is not mostly links.
 */
function removeSection(
  heading: DomElement,
  root: DomElement,
  rootChars: number,
  linksOnly: boolean,
): void {
  const level = headingLevel(heading);
  let start: DomElement = heading;
  // A heading alone in its wrapper: the section is the wrapper's siblings.
  for (
    let parent = start.parentNode;
    isElement(parent) && parent !== root && onlyTextChild(parent) === start;
    parent = parent.parentNode
  ) {
    start = parent;
  }
  const doomed: DomNode[] = [start];
  for (let next = start.nextSibling; next !== null; next = next.nextSibling) {
    if (isElement(next)) {
      if (holdsHeadingAsHigh(next, level)) break;
      if (linksOnly && !mostlyLinks(next)) break;
    }
    doomed.push(next);
  }
  // A "section" holding most of the content is the content under an odd title: Invision forums
  // head their thread "Recommended Posts", a manual's chapter page is its table of contents, a
  // blog's front page its "Latest posts". Unless a post of its own stands beside it: then it
  // is a long teaser list under the post ("Latest News", three summaries with "Read More").
  let chars = 0;
  let links = 0;
  for (const node of doomed) {
    if (!isElement(node)) continue;
    const [all, linked] = linkText(node);
    chars += all;
    links += linked;
  }
  if (
    chars > rootChars * MAX_SECTION_SHARE &&
    (linksOnly || links < chars * TOC_LINK_SHARE) &&
    rootChars - chars < MIN_POST_BESIDE_CHARS
  ) {
    return;
  }
  for (const node of doomed) node.remove();
}

/** The one child element of `el` that holds text, when the others hold none. */
function onlyTextChild(el: DomElement): DomElement | undefined {
  let found: DomElement | undefined;
  for (const child of childElements(el)) {
    if (textLength(child) === 0) continue;
    if (found) return undefined;
    found = child;
  }
  return found;
}

function holdsHeadingAsHigh(el: DomElement, level: number): boolean {
  const own = headingLevel(el);
  if (own > 0) return own <= level;
  return hasDescendant(el, (node) => {
    const l = headingLevel(node);
    return l > 0 && l <= level;
  });
}

function mostlyLinks(el: DomElement): boolean {
  const [all, links] = linkText(el);
  return all === 0 || links >= all * TOC_LINK_SHARE;
}

/**
 * Removes what repeats text shown earlier in `root`: a block said twice, or a larger element
 * (a card grid, a section) laid out again for another screen size or carousel frame. A code
 * sample and a table's rows and cells are never taken for repeating: a sample or a header row
 * is repeated on purpose, and a cell taken would move the cells after it a column left.
 */
function removeRepeats(root: DomElement): void {
  const blocks = new Set<string>();
  const trees = new Set<string>();
  // Measured once: reading each element's text on the way down would cost size × depth.
  const stats = measureText(root);
  const doomed: DomElement[] = [];
  let opaque: DomElement | null = null; // the table or code block being walked through
  walk(
    root,
    (node) => {
      if (!isElement(node)) return false;
      const tag = tagOf(node);
      if (DEDUPE_TAGS.has(tag)) {
        const text = textOf(node);
        if (text.length < MIN_DUPLICATE_CHARS) return false;
        if (blocks.has(text)) doomed.push(node);
        else blocks.add(text);
        return false;
      }
      if (opaque !== null) return true;
      if (tag === "pre") {
        opaque = node;
        return true;
      }
      const chars = stats.get(node)?.chars ?? 0;
      // An element holding all of its parent's text (a wrapper's only child) was compared as it.
      const parent = node.parentNode;
      const wrapped = parent !== root && stats.get(parent as DomElement)?.chars === chars;
      if (chars >= MIN_REPEATED_TREE_CHARS && chars <= MAX_REPEATED_TREE_CHARS && !wrapped) {
        const text = textOf(node);
        if (trees.has(text)) {
          doomed.push(node);
          return false;
        }
        trees.add(text);
      }
      if (tag === "table") opaque = node;
      return true;
    },
    (el) => {
      if (el === opaque) opaque = null;
    },
  );
  for (const el of doomed) el.remove();
}
