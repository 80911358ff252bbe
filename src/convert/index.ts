/**
 * Convert, by content type: the bytes of a response body become Markdown (or text) plus
 * metadata. The type is sniffed from the bytes (sniff.ts; the header is only a hint), the text
 * decoded by the charset a browser would choose (decode.ts), then each type converted by its own
 * module.
 */
import { WebFetchError } from "../errors.js";
import type { ExtractMode, OutputFormat } from "../values.js";
import { decodeBody } from "./decode.js";
import { convertFeed } from "./feed.js";
import { type ConvertedDocument, convertHtml } from "./html.js";
import { convertJson } from "./json.js";
import { convertPdf } from "./pdf.js";
import { sniffContent } from "./sniff.js";
import { convertText } from "./text.js";

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
    return { contentType: "application/pdf", ...(await convertPdf(body, options)) };
  }
  const decodeKind =
    kind === "html"
      ? "html"
      : kind === "xhtml" || kind === "feed" || kind === "xml"
        ? "xml"
        : "other";
  const { text, charset } = decodeBody(body, headerType, decodeKind);
  const base = { contentType: mimeType, charset };
  switch (kind) {
    case "html":
    case "xhtml":
      return { ...base, ...convertHtml(text, options) };
    case "json":
      return { ...base, content: convertJson(text) };
    case "feed":
      return { ...base, ...convertFeed(text, { url: options.url }) };
    default:
      // markdown, text, csv and other XML are returned as they are.
      return { ...base, content: convertText(text) };
  }
}
