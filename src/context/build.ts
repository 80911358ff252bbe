/**
 * `web.context()`: search, fetch the top results concurrently through the
 * normal pipeline (guard, robots, limits), cut every page into heading-aware chunks, rank them
 * all together with BM25, and pack the best into a cited context whose whole text, source list
 * included, fits the token budget. A page that cannot be fetched still contributes the
 * provider's snippet, so the context works with every provider.
 */

import type { SearchResponse, SearchResult } from "../search/types.js";
import { bm25Scores } from "../shape/bm25.js";
import { type Chunk, chunkMarkdown, chunkSearchText } from "../shape/chunk.js";
import type { CountTokens } from "../shape/tokens.js";

/** A page the context cites; `n` is the number its passages carry (`[n]`). */
export interface ContextSource {
  n: number;
  url: string;
  title: string;
}

/** What `web.context()` returns. */
export interface ContextResult {
  query: string;
  /** Cited passages, then the source list; at most `maxTokens` tokens in all. */
  context: string;
  sources: ContextSource[];
  /** o200k tokens of `context`. */
  tokens: number;
  provider: string;
  timings: { totalMs: number };
}

/** The page behind a search result, as far as the context needs it. */
export interface ContextPage {
  content: string;
  title?: string | undefined;
}

export interface ContextLabels {
  sources: string;
}

/** One candidate passage: a chunk of a page, or the provider's snippet when the page failed. */
interface Passage {
  source: number;
  chunk: Chunk;
  score: number;
}

/** What the packer works from: the search and the pages, one per result (undefined: failed). */
export interface PackInput {
  query: string;
  search: SearchResponse;
  pages: readonly (ContextPage | undefined)[];
  maxTokens: number;
  count: CountTokens;
  labels: ContextLabels;
}

/** Separator between a source's title and a passage's headings. */
const PATH_SEPARATOR = " › ";

/** The cited context within the budget; deterministic for the same search and pages. */
export function packContext(input: PackInput): Omit<ContextResult, "timings" | "provider"> {
  const { search, pages, count } = input;
  const titles = search.results.map((r, i) => pages[i]?.title || r.title);
  const candidates = rankPassages(input.query, search.results, pages, titles);

  // Greedy by score with an estimate (the sum of the parts' tokens), then a check of the real
  // text: tokens at the joins can differ by a few, so the lowest passage goes while over.
  const chosen: Passage[] = [];
  const cited = new Set<number>();
  let estimate = count(`${input.labels.sources}\n`);
  for (const passage of candidates) {
    const block = count(`[00] ${passageHeader(passage, titles)}\n${passage.chunk.text}\n\n`);
    const line = cited.has(passage.source)
      ? 0
      : count(sourceLine(99, search.results[passage.source]!, titles[passage.source]!)) + 1;
    if (estimate + block + line > input.maxTokens) continue;
    chosen.push(passage);
    cited.add(passage.source);
    estimate += block + line;
  }
  let rendered = render(chosen, search.results, titles, input.labels);
  while (chosen.length > 0 && count(rendered.context) > input.maxTokens) {
    chosen.pop();
    rendered = render(chosen, search.results, titles, input.labels);
  }
  return { query: input.query, ...rendered, tokens: count(rendered.context) };
}

/**
 * Every chunk of every page (a failed page: its snippet), ranked together against the query.
 * With no passage sharing a term with the query, the search's own order is kept.
 */
function rankPassages(
  query: string,
  results: readonly SearchResult[],
  pages: readonly (ContextPage | undefined)[],
  titles: readonly string[],
): Passage[] {
  const all: Passage[] = [];
  results.forEach((result, source) => {
    const page = pages[source];
    const chunks = page ? chunkMarkdown(page.content) : [];
    const list =
      chunks.length > 0
        ? chunks
        : result.snippet
          ? [{ index: 0, headings: [], text: result.snippet }]
          : [];
    for (const chunk of list) all.push({ source, chunk, score: 0 });
  });
  const scores = bm25Scores(
    all.map((p) => `${titles[p.source]}\n${chunkSearchText(p.chunk)}`),
    query,
  );
  all.forEach((p, i) => {
    p.score = scores[i]!;
  });
  const matching = all.filter((p) => p.score > 0);
  const order = (a: Passage, b: Passage) =>
    b.score - a.score || a.source - b.source || a.chunk.index - b.chunk.index;
  return (matching.length > 0 ? matching : all).sort(order);
}

/** Passages grouped by source in search order, each in document order, then the sources. */
function render(
  chosen: readonly Passage[],
  results: readonly SearchResult[],
  titles: readonly string[],
  labels: ContextLabels,
): { context: string; sources: ContextSource[] } {
  const used = [...new Set(chosen.map((p) => p.source))].sort((a, b) => a - b);
  const numbers = new Map(used.map((source, i) => [source, i + 1]));
  const blocks = [...chosen]
    .sort((a, b) => a.source - b.source || a.chunk.index - b.chunk.index)
    .map((p) => `[${numbers.get(p.source)}] ${passageHeader(p, titles)}\n${p.chunk.text}`);
  const sources = used.map((source) => ({
    n: numbers.get(source)!,
    url: results[source]!.url,
    title: titles[source]!,
  }));
  if (blocks.length === 0) return { context: "", sources: [] };
  const list = sources.map((s) => sourceLine(s.n, results[used[s.n - 1]!]!, s.title));
  return { context: `${blocks.join("\n\n")}\n\n${labels.sources}\n${list.join("\n")}`, sources };
}

/** `Title › Heading › Subheading`, the page's title not repeated when its h1 says the same. */
function passageHeader(passage: Passage, titles: readonly string[]): string {
  const title = titles[passage.source]!;
  const headings = passage.chunk.headings.map((h) => h.text);
  if (headings[0] === title) headings.shift();
  return [title, ...headings].join(PATH_SEPARATOR);
}

function sourceLine(n: number, result: SearchResult, title: string): string {
  return `[${n}] ${title}: ${result.url}`;
}
