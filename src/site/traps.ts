/**
 * Crawler traps: parts of a site that make new URLs forever (a calendar's next month, a path
 * that nests into itself, a search page's endless query combinations). No list of known traps:
 * three shapes of URL that a real site's pages seldom take, each bounded.
 * - A path that repeats one segment many times (`/a/x/x/x/`) or nests very deep.
 * - A chain of links each to a URL of the same shape as the page it is on (`/cal/2026/11` →
 *   `/cal/2026/12` → `/cal/2027/1`…), the shape being the path with its numbers blanked and the
 *   query's parameter names: a long chain means the site is counting, not linking.
 * - Many query strings on one path (faceted search, sorting, tracking parameters).
 */
import { LIMITS } from "../limits.js";

/** Digits in a path or query: `2026`, `11`, `p10`. */
const DIGITS = /\d+/g;

/** A URL's shape: its host and path with every run of digits blanked, then its query's names. */
export function urlShape(url: URL): string {
  const names = [...new Set([...url.searchParams.keys()])].sort();
  return `${url.host}${url.pathname.replace(DIGITS, "#")}?${names.join("&")}`;
}

/** Why a URL looks like a trap, or undefined when it does not. */
export type TrapKind = "repeated-segment" | "deep-path" | "shape-chain" | "query-variants";

/**
 * Remembers the query strings seen on each path, so one path with ever more variants stops
 * being followed. One per crawl.
 */
export class TrapGuard {
  readonly #queries = new Map<string, Set<string>>();

  /**
   * Why `url`, linked from a page whose shape chain is `parentChain` long and whose shape is
   * `parentShape`, is a trap; or undefined, with the chain length the URL itself carries.
   */
  check(
    url: URL,
    parent?: { shape: string; chain: number },
  ): { trap: TrapKind } | { shape: string; chain: number } {
    const segments = url.pathname.split("/").filter((s) => s !== "");
    if (segments.length > LIMITS.crawlMaxPathSegments) return { trap: "deep-path" };
    const counts = new Map<string, number>();
    for (const segment of segments) {
      const n = (counts.get(segment) ?? 0) + 1;
      if (n > LIMITS.crawlMaxSegmentRepeats) return { trap: "repeated-segment" };
      counts.set(segment, n);
    }
    const shape = urlShape(url);
    const chain = parent && parent.shape === shape ? parent.chain + 1 : 0;
    if (chain > LIMITS.crawlMaxShapeChain) return { trap: "shape-chain" };
    if (url.search !== "") {
      const path = `${url.host}${url.pathname}`;
      let seen = this.#queries.get(path);
      if (!seen) {
        seen = new Set();
        this.#queries.set(path, seen);
      }
      if (!seen.has(url.search)) {
        if (seen.size >= LIMITS.crawlMaxQueriesPerPath) return { trap: "query-variants" };
        seen.add(url.search);
      }
    }
    return { shape, chain };
  }
}
