/**
 * Bytes → text, choosing the character encoding the way a browser does (WHATWG Encoding and
 * the HTML "determine the character encoding" steps): BOM, then the Content-Type charset, then a
 * `<meta>` prescan (HTML) or the `<?xml encoding?>` declaration (XML), else UTF-8. Pages that
 * declare nothing and are not valid UTF-8 get a small, predictable guess among the legacy CJK
 * encodings, else windows-1252. Unknown labels never throw; they fall through to the next source.
 */

import { CHUNK_CHARS, ChunkedText, type HtmlText } from "../extract/chunked.js";

/** The decoded text and the WHATWG name (lowercase) of the encoding that was used. */
export interface DecodedText {
  text: string;
  charset: string;
}

/** What kind of document the bytes are: decides which in-document declaration is read. */
export type DecodeKind = "html" | "xml" | "other";

/** Byte order marks, checked before anything else (WHATWG "BOM sniff"). */
const BOMS: readonly { bytes: readonly number[]; charset: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], charset: "utf-8" },
  { bytes: [0xfe, 0xff], charset: "utf-16be" },
  { bytes: [0xff, 0xfe], charset: "utf-16le" },
];

/**
 * Labels seen in the wild that are not WHATWG labels (Node's TextDecoder only knows those), each
 * mapped to the WHATWG encoding that browsers effectively use for them.
 */
const EXTRA_LABELS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    cp932: "shift_jis",
    "x-ms-cp932": "shift_jis",
    "windows-932": "shift_jis",
    shiftjis: "shift_jis",
    shift_jisx0213: "shift_jis",
    "sjis-win": "shift_jis",
    euc_jp: "euc-jp",
    eucjp: "euc-jp",
    "eucjp-win": "euc-jp",
    "x-eucjp": "euc-jp",
    cp949: "euc-kr",
    uhc: "euc-kr",
    "windows-949": "euc-kr",
    euc_kr: "euc-kr",
    euckr: "euc-kr",
    cp936: "gbk",
    "windows-936": "gbk",
    cp950: "big5",
    "windows-950": "big5",
    big5hkscs: "big5",
    utf_8: "utf-8",
    "latin-1": "windows-1252",
    iso_8859_1: "windows-1252",
  }),
);

/**
 * WHATWG single-byte encodings that Node 20's TextDecoder gets wrong or lacks: windows-1252 is
 * decoded as ISO-8859-1 (0x80–0x9F come out as C1 controls, so no “smart quotes” or €), and
 * iso-8859-16 / x-user-defined are missing. Values: code points for bytes 0x80–0xFF, from the
 * WHATWG index files (index-windows-1252.txt, index-iso-8859-16.txt).
 */
const SINGLE_BYTE_TABLES: ReadonlyMap<string, () => Uint16Array> = new Map(
  Object.entries({
    "windows-1252": () =>
      highTable([
        0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039,
        0x152, 0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
        0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
      ]),
    "iso-8859-16": () =>
      highTable([], {
        161: 0x104,
        162: 0x105,
        163: 0x141,
        164: 0x20ac,
        165: 0x201e,
        166: 0x160,
        168: 0x161,
        170: 0x218,
        172: 0x179,
        174: 0x17a,
        175: 0x17b,
        178: 0x10c,
        179: 0x142,
        180: 0x17d,
        181: 0x201d,
        184: 0x17e,
        185: 0x10d,
        186: 0x219,
        188: 0x152,
        189: 0x153,
        190: 0x178,
        191: 0x17c,
        195: 0x102,
        197: 0x106,
        208: 0x110,
        209: 0x143,
        213: 0x150,
        215: 0x15a,
        216: 0x170,
        221: 0x118,
        222: 0x21a,
        227: 0x103,
        229: 0x107,
        240: 0x111,
        241: 0x144,
        245: 0x151,
        247: 0x15b,
        248: 0x171,
        253: 0x119,
        254: 0x21b,
      }),
    // x-user-defined maps 0x80–0xFF into the private use area U+F780–U+F7FF.
    "x-user-defined": () =>
      Uint16Array.from({ length: 256 }, (_, b) => (b < 0x80 ? b : 0xf700 + b)),
  }),
);

/** `charset=` parameter of a Content-Type header; the value may be quoted. */
const CHARSET_PARAM_RE = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i;

/** `<?xml ... encoding="..."?>` at the very start of an XML document (BOM already removed). */
const XML_DECL_RE = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"']{1,40})\1/;

/** HTML spec: the prescan looks at the first 1024 bytes only. */
const PRESCAN_BYTES = 1024;

/** How many bytes the legacy-encoding guess looks at (enough for a sure guess, cheap to redo). */
const GUESS_SAMPLE_BYTES = 64 * 1024;

/** Candidates for undeclared non-UTF-8 bytes; on a tied score the earlier one wins. */
const GUESS_CANDIDATES = ["shift_jis", "euc-jp", "gbk", "big5", "euc-kr"] as const;

/** A guess must score at least this (see scoreText) or the text is treated as windows-1252. */
const MIN_GUESS_SCORE = 0.3;

/** ISO-2022-JP escape sequences: ESC $ @, ESC $ B, ESC ( J, ESC ( I, ESC $ ( D. */
const ISO_2022_JP_ESCAPES_RE = /\x1b(?:\$[@B]|\([JI]|\$\(D)/;

/** Very frequent Japanese kanji (with kana, the sign of real Japanese text). */
const JA_COMMON =
  "日本人年大中出会一上子生学国事分行時見月後前東者地合市業内方新場員立開手力問高代明実円関決" +
  "動京全目表戦経通外最言現理体化田当主題下意法不来作性的要用制度強気小成期公持野取都和以機平" +
  "山思家話世受区多県続進正安設保数記院女初北午権心界第産百点教報書活原先共得解名交資向際私";

/** Very frequent Chinese characters, simplified and traditional forms. */
const ZH_COMMON =
  "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年" +
  "过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心" +
  "她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间" +
  "由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西月话合回特代内信表化老给世" +
  "這個們來為國說時會對於著發後過裡種經麼學現當沒動進還開從實與長機關點業將兩間問應戰頭體見話" +
  "無們電東車門書網頁";

/** Very frequent Korean syllables. */
const KO_COMMON =
  "이다는의에하고을가로기사지한리대서인어를도수아자으정니보시나일있상스해구들게부전그주요제만장" +
  "여것과적국원소면우동문성라경화신공연계무할내되았었세습등년모비유위개중미러마치저조없관된행방" +
  "물했합생안까운드실발선용반결회교간각히말점식당트달많우리학업기술";

/** Characters that misdecoded bytes tend to produce and real CJK text rarely has. */
const ODD_CHAR_RE =
  /[\u0080-\u009f\u0370-\u04ff\u2500-\u257f\u3400-\u4dbf\ue000-\uf8ff\uf900-\ufaff\uff61-\uff9f\ufffd]/u;

/** Characters that are plausible in any CJK text: ideographs, kana, Hangul, CJK punctuation. */
const CJK_CHAR_RE = /[\u3000-\u30ff\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff5e]/u;

/** Hiragana and katakana: a strong sign of Japanese. */
const KANA_RE = /[\u3041-\u30fa\u30fc]/u;

/** The frequent-character set each guess candidate is scored against. */
const COMMON_BY_CANDIDATE: Readonly<
  Record<(typeof GUESS_CANDIDATES)[number], ReadonlySet<string>>
> = {
  shift_jis: new Set(JA_COMMON),
  "euc-jp": new Set(JA_COMMON),
  gbk: new Set(ZH_COMMON),
  big5: new Set(ZH_COMMON),
  "euc-kr": new Set(KO_COMMON),
};

/** Single-byte tables, built on first use. */
const tableCache = new Map<string, Uint16Array>();

/**
 * Decodes a response body to text, choosing the encoding from the BOM, the Content-Type header,
 * the document itself, or a guess, in that order.
 *
 * @param bytes the (decompressed) body
 * @param contentType the Content-Type header, if any
 * @param kind "html" reads `<meta charset>` in the first 1024 bytes; "xml" reads the XML
 *   declaration; "other" reads neither
 * @example
 * decodeBody(bytes, "text/html; charset=Shift_JIS", "html") // → { text: "日本語…", charset: "shift_jis" }
 */
export function decodeBody(
  bytes: Uint8Array,
  contentType?: string,
  kind: DecodeKind = "other",
): DecodedText {
  const { charset, start } = chooseEncoding(bytes, contentType, kind);
  return { text: decodeWith(bytes.subarray(start), charset), charset };
}

/**
 * decodeBody for markup the parser reads in pieces: a UTF-8 body longer than one piece is
 * decoded piece by piece and never joined (see chunked.ts); anything else is one string.
 */
export function decodeMarkup(
  bytes: Uint8Array,
  contentType: string | undefined,
  kind: DecodeKind,
): { text: HtmlText; charset: string } {
  const { charset, start } = chooseEncoding(bytes, contentType, kind);
  const body = bytes.subarray(start);
  if (charset !== "utf-8" || body.length <= CHUNK_CHARS) {
    return { text: decodeWith(body, charset), charset };
  }
  // UTF-8 needs at least one byte per UTF-16 code unit, so each piece is at most CHUNK_CHARS
  // long; streaming carries a character cut at a piece's end over to the next.
  const decoder = new TextDecoder("utf-8");
  const pieces: string[] = [];
  for (let at = 0; at < body.length; at += CHUNK_CHARS) {
    const end = Math.min(body.length, at + CHUNK_CHARS);
    pieces.push(decoder.decode(body.subarray(at, end), { stream: end < body.length }));
  }
  return { text: new ChunkedText(pieces), charset };
}

/** The encoding of a body and where its text starts (past a byte order mark). */
function chooseEncoding(
  bytes: Uint8Array,
  contentType: string | undefined,
  kind: DecodeKind,
): { charset: string; start: number } {
  const bom = BOMS.find((b) => b.bytes.every((byte, i) => bytes[i] === byte));
  if (bom) return { charset: bom.charset, start: bom.bytes.length };
  const declared =
    charsetFromContentType(contentType) ??
    (kind === "html" ? prescanHtml(bytes) : kind === "xml" ? xmlDeclaration(bytes) : undefined);
  return { charset: declared ?? guessCharset(bytes), start: 0 };
}

/**
 * The encoding named by the `charset` parameter of a Content-Type header, as its WHATWG name, or
 * undefined when there is none or the label is unknown.
 *
 * @example
 * charsetFromContentType('text/html; charset="x-sjis"') // → "shift_jis"
 */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = CHARSET_PARAM_RE.exec(contentType);
  const label = match?.[1] ?? match?.[2];
  return label ? resolveLabel(label) : undefined;
}

/** WHATWG "get an encoding": the canonical name for a label, or undefined when unknown. */
function resolveLabel(label: string): string | undefined {
  const key = label.trim().toLowerCase();
  if (!key) return undefined;
  // Canonical names of the encodings decoded by table (the only labels of the two Node lacks).
  if (SINGLE_BYTE_TABLES.has(key)) return key;
  const extra = EXTRA_LABELS.get(key);
  if (extra) return extra;
  try {
    return new TextDecoder(key).encoding;
  } catch {
    // Unknown labels and the "replacement" encoding (ISO-2022-KR/CN, HZ) fall through.
    return undefined;
  }
}

/** Decodes with a resolved encoding, never throwing (malformed bytes become U+FFFD). */
function decodeWith(bytes: Uint8Array, charset: string): string {
  const tableFactory = SINGLE_BYTE_TABLES.get(charset);
  if (tableFactory) {
    let table = tableCache.get(charset);
    if (!table) {
      table = tableFactory();
      tableCache.set(charset, table);
    }
    const units = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) units[i] = table[bytes[i]!]!;
    // The platform byte order of a Uint16Array is little-endian on every Node target.
    return new TextDecoder("utf-16le").decode(units);
  }
  return new TextDecoder(charset).decode(bytes);
}

/** A 256-entry table: identity below 0x80, `c1` for 0x80–0x9F, latin1 plus `overrides` above. */
function highTable(c1: readonly number[], overrides: Readonly<Record<number, number>> = {}) {
  return Uint16Array.from({ length: 256 }, (_, b) => {
    if (b >= 0x80 && b < 0xa0 && c1.length > 0) return c1[b - 0x80]!;
    return overrides[b] ?? b;
  });
}

/** Encoding for bytes that declare none: UTF-8 when valid, else the likeliest legacy encoding. */
function guessCharset(bytes: Uint8Array): string {
  let ascii = true;
  // Indexed: an iterator over the bytes allocated a result per byte of an ASCII page.
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    // ISO-2022-JP is 7-bit, so it is also "valid UTF-8"; its escapes give it away.
    const head = latin1(bytes, GUESS_SAMPLE_BYTES);
    return ISO_2022_JP_ESCAPES_RE.test(head) ? "iso-2022-jp" : "utf-8";
  }
  if (isValidUtf8(bytes)) return "utf-8";

  const sample = bytes.subarray(0, GUESS_SAMPLE_BYTES);
  let best: { charset: string; score: number } = {
    charset: "windows-1252",
    score: MIN_GUESS_SCORE,
  };
  for (const charset of GUESS_CANDIDATES) {
    let text: string;
    try {
      // stream: true, so a character cut by the sample boundary does not fail the candidate.
      text = new TextDecoder(charset, { fatal: true }).decode(sample, { stream: true });
    } catch {
      continue;
    }
    const score = scoreText(
      text,
      COMMON_BY_CANDIDATE[charset],
      charset === "shift_jis" || charset === "euc-jp",
    );
    if (score > best.score) best = { charset, score };
  }
  return best.charset;
}

/**
 * How much a decoding looks like real text of its language, per non-ASCII character: frequent
 * characters of the language (and kana for Japanese) count 1, any CJK character 0.25, characters
 * that misdecoding produces (private use, compatibility ideographs, C1 controls, half-width
 * katakana, box drawing, Greek/Cyrillic inside CJK) count −1.
 */
function scoreText(text: string, common: ReadonlySet<string>, japanese: boolean): number {
  let total = 0;
  let score = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) continue;
    total++;
    if (common.has(ch) || (japanese && KANA_RE.test(ch))) score += 1;
    else if (ODD_CHAR_RE.test(ch)) score -= 1;
    else if (CJK_CHAR_RE.test(ch)) score += 0.25;
  }
  return total === 0 ? 0 : score / total;
}

/** True when the bytes are valid UTF-8, ignoring a sequence cut off at the very end. */
function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    // stream: true keeps an incomplete final sequence pending instead of failing on it, so a
    // body cut at the size cap still counts as UTF-8.
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The first `max` bytes as a latin1 string: one char per byte, for ASCII-level scanning. */
function latin1(bytes: Uint8Array, max: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, max)).toString(
    "latin1",
  );
}

/** XML: the encoding of the `<?xml ... encoding="..."?>` declaration. */
function xmlDeclaration(bytes: Uint8Array): string | undefined {
  // UTF-16 without a BOM: "<?" as 16-bit units.
  if (bytes[0] === 0x3c && bytes[1] === 0 && bytes[2] === 0x3f && bytes[3] === 0) return "utf-16le";
  if (bytes[0] === 0 && bytes[1] === 0x3c && bytes[2] === 0 && bytes[3] === 0x3f) return "utf-16be";
  const label = XML_DECL_RE.exec(latin1(bytes, PRESCAN_BYTES))?.[2];
  const charset = label ? resolveLabel(label) : undefined;
  // The bytes were just read as ASCII, so a declared UTF-16 cannot be right.
  return charset?.startsWith("utf-16") ? "utf-8" : charset;
}

/** Whitespace as the HTML prescan defines it (TAB, LF, FF, CR, SPACE). */
function isSpace(c: string | undefined): boolean {
  return c === "\t" || c === "\n" || c === "\f" || c === "\r" || c === " ";
}

/**
 * HTML: "prescan a byte stream to determine its encoding" (HTML §13.2.3.2) over the first 1024
 * bytes, read as latin1. Skips comments and other tags; returns the first usable `<meta>` charset.
 */
function prescanHtml(bytes: Uint8Array): string | undefined {
  const s = latin1(bytes, PRESCAN_BYTES);
  let pos = 0;
  while (pos < s.length) {
    if (s.startsWith("<!--", pos)) {
      // The "--" of "<!--" may be part of the closing "-->", as in "<!-->".
      const end = s.indexOf("-->", pos + 2);
      if (end < 0) return undefined;
      pos = end + 3;
      continue;
    }
    if (/^<meta[\t\n\f\r /]/i.test(s.slice(pos, pos + 6))) {
      const meta = readMeta(s, pos + 5);
      if (meta.charset) return meta.charset;
      pos = meta.end + 1;
      continue;
    }
    if (/^<\/?[a-z]/i.test(s.slice(pos, pos + 3))) {
      pos++;
      while (pos < s.length && !isSpace(s[pos]) && s[pos] !== ">") pos++;
      let attr = getAttribute(s, pos);
      while (attr) {
        pos = attr.end;
        attr = getAttribute(s, pos);
      }
      pos = skipToAttributeEnd(s, pos) + 1;
      continue;
    }
    if (s.startsWith("<!", pos) || s.startsWith("</", pos) || s.startsWith("<?", pos)) {
      const end = s.indexOf(">", pos);
      if (end < 0) return undefined;
      pos = end + 1;
      continue;
    }
    pos++;
  }
  return undefined;
}

/** Position of the `>` that ends the attribute list at `pos` (or the end of the string). */
function skipToAttributeEnd(s: string, pos: number): number {
  let p = pos;
  while (p < s.length && s[p] !== ">") p++;
  return p;
}

/** The `<meta>` attributes starting at `pos`: the charset they declare, if usable. */
function readMeta(s: string, start: number): { charset?: string; end: number } {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | undefined;
  let charset: string | undefined;
  let pos = start;
  for (let attr = getAttribute(s, pos); attr; attr = getAttribute(s, pos)) {
    pos = attr.end;
    if (seen.has(attr.name)) continue;
    seen.add(attr.name);
    if (attr.name === "http-equiv") {
      if (attr.value === "content-type") gotPragma = true;
    } else if (attr.name === "content") {
      if (charset === undefined) {
        const label = charsetFromMetaContent(attr.value);
        if (label !== undefined) {
          charset = resolveLabel(label) ?? "";
          needPragma = true;
        }
      }
    } else if (attr.name === "charset") {
      charset = resolveLabel(attr.value) ?? "";
      needPragma = false;
    }
  }
  if (needPragma === undefined || (needPragma && !gotPragma) || !charset) return { end: pos };
  // HTML: a <meta> that says UTF-16 is wrong (the bytes were ASCII-readable), so it means UTF-8.
  if (charset.startsWith("utf-16")) return { charset: "utf-8", end: pos };
  if (charset === "x-user-defined") return { charset: "windows-1252", end: pos };
  return { charset, end: pos };
}

/**
 * HTML "get an attribute" (prescan flavour): name lowercased, value lowercased, or undefined at
 * `>` or the end of input. Returns where parsing stopped.
 */
function getAttribute(
  s: string,
  start: number,
): { name: string; value: string; end: number } | undefined {
  let pos = start;
  while (pos < s.length && (isSpace(s[pos]) || s[pos] === "/")) pos++;
  if (pos >= s.length || s[pos] === ">") return undefined;
  let name = "";
  let value = "";
  // Attribute name.
  for (;;) {
    const c = s[pos];
    if (c === undefined) return undefined;
    if (c === "=" && name !== "") break;
    if (isSpace(c)) {
      while (isSpace(s[pos])) pos++;
      if (s[pos] !== "=") return { name, value, end: pos };
      break;
    }
    if (c === "/" || c === ">") return { name, value, end: pos };
    name += c.toLowerCase();
    pos++;
  }
  pos++; // past "="
  while (isSpace(s[pos])) pos++;
  const quote = s[pos];
  if (quote === '"' || quote === "'") {
    pos++;
    for (;;) {
      const c = s[pos];
      if (c === undefined) return undefined;
      pos++;
      if (c === quote) return { name, value, end: pos };
      value += c.toLowerCase();
    }
  }
  if (quote === ">") return { name, value, end: pos };
  for (;;) {
    const c = s[pos];
    if (c === undefined) return undefined;
    if (isSpace(c) || c === ">") return { name, value, end: pos };
    value += c.toLowerCase();
    pos++;
  }
}

/** HTML "extract a character encoding from a meta element": the label in `content`. */
function charsetFromMetaContent(content: string): string | undefined {
  let pos = 0;
  for (;;) {
    const at = content.indexOf("charset", pos);
    if (at < 0) return undefined;
    pos = at + 7;
    while (isSpace(content[pos])) pos++;
    if (content[pos] !== "=") continue;
    pos++;
    while (isSpace(content[pos])) pos++;
    const c = content[pos];
    if (c === '"' || c === "'") {
      const end = content.indexOf(c, pos + 1);
      return end < 0 ? undefined : content.slice(pos + 1, end);
    }
    let end = pos;
    while (end < content.length && !isSpace(content[end]) && content[end] !== ";") end++;
    return end > pos ? content.slice(pos, end) : undefined;
  }
}
