/**
 * The links and images of a page, for callers who want them listed beside the content: absolute
 * http(s) URLs only, each once, in page order, capped. A link says whether it points to the
 * page's own host and whether it sits inside the main content.
 */
import { attr, contains, type DomElement, tagOf, textOf, walkElements } from "./dom.js";
import { isHttpUrl, resolveUrl } from "./url.js";

/** Links listed at most per page. */
export const MAX_LINKS = 1_000;
/** Images listed at most per page. */
export const MAX_IMAGES = 300;
/** Characters of a link's text or an image's alt kept. */
const MAX_LABEL_CHARS = 200;

/** A link of the page. */
export interface PageLink {
  url: string;
  /** Its text (an image link's alt), whitespace collapsed; "" when it has none. */
  text: string;
  /** It points to the page's own host. */
  internal: boolean;
  /** It sits inside the main content. */
  inMain: boolean;
}

/** An image of the page. */
export interface PageImage {
  url: string;
  alt: string;
}

/** The anchors of `scopes` with an http(s) target, in page order, before extraction. */
export interface LinkCandidates {
  anchors: { element: DomElement; url: string; text: string }[];
  images: PageImage[];
}

/** Reads the links and images of `scopes` (resolved against `baseUrl`), before extraction. */
export function gatherLinks(
  scopes: readonly DomElement[],
  baseUrl: string | undefined,
  want: { links: boolean; images: boolean },
): LinkCandidates {
  const anchors: LinkCandidates["anchors"] = [];
  const images: PageImage[] = [];
  const seenImages = new Set<string>();
  for (const scope of scopes) {
    walkElements(scope, (element) => {
      const tag = tagOf(element);
      if (want.links && tag === "a" && anchors.length < MAX_LINKS * 4) {
        const url = resolveUrl(attr(element, "href"), baseUrl);
        if (isHttpUrl(url)) anchors.push({ element, url, text: label(anchorText(element)) });
      } else if (want.images && tag === "img" && images.length < MAX_IMAGES) {
        const url = resolveUrl(attr(element, "src"), baseUrl);
        if (isHttpUrl(url) && !seenImages.has(url)) {
          seenImages.add(url);
          images.push({ url, alt: label(attr(element, "alt")) });
        }
      }
      return true;
    });
  }
  return { anchors, images };
}

/**
 * The page's links, each once (its first text that is not empty), marked inside the main
 * content when any of its anchors is below one of `mainRoots` once extraction is done.
 */
export function listLinks(
  candidates: LinkCandidates,
  mainRoots: readonly DomElement[],
  pageUrl: string | undefined,
): PageLink[] {
  const host = hostOf(pageUrl);
  const byUrl = new Map<string, PageLink>();
  for (const { element, url, text } of candidates.anchors) {
    const inMain = mainRoots.some((root) => contains(root, element));
    const known = byUrl.get(url);
    if (known) {
      known.inMain ||= inMain;
      if (known.text === "") known.text = text;
      continue;
    }
    if (byUrl.size >= MAX_LINKS) continue;
    byUrl.set(url, { url, text, internal: host !== undefined && hostOf(url) === host, inMain });
  }
  return [...byUrl.values()];
}

/** A link's words, or the alt of the image it wraps. */
function anchorText(anchor: DomElement): string {
  const text = textOf(anchor);
  if (text !== "") return text;
  let alt = "";
  walkElements(anchor, (element) => {
    if (alt === "" && tagOf(element) === "img") alt = attr(element, "alt");
    return alt === "";
  });
  return alt;
}

function label(text: string): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length > MAX_LABEL_CHARS ? `${collapsed.slice(0, MAX_LABEL_CHARS)}…` : collapsed;
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return undefined;
  }
}
