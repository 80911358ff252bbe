/**
 * Plain text (text, Markdown, CSV and XML that is not a feed): decoded and returned as it came,
 * line endings made uniform, or as one `<pre>` when clean HTML is asked for. One linear pass, so
 * a small body converts where it arrives instead of on a thread (see convertInline).
 */
import { escapeHtml } from "../markdown/clean-html.js";
import type { OutputFormat } from "../values.js";
import { decodeBody } from "./decode.js";
import { type ContentKind, mayBePlain, sniffContent } from "./sniff.js";
import { convertText } from "./text.js";

/** The kinds converted here: their content is their own text. */
const PLAIN_KINDS: ReadonlySet<ContentKind> = new Set(["text", "markdown", "csv", "xml"]);

/** A converted plain-text body: its text, and the type and charset it was read as. */
export interface PlainBody {
  contentType: string;
  charset: string;
  content: string;
}

/** Whether a sniffed kind is plain text. */
export function isPlainKind(kind: ContentKind): boolean {
  return PLAIN_KINDS.has(kind);
}

/** A plain-text body of `mimeType`, decoded and converted to `format`. */
export function convertPlain(
  body: Uint8Array,
  headerType: string | undefined,
  kind: ContentKind,
  mimeType: string,
  format: OutputFormat,
): PlainBody {
  const { text, charset } = decodeBody(body, headerType, kind === "xml" ? "xml" : "other");
  const base = { contentType: mimeType, charset };
  if (format === "raw") return { ...base, content: text };
  const content = convertText(text);
  if (format === "html")
    return { ...base, content: content === "" ? "" : `<pre>${escapeHtml(content)}</pre>` };
  return { ...base, content };
}

/**
 * The conversion of a plain-text body of at most `maxBytes`, done at once; undefined for every
 * other body, which converts on a thread.
 */
export function convertInline(
  body: Uint8Array,
  headerType: string | undefined,
  url: string,
  format: OutputFormat,
  maxBytes: number,
): PlainBody | undefined {
  if (body.length > maxBytes || !mayBePlain(headerType)) return undefined;
  const { kind, mimeType } = sniffContent(body, headerType, url);
  return isPlainKind(kind) ? convertPlain(body, headerType, kind, mimeType, format) : undefined;
}
