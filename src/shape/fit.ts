/**
 * A page cut to the input budget of the model that answers a `prompt`: the whole page when it fits,
 * else its chunks most relevant to the prompt (BM25), best first while they fit, printed in
 * document order under their headings. When nothing matches, the page's opening chunks are kept
 * instead.
 */
import { type Chunk, chunkMarkdown, renderChunks } from "./chunk.js";
import { rankChunks } from "./focus.js";
import type { CountTokens } from "./tokens.js";

export interface Fitted {
  content: string;
  /** Whether parts of the page were left out. */
  cut: boolean;
  /** Tokens of `content`. */
  tokens: number;
}

/** The part of `content` that best answers `query` within `maxTokens`. */
export function fitToTokens(
  content: string,
  query: string,
  maxTokens: number,
  count: CountTokens,
): Fitted {
  const whole = count(content);
  if (whole <= maxTokens) return { content, cut: false, tokens: whole };
  const chunks = chunkMarkdown(content);
  const ranked = rankChunks(chunks, query).map((r) => r.chunk);
  // Unmatched chunks follow the matched ones in document order: context is better than nothing.
  const order = [...ranked, ...chunks.filter((c) => !ranked.includes(c))];
  const chosen: Chunk[] = [];
  let used = 0;
  for (const chunk of order) {
    // Headings are counted with each chunk, so the rendered text stays within the budget.
    const cost = count(`${chunk.headings.map((h) => h.line).join("\n")}\n\n${chunk.text}\n\n`);
    if (used + cost > maxTokens) continue;
    chosen.push(chunk);
    used += cost;
  }
  const text = renderChunks(chosen);
  return { content: text, cut: true, tokens: count(text) };
}
