/**
 * Shape: a window of at most `maxLength` characters from `startIndex`, cut at a paragraph or
 * line boundary (never inside a surrogate pair), with a last line that tells the agent how to
 * read on.
 */

export interface ShapeOptions {
  startIndex: number;
  maxLength: number;
}

export interface Shaped {
  content: string;
  totalLength: number;
  startIndex: number;
  truncated: boolean;
  nextStartIndex?: number;
}

/** Fewest characters of page text a cut window should carry besides the continuation line. */
const MIN_WINDOW = 100;

/** A cut is only moved back to a boundary if that keeps at least this share of the window. */
const MIN_KEEP = 0.5;

/** The line appended to cut content; it always contains `next`. */
export function continuationLine(next: number, total: number): string {
  return `[Content truncated: showing characters up to ${next} of ${total}. To read more, call again with start_index=${next}.]`;
}

/** Cuts `full` to the requested window. */
export function shapeContent(full: string, options: ShapeOptions): Shaped {
  const totalLength = full.length;
  const start = Math.min(Math.max(0, options.startIndex), totalLength);
  if (totalLength - start <= options.maxLength) {
    return { content: full.slice(start), totalLength, startIndex: start, truncated: false };
  }
  // The continuation line counts against maxLength, so the whole text fits the caller's budget;
  // only a window too small to hold it (under MIN_WINDOW characters of text) goes over.
  const reserve = continuationLine(totalLength, totalLength).length + 2;
  const budget =
    options.maxLength - reserve >= MIN_WINDOW ? options.maxLength - reserve : options.maxLength;
  const end = cutPoint(full, start, start + budget);
  const next = end;
  const content = `${full.slice(start, end).trimEnd()}\n\n${continuationLine(next, totalLength)}`;
  return { content, totalLength, startIndex: start, truncated: true, nextStartIndex: next };
}

/** The best place to end a window [start, limit): a blank line, else a newline, else a space. */
export function cutPoint(text: string, start: number, limit: number): number {
  const floor = start + Math.floor((limit - start) * MIN_KEEP);
  const window = text.slice(floor, limit);
  for (const boundary of ["\n\n", "\n", " "]) {
    // A forward search is several times faster than a backward one that finds nothing.
    if (!window.includes(boundary)) continue;
    const at = window.lastIndexOf(boundary);
    if (at > 0) return floor + at + boundary.length;
  }
  let end = limit;
  // Never split a surrogate pair: a high surrogate at the end goes to the next window.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  // A window of one high surrogate takes the whole pair rather than none of it.
  return end > start ? end : limit + 1;
}
