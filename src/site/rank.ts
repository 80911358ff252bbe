/**
 * A site's links ranked by a query: BM25 over the words of each link's path and query string
 * and its title, best first. A link that shares no word with the query is left out; ties keep
 * the order the links were found in.
 */
import { bm25Scores } from "../shape/bm25.js";

/** The words BM25 reads for a link: its path and query, decoded, then its title. */
function linkText(link: { url: string; title?: string | undefined }): string {
  const url = new URL(link.url);
  let where = `${url.pathname} ${url.search}`;
  try {
    where = decodeURIComponent(where);
  } catch {
    // A malformed escape leaves the text as it is; the words around it still count.
  }
  return link.title ? `${where} ${link.title}` : where;
}

/**
 * The links that match `query`, best first.
 *
 * @example
 * rankLinks([{ url: "https://a.example/about" }, { url: "https://a.example/docs/install" }], "install")
 * // [{ url: "https://a.example/docs/install" }]
 */
export function rankLinks<L extends { url: string; title?: string | undefined }>(
  links: readonly L[],
  query: string,
): L[] {
  const scores = bm25Scores(links.map(linkText), query);
  return links
    .map((link, i) => ({ link, score: scores[i]!, i }))
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((scored) => scored.link);
}
