/**
 * Okapi BM25 over a set of passages: how well each passage matches a query, the more for rare
 * terms and the less for long passages. The idf is Lucene's, `ln(1 + (N - n + 0.5) / (n + 0.5))`,
 * never negative, so a passage scores above zero exactly when it shares a term with the query.
 */
import { terms } from "./terms.js";

/** Term-frequency saturation. */
const K1 = 1.2;
/** Length normalization. */
const B = 0.75;

/** One score per passage, in the passages' order; 0 for a passage without a query term. */
export function bm25Scores(passages: readonly string[], query: string): number[] {
  const queryTerms = [...new Set(terms(query))];
  if (queryTerms.length === 0 || passages.length === 0) return passages.map(() => 0);
  const docs = passages.map((text) => countTerms(terms(text)));
  const lengths = docs.map((d) => d.length);
  const avg = lengths.reduce((a, b) => a + b, 0) / docs.length || 1;
  const idf = new Map<string, number>();
  for (const term of queryTerms) {
    const n = docs.filter((d) => d.counts.has(term)).length;
    idf.set(term, Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)));
  }
  return docs.map((doc) => {
    let score = 0;
    for (const term of queryTerms) {
      const tf = doc.counts.get(term) ?? 0;
      if (tf === 0) continue;
      score += (idf.get(term)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / avg));
    }
    return score;
  });
}

function countTerms(list: readonly string[]): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { counts, length: list.length };
}
