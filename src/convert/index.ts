/**
 * Convert, by content type: the bytes of a response body become Markdown (or text, or clean HTML)
 * plus metadata. The type is sniffed from the bytes (sniff.ts; the header is only a hint), the
 * text decoded by the charset a browser would choose (decode.ts), then each type converted by its
 * own module. `raw` is the decoded text as served, of every type but PDF (which has none: its
 * text is given, and `rawUnavailable` says so); `html` of a type that is not HTML is its
 * converted text in one `<pre>` (a PDF's blocks become headings, paragraphs and lists).
 */
import { WebFetchError } from "../errors.js";
import { escapeHtml } from "../markdown/clean-html.js";
import type { ExtractMode, OutputFormat } from "../values.js";
import { decodeBody, decodeMarkup } from "./decode.js";
import { type ConvertedDocument, convertMarkup } from "./html.js";
import { convertJson } from "./json.js";
import { convertPdf } from "./pdf.js";
import { convertPlain, isPlainKind } from "./plain.js";
import { sniffContent } from "./sniff.js";

export interface ConvertOptions {
  url: string;
  format: OutputFormat;
  extract: ExtractMode;
  /** CSS selectors scoping an HTML page (other types have no elements to select). */
  includeSelectors?: readonly string[];
  excludeSelectors?: readonly string[];
  /** List an HTML page's links and images. */
  links?: boolean;
  images?: boolean;
}

export interface ConvertedBody extends ConvertedDocument {
  /** The MIME type the content was treated as. */
  contentType: string;
  /** The charset it was decoded with (text content only). */
  charset?: string;
  /** Page count (PDF only). */
  pages?: number;
  /** `raw` was asked of a type with no text source (PDF): the content is its extracted text. */
  rawUnavailable?: true;
}

/**
 * Converts a response body. Throws UNSUPPORTED_CONTENT_TYPE for binary content, PARSE_ERROR for
 * a PDF that cannot be read. Async because PDF reading is; everything else converts at once.
 *
 * @example
 * const doc = await convertBody(bytes, "text/html", { url, format: "markdown", extract: "main" });
 */
export async function convertBody(
  body: Uint8Array,
  headerType: string | undefined,
  options: ConvertOptions,
): Promise<ConvertedBody> {
  const { kind, mimeType } = sniffContent(body, headerType, options.url);
  if (kind === "binary") {
    throw new WebFetchError("UNSUPPORTED_CONTENT_TYPE", `Unsupported content type: ${mimeType}`, {
      retryable: false,
    });
  }
  if (kind === "pdf") {
    // One type for every PDF label (application/x-pdf, octet-stream); a PDF has no charset.
    const pdf = await convertPdf(body, options);
    return {
      contentType: "application/pdf",
      ...pdf,
      ...(options.format === "raw" ? { rawUnavailable: true as const } : {}),
    };
  }
  if (isPlainKind(kind)) return convertPlain(body, headerType, kind, mimeType, options.format);
  // What is left is markup (HTML, XHTML, feeds) or JSON.
  if (kind === "html" || kind === "xhtml") {
    const { text, charset } = decodeMarkup(body, headerType, kind === "html" ? "html" : "xml");
    return { contentType: mimeType, charset, ...convertMarkup(text, options) };
  }
  const decodeKind = kind === "json" ? "other" : "xml";
  const { text, charset } = decodeBody(body, headerType, decodeKind);
  const base = { contentType: mimeType, charset };
  // The feed reader (an XML DOM) loads with the first feed: a thread that converts only HTML
  // starts without it.
  const feed = kind === "json" ? undefined : await import("./feed.js");
  if (options.format === "raw") {
    return { ...base, ...(feed && kind === "feed" ? rawMetadata(feed, text) : {}), content: text };
  }
  const converted = feed
    ? feed.convertFeed(text, { url: options.url })
    : { content: convertJson(text) };
  if (options.format === "html") {
    const content = converted.content === "" ? "" : `<pre>${escapeHtml(converted.content)}</pre>`;
    return { ...base, ...converted, content };
  }
  return { ...base, ...converted };
}

/** What a feed says of itself (its title and description), beside its raw text. */
function rawMetadata(
  feed: typeof import("./feed.js"),
  text: string,
): Pick<ConvertedDocument, "title" | "description"> {
  try {
    const { title, description } = feed.convertFeed(text);
    return { ...(title ? { title } : {}), ...(description ? { description } : {}) };
  } catch {
    return {}; // a feed that does not parse is still its own text
  }
}
