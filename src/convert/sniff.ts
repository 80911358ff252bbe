/**
 * What a response body really is. The Content-Type header is a hint, not the truth: servers send
 * PNGs as text/html, feeds as text/plain and error pages as application/json. Magic numbers win,
 * then a NUL/control-byte check, then the declared type, then sniffing of the first bytes (when
 * the type is missing, application/octet-stream, or plainly wrong). The point is to convert text
 * faithfully and to refuse binary before it becomes megabytes of mojibake.
 */

/** How the body will be converted. "binary" means UNSUPPORTED_CONTENT_TYPE. */
export type ContentKind =
  | "html"
  | "xhtml"
  | "markdown"
  | "json"
  | "text"
  | "csv"
  | "feed"
  | "xml"
  | "pdf"
  | "binary";

/** The sniffed kind and MIME type (the header's essence, or what the bytes turned out to be). */
export interface SniffResult {
  kind: ContentKind;
  mimeType: string;
}

/** A magic number: `pattern` at `offset`; in string patterns "?" matches any byte. */
interface Signature {
  mime: string;
  pattern: string | readonly number[];
  offset?: number;
  /** Container formats (ZIP, OLE, RIFF...): a more specific declared type is kept. */
  generic?: boolean;
}

/** Magic numbers of formats that are never text (WHATWG MIME Sniffing §7 plus common others). */
const SIGNATURES: readonly Signature[] = [
  { mime: "application/pdf", pattern: "%PDF-" },
  { mime: "image/png", pattern: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: "image/jpeg", pattern: [0xff, 0xd8, 0xff] },
  { mime: "image/gif", pattern: "GIF87a" },
  { mime: "image/gif", pattern: "GIF89a" },
  { mime: "image/webp", pattern: "RIFF????WEBP" },
  { mime: "audio/wav", pattern: "RIFF????WAVE" },
  { mime: "video/x-msvideo", pattern: "RIFF????AVI " },
  { mime: "image/x-icon", pattern: [0, 0, 1, 0] },
  { mime: "image/x-icon", pattern: [0, 0, 2, 0] },
  { mime: "image/tiff", pattern: [0x49, 0x49, 0x2a, 0] },
  { mime: "image/tiff", pattern: [0x4d, 0x4d, 0, 0x2a] },
  { mime: "image/vnd.adobe.photoshop", pattern: "8BPS" },
  { mime: "image/jxl", pattern: [0xff, 0x0a] },
  { mime: "image/avif", pattern: "????ftypavif" },
  { mime: "image/heic", pattern: "????ftypheic" },
  { mime: "image/heic", pattern: "????ftypmif1" },
  { mime: "video/quicktime", pattern: "????ftypqt  " },
  { mime: "audio/mp4", pattern: "????ftypM4A " },
  { mime: "video/mp4", pattern: "????ftyp" },
  { mime: "application/zip", pattern: [0x50, 0x4b, 0x03, 0x04], generic: true },
  { mime: "application/zip", pattern: [0x50, 0x4b, 0x05, 0x06], generic: true },
  { mime: "application/zip", pattern: [0x50, 0x4b, 0x07, 0x08], generic: true },
  { mime: "application/gzip", pattern: [0x1f, 0x8b, 0x08] },
  { mime: "application/x-xz", pattern: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { mime: "application/x-7z-compressed", pattern: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { mime: "application/vnd.rar", pattern: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { mime: "application/zstd", pattern: [0x28, 0xb5, 0x2f, 0xfd] },
  { mime: "application/x-tar", pattern: "ustar", offset: 257 },
  { mime: "application/vnd.ms-cab-compressed", pattern: [0x4d, 0x53, 0x43, 0x46, 0, 0, 0, 0] },
  {
    mime: "application/x-ole-storage",
    pattern: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    generic: true,
  },
  { mime: "audio/mpeg", pattern: "ID3" },
  { mime: "audio/mpeg", pattern: [0xff, 0xfb] },
  { mime: "audio/mpeg", pattern: [0xff, 0xf3] },
  { mime: "audio/mpeg", pattern: [0xff, 0xf2] },
  { mime: "audio/aac", pattern: [0xff, 0xf1] },
  { mime: "audio/aac", pattern: [0xff, 0xf9] },
  { mime: "audio/ogg", pattern: [0x4f, 0x67, 0x67, 0x53, 0x00] },
  { mime: "audio/flac", pattern: "fLaC" },
  { mime: "audio/midi", pattern: [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6] },
  { mime: "audio/aiff", pattern: "FORM????AIFF" },
  { mime: "video/webm", pattern: [0x1a, 0x45, 0xdf, 0xa3] },
  { mime: "video/x-flv", pattern: [0x46, 0x4c, 0x56, 0x01] },
  { mime: "video/mpeg", pattern: [0, 0, 1, 0xba] },
  { mime: "video/mpeg", pattern: [0, 0, 1, 0xb3] },
  { mime: "application/wasm", pattern: [0, 0x61, 0x73, 0x6d] },
  { mime: "application/x-executable", pattern: [0x7f, 0x45, 0x4c, 0x46] },
  { mime: "application/x-mach-binary", pattern: [0xfe, 0xed, 0xfa, 0xce] },
  { mime: "application/x-mach-binary", pattern: [0xfe, 0xed, 0xfa, 0xcf] },
  { mime: "application/x-mach-binary", pattern: [0xce, 0xfa, 0xed, 0xfe] },
  { mime: "application/x-mach-binary", pattern: [0xcf, 0xfa, 0xed, 0xfe] },
  // Mach-O universal binary or Java class file: same magic.
  { mime: "application/octet-stream", pattern: [0xca, 0xfe, 0xba, 0xbe], generic: true },
  { mime: "font/woff", pattern: "wOFF" },
  { mime: "font/woff2", pattern: "wOF2" },
  { mime: "font/ttf", pattern: [0, 1, 0, 0, 0] },
  // "OTTO"/"ttcf" are followed by a small big-endian number, whose first byte is NUL.
  { mime: "font/otf", pattern: [0x4f, 0x54, 0x54, 0x4f, 0] },
  { mime: "font/collection", pattern: [0x74, 0x74, 0x63, 0x66, 0] },
  { mime: "application/vnd.sqlite3", pattern: "SQLite format 3\0" },
  { mime: "application/postscript", pattern: "%!PS-Adobe-" },
];

/**
 * Two-letter magics that ordinary text could start with ("BMW…", "MZ…"): accepted only when the
 * header bytes they imply are NUL (BMP's reserved fields; the DOS stub of a PE file has many).
 */
const WEAK_SIGNATURES: readonly { mime: string; prefix: string; nulAt: readonly number[] }[] = [
  { mime: "image/bmp", prefix: "BM", nulAt: [6, 7, 8, 9] },
  { mime: "application/x-msdownload", prefix: "MZ", nulAt: [] },
];

/** bzip2: "BZh" + block size digit + the block magic (π digits) or the end-of-stream magic. */
const BZIP2_RE = /^BZh[1-9](?:\x31\x41\x59\x26\x53\x59|\x17\x72\x45\x38\x50\x90)/;

/** Bytes inspected for magic numbers, NULs and control bytes. */
const SNIFF_BYTES = 4096;

/** Where a PDF header may appear when the server says application/pdf (Acrobat allows 1024). */
const PDF_HEADER_WINDOW = 1024;

/**
 * Share of control bytes (other than TAB, LF, FF, CR, ESC) above which a body is binary. Random
 * binary has about 11%; real text has next to none.
 */
const CONTROL_SHARE = 0.05;

/**
 * Share of NUL bytes a body declared as text may have and still be text (stray NULs occur in
 * real pages); with no declared text type, a single NUL means binary.
 */
const NUL_SHARE_DECLARED_TEXT = 0.01;

/** Larger bodies are not JSON.parse'd for sniffing; their first and last characters decide. */
const JSON_SNIFF_MAX_BYTES = 2 * 1024 * 1024;

/** A MIME type essence: type "/" subtype, both HTTP tokens. */
const ESSENCE_RE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

/** Declared types that say nothing: sniff the bytes instead. */
const UNINFORMATIVE_TYPES = new Set([
  "application/octet-stream",
  "binary/octet-stream",
  "application/unknown",
  "application/x-unknown",
  "unknown/unknown",
  "application/binary",
  "application/download",
  "application/force-download",
  "content/unknown",
  "*/*",
]);

/** Declared types mapped straight to a kind (subject to magic numbers and the binary check). */
const TYPE_KINDS: ReadonlyMap<string, ContentKind> = new Map<string, ContentKind>([
  ["text/html", "html"],
  ["application/xhtml+xml", "xhtml"],
  ["text/markdown", "markdown"],
  ["text/x-markdown", "markdown"],
  ["application/json", "json"],
  ["text/json", "json"],
  ["application/x-json", "json"],
  ["text/csv", "csv"],
  ["application/csv", "csv"],
  ["text/tab-separated-values", "csv"],
  ["application/rss+xml", "feed"],
  ["application/atom+xml", "feed"],
  ["application/xml", "xml"],
  ["text/xml", "xml"],
  ["application/pdf", "pdf"],
  ["application/x-pdf", "pdf"],
  ["image/svg+xml", "binary"],
  // Textual application/* types that have no kind of their own.
  ["application/javascript", "text"],
  ["application/x-javascript", "text"],
  ["application/ecmascript", "text"],
  ["application/typescript", "text"],
  ["application/x-sh", "text"],
  ["application/x-httpd-php", "text"],
  ["application/yaml", "text"],
  ["application/x-yaml", "text"],
  ["application/toml", "text"],
  ["application/sql", "text"],
  ["application/graphql", "text"],
  ["application/x-tex", "text"],
  ["application/x-latex", "text"],
  ["application/x-ndjson", "text"],
  ["application/jsonl", "text"],
  ["application/x-www-form-urlencoded", "text"],
]);

/** Top-level types whose content is never text we convert. */
const BINARY_TOP_TYPES = new Set(["image", "audio", "video", "font", "model"]);

/** application/* subtypes that are binary formats (archives, office files, executables...). */
const BINARY_SUBTYPE_RE =
  /^(?:zip|gzip|x-gzip|x-tar|x-7z-compressed|x-rar-compressed|vnd\.rar|x-bzip2?|x-xz|zstd|x-lz4|java-archive|x-java-archive|vnd\.android\.package-archive|x-msdownload|x-msdos-program|x-executable|x-mach-binary|x-elf|x-sharedlib|wasm|msword|vnd\.ms-|vnd\.openxmlformats-|vnd\.oasis\.opendocument\.|x-shockwave-flash|font-|x-font-|vnd\.sqlite3|x-sqlite3|x-iso9660-image|x-apple-diskimage|epub\+zip|x-protobuf|vnd\.google\.protobuf|protobuf|grpc|cbor|msgpack|x-msgpack|x-bittorrent|ogg|x-ole-storage|postscript|x-dvi|vnd\.ms-cab-compressed|x-debian-package|x-rpm|x-apple-plist|x-bplist)/;

/** WHATWG "HTML" sniffing patterns: one of these tags after leading whitespace means HTML. */
const HTML_START_RE =
  /^(?:<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--)(?:[\s>]|$)/i;

/** A strong sign that text declared as something else is an HTML document. */
const HTML_DOCUMENT_RE = /^(?:<!doctype\s+html|<html)(?:[\s>]|$)/i;

/** Markup that may precede the root element of an XML document. */
const XML_PROLOG_RE =
  /^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^>[]*(?:\[[\s\S]*?\])?\s*>)/i;

/** The root element's qualified name. */
const ROOT_NAME_RE = /^<([A-Za-z_][\w.:-]*)/;

/** URL path extensions that refine text/plain or an unknown type. */
const EXTENSION_KINDS: ReadonlyMap<string, { kind: ContentKind; mimeType: string }> = new Map([
  ["md", { kind: "markdown", mimeType: "text/markdown" }],
  ["markdown", { kind: "markdown", mimeType: "text/markdown" }],
  ["mdown", { kind: "markdown", mimeType: "text/markdown" }],
  ["csv", { kind: "csv", mimeType: "text/csv" }],
  ["tsv", { kind: "csv", mimeType: "text/tab-separated-values" }],
]);

/** What a UTF-8 (or UTF-16, by BOM) reading of the body's first bytes looks like. */
interface Head {
  /** Text with BOM and leading whitespace removed. */
  text: string;
  utf16: boolean;
}

/**
 * Decides how to treat a body: from its magic numbers, its bytes, the declared Content-Type and
 * (for text/plain or a missing type) the URL's extension.
 *
 * A missing, unparsable or uninformative type (application/octet-stream) is sniffed from the
 * bytes: HTML by its leading tags, XML/feeds by their root element, JSON when it parses, else
 * text/plain. Image, audio, video, font and archive types are binary whatever the bytes look like
 * (SVG included). PDF is recognised by `%PDF-`.
 *
 * @example
 * sniffContent(pngBytes, "text/html") // → { kind: "binary", mimeType: "image/png" }
 * sniffContent(utf8("<!doctype html>…"), undefined) // → { kind: "html", mimeType: "text/html" }
 */
export function sniffContent(
  bytes: Uint8Array,
  contentType: string | undefined,
  url?: string,
): SniffResult {
  const declared = essenceOf(contentType);
  const uninformative = declared === undefined || UNINFORMATIVE_TYPES.has(declared);

  const magic = matchMagic(bytes, declared);
  if (magic) {
    const kind: ContentKind = magic.mime === "application/pdf" ? "pdf" : "binary";
    const keepDeclared = magic.generic && !uninformative && declaredKind(declared) === "binary";
    return { kind, mimeType: keepDeclared ? declared : magic.mime };
  }

  const known = uninformative ? undefined : declaredKind(declared);
  if (known === "binary")
    return { kind: "binary", mimeType: declared ?? "application/octet-stream" };
  if (known === "pdf") return { kind: "pdf", mimeType: declared ?? "application/pdf" };

  const utf16Declared = /;\s*charset\s*=\s*"?utf-16/i.test(contentType ?? "");
  const head = readHead(bytes);
  if (!head.utf16 && !utf16Declared && looksBinary(bytes, known !== undefined)) {
    return { kind: "binary", mimeType: uninformative ? "application/octet-stream" : declared! };
  }

  if (known === undefined || uninformative) {
    const sniffed = sniffText(head, bytes, url);
    // An unknown but explicit type keeps its name when the bytes are just text.
    if (!uninformative && sniffed.kind === "text") return { kind: "text", mimeType: declared! };
    return sniffed;
  }
  return refineDeclared(known, declared!, head, bytes, url);
}

/**
 * Whether a body declared as `contentType` may sniff as plain text. A declared HTML or XHTML
 * page never does: its bytes can make it a feed, JSON or binary, never text, Markdown or CSV.
 */
export function mayBePlain(contentType: string | undefined): boolean {
  const kind = declaredKind(essenceOf(contentType));
  return kind !== "html" && kind !== "xhtml";
}

/** The lowercased essence of a Content-Type header ("text/html"), or undefined if unusable. */
function essenceOf(contentType: string | undefined): string | undefined {
  const essence = contentType?.split(";", 1)[0]?.trim().toLowerCase();
  return essence && ESSENCE_RE.test(essence) ? essence : undefined;
}

/** The kind a declared type maps to; undefined for application/* types we do not know. */
function declaredKind(essence: string | undefined): ContentKind | undefined {
  if (essence === undefined) return undefined;
  const direct = TYPE_KINDS.get(essence);
  if (direct) return direct;
  const [top = "", sub = ""] = essence.split("/", 2);
  if (BINARY_TOP_TYPES.has(top)) return "binary";
  if (top === "text") return "text";
  if (top !== "application") return undefined;
  if (BINARY_SUBTYPE_RE.test(sub)) return "binary";
  if (sub.endsWith("+json")) return "json";
  if (sub.endsWith("+xml")) return "xml";
  return undefined;
}

/** A pattern as the bytes it matches, -1 where any byte does. */
type PatternBytes = readonly number[];

/** A signature's pattern as bytes ("?" in a string pattern: any byte). */
function patternBytes(pattern: string | readonly number[]): PatternBytes {
  if (typeof pattern !== "string") return pattern;
  return Array.from(pattern, (char) => (char === "?" ? -1 : char.charCodeAt(0)));
}

/** A signature with its pattern as bytes. */
interface Compiled {
  sig: Signature;
  offset: number;
  bytes: PatternBytes;
}

/** The signatures with their patterns as bytes, in order. */
const COMPILED: readonly Compiled[] = SIGNATURES.map((sig) => ({
  sig,
  offset: sig.offset ?? 0,
  bytes: patternBytes(sig.pattern),
}));
/**
 * The signatures a body may match, by its first byte, still in order: those that fix the first
 * byte to another value are left out, so a text body is compared with a handful, not all.
 */
const COMPILED_BY_FIRST_BYTE: readonly (readonly Compiled[])[] = Array.from(
  { length: 256 },
  (_, b) => COMPILED.filter(({ offset, bytes }) => offset > 0 || bytes[0] === -1 || bytes[0] === b),
);
const WEAK_COMPILED = WEAK_SIGNATURES.map((weak) => ({ weak, bytes: patternBytes(weak.prefix) }));
/** The first byte of every bzip2 stream ("B"). */
const BZIP2_FIRST_BYTE = 0x42;

/** The first signature the bytes match (PDF also a bit later when declared as PDF). */
function matchMagic(bytes: Uint8Array, declared: string | undefined): Signature | undefined {
  const candidates = bytes.length > 0 ? COMPILED_BY_FIRST_BYTE[bytes[0]!]! : COMPILED;
  for (const { sig, offset, bytes: pattern } of candidates) {
    if (matches(bytes, pattern, offset)) return sig;
  }
  for (const { weak, bytes: prefix } of WEAK_COMPILED) {
    if (!matches(bytes, prefix, 0)) continue;
    const nul = weak.nulAt.length > 0 ? weak.nulAt.every((i) => bytes[i] === 0) : hasNul(bytes, 64);
    if (nul) return { mime: weak.mime, pattern: weak.prefix };
  }
  if (bytes[0] === BZIP2_FIRST_BYTE && BZIP2_RE.test(latinHead(bytes, 10))) {
    return { mime: "application/x-bzip2", pattern: "BZh" };
  }
  if (declaredKind(declared) === "pdf" && latinHead(bytes, PDF_HEADER_WINDOW).includes("%PDF-")) {
    return { mime: "application/pdf", pattern: "%PDF-" };
  }
  return undefined;
}

/** True when `pattern` occurs in `bytes` at `offset`. */
function matches(bytes: Uint8Array, pattern: PatternBytes, offset: number): boolean {
  if (bytes.length < offset + pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    if (want !== -1 && bytes[offset + i] !== want) return false;
  }
  return true;
}

/** True when the first `max` bytes contain a NUL. */
function hasNul(bytes: Uint8Array, max: number): boolean {
  return bytes.subarray(0, max).includes(0);
}

/** The first `max` bytes as latin1 (one char per byte). */
function latinHead(bytes: Uint8Array, max: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(max, bytes.length)).toString(
    "latin1",
  );
}

/**
 * True for NULs (beyond a small share when the server declared text) or many control bytes in
 * the first 4 KB. TAB, LF, FF, CR and ESC (ISO-2022-JP) are text.
 */
function looksBinary(bytes: Uint8Array, declaredText: boolean): boolean {
  const length = Math.min(bytes.length, SNIFF_BYTES);
  if (!hasControlByte(bytes, length)) return false;
  let nul = 0;
  let control = 0;
  for (let i = 0; i < length; i++) {
    const b = bytes[i]!;
    if (b >= 0x20) continue;
    if (b === 0) nul++;
    else if (isControlByte(b)) control++;
  }
  const nulLimit = declaredText ? length * NUL_SHARE_DECLARED_TEXT : 0;
  return nul > nulLimit || control > length * CONTROL_SHARE;
}

/** Whether a byte is a NUL or a control byte that text does not hold (TAB, LF, FF, CR, ESC it does). */
function isControlByte(b: number): boolean {
  return b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b;
}

/** Bytes below 0x20, four at a time: `(x - 0x20202020) & ~x & 0x80808080` is 0 when x has none. */
const BELOW_SPACE = 0x20202020;
const HIGH_BITS = 0x80808080;

/**
 * Whether the first `length` bytes hold a NUL or a control byte that text does not hold. Four
 * bytes are tested at once and passed over when none is below a space, which is most of a line
 * of text; only the words that hold one (a line's end, a tab) are looked at byte by byte. This is
 * about twice as fast as a regular expression over the decoded text, on every page sniffed.
 */
export function hasControlByte(bytes: Uint8Array, length: number): boolean {
  // Bytes before the first 4-byte boundary of the buffer, then whole words, then the rest.
  const lead = (4 - (bytes.byteOffset & 3)) & 3;
  if (length < lead + 4) {
    for (let i = 0; i < length; i++) if (isControlByte(bytes[i]!)) return true;
    return false;
  }
  for (let i = 0; i < lead; i++) if (isControlByte(bytes[i]!)) return true;
  const words = (length - lead) >>> 2;
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + lead, words);
  for (let w = 0; w < words; w++) {
    const x = view[w]!;
    if (((x - BELOW_SPACE) & ~x & HIGH_BITS) !== 0) {
      const i = lead + w * 4;
      if (
        isControlByte(bytes[i]!) ||
        isControlByte(bytes[i + 1]!) ||
        isControlByte(bytes[i + 2]!) ||
        isControlByte(bytes[i + 3]!)
      ) {
        return true;
      }
    }
  }
  for (let i = lead + words * 4; i < length; i++) if (isControlByte(bytes[i]!)) return true;
  return false;
}

/** Decoders of the head, made once: decoding without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder("utf-8");
const UTF16LE = new TextDecoder("utf-16le");
const UTF16BE = new TextDecoder("utf-16be");

/** The start of the body as text (UTF-16 when it has a UTF-16 BOM, else UTF-8). */
function readHead(bytes: Uint8Array): Head {
  const sample = bytes.subarray(0, SNIFF_BYTES);
  let text: string;
  let utf16 = false;
  if (sample[0] === 0xff && sample[1] === 0xfe) {
    text = UTF16LE.decode(sample);
    utf16 = true;
  } else if (sample[0] === 0xfe && sample[1] === 0xff) {
    text = UTF16BE.decode(sample);
    utf16 = true;
  } else {
    text = UTF8.decode(sample);
  }
  return { text: text.replace(/^\ufeff/, "").trimStart(), utf16 };
}

/** Kind of a body with no usable declared type, from its first characters and the URL. */
function sniffText(head: Head, bytes: Uint8Array, url: string | undefined): SniffResult {
  const markup = sniffMarkup(head.text);
  if (markup) return markup;
  if (HTML_START_RE.test(head.text)) return { kind: "html", mimeType: "text/html" };
  if (isJson(head, bytes)) return { kind: "json", mimeType: "application/json" };
  const byExtension = extensionKind(url);
  if (byExtension) return byExtension;
  return { kind: "text", mimeType: "text/plain" };
}

/** Declared text kinds, corrected where the bytes plainly say otherwise. */
function refineDeclared(
  known: ContentKind,
  declared: string,
  head: Head,
  bytes: Uint8Array,
  url: string | undefined,
): SniffResult {
  if (known !== "html" && known !== "xhtml" && HTML_DOCUMENT_RE.test(head.text)) {
    return { kind: "html", mimeType: "text/html" };
  }
  if (known === "html") {
    // An HTML document is never a JSON object/array nor an XML feed; such bodies were mislabelled.
    const feed = sniffMarkup(head.text);
    if (feed?.kind === "feed" && head.text.startsWith("<?xml")) return feed;
    if (isJson(head, bytes)) return { kind: "json", mimeType: "application/json" };
  }
  if (known === "xml" || (known === "text" && declared === "text/plain")) {
    const markup = sniffMarkup(head.text);
    if (markup?.kind === "feed")
      return { kind: "feed", mimeType: known === "xml" ? declared : markup.mimeType };
  }
  if (declared === "text/plain") {
    const byExtension = extensionKind(url);
    if (byExtension) return byExtension;
  }
  return { kind: known, mimeType: declared };
}

/**
 * XML documents by their root element: feeds, XHTML, SVG (binary), other XML. Undefined when the
 * text does not start like XML (HTML is left to the HTML patterns).
 */
function sniffMarkup(text: string): SniffResult | undefined {
  const hasDeclaration = text.startsWith("<?xml");
  let rest = text;
  for (let i = 0; i < 32; i++) {
    const prolog = XML_PROLOG_RE.exec(rest);
    if (!prolog) break;
    rest = rest.slice(prolog[0].length);
  }
  const root = ROOT_NAME_RE.exec(rest)?.[1];
  if (root === undefined)
    return hasDeclaration ? { kind: "xml", mimeType: "application/xml" } : undefined;
  const local = root.slice(root.indexOf(":") + 1);
  if (local === "rss") return { kind: "feed", mimeType: "application/rss+xml" };
  if (
    local === "feed" &&
    (hasDeclaration || /xmlns(?::\w+)?=["']http:\/\/www\.w3\.org\/2005\/Atom/.test(rest))
  ) {
    return { kind: "feed", mimeType: "application/atom+xml" };
  }
  if (local === "RDF" && /<(?:\w+:)?channel[\s>]|purl\.org\/rss\/1\.0/.test(rest)) {
    return { kind: "feed", mimeType: "application/rss+xml" };
  }
  if (local.toLowerCase() === "svg") return { kind: "binary", mimeType: "image/svg+xml" };
  if (!hasDeclaration) return undefined;
  if (local.toLowerCase() === "html") return { kind: "xhtml", mimeType: "application/xhtml+xml" };
  return { kind: "xml", mimeType: "application/xml" };
}

/** True when the body is a JSON object or array (parsed when small, shape-checked when big). */
function isJson(head: Head, bytes: Uint8Array): boolean {
  const first = head.text[0];
  if (first !== "{" && first !== "[") return false;
  if (head.utf16) return false;
  if (bytes.length > JSON_SNIFF_MAX_BYTES) {
    const tail = latinHead(bytes.subarray(bytes.length - 64), 64).trimEnd();
    return /^[{[]\s*["{[\]}\d-]/.test(head.text) && tail.endsWith(first === "{" ? "}" : "]");
  }
  try {
    JSON.parse(new TextDecoder("utf-8").decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * What a URL holding one of those extensions must contain (the parser drops tabs and newlines
 * first), so that most URLs are not parsed for nothing.
 */
const EXTENSION_HINT = new RegExp(`\\.(?:${[...EXTENSION_KINDS.keys()].join("|")})`, "i");
const TAB_OR_NEWLINE = /[\t\n\r]/g;

/** Kind implied by the URL path's extension (.md, .csv...), if any. */
function extensionKind(url: string | undefined): SniffResult | undefined {
  if (!url || !EXTENSION_HINT.test(url.replace(TAB_OR_NEWLINE, ""))) return undefined;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  return EXTENSION_KINDS.get(path.slice(dot + 1).toLowerCase());
}
