/**
 * Escapes page text so Markdown renders it as the same text, and no more than that: a reader
 * (often a model) sees the raw Markdown, so every needless backslash is noise. Only characters
 * that could start markup where they stand are escaped.
 */

/** Where a piece of text lands. */
export interface EscapeContext {
  /** The text begins a line, where `#`, `-`, `>` and `1.` start blocks. */
  lineStart: boolean;
  /** The text is inside link text, where brackets must balance. */
  inLink: boolean;
}

/** A backslash before ASCII punctuation would escape it; doubled so it shows. */
const BACKSLASH = /\\(?=[!-/:-@[-`{-~])/g;
/** Backticks open code spans. */
const BACKTICK = /`/g;
/** `*` that can open or close emphasis: any not surrounded by spaces on both sides. */
const ASTERISK = /\*/g;
/** Runs of `_`, escaped unless inside a word (snake_case is left alone). */
const UNDERSCORE_RUN = /_+/g;
/** `~~` is strikethrough in GFM. */
const DOUBLE_TILDE = /~~/g;
/** `<` that starts an HTML tag, comment or autolink. */
const ANGLE_TAG = /<(?=[A-Za-z/!?])/g;
/** `&` that starts a character reference, which Markdown would decode. */
const AMPERSAND_ENTITY = /&(?=#?[A-Za-z0-9]+;)/g;
/** `]` followed by `(` or `[`, which would make the bracketed text a link. */
const LINK_CLOSE = /\](?=[([])/g;
/** The same, for testing (a global regex would carry state between `test` calls). */
const HAS_LINK_CLOSE = /\](?=[([])/;
/** Any bracket, escaped inside link text. */
const BRACKET = /[[\]]/g;
/** Letters and digits, the inside of a word. */
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Characters that some escape below acts on anywhere in the text. */
const MAY_ESCAPE = /[\\`*_~<&[\]]/;
/** First characters of the line starts below. */
const MAY_START_BLOCK = /^[#+>=~\d-]/;

/** Line starts that would become a heading, list item, quote, rule or fence. */
const LINE_START_RULES: ReadonlyArray<[RegExp, string]> = [
  [/^(#{1,6})(?=\s|$)/, "\\$1"], // ATX heading
  [/^([-+])(?=\s|$)/, "\\$1"], // bullet list item (`*` is escaped everywhere)
  [/^>/, "\\>"], // blockquote
  [/^(\d{1,9})([.)])(?=\s|$)/, "$1\\$2"], // ordered list item
  [/^(=+|-{2,})(?=\s*$)/, "\\$1"], // setext underline or thematic break
  [/^~~~/, "\\~~~"], // tilde fence
];

/**
 * Escapes one run of text (whitespace already collapsed) for Markdown.
 *
 * @example
 * escapeMarkdown("# not a heading, *not* emphasis, snake_case", { lineStart: true, inLink: false });
 * // "\\# not a heading, \\*not\\* emphasis, snake_case"
 */
export function escapeMarkdown(text: string, context: EscapeContext): string {
  // Most text holds nothing to escape: one scan says so.
  if (!MAY_ESCAPE.test(text) && !(context.lineStart && MAY_START_BLOCK.test(text))) return text;
  let out = text;
  if (out.includes("\\")) out = out.replace(BACKSLASH, "\\\\");
  if (out.includes("`")) out = out.replace(BACKTICK, "\\`");
  if (out.includes("*"))
    out = out.replace(ASTERISK, (match, offset: number, all: string) =>
      isSpace(all[offset - 1]) && isSpace(all[offset + 1]) ? match : "\\*",
    );
  if (out.includes("_")) out = out.replace(UNDERSCORE_RUN, escapeUnderscores);
  if (out.includes("~~")) out = out.replace(DOUBLE_TILDE, "\\~\\~");
  if (out.includes("<")) out = out.replace(ANGLE_TAG, "\\<");
  if (out.includes("&")) out = out.replace(AMPERSAND_ENTITY, "\\&");
  if (out.includes("]") || out.includes("[")) {
    // Link text may hold balanced brackets (`[[1]](url)`); anything else is escaped.
    const linkSafe = context.inLink && isBalanced(out) && !HAS_LINK_CLOSE.test(out);
    if (context.inLink && !linkSafe) out = out.replace(BRACKET, "\\$&");
    else out = out.replace(LINK_CLOSE, "\\]");
  }
  if (context.lineStart) {
    for (const [pattern, replacement] of LINE_START_RULES) {
      if (pattern.test(out)) {
        out = out.replace(pattern, replacement);
        break;
      }
    }
  }
  return out;
}

/** True when `[` and `]` pair up in order. */
function isBalanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === "[") depth++;
    else if (char === "]" && --depth < 0) return false;
  }
  return depth === 0;
}

/** Escapes a `_` run unless it joins two word characters. */
function escapeUnderscores(run: string, offset: number, all: string): string {
  const before = all[offset - 1];
  const after = all[offset + run.length];
  const inWord =
    before !== undefined && after !== undefined && WORD_CHAR.test(before) && WORD_CHAR.test(after);
  const spaced = isSpace(before) && isSpace(after);
  return inWord || spaced ? run : run.replace(/_/g, "\\_");
}

/** True for a space; the edge of the text (`undefined`) counts as not a space. */
function isSpace(char: string | undefined): boolean {
  return char === " ";
}

/**
 * Makes a URL safe inside `(…)` of a Markdown link: spaces and parentheses percent-encoded.
 *
 * @example
 * markdownUrl("https://e.com/a (b)"); // "https://e.com/a%20%28b%29"
 */
export function markdownUrl(url: string): string {
  // Most URLs hold none of these: one search instead of a replacement's setup.
  if (!URL_UNSAFE.test(url)) return url;
  return url.replace(URL_UNSAFE_ALL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Characters a URL inside `(…)` of a Markdown link must not hold as they are. */
const URL_UNSAFE = /[ ()<>]/;
const URL_UNSAFE_ALL = new RegExp(URL_UNSAFE.source, "g");
