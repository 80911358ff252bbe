/**
 * Which URL an `<img>` shows: its `src`, or the lazy-load attribute or `srcset` that holds the
 * real one; nothing for data URIs, tracking pixels and spacers.
 */

import { attr, type DomElement } from "../extract/dom.js";
import { resolveUrl } from "../extract/url.js";

/** Images that are tracking pixels or spacers, by URL. */
const TRACKING_IMAGE =
  /(?:^|[/._-])(?:pixel|beacon|tracking|spacer|1x1|blank|transparent)\.(?:gif|png)(?:$|[?#])/i;
/** Attributes that hold the real image URL on lazy-loaded images, in order. */
const LAZY_SRC_ATTRIBUTES = ["data-src", "data-original", "data-lazy-src", "data-url"];

/** The URL an `<img>` shows, resolved; `undefined` for data URIs, pixels and spacers. */
export function imageSource(el: DomElement, baseUrl: string | undefined): string | undefined {
  const width = Number.parseInt(attr(el, "width"), 10);
  const height = Number.parseInt(attr(el, "height"), 10);
  if ((Number.isFinite(width) && width <= 1) || (Number.isFinite(height) && height <= 1)) {
    return undefined;
  }
  const candidates = [
    attr(el, "src"),
    ...LAZY_SRC_ATTRIBUTES.map((name) => attr(el, name)),
    firstSrcset(attr(el, "srcset")),
    firstSrcset(attr(el, "data-srcset")),
  ];
  for (const candidate of candidates) {
    if (candidate === "" || /^data:/i.test(candidate) || TRACKING_IMAGE.test(candidate)) continue;
    const url = resolveUrl(candidate, baseUrl);
    if (url !== undefined) return url;
  }
  return undefined;
}

/** The first URL of a `srcset`. */
function firstSrcset(srcset: string): string {
  return srcset.split(",")[0]?.trim().split(/\s+/)[0] ?? "";
}
