/**
 * A page's whole content gathered from its windows: a result cut at its length limit is read on
 * until no window is cut, for readers that take a page as a whole, where a tool would page
 * through it: the `/md` endpoint and the reader route of the service, and remote mode, which
 * keeps the whole page a fetch service cuts into windows.
 */

/** A window of a page's content, as a result carries it. */
export interface ContentWindow {
  content: string;
  truncated: boolean;
  /** Where the next window starts, when this one is cut. */
  nextStartIndex?: number | undefined;
  /** Where this window starts in the whole content, when its source says. */
  startIndex?: number | undefined;
}

/** Windows asked for at most: a bound, not an expectation. */
const MAX_WINDOWS = 200;

/**
 * The whole content behind `first`: while a window is cut, `next` is asked for the one after it,
 * from `from`, the end of the text gathered so far. A window lands at its own `startIndex`, so a
 * source that can answer the rest at once may start again at 0; one that does not say lands at
 * `from`.
 *
 * @example
 * const page = await web.fetch(url, { maxLength: 100_000 });
 * const content = await wholeContent(page, () => web.read(page.id, { length: page.totalLength }));
 */
export async function wholeContent<W extends ContentWindow>(
  first: W,
  next: (cut: W, from: number) => Promise<W>,
): Promise<string> {
  let content = "";
  let window = first;
  for (let asked = 1; ; asked++) {
    content = content.slice(0, window.startIndex ?? content.length);
    if (!window.truncated || window.nextStartIndex === undefined) return content + window.content;
    content += windowText(window.content, window.nextStartIndex - content.length);
    if (asked >= MAX_WINDOWS) return content;
    window = await next(window, content.length);
  }
}

/**
 * A cut window's own text: the window ends with a blank line and a continuation line, after its
 * text's trailing whitespace was trimmed; that whitespace comes back as newlines, so offsets
 * stay the source's (the cut is at a blank line or newline almost always).
 */
function windowText(content: string, span: number): string {
  const at = content.lastIndexOf("\n\n");
  const text = at < 0 ? content.slice(0, span) : content.slice(0, Math.min(at, span));
  return text.padEnd(span, "\n");
}
