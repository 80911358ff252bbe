/**
 * HTML → Markdown or plain text with metadata: the pipeline for HTML pages, each stage in its own
 * module. Parse (bounded, extract/parse) → metadata (before anything is removed) → invisible
 * content removed (extract/invisible) → with extract "main" only, boilerplate removed
 * (extract/boilerplate) and the main-content root chosen → serialize. A caller's CSS selectors
 * scope the body (extract/selectors) right after parsing, so metadata still reads the whole page.
 */

import { optionConflict } from "../checks.js";
import { removeFurnitureBlocks } from "../extract/block-model.js";
import { removeBoilerplate } from "../extract/boilerplate.js";
import type { HtmlText } from "../extract/chunked.js";
import type { DomDocument, DomElement } from "../extract/dom.js";
import { trimEdges } from "../extract/edges.js";
import { removeInvisible } from "../extract/invisible.js";
import { gatherLinks, listLinks, type PageImage, type PageLink } from "../extract/links.js";
import { selectMainContent } from "../extract/main.js";
import type { PageMetadata } from "../extract/metadata.js";
import { extractMetadata, gatherMetadata } from "../extract/metadata.js";
import { classifyPage, type PageType } from "../extract/page-type.js";
import { parseBounded } from "../extract/parse.js";
import { pruneContent } from "../extract/prune.js";
import { applySelectors, type PageSelectors } from "../extract/selectors.js";
import { forgetMeasurements, measureText } from "../extract/stats.js";
import { looksLikeThread } from "../extract/threads.js";
import { removeTitleHeading } from "../extract/title-heading.js";
import { documentBaseUrl } from "../extract/url.js";
import { toHtml } from "../markdown/clean-html.js";
import { toMarkdown } from "../markdown/serialize.js";
import { toText } from "../markdown/text.js";
import { type ExtractMode, OUTPUT_FORMATS, type OutputFormat } from "../values.js";
import type { LimitHit } from "../warnings.js";

/** Options of convertHtml(). */
export interface ConvertHtmlOptions {
  /** URL of the page: relative links, images and the canonical URL resolve against it. */
  url?: string;
  /**
   * Output form: `"markdown"`, `"text"`, `"html"` (the same content as clean HTML: no scripts,
   * styles, handlers or unsafe URLs, every URL absolute) or `"raw"` (the HTML as given, with the
   * metadata and lists still read from it).
   * @default "markdown"
   */
  format?: OutputFormat;
  /**
   * `"main"`: the main content, without navigation, ads, banners and other chrome.
   * `"full"`: everything visible on the page.
   * @default "main"
   */
  extract?: ExtractMode;
  /**
   * Only what these CSS selectors match is kept, and extraction runs inside it; one that
   * matches nothing throws SELECTOR_NOT_FOUND. @default []
   */
  includeSelectors?: readonly string[] | undefined;
  /** What these CSS selectors match is removed before anything else. @default [] */
  excludeSelectors?: readonly string[] | undefined;
  /** List the page's links (`links`). @default false */
  links?: boolean | undefined;
  /** List the page's images (`images`). @default false */
  images?: boolean | undefined;
}

/** A converted page: its content and the metadata the page states (unknown fields omitted). */
export interface ConvertedDocument extends PageMetadata {
  content: string;
  /** The page's links, when asked for. */
  links?: PageLink[];
  /** The page's images, when asked for. */
  images?: PageImage[];
  /** Limits the conversion stopped at: when present, the content ends before the page does. */
  limits?: LimitHit[];
}

/**
 * Converts an HTML page to Markdown (or plain text, or clean HTML) with its metadata. Never
 * throws on malformed or hostile HTML; input past 5 MB is cut (see MAX_HTML_LENGTH), except as
 * the `raw` content, which is the input itself.
 *
 * @example
 * const doc = convertHtml(html, { url: "https://example.com/post" });
 * doc.title; // "Post title"
 * doc.content; // "First paragraph with a [link](https://example.com/x)." (the title's <h1> is left out)
 */
export function convertHtml(html: string, options: ConvertHtmlOptions = {}): ConvertedDocument {
  if (typeof html !== "string") throw new TypeError("convertHtml: html must be a string");
  return convertMarkup(html, options);
}

/** convertHtml over HTML as one string or as pieces (a decoded body: see chunked.ts). */
export function convertMarkup(html: HtmlText, options: ConvertHtmlOptions = {}): ConvertedDocument {
  const { url, format = "markdown", extract = "main" } = options;
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new TypeError(`convertHtml: unknown format ${JSON.stringify(format)}`);
  }
  if (extract !== "main" && extract !== "full") {
    throw new TypeError(`convertHtml: unknown extract mode ${JSON.stringify(extract)}`);
  }
  const conflict = optionConflict({ format, ...options });
  if (conflict) throw new RangeError(`convertHtml: ${conflict.message}`);
  if (format === "raw") return rawHtml(html, options);

  const page = parsePage(html, url);
  const { body, metadata, baseUrl, cut } = page;
  const { includeSelectors: include, excludeSelectors: exclude } = options;
  const want = { links: options.links ?? false, images: options.images ?? false };
  let content = "";
  let listed: Pick<ConvertedDocument, "links" | "images"> = {};
  if (body) {
    const render = (root: DomElement) => {
      const renderOptions = baseUrl === undefined ? {} : { baseUrl };
      if (format === "html") return toHtml(root, renderOptions);
      return format === "text" ? toText(root, renderOptions) : toMarkdown(root, renderOptions);
    };
    const scoped = Boolean(include?.length || exclude?.length);
    const scopes = scoped ? applySelectors(body, { include, exclude }) : [body];
    const gathered = want.links || want.images ? gatherLinks(scopes, baseUrl, want) : undefined;
    const roots = scopes.map(
      (scope) => contentRoot(page.document, scope, { ...page, extract }).root,
    );
    const parts = roots.map(render);
    if (scoped) {
      keepWholeParts(parts, { html, url, selectors: { include, exclude }, extract, render });
      content = parts.filter((part) => part !== "").join(format === "html" ? "\n" : "\n\n");
    } else {
      content = parts[0]!;
    }
    if (gathered) {
      listed = {
        ...(want.links ? { links: listLinks(gathered, roots, url) } : {}),
        ...(want.images ? { images: gathered.images } : {}),
      };
    }
  }
  return {
    content,
    ...metadata,
    ...(want.links ? { links: [] } : {}),
    ...(want.images ? { images: [] } : {}),
    ...listed,
    ...(cut ? { limits: [cut] } : {}),
  };
}

/**
 * The raw form: the HTML as given, with the metadata (and, when asked, the links and images)
 * read as the Markdown form reads them. Nothing is cut: the fetch already bounded the body.
 */
function rawHtml(html: HtmlText, options: ConvertHtmlOptions): ConvertedDocument {
  if (options.links || options.images) {
    const {
      content: _content,
      limits: _limits,
      ...read
    } = convertMarkup(html, {
      ...options,
      format: "markdown",
    });
    return { ...read, content: html.toString() };
  }
  return { content: html.toString(), ...parsePage(html, options.url).metadata };
}

/**
 * Selected parts that main-content extraction emptied (a comments section the caller asked for
 * by name) are kept whole instead, with only what a reader never sees removed, from a fresh parse
 * of the page.
 */
function keepWholeParts(
  parts: string[],
  page: {
    html: HtmlText;
    url: string | undefined;
    selectors: PageSelectors;
    extract: ExtractMode;
    render: (root: DomElement) => string;
  },
): void {
  if (page.extract !== "main" || !parts.includes("")) return;
  const again = parsePage(page.html, page.url);
  const whole = applySelectors(again.body!, page.selectors);
  parts.forEach((part, i) => {
    if (part === "") {
      const { root } = contentRoot(again.document, whole[i]!, { ...again, extract: "full" });
      parts[i] = page.render(root);
    }
  });
}

/** A parsed page with what it states about itself, before anything is removed. */
export interface ParsedPage {
  document: DomDocument;
  body: DomElement | undefined;
  metadata: PageMetadata;
  pageType: PageType;
  baseUrl: string | undefined;
  /** Set when the HTML was cut to the parser's bound. */
  cut: LimitHit | undefined;
}

/** Parses `html` (bounded) and reads its metadata and type. */
export function parsePage(html: HtmlText, url: string | undefined): ParsedPage {
  const { document, cut } = parseBounded(html);
  const baseUrl = documentBaseUrl(document, url);
  const raw = gatherMetadata(document);
  const metadata = extractMetadata(document, baseUrl, raw);
  const pageType = classifyPage(raw, url);
  return { document, body: bodyOf(document.documentElement), metadata, pageType, baseUrl, cut };
}

/** What contentRoot() needs to know of the page. */
export interface ContentRootOptions {
  extract: ExtractMode;
  pageType: PageType;
  metadata: PageMetadata;
  baseUrl: string | undefined;
  /** Run the learned block scorer last (off only to gather its training data). @default true */
  scoreBlocks?: boolean;
}

/** The element whose content is the page's, and the type of page it was extracted as. */
export interface PageContent {
  root: DomElement;
  /** The page's type, or `"forum"` for a page its text shows to be a thread. */
  pageType: PageType;
}

/**
 * Cleans `body` and returns the element whose content is the page's: with "full", `body` rid of
 * invisible content; with "main", also rid of boilerplate, the chosen root, pruned of furniture
 * by rules and then by the learned block scorer, and of an opening heading that repeats the title.
 */
export function contentRoot(
  document: DomDocument,
  body: DomElement,
  options: ContentRootOptions,
): PageContent {
  const { extract, metadata, baseUrl, scoreBlocks = true } = options;
  let { pageType } = options;
  try {
    removeInvisible(body);
    if (extract !== "main") return { root: body, pageType };
    // A thread at an address and in markup no forum software is known by is still a thread.
    if (pageType === "page" && looksLikeThread(body, measureText(body))) pageType = "forum";
    removeBoilerplate(body, pageType);
    const root = selectMainContent(body, document);
    pruneContent(root, pageType);
    trimEdges(root, { pageType, author: metadata.author, baseUrl });
    if (scoreBlocks) removeFurnitureBlocks(root, pageType);
    removeTitleHeading(root, metadata.title);
    return { root, pageType };
  } finally {
    // The passes' text measurements are of no use past them, and would keep the page.
    forgetMeasurements();
  }
}

/** The `<body>` of a normalized document. */
function bodyOf(root: DomElement | null): DomElement | undefined {
  for (
    let child = root?.firstElementChild ?? null;
    child !== null;
    child = child.nextElementSibling
  ) {
    if (child.localName === "body") return child;
  }
  return undefined;
}
