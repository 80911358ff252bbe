/**
 * Plain text (and CSV) is returned as it came: only line endings are made uniform and a leading
 * byte order mark is dropped, so offsets and line numbers mean the same on every platform.
 */

/** CRLF and lone CR line endings. */
const LINE_ENDING_RE = /\r\n?/g;

/**
 * Returns text as is, with CRLF/CR line endings turned into LF and a leading BOM removed.
 *
 * @example
 * convertText("\uFEFFa,b\r\n1,2\r\n") // → "a,b\n1,2\n"
 */
export function convertText(text: string): string {
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Most text has no CR at all: one scan for it is cheaper than a replace that finds none.
  return unmarked.includes("\r") ? unmarked.replace(LINE_ENDING_RE, "\n") : unmarked;
}
