/**
 * DOM → clean HTML: the extracted content serialized as HTML a browser or a model can read with
 * nothing of the page's own behaviour left in it. Only known content elements are written (the
 * rest are unwrapped, their content kept); scripts, styles, embedded documents, forms' controls
 * and foreign content (SVG, MathML) are dropped whole; only the attributes that carry meaning are
 * kept (no `on*` handler, no `style`, no `class` but a code block's language), and every URL is
 * made absolute against the page's base URL, or dropped when its scheme is not http(s) (links
 * may also be mailto: and tel:). Text and attribute values are escaped again from the decoded
 * tree, so an entity-encoded `javascript:` is caught as the URL it decodes to. One iterative
 * walk: any depth costs only time.
 */

import { attr, type DomElement, isElement, isText, tagOf, walk } from "../extract/dom.js";
import { resolveUrl } from "../extract/url.js";
import { codeLanguage } from "./code.js";
import type { RenderOptions } from "./dialect.js";
import { imageSource } from "./image.js";

/** Elements dropped with everything inside them: code, embedded documents, controls, metadata. */
const DROPPED_TAGS = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "frame",
  "frameset",
  "noframes",
  "object",
  "embed",
  "applet",
  "param",
  "portal",
  "svg",
  "math",
  "canvas",
  "map",
  "head",
  "title",
  "meta",
  "link",
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
  "xmp",
  "plaintext",
  "noembed",
  "dialog",
]);

/** Elements written as they are (with their allowed attributes); any other is unwrapped. */
const KEPT_TAGS = new Set([
  "a",
  "abbr",
  "address",
  "article",
  "aside",
  "audio",
  "b",
  "bdi",
  "bdo",
  "blockquote",
  "br",
  "caption",
  "cite",
  "code",
  "col",
  "colgroup",
  "data",
  "dd",
  "del",
  "details",
  "dfn",
  "div",
  "dl",
  "dt",
  "em",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "i",
  "img",
  "ins",
  "kbd",
  "li",
  "main",
  "mark",
  "nav",
  "ol",
  "p",
  "picture",
  "pre",
  "q",
  "rp",
  "rt",
  "ruby",
  "s",
  "samp",
  "section",
  "small",
  "source",
  "span",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "time",
  "tr",
  "track",
  "u",
  "ul",
  "var",
  "video",
  "wbr",
]);

/** Elements without content or an end tag. */
const VOID_TAGS = new Set(["br", "col", "hr", "img", "source", "track", "wbr"]);

/** Elements that start on a line of their own in the output, for a reader and for cutting. */
const LINE_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "caption",
  "colgroup",
  "dd",
  "details",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "picture",
  "pre",
  "section",
  "summary",
  "table",
  "tbody",
  "tfoot",
  "thead",
  "tr",
  "ul",
  "video",
  "audio",
]);

/** Attributes every kept element may carry. */
const GLOBAL_ATTRIBUTES = ["id", "title", "lang", "dir"];

/** Attributes kept per element, besides the global ones; URL attributes are rewritten. */
const ELEMENT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ["href", "hreflang"],
  img: ["alt", "width", "height", "sizes"],
  source: ["src", "srcset", "sizes", "type", "media"],
  video: ["src", "poster", "width", "height", "controls"],
  audio: ["src", "controls"],
  track: ["src", "kind", "srclang", "label"],
  blockquote: ["cite"],
  q: ["cite"],
  del: ["cite", "datetime"],
  ins: ["cite", "datetime"],
  time: ["datetime"],
  data: ["value"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  td: ["colspan", "rowspan", "headers"],
  th: ["colspan", "rowspan", "headers", "scope", "abbr"],
  col: ["span"],
  colgroup: ["span"],
  details: ["open"],
};

/** Attributes whose value is one URL, and the schemes each may keep. */
const URL_SCHEMES: Readonly<Record<string, RegExp>> = {
  href: /^(?:https?|mailto|tel):/i,
  src: /^https?:/i,
  poster: /^https?:/i,
  cite: /^https?:/i,
};

/** A URL that names its scheme. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Whitespace a browser collapses (not NBSP). */
const COLLAPSIBLE = /[ \t\n\r\f]+/g;
/** Characters escaped in text. */
const TEXT_ESCAPES = /[&<>\u00a0]/g;
/** Characters escaped in a double-quoted attribute value. */
const ATTRIBUTE_ESCAPES = /[&<>"\u00a0]/g;
const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\u00a0": "&nbsp;",
};

/**
 * Escapes text for HTML content (`&`, `<`, `>`, and NBSP as `&nbsp;`).
 *
 * @example
 * escapeHtml("a < b & c"); // "a &lt; b &amp; c"
 */
export function escapeHtml(text: string): string {
  return text.replace(TEXT_ESCAPES, (ch) => ENTITIES[ch]!);
}

/**
 * Renders the subtree at `root` as clean HTML: the root element itself and its content (only the
 * content of `<body>`), or `""` when it holds no text and no image.
 *
 * @example
 * toHtml(parseDocument('<p onclick="x()">See <a href="/a">this</a></p>').body, { baseUrl: "https://e.com/" });
 * // '<p>See <a href="https://e.com/a">this</a></p>'
 */
export function toHtml(root: DomElement, options: RenderOptions = {}): string {
  const out = new HtmlOut();
  const base = options.baseUrl;
  let pre = 0;
  let hasContent = false;
  const open = (el: DomElement, tag: string): void => {
    const line = LINE_TAGS.has(tag) && pre === 0;
    if (line) out.newline();
    out.tag(`<${tag}${attributes(el, tag, base)}>`, line);
    if (tag === "pre") pre++;
  };
  const close = (tag: string): void => {
    if (tag === "pre") pre--;
    out.tag(`</${tag}>`);
    if (LINE_TAGS.has(tag) && pre === 0) out.newline();
  };

  const rootTag = tagOf(root);
  if (dispositionOf(root, base) === "drop") return "";
  const wrapped = rootTag !== "body" && rootTag !== "html" && dispositionOf(root, base) === "keep";
  if (wrapped) open(root, rootTag);
  walk(
    root,
    (node) => {
      if (isText(node)) {
        if (out.text(node.data, pre > 0)) hasContent = true;
        return false;
      }
      if (!isElement(node)) return false; // comments, processing instructions
      const tag = tagOf(node);
      const disposition = dispositionOf(node, base);
      if (disposition === "drop") return false;
      if (disposition === "unwrap") return true;
      if (VOID_TAGS.has(tag)) {
        if (tag === "img") hasContent = true;
        if (LINE_TAGS.has(tag) && pre === 0) out.newline();
        out.tag(`<${tag}${attributes(node, tag, base)}>`);
        if (LINE_TAGS.has(tag) && pre === 0) out.newline();
        return false;
      }
      open(node, tag);
      return true;
    },
    (el) => {
      const tag = tagOf(el);
      if (dispositionOf(el, base) === "keep") close(tag);
    },
  );
  if (wrapped) close(rootTag);
  return hasContent ? out.toString() : "";
}

/** What becomes of an element: written, unwrapped (content only) or dropped with its content. */
function dispositionOf(el: DomElement, base: string | undefined): "keep" | "unwrap" | "drop" {
  const tag = tagOf(el);
  if (DROPPED_TAGS.has(tag)) return "drop";
  if (!KEPT_TAGS.has(tag)) return "unwrap";
  // An image with no URL it may show (data URIs, tracking pixels, unsafe schemes) is nothing.
  if (tag === "img" && imageSource(el, base) === undefined) return "drop";
  return "keep";
}

/** The attributes kept on `el`, serialized with a leading space each. */
function attributes(el: DomElement, tag: string, base: string | undefined): string {
  let out = "";
  const add = (name: string, value: string): void => {
    out += ` ${name}="${value.replace(ATTRIBUTE_ESCAPES, (ch) => ENTITIES[ch]!)}"`;
  };
  if (tag === "img") {
    // The URL the Markdown form shows: lazy-load attributes and srcset included.
    const src = imageSource(el, base);
    if (src !== undefined) add("src", src);
    const srcset = cleanSrcset(attr(el, "srcset") || attr(el, "data-srcset"), base);
    if (srcset) add("srcset", srcset);
  }
  if (tag === "pre") {
    const language = codeLanguage(el);
    if (language) add("class", `language-${language}`);
  }
  for (const name of [...GLOBAL_ATTRIBUTES, ...(ELEMENT_ATTRIBUTES[tag] ?? [])]) {
    if (!el.hasAttribute(name)) continue;
    const value = el.getAttribute(name) ?? "";
    const schemes = URL_SCHEMES[name];
    if (schemes) {
      const url = safeUrl(value, base, schemes);
      if (url !== undefined) add(name, url);
    } else if (name === "srcset") {
      const srcset = cleanSrcset(value, base);
      if (srcset) add(name, srcset);
    } else {
      add(name, value);
    }
  }
  return out;
}

/** `value` resolved against `base`, when its scheme is one of `schemes`; else undefined. */
function safeUrl(value: string, base: string | undefined, schemes: RegExp): string | undefined {
  const url = resolveUrl(value, base);
  if (url === undefined) return undefined;
  // Without a base URL a relative reference stays relative: it names no scheme to run.
  return schemes.test(url) || !HAS_SCHEME.test(url) ? url : undefined;
}

/**
 * A srcset with each candidate's URL made absolute; candidates that are not http(s) are left out.
 * Read as the HTML standard reads it: a URL runs to whitespace (commas at its end part it from
 * the next candidate), its descriptors to the next comma.
 */
function cleanSrcset(srcset: string, base: string | undefined): string {
  const kept: string[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i]!)) i++;
    const start = i;
    while (i < srcset.length && !/\s/.test(srcset[i]!)) i++;
    let url = srcset.slice(start, i);
    let descriptors = "";
    if (url.endsWith(",")) {
      url = url.replace(/,+$/, "");
    } else {
      const comma = srcset.indexOf(",", i);
      const end = comma === -1 ? srcset.length : comma;
      descriptors = srcset.slice(i, end).trim();
      i = end;
    }
    if (url === "" || /^data:/i.test(url)) continue;
    const absolute = safeUrl(url, base, /^https?:/i);
    if (absolute === undefined) continue;
    const descriptor = /^\d+(?:\.\d+)?[wx]$/i.test(descriptors) ? ` ${descriptors}` : "";
    kept.push(`${absolute}${descriptor}`);
  }
  return kept.join(", ");
}

/**
 * The output: tags and escaped text, whitespace collapsed outside `<pre>` as a browser would
 * show it, and line breaks around blocks so a reader (and a cut window) finds lines.
 */
class HtmlOut {
  readonly #parts: string[] = [];
  /** The output ends a line (or is empty): leading whitespace of text is dropped. */
  #lineStart = true;
  /** The output ends with a block's start tag: leading whitespace of text is dropped. */
  #blockStart = false;
  /** Collapsed whitespace not yet written: it goes before the next text or tag, not at a line end. */
  #space = false;

  /**
   * Writes a tag; whitespace pending before an end tag moves after it (`<a>x</a> y`), and
   * whitespace right after the start tag of a block (`opensBlock`) is dropped, as at a line start.
   */
  tag(markup: string, opensBlock = false): void {
    if (!markup.startsWith("</")) this.#flushSpace();
    this.#parts.push(markup);
    this.#lineStart = false;
    this.#blockStart = opensBlock;
  }

  /** Writes text; returns whether it holds anything but whitespace. */
  text(data: string, preformatted: boolean): boolean {
    if (preformatted) {
      this.#flushSpace();
      this.#blockStart = false;
      this.#parts.push(escapeHtml(data));
      if (data !== "") this.#lineStart = data.endsWith("\n");
      return data.trim() !== "";
    }
    const collapsed = data.replace(COLLAPSIBLE, " ");
    const words = collapsed.trim();
    if (collapsed.startsWith(" ") && !this.#lineStart && !this.#blockStart) this.#space = true;
    if (words === "") return false;
    this.#flushSpace();
    this.#parts.push(escapeHtml(words));
    this.#lineStart = false;
    this.#blockStart = false;
    this.#space = collapsed.endsWith(" ");
    return true;
  }

  newline(): void {
    this.#space = false;
    if (this.#lineStart) return;
    this.#parts.push("\n");
    this.#lineStart = true;
  }

  toString(): string {
    return this.#parts.join("").trim();
  }

  #flushSpace(): void {
    if (this.#space) this.#parts.push(" ");
    this.#space = false;
  }
}
