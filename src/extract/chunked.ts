/**
 * Text held as a list of strings, each small enough for V8's young generation. V8 gives a
 * string over 128 KB fresh memory pages of its own, which costs about a hundred times more per
 * byte than a small string where the freed memory goes back to a virtual machine's host (4.7 ms
 * against 0.05 ms per MB measured on a Firecracker VM): the decoded HTML of an ordinary 240 KB
 * page was a tenth of its conversion. The parser reads the pieces one after the other, so a page
 * is never one string; the few readers that need it whole join it (`toString`).
 */

/** Characters per piece: under V8's 128 KB for a string of two-byte characters. */
export const CHUNK_CHARS = 32_768;
/** A piece shorter than this joins the one before it, so a short needle spans at most two. */
const MIN_PIECE_CHARS = 64;

/** HTML as one string or as pieces. */
export type HtmlText = string | ChunkedText;

/**
 * Read-only text over pieces, with the string methods the HTML pre-pass uses: positions are
 * those of the joined text.
 *
 * @example
 * const text = new ChunkedText(["<p>Hel", "lo</p>"]);
 * text.indexOf("llo"); // 4
 */
export class ChunkedText {
  readonly chunks: readonly string[];
  readonly length: number;
  /** Where each piece starts in the joined text. */
  readonly #starts: number[];
  /** The piece read last, its start and end: reading moves forward through the text. */
  #current = "";
  #index = 0;
  #base = 0;
  #end = 0;

  constructor(pieces: readonly string[]) {
    const chunks: string[] = [];
    for (const piece of pieces) {
      if (piece === "") continue;
      const last = chunks.length - 1;
      if (last >= 0 && (piece.length < MIN_PIECE_CHARS || chunks[last]!.length < MIN_PIECE_CHARS)) {
        chunks[last] += piece;
      } else {
        chunks.push(piece);
      }
    }
    this.chunks = chunks;
    this.#starts = [];
    let length = 0;
    for (const chunk of chunks) {
      this.#starts.push(length);
      length += chunk.length;
    }
    this.length = length;
    if (chunks.length > 0) this.#select(0);
  }

  /** The code unit at `i`, NaN outside the text (as for a string). */
  charCodeAt(i: number): number {
    if (i >= this.#base && i < this.#end) return this.#current.charCodeAt(i - this.#base);
    if (!(i >= 0 && i < this.length)) return Number.NaN;
    this.#select(this.#chunkAt(i));
    return this.#current.charCodeAt(i - this.#base);
  }

  /** First position of `needle` at or after `from`, or -1. */
  indexOf(needle: string, from = 0): number {
    const start = Math.max(0, from);
    if (start >= this.length) return needle === "" && start === this.length ? start : -1;
    const overlap = needle.length - 1;
    let k = this.#chunkAt(start);
    let local = start - this.#starts[k]!;
    for (; k < this.chunks.length; k++, local = 0) {
      const chunk = this.chunks[k]!;
      const hit = chunk.indexOf(needle, local);
      if (hit !== -1) return this.#starts[k]! + hit;
      if (overlap > 0 && k + 1 < this.chunks.length) {
        // A match that starts in this piece and ends in the next.
        const tail = Math.max(local, chunk.length - overlap);
        const seam = chunk.slice(tail) + this.chunks[k + 1]!.slice(0, overlap);
        const across = seam.indexOf(needle);
        if (across !== -1) return this.#starts[k]! + tail + across;
      }
    }
    return -1;
  }

  /** True when `needle` stands at `at`. */
  startsWith(needle: string, at: number): boolean {
    if (at < 0 || at + needle.length > this.length) return false;
    for (let j = 0; j < needle.length; j++) {
      if (this.charCodeAt(at + j) !== needle.charCodeAt(j)) return false;
    }
    return true;
  }

  /** The text from `start` to `end` as one string: for short spans (a tag's name). */
  slice(start: number, end = this.length): string {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (from >= to) return "";
    const k = this.#chunkAt(from);
    const base = this.#starts[k]!;
    const chunk = this.chunks[k]!;
    // Most spans lie within one piece: no list to join.
    if (to <= base + chunk.length) return chunk.slice(from - base, to - base);
    const out: string[] = [];
    this.pieces(from, to, out);
    return out.join("");
  }

  /** Appends the text from `start` to `end` to `out`, piece by piece. */
  pieces(start: number, end: number, out: string[]): void {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (from >= to) return;
    for (let k = this.#chunkAt(from); k < this.chunks.length; k++) {
      const base = this.#starts[k]!;
      if (base >= to) break;
      const chunk = this.chunks[k]!;
      out.push(chunk.slice(Math.max(0, from - base), Math.min(chunk.length, to - base)));
    }
  }

  /** The text up to `end`. */
  cut(end: number): ChunkedText {
    const out: string[] = [];
    this.pieces(0, end, out);
    return new ChunkedText(out);
  }

  /** The whole text as one string. */
  toString(): string {
    return this.chunks.join("");
  }

  /** Index of the piece holding position `i` (0 <= i < length). */
  #chunkAt(i: number): number {
    if (i >= this.#base && i < this.#end) return this.#index;
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  #select(k: number): void {
    this.#index = k;
    this.#current = this.chunks[k]!;
    this.#base = this.#starts[k]!;
    this.#end = this.#base + this.#current.length;
  }
}
