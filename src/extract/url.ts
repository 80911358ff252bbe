/**
 * URL resolution for links, images and metadata: relative references against the page (or its
 * `<base href>`), and the schemes that must never reach an agent as a link.
 */

import { attr, contains, type DomDocument, type DomElement, tagOf, walkElements } from "./dom.js";

/** Schemes that run code or embed payloads; such links keep their text but lose the URL. */
const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data|file|blob):/i;
/** ASCII whitespace and control characters that browsers strip from URLs. */
const URL_STRIP = /[\u0000-\u001f\u007f]+/g;

/**
 * Resolves `href` against `base`. Returns `undefined` for empty or unsafe references
 * (`javascript:`, `data:`, …) and for ones that don't parse; without a base, a relative
 * reference is returned as it is.
 *
 * @example
 * resolveUrl("../b?x=1", "https://example.com/a/c"); // "https://example.com/b?x=1"
 * resolveUrl("javascript:void(0)", "https://example.com/"); // undefined
 */
export function resolveUrl(href: string, base: string | undefined): string | undefined {
  const cleaned = cleanReference(href);
  // A path from the root ("/a"), the commonest reference, names no scheme.
  if (cleaned === "" || (cleaned.charCodeAt(0) !== 47 && UNSAFE_SCHEME.test(cleaned))) {
    return undefined;
  }
  if (base !== undefined) {
    const plain = resolvePlain(cleaned, base);
    if (plain !== undefined) return plain;
  }
  try {
    return new URL(cleaned, base).href;
  } catch {
    // Relative without a base, or malformed: keep a relative reference, drop garbage.
    return base === undefined && !/^[a-z][a-z0-9+.-]*:/i.test(cleaned) ? cleaned : undefined;
  }
}

/**
 * `href` less the characters URL_STRIP finds and trimmed. Most references hold none of them, and
 * reading one is cheaper than a replacement's setup.
 */
function cleanReference(href: string): string {
  for (let i = 0; i < href.length; i++) {
    const c = href.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return href.replace(URL_STRIP, "").trim();
  }
  return href.trim();
}

/**
 * A path from the root, with an optional query and fragment, made only of characters a URL
 * parser keeps as they are: no escape, backslash, quote, space or other character it encodes,
 * and not "//" (which names a host).
 */
const PLAIN_PATH =
  /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?(?:#[A-Za-z0-9\-._~!$&()*+,;=:@/?#]*)?$/;
/** A "." or ".." segment, which a parser resolves (anywhere, the query included, to be safe). */
const DOT_SEGMENT = /\/\.\.?(?=[/?#]|$)/;

/** The base last resolved against and its scheme and authority ("https://host:8080"). */
let lastBase: { base: string; origin: string | undefined } | undefined;

/**
 * `new URL(reference, base).href` without a parser for the links most pages are made of: a plain
 * path from the root ("/a/b?c=d"), or a URL that starts with the base's own scheme and host
 * followed by one. Such a reference resolves to the base's scheme and authority followed by the
 * path as it is. Undefined for anything else, and for a base that is not http(s).
 */
function resolvePlain(reference: string, base: string): string | undefined {
  if (lastBase?.base !== base) lastBase = { base, origin: schemeAndAuthority(base) };
  const { origin } = lastBase;
  if (origin === undefined) return undefined;
  // The path of a URL on the base's own scheme and host, else the reference itself.
  const sameOrigin = reference.startsWith(origin);
  const path = sameOrigin ? reference.slice(origin.length) : reference;
  if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) return undefined;
  return sameOrigin ? reference : origin + path;
}

/**
 * An http(s) URL's scheme and authority as it serializes them (`https://user@host:8080`), what a
 * path from the root keeps of it; undefined for any other URL.
 */
export function schemeAndAuthority(base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  // The root's URL less its "/": an empty query or fragment stays in `href` though `search` and
  // `hash` are empty, so the base's own parts cannot be subtracted from it.
  return new URL("/", url).href.slice(0, -1);
}

/** True for absolute http(s) URLs. */
export function isHttpUrl(url: string | undefined): url is string {
  return url !== undefined && /^https?:\/\//i.test(url);
}

/**
 * The document's base URL: the first `<base href>` resolved against the page URL, else the page
 * URL. `undefined` when neither gives an absolute URL.
 *
 * @example
 * documentBaseUrl(parseDocument('<base href="/docs/">'), "https://example.com/a"); // "https://example.com/docs/"
 */
export function documentBaseUrl(document: DomDocument, pageUrl?: string): string | undefined {
  const page = pageUrl !== undefined && isAbsolute(pageUrl) ? pageUrl : undefined;
  let baseHref: string | undefined;
  const root = document.documentElement;
  const made = document.baseElements;
  if (root && made !== undefined && made.length <= 1) {
    // None or one was ever made: no walk needed to find the first in the tree.
    const only = made[0];
    if (only?.hasAttribute("href") && only !== root && contains(root, only)) {
      baseHref = attr(only, "href");
    }
  } else if (root) {
    walkElements(root, (el: DomElement) => {
      if (baseHref === undefined && tagOf(el) === "base" && el.hasAttribute("href")) {
        baseHref = attr(el, "href");
      }
      return baseHref === undefined;
    });
  }
  if (baseHref !== undefined) {
    const resolved = resolveUrl(baseHref, page);
    if (resolved !== undefined && isAbsolute(resolved)) return resolved;
  }
  return page;
}

/** True when `url` parses on its own. */
function isAbsolute(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}
