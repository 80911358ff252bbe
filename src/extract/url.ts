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
  const cleaned = href.replace(URL_STRIP, "").trim();
  if (cleaned === "" || UNSAFE_SCHEME.test(cleaned)) return undefined;
  try {
    return new URL(cleaned, base).href;
  } catch {
    // Relative without a base, or malformed: keep a relative reference, drop garbage.
    return base === undefined && !/^[a-z][a-z0-9+.-]*:/i.test(cleaned) ? cleaned : undefined;
  }
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
