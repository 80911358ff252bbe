/**
 * `query` on a page: the heading-aware chunks that match the query (a positive BM25 score),
 * best first until the length budget is spent, then printed in document order under their
 * headings.
 */
import { bm25Scores } from "./bm25.js";
import { type Chunk, chunkCost, chunkMarkdown, chunkSearchText, renderChunks } from "./chunk.js";

export interface Focused {
  content: string;
  /** Chunks of the page, chunks that matched, chunks returned. */
  chunks: { total: number; matched: number; returned: number };
}

/** The passages of `content` relevant to `query`, within `maxLength` characters. */
export function focusContent(content: string, query: string, maxLength: number): Focused {
  const chunks = chunkMarkdown(content);
  const ranked = rankChunks(chunks, query);
  const chosen: Chunk[] = [];
  let used = 0;
  for (const { chunk } of ranked) {
    // The cost counts every heading of the chunk, so the rendered text never exceeds the budget.
    const cost = chunkCost(chunk);
    if (used + cost - 2 > maxLength) continue;
    chosen.push(chunk);
    used += cost;
  }
  // A budget smaller than every matching chunk still gets the start of the best one.
  const best = ranked[0]?.chunk;
  if (chosen.length === 0 && best) {
    // chunkCost counts a separator before the first part, which rendering does not print.
    const room = maxLength - (chunkCost(best) - best.text.length - 2);
    if (room > 0) chosen.push({ ...best, text: cutAt(best.text, room) });
  }
  return {
    content: renderChunks(chosen),
    chunks: { total: chunks.length, matched: ranked.length, returned: chosen.length },
  };
}

/** Chunks with a positive score, best first; ties in document order (deterministic). */
export function rankChunks(
  chunks: readonly Chunk[],
  query: string,
): { chunk: Chunk; score: number }[] {
  const scores = bm25Scores(chunks.map(chunkSearchText), query);
  return chunks
    .map((chunk, i) => ({ chunk, score: scores[i]! }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.chunk.index - b.chunk.index);
}

/** The first `length` characters of `text`, never ending inside a surrogate pair. */
function cutAt(text: string, length: number): string {
  if (text.length <= length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length).trimEnd();
}
