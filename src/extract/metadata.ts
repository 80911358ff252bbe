/**
 * Page metadata: title, description, author, site name, publication date, language and canonical
 * URL, read from `<title>`, `<meta>` (plain, Open Graph, Twitter, Dublin Core, Highwire
 * `citation_*`), `<link rel=canonical>`, `<html lang>` and JSON-LD. Each field takes the first
 * source in a fixed order, so results are predictable; unknown fields are left out.
 */

import { normalizeDate } from "./date.js";
import {
  attr,
  attrMatches,
  type DomDocument,
  type DomElement,
  isElement,
  isText,
  tagOf,
  textOf,
  WHITESPACE_RUN,
  walk,
} from "./dom.js";
import { joinNames, readJsonLd } from "./jsonld.js";
import { isHttpUrl, resolveUrl } from "./url.js";

/** Metadata of a page; a field is present only when the page states it. */
export interface PageMetadata {
  title?: string;
  description?: string;
  author?: string;
  siteName?: string;
  /** ISO 8601 (UTC) when the date could be read, else the page's own string. */
  publishedAt?: string;
  /** BCP 47 tag, `_` turned into `-` (`en-US`). */
  lang?: string;
  /** Absolute http(s) URL. */
  canonicalUrl?: string;
}

/** Byline elements examined. */
const MAX_BYLINES = 8;
/** Longest byline text read as a name. */
const MAX_BYLINE_CHARS = 80;
/** Most words in such a name ("Jane Q. Doe, MD"). */
const MAX_BYLINE_WORDS = 8;
/** `<h1>`s remembered for the title. */
const MAX_H1S = 2;
/** Share of an `<h1>`'s words found in the stated title for it to be the title. */
const H1_TITLE_OVERLAP = 0.6;
/** A trailing title segment this short reads as the site's name. */
const SITE_NAME_WORDS = 4;
/** Words a title keeps at least once the site's name is cut. */
const MIN_TITLE_WORDS = 2;
/** Longest metadata value kept, in characters; longer values are cut at a word. */
const MAX_VALUE_LENGTH = 1000;
/** Most `<meta>` values kept under one key (pages with 10,000 citation authors exist). */
const MAX_VALUES_PER_KEY = 50;
/** BCP 47-shaped language tags; anything else (`"english"`, `"{{lang}}"`) is ignored. */
const LANG_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;
/** Values that are URLs or handles rather than names (`article:author` is often a profile URL). */
const NOT_A_NAME = /^(?:https?:\/\/|www\.|@)/i;

/** Meta keys per field, in order of preference (lower case; `name`, `property` or `itemprop`). */
const META_KEYS = {
  title: ["og:title", "twitter:title", "citation_title", "dc.title", "dcterms.title"],
  description: [
    "description",
    "og:description",
    "twitter:description",
    "dc.description",
    "dcterms.description",
  ],
  author: ["author", "citation_author", "article:author", "dc.creator", "dcterms.creator"],
  siteName: ["og:site_name", "application-name", "citation_journal_title"],
  publishedAt: [
    "article:published_time",
    "datepublished",
    "citation_publication_date",
    "citation_date",
    "citation_online_date",
    "dc.date",
    "dcterms.created",
    "dcterms.date",
    "dc.date.issued",
    "date",
    "pubdate",
    "publish-date",
    "parsely-pub-date",
    "sailthru.date",
    "og:published_time",
  ],
} as const;

/** Everything metadata reads from the DOM, gathered in one walk. */
/** What the page's head and structured data say, as written, before any choice is made. */
export interface RawMetadata {
  meta: Map<string, string[]>;
  title?: string | undefined;
  canonical?: string | undefined;
  htmlLang?: string | undefined;
  jsonLd: string[];
  /** Text of the first few `<h1>`s. */
  h1s: string[];
  /** Elements that mark a byline (`rel=author`, `itemprop=author`, an author/byline class). */
  bylines: DomElement[];
  /**
   * Dates in the body, for a page whose head has none: an element marked
   * `itemprop=datePublished` (its `content` or `datetime`), else the first `<time datetime>`,
   * else the text of an element named like a date.
   */
  datePublished?: string | undefined;
  firstTime?: string | undefined;
  /** The first short text of an element named like a date ("post-date", "published") that reads as one. */
  dateText?: string | undefined;
}

/**
 * Extracts metadata. `baseUrl` (the page URL, or its `<base href>`) makes the canonical URL
 * absolute; without it a relative canonical link is dropped.
 *
 * @example
 * extractMetadata(parseDocument('<html lang="en"><title>Hi</title>'), "https://e.com/");
 * // { title: "Hi", lang: "en" }
 */
export function extractMetadata(
  document: DomDocument,
  baseUrl?: string,
  raw: RawMetadata = gatherMetadata(document),
): PageMetadata {
  const ld = readJsonLd(raw.jsonLd);
  const first = (keys: readonly string[]): string | undefined => {
    for (const key of keys) {
      const value = raw.meta.get(key)?.[0];
      if (value) return value;
    }
    return undefined;
  };

  const result: PageMetadata = {};
  const title = first(["og:title"]) ?? ld.title ?? first(META_KEYS.title) ?? raw.title;
  const siteName = first(META_KEYS.siteName) ?? ld.siteName;
  // Collapsed first: the separator pattern retries at each space of a long run, in quadratic time.
  const stated = title === undefined ? undefined : collapse(title);
  setText(result, "title", stated === undefined ? undefined : pageTitle(stated, raw.h1s, siteName));
  setText(result, "description", first(META_KEYS.description) ?? ld.description);
  setText(result, "author", ld.author ?? metaAuthor(raw.meta) ?? bylineAuthor(raw.bylines));
  setText(result, "siteName", siteName);

  // The first date that reads as one, else the first date string as the page wrote it. The
  // head and structured data speak first; a date in the body (a byline's <time>) after them.
  const dates = [
    ...META_KEYS.publishedAt.map((key) => raw.meta.get(key)?.[0]),
    ld.publishedAt,
    raw.datePublished,
    raw.firstTime,
    raw.dateText,
  ]
    .map((value) => value?.trim())
    .filter((value): value is string => Boolean(value));
  const date = dates.map(normalizeDate).find((value) => value !== undefined) ?? dates[0];
  if (date) result.publishedAt = clip(date);

  const lang = [raw.htmlLang, first(["content-language", "og:locale"]), ld.lang]
    .map((value) => value?.replace(/_/g, "-").split(",")[0]?.trim())
    .find((value) => value !== undefined && LANG_TAG.test(value));
  if (lang) result.lang = lang;

  const canonical = [raw.canonical, first(["og:url"])]
    .map((href) => (href ? resolveUrl(href, baseUrl) : undefined))
    .find(isHttpUrl);
  if (canonical) result.canonicalUrl = canonical;
  return result;
}

/** Separators between a page's title and its site's name ("Post | Site", "Post - Site"). */
const TITLE_SEPARATOR = /\s+[|\-–—•·»:]{1,2}\s+/;

/**
 * The page's own title: the headline when one `<h1>` is the stated title less the site's name,
 * else the stated title with a trailing (or leading) site name cut off.
 */
function pageTitle(stated: string, h1s: readonly string[], siteName: string | undefined): string {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const statedWords = new Set(words(stated));
  const [h1] = h1s;
  if (h1s.length === 1 && h1 !== undefined && h1.length >= 3 && h1.length <= 300) {
    const h1Words = words(h1);
    const shared = h1Words.filter((w) => statedWords.has(w)).length;
    if (h1Words.length > 0 && shared >= h1Words.length * H1_TITLE_OVERLAP) return h1;
  }
  const parts = stated.split(TITLE_SEPARATOR);
  if (parts.length < 2) return stated;
  const site = siteName ? words(siteName).join(" ") : undefined;
  const last = parts[parts.length - 1]!;
  const firstPart = parts[0]!;
  const isSite = (part: string) =>
    (site !== undefined && words(part).join(" ") === site) || words(part).length <= SITE_NAME_WORDS;
  if (isSite(last) && words(stated).length - words(last).length >= MIN_TITLE_WORDS) {
    return parts.slice(0, -1).join(" | ").trim();
  }
  if (site !== undefined && words(firstPart).join(" ") === site && parts.length === 2) {
    return parts.slice(1).join(" | ").trim();
  }
  return stated;
}

/** Class or id of a byline. */
const BYLINE_NAMES = /(?:^|[\s_-])(?:author|authors|byline|author-name|writer)(?:$|[\s_-])/i;
/** "By", "Written by", "Posted by" and such before a name. */
const BYLINE_PREFIX = /^(?:(?:written|posted|published|reviewed|edited)\s+)?by\s*:?\s+/i;

function isByline(el: DomElement, itemprop: string, elNames: string): boolean {
  if (tagOf(el) === "a" && attrMatches(el, "rel", AUTHOR_REL)) return true;
  if (itemprop === "author") return true;
  return elNames !== NO_NAMES && BYLINE_NAMES.test(elNames);
}

/** A link's `rel` naming the page's author. */
const AUTHOR_REL = /(?:^|\s)author(?:\s|$)/i;

/** A name from the page's byline elements: short text, "By" and trailing dates cut off. */
function bylineAuthor(bylines: readonly DomElement[]): string | undefined {
  for (const el of bylines) {
    const text = textOf(el)
      .replace(BYLINE_PREFIX, "")
      .split(/\s+(?:[|•·]|on|—|–)\s+|\s*\n/)[0]!
      .trim();
    const words = text.split(/\s+/).length;
    if (text.length >= 2 && text.length <= MAX_BYLINE_CHARS && words <= MAX_BYLINE_WORDS) {
      if (!/\d{4}|\bago\b|^(?:by|author|authors)$/i.test(text)) return text;
    }
  }
  return undefined;
}

/** The author from meta tags: all `citation_author`s joined, else the first usable value. */
function metaAuthor(meta: Map<string, string[]>): string | undefined {
  for (const key of META_KEYS.author) {
    const values = (meta.get(key) ?? []).filter((value) => !NOT_A_NAME.test(value));
    if (values.length > 0) return joinNames([...new Set(values)]);
  }
  return undefined;
}

/** Collects meta tags, title, canonical link, `<html lang>` and JSON-LD text in one pass. */
export function gatherMetadata(document: DomDocument): RawMetadata {
  const raw: RawMetadata = { meta: new Map(), jsonLd: [], h1s: [], bylines: [] };
  const root = document.documentElement;
  if (!root) return raw;
  raw.htmlLang = attr(root, "lang") || attr(root, "xml:lang") || undefined;
  let dateTries = 0;
  walk(root, (node) => {
    if (!isElement(node)) return false;
    const el = node;
    // Read once for the byline and date tests below.
    const itemprop = attr(el, "itemprop").toLowerCase();
    const elNames = names(el);
    if (raw.bylines.length < MAX_BYLINES && isByline(el, itemprop, elNames)) raw.bylines.push(el);
    if (raw.datePublished === undefined && itemprop === "datepublished") {
      raw.datePublished = attr(el, "content") || attr(el, "datetime") || undefined;
    }
    if (
      raw.dateText === undefined &&
      dateTries < MAX_DATE_TRIES &&
      elNames !== NO_NAMES &&
      DATE_NAME.test(elNames)
    ) {
      dateTries++;
      raw.dateText = readDateText(el);
    }
    switch (tagOf(el)) {
      case "time":
        raw.firstTime ??= attr(el, "datetime") || undefined;
        return true;
      case "meta":
        addMeta(raw.meta, el);
        return false;
      case "title":
        raw.title ??= textContent(el);
        return false;
      case "link":
        if (raw.canonical === undefined && /(?:^|\s)canonical(?:\s|$)/i.test(attr(el, "rel"))) {
          raw.canonical = attr(el, "href") || undefined;
        }
        return false;
      case "script":
        if (/^application\/ld\+json/i.test(attr(el, "type"))) raw.jsonLd.push(textContent(el));
        return false;
      case "h1":
        if (raw.h1s.length < MAX_H1S) raw.h1s.push(textOf(el));
        return false;
      case "svg":
      case "math":
      case "template":
        return false; // their <title>s are not the page title
      default:
        return true;
    }
  });
  return raw;
}

/** Class or id of an element that shows a date. */
const DATE_NAME = /date|publish|posted|time/i;
/** Elements named like a date whose text is read, at most: past these, none is. */
const MAX_DATE_TRIES = 20;
/** Longest text read as a date ("Published on Tuesday, January 2, 2024 at 10:00"). */
const MAX_DATE_TEXT = 60;
/** Words before the date itself. */
const DATE_LEAD = /^(?:published|posted|updated|on|date)[:\s]*/i;

/** Class and id of an element, a space between them: NO_NAMES when it has neither. */
function names(el: DomElement): string {
  return `${attr(el, "class")} ${attr(el, "id")}`;
}

/** What `names` gives an element with no class and no id (most of a page's). */
const NO_NAMES = " ";

/** The date an element shows in its text, normalized, if it is short and reads as one. */
function readDateText(el: DomElement): string | undefined {
  const text = textOf(el).trim().replace(DATE_LEAD, "");
  return text.length <= MAX_DATE_TEXT ? normalizeDate(text) : undefined;
}

/** Records a `<meta>` under its `name`, `property` and `itemprop` keys. */
function addMeta(meta: Map<string, string[]>, el: DomElement): void {
  const content = attr(el, "content") || attr(el, "value");
  if (!content) return;
  const keys = [
    attr(el, "name"),
    attr(el, "property"),
    attr(el, "itemprop"),
    attr(el, "http-equiv"),
  ];
  for (const key of keys) {
    if (!key) continue;
    // `property` may hold several space-separated keys (RDFa).
    for (const name of key.toLowerCase().split(/\s+/)) {
      const list = meta.get(name) ?? [];
      if (list.length < MAX_VALUES_PER_KEY) list.push(content);
      meta.set(name, list);
    }
  }
}

/** Text of a raw-text element (title, script): its text children. */
function textContent(el: DomElement): string {
  let text = "";
  for (let child = el.firstChild; child !== null; child = child.nextSibling) {
    if (isText(child)) text += child.data;
  }
  return text;
}

/** Sets a text field, whitespace collapsed and clipped, when it is not empty. */
function setText(
  result: PageMetadata,
  key: "title" | "description" | "author" | "siteName",
  value: string | undefined,
): void {
  if (value === undefined) return;
  const cleaned = clip(collapse(value));
  if (cleaned !== "") result[key] = cleaned;
}

/** `value` with each run of whitespace as one space, trimmed. */
function collapse(value: string): string {
  return value.replace(WHITESPACE_RUN, " ").trim();
}

/** Cuts a value to MAX_VALUE_LENGTH at a word boundary. */
function clip(value: string): string {
  if (value.length <= MAX_VALUE_LENGTH) return value;
  const cut = value.slice(0, MAX_VALUE_LENGTH);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_VALUE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
