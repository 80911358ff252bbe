/**
 * PDF → Markdown, plain text or clean HTML with metadata: the text of every page, read with pdf.js (through
 * unpdf) and laid out again from positions and font sizes. Lines become paragraphs where the
 * vertical gap says so, words hyphenated at a line end are joined, and short lines set clearly
 * larger than the body text become headings. unpdf is loaded on the first PDF, never when this
 * module is imported: pdf.js is large and most pages are HTML.
 */

import type { getDocumentProxy } from "unpdf";
import { WebFetchError } from "../errors.js";
import { normalizeDate } from "../extract/date.js";
import type { PageMetadata } from "../extract/metadata.js";
import { escapeHtml } from "../markdown/clean-html.js";
import { OUTPUT_FORMATS, type OutputFormat } from "../values.js";
import type { LimitHit } from "../warnings.js";

/** Pages read at most; a longer document is cut, and its content says so. */
export const MAX_PDF_PAGES = 500;
/** Characters of text read at most; pages past this are not read. */
export const MAX_PDF_CHARS = 2_000_000;

/** Options of convertPdf(). */
export interface ConvertPdfOptions {
  /**
   * Output form. `"html"` gives headings, paragraphs and lists as HTML; `"raw"` gives the text
   * form, since a PDF has no text document to return as it is.
   * @default "markdown"
   */
  format?: OutputFormat;
}

/** A converted PDF: its text, the metadata the file states, and its page count. */
export interface ConvertedPdf extends PageMetadata {
  content: string;
  /** Pages in the document (all of them, also when only the first MAX_PDF_PAGES were read). */
  pages: number;
  /** Limits reading stopped at: when present, the content ends before the document does. */
  limits?: LimitHit[];
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
/** pdf.js's parsed XMP packet. */
interface XmpMetadata {
  get(name: string): unknown;
  getRaw(): unknown;
}
type DocumentOptions = NonNullable<Parameters<typeof getDocumentProxy>[1]>;

/**
 * pdf.js settings for untrusted input in a server: no console output (stdout may carry a
 * protocol), no `eval` of font programs, no font loading into a DOM, and nothing fetched: no
 * system fonts, no range or stream requests. Text extraction needs none of them.
 */
const DOCUMENT_OPTIONS: DocumentOptions = {
  verbosity: 0,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  useWorkerFetch: false,
  disableAutoFetch: true,
  disableStream: true,
  disableRange: true,
  enableXfa: false,
  stopAtErrors: false,
};

/** The fields of a pdf.js text item this module reads. */
interface TextItem {
  str: string;
  /** [a, b, c, d, e, f]: scale/rotation, then the origin (x, y) in points. */
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/** One line of text on a page, its baseline and the font size most of its characters have. */
interface Line {
  text: string;
  x: number;
  y: number;
  size: number;
  page: number;
}

type BlockKind = "paragraph" | "heading" | "item";

interface Block {
  kind: BlockKind;
  lines: Line[];
  size: number;
  /** Heading level, 1–3 (headings only). */
  level?: number;
}

/** Font sizes are compared at this precision, points. */
const SIZE_STEP = 0.5;
/** A heading's font is at least this much larger than the body's (ratio and points). */
const HEADING_RATIO = 1.15;
const HEADING_MIN_DELTA = 1;
/** A heading is short: this many lines and characters at most. */
const HEADING_MAX_LINES = 3;
const HEADING_MAX_CHARS = 150;
/** Deepest heading level given (`###`). */
const MAX_HEADING_LEVEL = 3;
/** Baseline gaps (× body size) that can be line spacing, and the percentile taken as it. */
const MIN_SPACING_RATIO = 0.8;
const MAX_SPACING_RATIO = 3;
const SPACING_PERCENTILE = 0.2;
/** A gap this much larger than the usual line spacing ends a paragraph. */
const PARAGRAPH_GAP_RATIO = 1.3;
/** Baselines closer than this (× font size) are one line (superscripts, mixed fonts). */
const SAME_LINE_RATIO = 0.5;
/** A horizontal gap wider than this (× font size) between two runs of a line is a space. */
const WORD_GAP_RATIO = 0.15;
/** A first line indented by more than this (× font size) starts a paragraph. */
const INDENT_RATIO = 0.8;
/** Longest failure reason put into an error message. */
const MAX_REASON_CHARS = 120;
/** Longest metadata value kept. */
const MAX_META_CHARS = 500;

/** Bullets that start a list item ("•", "◦", "▪", and the ASCII "-", "*", "+"). */
const BULLET = /^(?:[•◦▪▫‣⁃●○■□∙·]\s*|[-*+]\s+)(?=\S)/u;
/** A numbered list item ("1. Scope", "2) Terms"): kept as it is, which Markdown reads as a list. */
const NUMBERED = /^\d{1,3}[.)]\s+\S/;
/** A line that ends a sentence (so a paragraph does not run on across a page or column). */
const SENTENCE_END = /[.!?:;。！？]["'”’)\]]*$/u;
/** A lowercase letter, then a hyphen: a word broken at the line end ("compu-"). */
const BROKEN_WORD = /\p{Ll}-$/u;
/** A compound broken at its hyphen ("Franco-"), or a sentence at its dash ("so—"). */
const BROKEN_COMPOUND = /(?:\p{L}-|—)$/u;
/** Scripts written without spaces between words: lines join without one. */
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;
/** Page numbers as running headers or footers print them: "12", "- 12 -", "Page 3 of 9". */
const PAGE_NUMBER = /^(?:[-–—]\s*)?(?:page\s+)?\d{1,3}(?:\s*(?:of|\/)\s*\d{1,3})?(?:\s*[-–—])?$/i;
/** Control characters and U+FFFD, which PDFs with broken encodings are full of. */
const JUNK_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g;
/** BCP 47 language tag, as the catalog's /Lang should hold. */
const LANG_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/i;
/** A PDF date: D:YYYYMMDDHHmmSS with an optional zone (`Z`, `+01'00'`). */
const PDF_DATE =
  /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?/;
/** The first rdf:li of an rdf:Alt, right after the property's start tag. */
const XMP_ALT_ENTRY = /^<[^>]*>\s*<rdf:Alt\b[^>]*>\s*<rdf:li\b[^>]*>([^<]*)<\/rdf:li>/i;
/** Characters of XMP read for one property. */
const MAX_XMP_PROPERTY_CHARS = 4096;
/** The named entities of XML. */
const XML_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};
/** Titles some producers write when the author gave none. */
const PLACEHOLDER_TITLE = /^(?:untitled|untitled document|title|document\d*)$/i;
/** Office's prefix on titles taken from the file name ("Microsoft Word - report.docx"). */
const OFFICE_PREFIX = /^Microsoft (?:Word|PowerPoint|Excel) - /;

/**
 * Converts a PDF to Markdown (or plain text) with its title, author, description, date, language
 * and page count. Reads at most MAX_PDF_PAGES pages and about MAX_PDF_CHARS characters.
 * Throws PARSE_ERROR when the file cannot be read (damaged, or needs a password).
 *
 * @example
 * const doc = await convertPdf(bytes);
 * doc.pages; // 3
 * doc.content; // "# Annual report\n\nThe year in one paragraph..."
 */
export async function convertPdf(
  body: Uint8Array,
  options: ConvertPdfOptions = {},
): Promise<ConvertedPdf> {
  const { format = "markdown" } = options;
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new TypeError(`convertPdf: unknown format ${JSON.stringify(format)}`);
  }
  const { getDocumentProxy: open } = await import("unpdf");
  let doc: PdfDocument;
  try {
    // pdf.js takes ownership of the buffer (it is detached afterwards): give it a copy.
    doc = await open(new Uint8Array(body), DOCUMENT_OPTIONS);
  } catch (error) {
    throw parseError(error);
  }
  try {
    const metadata = await readMetadata(doc);
    const { lines, read } = await readLines(doc);
    const notes: string[] = [];
    let limits: LimitHit[] | undefined;
    if (read < doc.numPages) {
      notes.push(`[Only the first ${read} of ${doc.numPages} pages were converted.]`);
      limits = [
        read < MAX_PDF_PAGES
          ? { limit: "pdf-chars", max: MAX_PDF_CHARS }
          : { limit: "pdf-pages", max: MAX_PDF_PAGES },
      ];
    }
    if (lines.length === 0 && doc.numPages > 0) {
      notes.push("[This PDF has no text layer; its pages may be scanned images.]");
    }
    const blocks = toBlocks(lines);
    const content =
      format === "html"
        ? [renderHtml(blocks), ...notes.map((note) => `<p>${escapeHtml(note)}</p>`)]
            .filter(Boolean)
            .join("\n")
        : [render(blocks, format), ...notes].filter(Boolean).join("\n\n");
    return { content, ...metadata, pages: doc.numPages, ...(limits ? { limits } : {}) };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** Text lines of the pages, in order, up to the page and character limits. */
async function readLines(doc: PdfDocument): Promise<{ lines: Line[]; read: number }> {
  const lines: Line[] = [];
  const last = Math.min(doc.numPages, MAX_PDF_PAGES);
  let chars = 0;
  let read = 0;
  let failed = 0;
  let firstError: unknown;
  for (let number = 1; number <= last && chars < MAX_PDF_CHARS; number++) {
    read = number;
    try {
      const page = await doc.getPage(number);
      const text = await page.getTextContent();
      page.cleanup();
      const items: TextItem[] = [];
      for (const item of text.items) if ("str" in item) items.push(item);
      for (const line of pageLines(items, number)) {
        lines.push(line);
        chars += line.text.length;
      }
    } catch (error) {
      // One damaged page does not lose the others; only a file none can be read from fails.
      failed++;
      firstError ??= error;
    }
  }
  if (read > 0 && failed === read) throw parseError(firstError);
  return { lines, read };
}

/** Groups a page's text items into lines: by end-of-line marks and by baseline. */
function pageLines(items: readonly TextItem[], page: number): Line[] {
  const lines: Line[] = [];
  let text = "";
  let x = 0;
  let y = 0;
  let endX = 0;
  let lineSize = 0;
  let sizes = new Map<number, number>();
  let open = false;

  const flush = () => {
    const clean = text.replace(JUNK_CHARS, "").replace(/\s+/g, " ").trim();
    if (clean !== "") {
      let size = lineSize;
      let most = -1;
      for (const [s, count] of sizes) {
        if (count > most) [size, most] = [s, count];
      }
      lines.push({ text: clean, x, y, size, page });
    }
    text = "";
    sizes = new Map();
    open = false;
  };

  for (const item of items) {
    const [, , c = 0, d = 0, e = 0, f = 0] = item.transform;
    const size = Math.hypot(c, d) || item.height;
    if (item.str !== "") {
      if (open && Math.abs(f - y) > SAME_LINE_RATIO * Math.max(size, lineSize)) flush();
      if (!open) {
        [x, y, endX, lineSize, open] = [e, f, e, size, true];
      } else if (e - endX > WORD_GAP_RATIO * size && !/\s$/.test(text) && !/^\s/.test(item.str)) {
        text += " ";
      }
      text += item.str;
      endX = e + item.width;
      const key = Math.round(size / SIZE_STEP) * SIZE_STEP;
      sizes.set(key, (sizes.get(key) ?? 0) + item.str.replace(/\s/g, "").length);
    }
    if (item.hasEOL && open) flush();
  }
  if (open) flush();

  // A bare page number as the first or last line of a page is furniture, not text.
  const edge = (i: number) => i === 0 || i === lines.length - 1;
  return lines.filter((line, i) => !(edge(i) && PAGE_NUMBER.test(line.text)));
}

/** The size most characters are set in: the body text's. */
function bodySize(lines: readonly Line[]): number {
  const chars = new Map<number, number>();
  for (const line of lines) chars.set(line.size, (chars.get(line.size) ?? 0) + line.text.length);
  let body = 0;
  let most = -1;
  for (const [size, count] of chars) {
    if (count > most || (count === most && size < body)) [body, most] = [size, count];
  }
  return body;
}

/**
 * The usual distance between baselines of body lines inside a paragraph, or 1.2 × the body
 * size. A low percentile, not the median: a document of one-line paragraphs has more gaps
 * between paragraphs than inside them.
 */
function lineSpacing(lines: readonly Line[], body: number): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const [prev, line] = [lines[i - 1]!, lines[i]!];
    if (prev.page !== line.page || prev.size !== body || line.size !== body) continue;
    const gap = prev.y - line.y;
    if (gap >= body * MIN_SPACING_RATIO && gap <= body * MAX_SPACING_RATIO) gaps.push(gap);
  }
  if (gaps.length === 0) return body * 1.2;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length * SPACING_PERCENTILE)]!;
}

/** Whether `line` starts a new block after `prev`. */
function startsBlock(prev: Line, line: Line, body: number, spacing: number): boolean {
  if (isItem(line.text)) return true;
  if (Math.abs(prev.size - line.size) >= SIZE_STEP) return true;
  const gap = prev.y - line.y;
  if (prev.page !== line.page || gap <= 0) {
    // A new page or column: a sentence that did not end goes on.
    return SENTENCE_END.test(prev.text);
  }
  const expected = (spacing * line.size) / (body || line.size);
  if (gap > expected * PARAGRAPH_GAP_RATIO) return true;
  return line.x - prev.x > INDENT_RATIO * line.size && SENTENCE_END.test(prev.text);
}

/** A line that starts a list item: a bullet or a number. */
function isItem(text: string): boolean {
  return BULLET.test(text) || NUMBERED.test(text);
}

/** Lines grouped into paragraphs, list items and headings, headings ranked by size. */
function toBlocks(lines: readonly Line[]): Block[] {
  if (lines.length === 0) return [];
  const body = bodySize(lines);
  const spacing = lineSpacing(lines, body);
  const blocks: Block[] = [];
  let current: Block | undefined;
  for (const line of lines) {
    const prev = current?.lines[current.lines.length - 1];
    if (!current || !prev || startsBlock(prev, line, body, spacing)) {
      current = {
        kind: isItem(line.text) ? "item" : "paragraph",
        lines: [],
        size: line.size,
      };
      blocks.push(current);
    }
    current.lines.push(line);
  }

  const headingSizes = new Set<number>();
  for (const block of blocks) {
    if (isHeading(block, body)) {
      block.kind = "heading";
      headingSizes.add(block.size);
    }
  }
  const ranks = [...headingSizes].sort((a, b) => b - a);
  for (const block of blocks) {
    if (block.kind === "heading") {
      block.level = Math.min(ranks.indexOf(block.size) + 1, MAX_HEADING_LEVEL);
    }
  }
  return blocks;
}

/** A short block set clearly larger than the body text, with a letter or digit in it. */
function isHeading(block: Block, body: number): boolean {
  if (block.size < body * HEADING_RATIO || block.size - body < HEADING_MIN_DELTA) return false;
  if (block.lines.length > HEADING_MAX_LINES) return false;
  const text = joinLines(block.lines);
  return text.length <= HEADING_MAX_CHARS && /[\p{L}\p{N}]/u.test(text);
}

/** A block's lines as one string: hyphenation undone, spaces only where the script has them. */
function joinLines(lines: readonly Line[]): string {
  let text = "";
  for (const { text: next } of lines) {
    if (text === "") text = next;
    else if (text.endsWith("\u00ad")) text = text.slice(0, -1) + next;
    else if (BROKEN_WORD.test(text) && /^\p{Ll}/u.test(next)) text = text.slice(0, -1) + next;
    else if (BROKEN_COMPOUND.test(text)) text += next;
    else if (NO_SPACE_SCRIPT.test(text.slice(-1)) && NO_SPACE_SCRIPT.test(next.charAt(0))) {
      text += next;
    } else text += ` ${next}`;
  }
  return text.replace(/\u00ad/g, "");
}

/**
 * The blocks as clean HTML: headings, paragraphs, and bulleted items in lists (a numbered item
 * keeps its number as a paragraph, as the other forms keep it as text).
 */
function renderHtml(blocks: readonly Block[]): string {
  const out: string[] = [];
  let inList = false;
  for (const block of blocks) {
    const text = joinLines(block.lines);
    const bullet = block.kind === "item" && BULLET.test(text);
    if (bullet !== inList) out.push(bullet ? "<ul>" : "</ul>");
    inList = bullet;
    if (bullet) out.push(`<li>${escapeHtml(text.replace(BULLET, ""))}</li>`);
    else if (block.kind === "heading") {
      const tag = `h${block.level ?? 1}`;
      out.push(`<${tag}>${escapeHtml(text)}</${tag}>`);
    } else out.push(`<p>${escapeHtml(text)}</p>`);
  }
  if (inList) out.push("</ul>");
  return out.join("\n");
}

/**
 * The blocks as Markdown or text: blank lines between blocks, one line per item of a list. A
 * PDF has no text document of its own, so `raw` is the text form.
 */
function render(blocks: readonly Block[], format: OutputFormat): string {
  let out = "";
  let prevList: string | undefined;
  for (const block of blocks) {
    const text = joinLines(block.lines);
    const list = block.kind !== "item" ? undefined : BULLET.test(text) ? "bullet" : "number";
    let rendered: string;
    if (format === "text" || format === "raw" || list === "number") rendered = text;
    else if (block.kind === "heading") rendered = `${"#".repeat(block.level ?? 1)} ${text}`;
    else if (list === "bullet") rendered = `- ${escapeStart(text.replace(BULLET, ""))}`;
    else rendered = escapeStart(text);
    if (out !== "") out += list !== undefined && list === prevList ? "\n" : "\n\n";
    out += rendered;
    prevList = list;
  }
  return out;
}

/**
 * Escapes what would turn a paragraph into other Markdown at its start: `#` headings, `>`
 * quotes, rules and fences, and numbers too long for a list ("2024. A year"). Short numbers
 * ("1. Scope") are left as they are: in a PDF they are nearly always a numbered list.
 */
function escapeStart(text: string): string {
  if (/^(?:#|>|```|~~~)/.test(text) || /^(?:[=_]{3,}|(?:-\s*){3,})$/.test(text)) {
    return `\\${text}`;
  }
  return text.replace(/^(\d{4,})([.)])(?=\s|$)/, "$1\\$2");
}

/** Title, author, description, date and language from the Info dictionary and XMP. */
async function readMetadata(doc: PdfDocument): Promise<PageMetadata> {
  let info: Record<string, unknown>;
  let xmp: XmpMetadata | null;
  try {
    const meta = await doc.getMetadata();
    info = meta.info as Record<string, unknown>;
    xmp = (meta.metadata as XmpMetadata | null) ?? null;
  } catch {
    return {}; // damaged metadata does not keep the text from being read
  }
  // pdf.js lowercases XMP names and gives rdf:Seq and rdf:Bag values as arrays, but runs the
  // entries of an rdf:Alt (one per language) together: those are read from the raw XML.
  const fromXmp = (name: string, join: string): string | undefined => {
    const alt = firstAlternative(xmp, name);
    if (alt !== undefined) return clean(alt);
    const value = xmp?.get(name);
    if (Array.isArray(value)) return clean(value.filter((v) => typeof v === "string").join(join));
    return clean(value);
  };
  const result: PageMetadata = {};
  const title = [fromXmp("dc:title", " "), clean(info.Title)]
    .map((value) => value?.replace(OFFICE_PREFIX, ""))
    .find((value) => value && !PLACEHOLDER_TITLE.test(value));
  if (title) result.title = title;
  const author = fromXmp("dc:creator", ", ") ?? clean(info.Author);
  if (author) result.author = author;
  const description = fromXmp("dc:description", " ") ?? clean(info.Subject);
  if (description) result.description = description;
  const date =
    pdfDate(clean(info.CreationDate)) ?? normalizeDate(fromXmp("xmp:createdate", "") ?? "");
  if (date) result.publishedAt = date;
  const lang = clean(info.Language);
  if (lang && LANG_TAG.test(lang)) result.lang = lang;
  return result;
}

/** The first entry (the default language's) of an XMP rdf:Alt property, such as dc:title. */
function firstAlternative(xmp: XmpMetadata | null, name: string): string | undefined {
  const raw = xmp?.getRaw();
  if (typeof raw !== "string") return undefined;
  const start = raw.toLowerCase().indexOf(`<${name}`);
  if (start < 0) return undefined;
  const li = XMP_ALT_ENTRY.exec(raw.slice(start, start + MAX_XMP_PROPERTY_CHARS));
  return li ? decodeXml(li[1]!) : undefined;
}

/** XML text with its entities decoded (the five named ones and numeric references). */
function decodeXml(text: string): string {
  return text.replace(
    /&(?:#x([0-9a-f]+)|#(\d+)|(amp|lt|gt|quot|apos));/gi,
    (all, hex, dec, name) => {
      if (name) return XML_ENTITIES[(name as string).toLowerCase()] ?? all;
      const code = hex ? Number.parseInt(hex as string, 16) : Number(dec);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    },
  );
}

/** A metadata string, trimmed and cleaned of control characters; empty → undefined. */
function clean(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.replace(JUNK_CHARS, "").replace(/\s+/g, " ").trim();
  return text === "" ? undefined : text.slice(0, MAX_META_CHARS);
}

/** A PDF date ("D:20260102030405+01'00'") as ISO 8601 in UTC, when it reads as one. */
function pdfDate(value: string | undefined): string | undefined {
  const match = value ? PDF_DATE.exec(value) : null;
  if (!match) return undefined;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", z, sign, zh, zm = "00"] = match;
  const zone = z ? "Z" : sign && zh ? `${sign}${zh}:${zm}` : "Z";
  return normalizeDate(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
}

/** PARSE_ERROR with a short reason a person can read ("it needs a password"). */
function parseError(error: unknown): WebFetchError {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  let reason: string;
  if (name === "PasswordException") {
    reason = "it is encrypted and needs a password";
  } else {
    reason = String(message ?? error ?? "")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/\.$/, "")
      .slice(0, MAX_REASON_CHARS);
    // "Invalid PDF structure" → "invalid PDF structure", but "PDF header" stays.
    if (/^\p{Lu}\p{Ll}/u.test(reason)) reason = reason.charAt(0).toLowerCase() + reason.slice(1);
    if (reason === "") reason = "unknown error";
  }
  return new WebFetchError("PARSE_ERROR", `Could not read the PDF: ${reason}`, {
    cause: error,
    retryable: false,
  });
}
