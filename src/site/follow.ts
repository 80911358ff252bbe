/**
 * Which of a crawled page's links a crawl follows: normalized, on the site (or its subdomains,
 * or anywhere with `allowExternal`), through the domain lists, on the caller's paths, not a
 * trap, and within `maxDepth`. The address guard still checks every one that is fetched. Each
 * link that passes becomes a task scored for the crawl's query. Whether a URL was seen before is
 * the crawl's own state, not decided here.
 */
import type { CrawlTask } from "./frontier.js";
import { linkScore } from "./relevance.js";
import { filterPaths, type PathPatterns, siteTest } from "./scope.js";
import { TrapGuard } from "./traps.js";
import { siteUrl } from "./url.js";

/** What decides the links a crawl follows. */
export interface FollowRules {
  start: URL;
  maxDepth: number;
  allowSubdomains: boolean;
  allowExternal: boolean;
  paths: PathPatterns;
  /** The query's terms, when the crawl is ordered by one. */
  queryTerms?: ReadonlySet<string>;
  /** Throws when the domain lists refuse the host. */
  checkHost(hostname: string): void;
}

/** A link as a page gives it. */
export interface FoundLink {
  url: string;
  text?: string;
}

/** The links to follow, and how many were left out and why. */
export interface Followed {
  tasks: CrawlTask[];
  /** Off the site, refused by the domain lists, off the paths, or a trap. */
  filtered: string[];
  /** Past `maxDepth`. */
  tooDeep: string[];
}

export class LinkFollower {
  readonly #rules: FollowRules;
  readonly #inSite: (url: URL) => boolean;
  readonly #traps = new TrapGuard();

  constructor(rules: FollowRules) {
    this.#rules = rules;
    this.#inSite = rules.allowExternal ? () => true : siteTest(rules.start, rules.allowSubdomains);
  }

  /** The start URL's task. */
  startTask(url: string): CrawlTask {
    const checked = this.#traps.check(new URL(url));
    return {
      url,
      depth: 0,
      score: 0,
      ...("trap" in checked ? { shape: "", chain: 0 } : checked),
    };
  }

  /**
   * The links of `parent`'s page to follow, each once per call, in page order; `pageShare` is the
   * share of the query's terms found in the page (0 without a query).
   */
  follow(links: readonly FoundLink[], parent: CrawlTask, pageShare: number): Followed {
    const out: Followed = { tasks: [], filtered: [], tooDeep: [] };
    const candidates: { url: URL; href: string; text?: string }[] = [];
    const once = new Set<string>();
    for (const link of links) {
      const href = siteUrl(link.url);
      if (href === undefined || once.has(href)) continue;
      once.add(href);
      const url = new URL(href);
      if (!this.#allowedHost(url)) {
        out.filtered.push(href);
        continue;
      }
      candidates.push({ url, href, ...(link.text ? { text: link.text } : {}) });
    }
    const pass = filterPaths(
      candidates.map((c) => c.url.pathname),
      this.#rules.paths,
    );
    const depth = parent.depth + 1;
    candidates.forEach((candidate, i) => {
      if (!pass[i]) {
        out.filtered.push(candidate.href);
        return;
      }
      if (depth > this.#rules.maxDepth) {
        out.tooDeep.push(candidate.href);
        return;
      }
      const checked = this.#traps.check(candidate.url, parent);
      if ("trap" in checked) {
        out.filtered.push(candidate.href);
        return;
      }
      const wanted = this.#rules.queryTerms;
      out.tasks.push({
        url: candidate.href,
        depth,
        parent: parent.url,
        score: wanted ? linkScore(wanted, candidate.url, candidate.text, pageShare) : 0,
        ...checked,
      });
    });
    return out;
  }

  #allowedHost(url: URL): boolean {
    if (!this.#inSite(url)) return false;
    try {
      this.#rules.checkHost(url.hostname.replace(/\.+$/, ""));
      return true;
    } catch {
      return false;
    }
  }
}
