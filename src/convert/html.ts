/**
 * HTML → Markdown or plain text with metadata (SPEC §3.5): the pipeline for HTML pages, each
 * stage in its own module. Parse (bounded, extract/parse) → metadata (before anything is
 * removed) → clean → main-content root (extract "main") → serialize.
 */

import { cleanDocument } from "../extract/clean.js";
import type { DomElement } from "../extract/dom.js";
import { trimEdges } from "../extract/edges.js";
import { selectMainContent } from "../extract/main.js";
import type { PageMetadata } from "../extract/metadata.js";
import { extractMetadata, gatherMetadata } from "../extract/metadata.js";
import { classifyPage } from "../extract/page-type.js";
import { parseBounded } from "../extract/parse.js";
import { pruneContent } from "../extract/prune.js";
import { documentBaseUrl } from "../extract/url.js";
import { toMarkdown } from "../markdown/serialize.js";
import { toText } from "../markdown/text.js";
import type { LimitHit } from "../warnings.js";

/** Options of convertHtml(). */
export interface ConvertHtmlOptions {
  /** URL of the page: relative links, images and the canonical URL resolve against it. */
  url?: string;
  /**
   * Output form.
   * @default "markdown"
   */
  format?: "markdown" | "text";
  /**
   * `"main"`: the main content, without navigation, ads, banners and other chrome.
   * `"full"`: everything visible on the page.
   * @default "main"
   */
  extract?: "main" | "full";
}

/** A converted page: its content and the metadata the page states (unknown fields omitted). */
export interface ConvertedDocument extends PageMetadata {
  content: string;
  /** Limits the conversion stopped at: when present, the content ends before the page does. */
  limits?: LimitHit[];
}

/**
 * Converts an HTML page to Markdown (or plain text) with its metadata. Never throws on
 * malformed or hostile HTML; input past 5 MB is cut (see MAX_HTML_LENGTH).
 *
 * @example
 * const doc = convertHtml(html, { url: "https://example.com/post" });
 * doc.title; // "Post title"
 * doc.content; // "# Post title\n\nFirst paragraph with a [link](https://example.com/x)."
 */
export function convertHtml(html: string, options: ConvertHtmlOptions = {}): ConvertedDocument {
  if (typeof html !== "string") throw new TypeError("convertHtml: html must be a string");
  const { url, format = "markdown", extract = "main" } = options;
  if (format !== "markdown" && format !== "text") {
    throw new TypeError(`convertHtml: unknown format ${JSON.stringify(format)}`);
  }
  if (extract !== "main" && extract !== "full") {
    throw new TypeError(`convertHtml: unknown extract mode ${JSON.stringify(extract)}`);
  }

  const { document, cut } = parseBounded(html);
  const baseUrl = documentBaseUrl(document, url);
  const raw = gatherMetadata(document);
  const metadata = extractMetadata(document, baseUrl, raw);
  const pageType = classifyPage(raw, url);

  const body = bodyOf(document.documentElement);
  let content = "";
  if (body) {
    cleanDocument(body, extract, pageType);
    const root = extract === "main" ? selectMainContent(body, document) : body;
    if (extract === "main") {
      pruneContent(root, pageType);
      trimEdges(root, { pageType, author: metadata.author, baseUrl });
    }
    const renderOptions = baseUrl === undefined ? {} : { baseUrl };
    content = format === "text" ? toText(root, renderOptions) : toMarkdown(root, renderOptions);
  }
  return { content, ...metadata, ...(cut ? { limits: [cut] } : {}) };
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
