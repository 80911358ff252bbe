/**
 * JSON bodies pretty-printed with a 2-space indent, like `JSON.stringify(value, null, 2)`, but by
 * re-indenting the tokens instead of re-serializing the parsed value: number literals stay exactly
 * as written (no precision lost above 2^53, `1.0` stays `1.0`) and duplicate keys are kept.
 * Strings are normalized (`"\u65e5"` becomes `"日"`) so a model reads them. Invalid JSON is
 * returned unchanged: it is still the content.
 */

/** A leading U+FEFF (a BOM that survived decoding). */
const LEADING_BOM_RE = /^\uFEFF/;

/** A number or literal (true, false, null) token, starting at lastIndex. */
const SCALAR_RE = /[^\s,:[\]{}"]+/y;

/** Structural characters, by char code. */
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Characters written around tokens. */
const SPACE = 0x20;
const NEWLINE = 0x0a;

/** One level of indentation: two spaces. */
const INDENT_WIDTH = 2;

/** Code units turned into a string at a time (an argument-count limit of String.fromCharCode). */
const DECODE_CHUNK = 8192;

/**
 * Pretty output may grow by indentation; beyond this factor of the input (plus a floor) the
 * document is returned as it came rather than inflated (a deeply nested body would be mostly
 * spaces).
 */
const MAX_GROWTH = 8;
const MIN_OUTPUT_BUDGET = 1024 * 1024;

/**
 * Pretty-prints JSON with a 2-space indent; returns the input unchanged when it is not valid JSON
 * (or when indenting it would blow it up).
 *
 * @example
 * convertJson('{"a":[1,2],"big":12345678901234567890}')
 * // → '{\n  "a": [\n    1,\n    2\n  ],\n  "big": 12345678901234567890\n}'
 */
export function convertJson(text: string): string {
  const source = text.replace(LEADING_BOM_RE, "");
  try {
    // Validation only; V8's JSON.parse is iterative, so deep nesting cannot overflow the stack.
    JSON.parse(source);
  } catch {
    return text;
  }
  return reindent(source) ?? text;
}

/** Re-emits the tokens of valid JSON with indentation; undefined when over the output budget. */
function reindent(source: string): string | undefined {
  const out = new Utf16Writer(
    source.length,
    Math.max(source.length * MAX_GROWTH, MIN_OUTPUT_BUDGET),
  );
  let depth = 0;
  let pos = skipWhitespace(source, 0);
  while (pos < source.length) {
    const c = source.charCodeAt(pos);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      const next = skipWhitespace(source, pos + 1);
      out.char(c);
      if (source.charCodeAt(next) === close) {
        out.char(close);
        pos = next + 1;
      } else {
        depth++;
        out.newline(depth);
        pos = next;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      out.newline(depth);
      out.char(c);
      pos++;
    } else if (c === COMMA) {
      out.char(COMMA);
      out.newline(depth);
      pos++;
    } else if (c === COLON) {
      out.char(COLON);
      out.char(SPACE);
      pos++;
    } else if (c === QUOTE) {
      const end = stringEnd(source, pos);
      const token = source.slice(pos, end);
      if (token.includes("\\")) out.text(normalizeString(token), 0, Number.POSITIVE_INFINITY);
      else out.text(source, pos, end);
      pos = end;
    } else {
      SCALAR_RE.lastIndex = pos;
      const end = SCALAR_RE.exec(source) ? SCALAR_RE.lastIndex : pos + 1;
      out.text(source, pos, end);
      pos = end;
    }
    if (out.overBudget) return undefined;
    pos = skipWhitespace(source, pos);
  }
  return out.toString();
}

/**
 * Appends UTF-16 code units to a growing buffer: per-token strings would be millions of small
 * objects for a 10 MB document (about 5× slower, mostly garbage collection).
 */
class Utf16Writer {
  #buffer: Uint16Array;
  #length = 0;
  readonly #budget: number;
  overBudget = false;

  constructor(initial: number, budget: number) {
    this.#budget = budget;
    this.#buffer = new Uint16Array(Math.min(budget, initial + 1024));
  }

  char(code: number): void {
    if (this.#reserve(1)) this.#buffer[this.#length++] = code;
  }

  newline(depth: number): void {
    const width = depth * INDENT_WIDTH;
    if (!this.#reserve(1 + width)) return;
    this.#buffer[this.#length++] = NEWLINE;
    this.#buffer.fill(SPACE, this.#length, this.#length + width);
    this.#length += width;
  }

  text(source: string, start: number, end: number): void {
    const stop = Math.min(end, source.length);
    if (!this.#reserve(stop - start)) return;
    // Locals, not fields, in the hot loop.
    const buffer = this.#buffer;
    let length = this.#length;
    for (let i = start; i < stop; i++) buffer[length++] = source.charCodeAt(i);
    this.#length = length;
  }

  toString(): string {
    const parts: string[] = [];
    for (let i = 0; i < this.#length; i += DECODE_CHUNK) {
      const slice = this.#buffer.subarray(i, Math.min(this.#length, i + DECODE_CHUNK));
      // apply() takes the typed array as is; spreading it would go through its iterator.
      parts.push(String.fromCharCode.apply(null, slice as unknown as number[]));
    }
    return parts.join("");
  }

  /** Makes room for `n` more units; false (and overBudget) past the budget. */
  #reserve(n: number): boolean {
    const needed = this.#length + n;
    if (needed > this.#budget) {
      this.overBudget = true;
      return false;
    }
    if (needed > this.#buffer.length) {
      const grown = new Uint16Array(
        Math.min(this.#budget, Math.max(needed, this.#buffer.length * 2)),
      );
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    return true;
  }
}

/** Index of the first non-whitespace character at or after `pos`. */
function skipWhitespace(source: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = source.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** Index just past the closing quote of the string token that starts at `start`. */
function stringEnd(source: string, start: number): number {
  let quote = source.indexOf('"', start + 1);
  while (quote >= 0) {
    // The quote is escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    while (source.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = source.indexOf('"', quote + 1);
  }
  return source.length;
}

/** A string token with needless escapes resolved (`\u00e9` → `é`, `\/` → `/`). */
function normalizeString(token: string): string {
  return token.includes("\\") ? JSON.stringify(JSON.parse(token) as string) : token;
}
