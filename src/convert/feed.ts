/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom feeds as a Markdown list of items (title, link, date, summary),
 * which is what an agent wants from a feed URL: the latest entries, not the XML. Parsed with
 * linkedom's XML mode (no DTD or external entity is ever expanded); the DOM is walked with loops,
 * never recursion, because the input is untrusted.
 */

import { Parser } from "htmlparser2";
import { DOMParser } from "linkedom";
import { WebFetchError } from "../errors.js";
import type { LimitHit } from "../warnings.js";

/** Options for {@link convertFeed}. */
export interface ConvertFeedOptions {
  /** The feed's own URL: base for relative item links. */
  url?: string;
}

/** The feed as Markdown, with its title and description when it has them. */
export interface FeedConversion {
  content: string;
  title?: string;
  description?: string;
  /** Set when the feed had more items than are listed. */
  limits?: LimitHit[];
}

/** Minimal view of linkedom's nodes (it ships no DOM types for a Node-only lib config). */
interface XmlNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
}
interface XmlElement extends XmlNode {
  tagName: string;
  children: ArrayLike<XmlElement>;
  innerHTML: string;
  getAttribute(name: string): string | null;
}

/**
 * Deepest element nesting accepted. Real feeds are a few levels deep; the XML parser keeps its
 * open-element stack in a way that makes hostile nesting quadratic (200k levels ≈ 30 s).
 */
const MAX_XML_DEPTH = 512;

/** Summary HTML nested deeper than this is read with its tags stripped (same parser cost). */
const MAX_SUMMARY_DEPTH = 128;

/**
 * An HTML tag, comment or declaration (for the stripped fallback). It ends at the next `<` too:
 * `[^>]*` alone would scan to the end from every `<` of a run that has no `>`, in quadratic time.
 * A `<` inside a tag (`title="a<b"`) leaves that tag's start as text, which this rough fallback
 * for markup nested too deep can afford.
 */
const TAG_RE = /<[^<>]*>/g;

/** Items listed at most; the rest are counted in a closing line. */
const MAX_ITEMS = 200;

/** Summaries are cut to about this many characters, at a word boundary. */
const SUMMARY_MAX_CHARS = 300;

/** A cut at a space is preferred when it keeps at least this much of the summary. */
const SUMMARY_MIN_CUT = 200;

/** Only this much of an item's HTML is parsed for its summary (it is cut to 300 chars anyway). */
const SUMMARY_HTML_MAX_CHARS = 20_000;

/** Dates as written longer than this are dropped rather than shown unparsed. */
const RAW_DATE_MAX_CHARS = 40;

/** A character that can start an element name. */
const TAG_START_RE = /[A-Za-z_:]/;

/** Element node type. */
const ELEMENT_NODE = 1;

/** Text and CDATA node types. */
const TEXT_NODES = new Set([3, 4]);

/** HTML elements whose text is not content. */
const SKIPPED_HTML = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "IFRAME",
  "OBJECT",
  "SVG",
]);

/** HTML elements that separate words: a space is put around their text. */
const BLOCK_HTML = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "BR",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "IMG",
  "LI",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TD",
  "TH",
  "TR",
  "UL",
]);

/** Markup or an entity reference in a title: it needs HTML decoding. */
const LOOKS_LIKE_HTML_RE = /<\/?[a-z][^<>]*>|&(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);/i;

/** A date that starts with an ISO 8601 calendar date (Atom, dc:date). */
const ISO_DATE_RE = /^\s*(\d{4})-(\d{2})-(\d{2})/;

/** The day, month and year of an RFC 822 date (RSS pubDate), e.g. "Tue, 02 Jan 2026 …". */
const RFC822_DATE_RE =
  /(\d{1,2})\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(\d{4}|\d{2})\b/i;

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Characters that would end or break a Markdown link text. */
const LINK_TEXT_ESCAPE_RE = /[[\]\\]/g;

/** Parentheses in a link destination (they would end a Markdown link early). */
const PARENS_RE = /[()]/g;

/** Link schemes that are safe to hand to a reader. */
const SAFE_PROTOCOLS = new Set(["http:", "https:"]);

/** One feed entry, as plain text. */
interface FeedItem {
  title?: string;
  link?: string;
  date?: string;
  summary?: string;
}

/**
 * Converts an RSS or Atom document to Markdown: `# title`, the description, then one list item per
 * entry with its link, date (YYYY-MM-DD) and a short plain-text summary.
 *
 * @example
 * convertFeed(rssXml, { url: "https://example.com/feed.xml" }).content
 * // → "# Example\n\n- [Hello](https://example.com/hello) — 2026-01-02\n  First post…"
 */
export function convertFeed(xml: string, options: ConvertFeedOptions = {}): FeedConversion {
  if (nestingExceeds(xml, MAX_XML_DEPTH)) {
    throw new WebFetchError(
      "PARSE_ERROR",
      `Could not read the feed: elements nested more than ${MAX_XML_DEPTH} levels deep`,
    );
  }
  const { xml: kept, dropped } = dropExtraItems(xml.replace(/^\uFEFF/, ""));
  const doc = new DOMParser().parseFromString(kept, "text/xml") as unknown as {
    documentElement: XmlElement | null;
  };
  const root = doc.documentElement;
  if (!root) return { content: "" };

  const prefix = prefixOf(root.tagName);
  const isCore = (el: XmlElement, name: string): boolean => {
    const tag = el.tagName.toLowerCase();
    return tag === name || (prefix !== "" && tag === `${prefix}:${name}`);
  };
  const child = (el: XmlElement, name: string): XmlElement | undefined =>
    Array.from(el.children).find((c) => isCore(c, name) || c.tagName.toLowerCase() === name);

  const channel = child(root, "channel") ?? root;
  const feedLink = channelLink(channel, isCore);
  const base = absoluteUrl(feedLink, options.url) ?? options.url;

  const title = textOf(child(channel, "title"), "title");
  const description = textOf(
    child(channel, "description") ?? child(channel, "subtitle") ?? child(channel, "tagline"),
    "summary",
  );

  const entries = [channel, ...(channel === root ? [] : [root])].flatMap((container) =>
    Array.from(container.children).filter((el) => isCore(el, "item") || isCore(el, "entry")),
  );
  const items = entries.slice(0, MAX_ITEMS).map((el) => readItem(el, child, isCore, base));
  const total = entries.length + dropped;

  const blocks: string[] = [];
  if (title) blocks.push(`# ${title}`);
  if (description) blocks.push(description);
  if (items.length > 0) blocks.push(items.map(formatItem).join("\n"));
  if (total > MAX_ITEMS) blocks.push(`_(${total - MAX_ITEMS} more items not shown)_`);

  return {
    content: blocks.join("\n\n"),
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(total > MAX_ITEMS ? { limits: [{ limit: "feed-items", max: MAX_ITEMS }] } : {}),
  };
}

/** The feed with the items past the first MAX_ITEMS of each container left out, and their count. */
interface KeptItems {
  xml: string;
  dropped: number;
}

/**
 * Leaves out of `xml` every item or entry past the first MAX_ITEMS of the root and of the channel
 * (the containers convertFeed lists), counting them, before the feed becomes a DOM: only
 * MAX_ITEMS are listed, and a DOM of 150,000 items took seconds and more than a thread's heap.
 * One streaming pass of the same XML tokenizer the DOM is built with, so it sees the elements
 * the DOM would: an item is left out only when its own end tag (or `/>`) closes it, exactly its
 * text from `<` to `>`; an item closed by another tag or by the end of the input stays, and is
 * counted in the DOM instead.
 */
function dropExtraItems(xml: string): KeptItems {
  const parts: string[] = [];
  let copied = 0;
  let dropped = 0;
  let prefix: string | undefined; // the root's, once it is open
  let channelSeen = false;
  const counts = [0, 0]; // items seen in the root, in the channel
  const open: number[] = []; // per open element: 0 the root, 1 the channel, -1 anything else
  let dropStart = -1; // start of the item being left out, or -1
  let dropDepth = -1;
  const isCore = (tag: string, name: string) =>
    tag === name || (prefix !== "" && tag === `${prefix}:${name}`);
  const parser = new Parser(
    {
      onopentag(name) {
        const depth = open.length;
        if (dropStart >= 0) {
          open.push(-1);
          return;
        }
        const tag = name.toLowerCase();
        const parent = depth === 0 ? -1 : open[depth - 1]!;
        let role = -1;
        if (depth === 0 && prefix === undefined) {
          prefix = prefixOf(name);
          role = 0;
        } else if (parent === 0 && !channelSeen && isCore(tag, "channel")) {
          channelSeen = true;
          role = 1;
        } else if (parent >= 0 && (isCore(tag, "item") || isCore(tag, "entry"))) {
          counts[parent]!++;
          if (counts[parent]! > MAX_ITEMS) {
            dropStart = parser.startIndex;
            dropDepth = depth;
          }
        }
        open.push(role);
      },
      onclosetag(_name, implied) {
        open.pop();
        if (dropStart < 0 || open.length !== dropDepth) return;
        // Closed by its own end tag, or self-closed (its start tag is the one just read).
        if (!implied || parser.startIndex === dropStart) {
          parts.push(xml.slice(copied, dropStart));
          copied = parser.endIndex + 1;
          dropped++;
        }
        dropStart = -1;
        dropDepth = -1;
      },
    },
    { xmlMode: true },
  );
  parser.write(xml);
  parser.end();
  if (dropped === 0) return { xml, dropped };
  parts.push(xml.slice(copied));
  return { xml: parts.join(""), dropped };
}

/**
 * True when elements nest deeper than `limit`: a linear scan of start and end tags that skips
 * comments, CDATA sections, processing instructions and declarations.
 */
function nestingExceeds(xml: string, limit: number): boolean {
  let depth = 0;
  let i = xml.indexOf("<");
  while (i >= 0) {
    let end: number;
    if (xml.startsWith("<![CDATA[", i)) end = xml.indexOf("]]>", i) + 2;
    else if (xml.startsWith("<!--", i)) end = xml.indexOf("-->", i) + 2;
    else {
      end = xml.indexOf(">", i);
      const next = xml[i + 1] ?? "";
      if (next === "/") depth--;
      else if (TAG_START_RE.test(next) && end > 0 && xml[end - 1] !== "/") {
        depth++;
        if (depth > limit) return true;
      }
    }
    if (end < i) return false;
    i = xml.indexOf("<", end + 1);
  }
  return false;
}

/** The namespace prefix of a qualified name ("atom:feed" → "atom"), or "". */
function prefixOf(tagName: string): string {
  const colon = tagName.indexOf(":");
  return colon < 0 ? "" : tagName.slice(0, colon).toLowerCase();
}

/** The feed's own web page: RSS `<link>` text or Atom `<link rel="alternate" href>`. */
function channelLink(
  channel: XmlElement,
  isCore: (el: XmlElement, name: string) => boolean,
): string | undefined {
  const links = Array.from(channel.children).filter((el) => isCore(el, "link"));
  return pickLink(links);
}

/** Link of an item or channel: RSS text content, else the best Atom `href`. */
function pickLink(links: readonly XmlElement[]): string | undefined {
  for (const link of links) {
    const text = link.textContent?.trim();
    if (text && link.getAttribute("href") === null) return text;
  }
  const withHref = links.filter((l) => l.getAttribute("href"));
  const alternate =
    withHref.find((l) => (l.getAttribute("rel") ?? "alternate") === "alternate" && isHtmlType(l)) ??
    withHref.find((l) => (l.getAttribute("rel") ?? "alternate") === "alternate") ??
    withHref[0];
  return alternate?.getAttribute("href")?.trim() || undefined;
}

/** True when an Atom link has no type or an HTML type. */
function isHtmlType(link: XmlElement): boolean {
  const type = link.getAttribute("type");
  return type === null || type === "text/html" || type === "application/xhtml+xml";
}

/** Reads one `<item>` or `<entry>`. */
function readItem(
  el: XmlElement,
  child: (el: XmlElement, name: string) => XmlElement | undefined,
  isCore: (el: XmlElement, name: string) => boolean,
  base: string | undefined,
): FeedItem {
  const title = textOf(child(el, "title"), "title");

  let link = pickLink(Array.from(el.children).filter((c) => isCore(c, "link")));
  const guid = child(el, "guid");
  if (!link && guid && guid.getAttribute("isPermaLink") !== "false") {
    link = guid.textContent?.trim() || undefined;
  }
  const href = absoluteUrl(link, base);

  const rawDate =
    child(el, "published") ??
    child(el, "pubdate") ??
    child(el, "dc:date") ??
    child(el, "updated") ??
    child(el, "issued") ??
    child(el, "modified");
  const date = normalizeDate(rawDate?.textContent ?? "");

  const summaryEl =
    child(el, "description") ??
    child(el, "summary") ??
    child(el, "content:encoded") ??
    child(el, "content") ??
    child(el, "dc:description");
  const summary = truncate(textOf(summaryEl, "summary") ?? "");

  return {
    ...(title ? { title } : {}),
    ...(href ? { link: href } : {}),
    ...(date ? { date } : {}),
    ...(summary ? { summary } : {}),
  };
}

/**
 * Plain text of a feed text element. Atom says how to read it (`type="text|html|xhtml"`); RSS
 * descriptions are HTML by convention, RSS titles are text unless they carry markup or entities.
 */
function textOf(el: XmlElement | undefined, role: "title" | "summary"): string | undefined {
  if (!el) return undefined;
  const type = el.getAttribute("type")?.toLowerCase();
  let text: string;
  if (type === "xhtml") text = htmlToText(el.innerHTML);
  else if (type === "text" || type === "text/plain") text = collapse(el.textContent ?? "");
  else {
    const raw = el.textContent ?? "";
    const html = type === "html" || type === "text/html" || role === "summary";
    text = html || LOOKS_LIKE_HTML_RE.test(raw) ? htmlToText(raw) : collapse(raw);
  }
  return text || undefined;
}

/** Visible text of an HTML fragment, whitespace collapsed; walks the DOM with a stack. */
function htmlToText(html: string): string {
  if (!/[<&]/.test(html)) return collapse(html);
  let snippet = html.slice(0, SUMMARY_HTML_MAX_CHARS);
  // Deeply nested markup: drop the tags (as spaces) and let the parser only decode entities.
  if (nestingExceeds(snippet, MAX_SUMMARY_DEPTH)) snippet = snippet.replace(TAG_RE, " ");
  const doc = new DOMParser().parseFromString(
    `<!doctype html><html><body>${snippet}</body></html>`,
    "text/html",
  ) as unknown as { body: XmlElement | null };
  if (!doc.body) return "";
  const parts: string[] = [];
  const stack: (XmlNode | " ")[] = [doc.body];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === " ") {
      parts.push(" ");
      continue;
    }
    if (TEXT_NODES.has(node.nodeType)) {
      parts.push(node.textContent ?? "");
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE || SKIPPED_HTML.has(node.nodeName.toUpperCase())) continue;
    const block = BLOCK_HTML.has(node.nodeName.toUpperCase());
    if (block) stack.push(" ");
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    if (block) parts.push(" ");
  }
  return collapse(parts.join(""));
}

/** Whitespace runs (including no-break spaces) as one space, trimmed. */
function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/** Cuts a summary to about 300 characters at a word boundary, marking the cut with "…". */
function truncate(text: string): string {
  if (text.length <= SUMMARY_MAX_CHARS) return text;
  let cut = text.slice(0, SUMMARY_MAX_CHARS);
  const space = cut.lastIndexOf(" ");
  if (space >= SUMMARY_MIN_CUT) cut = cut.slice(0, space);
  // Never leave half of a surrogate pair.
  else if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.replace(/[\s,;:.]+$/, "")}…`;
}

/** YYYY-MM-DD for ISO and RFC 822 dates (the date as written, no time zone shift). */
function normalizeDate(raw: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  const iso = ISO_DATE_RE.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const rfc = RFC822_DATE_RE.exec(text);
  if (rfc) {
    const month = MONTHS.indexOf(rfc[2]!.toLowerCase()) + 1;
    let year = Number(rfc[3]);
    if (rfc[3]!.length === 2) year += year < 50 ? 2000 : 1900;
    const day = Number(rfc[1]);
    if (day >= 1 && day <= 31) return `${year}-${pad(month)}-${pad(day)}`;
  }
  const parsed = Date.parse(text);
  if (Number.isFinite(parsed)) return new Date(parsed).toISOString().slice(0, 10);
  return text.length <= RAW_DATE_MAX_CHARS ? collapse(text) : undefined;
}

/** Percent-encodes a parenthesis (encodeURIComponent leaves them alone). */
function escapeParen(paren: string): string {
  return paren === "(" ? "%28" : "%29";
}

/** Two-digit zero padding. */
function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** `link` resolved against `base`, if it is (or becomes) an http(s) URL. */
function absoluteUrl(link: string | undefined, base: string | undefined): string | undefined {
  if (!link) return undefined;
  try {
    const url = base ? new URL(link, base) : new URL(link);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** One Markdown list entry: `- [title](link) — date` and the summary on an indented line. */
function formatItem(item: FeedItem): string {
  const label = (item.title ?? item.link ?? "Untitled").replace(LINK_TEXT_ESCAPE_RE, "\\$&");
  const head = item.link ? `[${label}](${item.link.replace(PARENS_RE, escapeParen)})` : label;
  const date = item.date ? ` — ${item.date}` : "";
  const summary = item.summary ? `\n  ${item.summary}` : "";
  return `- ${head}${date}${summary}`;
}
