/**
 * How relevant a link looks to a crawl's query before it is fetched: the share of the query's
 * terms in the link's URL words and text, plus half the share found in the page that links to
 * it (a page about the query tends to link to more of the same). Scores are 0 to 1.5; a crawl
 * fetches the highest first.
 */
import { terms } from "../shape/terms.js";

/** Weight of the linking page's own relevance in its links' scores. */
const PARENT_WEIGHT = 0.5;

/** The query's distinct terms, computed once per crawl. */
export function queryTerms(query: string): ReadonlySet<string> {
  return new Set(terms(query));
}

/** Share of `wanted`'s terms that occur in `text`, 0 to 1. */
export function termShare(wanted: ReadonlySet<string>, text: string): number {
  if (wanted.size === 0) return 0;
  const present = new Set(terms(text));
  let hits = 0;
  for (const term of wanted) if (present.has(term)) hits++;
  return hits / wanted.size;
}

/** The words a link shows before it is fetched: its path and query, decoded, and its text. */
function linkWords(url: URL, text: string | undefined): string {
  let where = `${url.pathname} ${url.search}`.replace(/[/_.?=&+-]+/g, " ");
  try {
    where = decodeURIComponent(where);
  } catch {
    // A malformed escape leaves the words as they are.
  }
  return text ? `${where} ${text}` : where;
}

/**
 * A link's score for `wanted`, given the share of the query found in the page it is on.
 *
 * @example
 * linkScore(queryTerms("pricing"), new URL("https://a.example/pricing"), "Plans", 0)  // 1
 */
export function linkScore(
  wanted: ReadonlySet<string>,
  url: URL,
  text: string | undefined,
  pageShare: number,
): number {
  return termShare(wanted, linkWords(url, text)) + PARENT_WEIGHT * pageShare;
}
