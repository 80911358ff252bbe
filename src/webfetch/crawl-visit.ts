/**
 * One page of a crawl, whoever schedules it (this process's crawl, or a worker of a crawl queued
 * in Redis): robots.txt asked first (once per origin), the origin's `Crawl-delay` waited for,
 * the page fetched as `web.fetch` would, its names and text claimed so a duplicate is returned
 * once, and its links sorted into the ones to follow and the ones left out. Which URLs were
 * seen, and which pages claimed, is the scheduler's state, reached through `PageClaims`.
 */
import { createHash } from "node:crypto";
import { isWebFetchError, WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { Deadline } from "../net/deadline.js";
import {
  CRAWL_DEFAULTS,
  type CrawlOptions,
  type CrawlPageOptions,
  type CrawlProgress,
  type FetchOptions,
} from "../options.js";
import type { CrawlFailure, CrawlPage, FetchResult } from "../result.js";
import { checkQuery } from "../search/validate.js";
import { type Followed, LinkFollower } from "../site/follow.js";
import type { CrawlTask } from "../site/frontier.js";
import { queryTerms, termShare } from "../site/relevance.js";
import { checkPathPatterns } from "../site/scope.js";
import { siteUrl } from "../site/url.js";
import type { CrawlWarning } from "../warnings.js";
import { checkCall } from "./call.js";
import type { Resources } from "./resources.js";

/** The end of a turn no origin asked for. */
const NO_TURN = () => {};

/** Characters of a page's content read to score its links for a query. */
const QUERY_SCAN_CHARS = 20_000;

/** One crawl's options, checked, over CRAWL_DEFAULTS. */
export interface CrawlCall {
  limit: number;
  maxDepth: number;
  allowSubdomains: boolean;
  allowExternal: boolean;
  paths: { include: readonly string[]; exclude: readonly string[] };
  query?: string;
  concurrency: number;
  page: CrawlPageOptions;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}

/** Fetches one page as web.fetch does. */
export type PageFetch = (url: string, options: FetchOptions) => Promise<FetchResult>;

/** The scheduler's record of the pages returned, by name (URL) and by text. */
export interface PageClaims {
  /** Whether a page was returned under this URL already. */
  claimed(url: string): Promise<boolean> | boolean;
  /**
   * Claims a page under all its names and its text's hash: true when none was claimed before
   * (the page is new), false for a duplicate (nothing is claimed then).
   */
  claim(names: readonly string[], hash: string): Promise<boolean> | boolean;
}

/** What visiting one URL came to. */
export type VisitOutcome =
  /** robots.txt refuses the URL: nothing was fetched. */
  | { kind: "robots"; error: WebFetchError }
  /** The URL names a page already returned: nothing was fetched. */
  | { kind: "claimed" }
  | { kind: "failed"; failure: CrawlFailure; error: WebFetchError }
  /** Fetched, and the same page as one returned before. */
  | { kind: "duplicate" }
  | { kind: "page"; page: CrawlPage; links: Followed };

export class CrawlVisitor {
  readonly #resources: Resources;
  readonly #fetch: PageFetch;
  readonly #call: CrawlCall;
  readonly #follower: LinkFollower;
  readonly #terms: ReadonlySet<string> | undefined;
  readonly #judges = new Map<string, Promise<(url: URL) => boolean>>();
  readonly #delays = new Map<string, Promise<number | undefined>>();
  /** Why the crawl read less than asked, as they happen (the scheduler reads them at the end). */
  readonly warnings: CrawlWarning[] = [];

  constructor(resources: Resources, fetchPage: PageFetch, start: string, call: CrawlCall) {
    this.#resources = resources;
    this.#fetch = fetchPage;
    this.#call = call;
    this.#terms = call.query === undefined ? undefined : queryTerms(call.query);
    this.#follower = new LinkFollower({
      start: new URL(start),
      maxDepth: call.maxDepth,
      allowSubdomains: call.allowSubdomains,
      allowExternal: call.allowExternal,
      paths: call.paths,
      ...(this.#terms ? { queryTerms: this.#terms } : {}),
      checkHost: (hostname) =>
        resources.fetcher.checkTarget({ url: new URL(start), hostname, port: 0 }),
    });
  }

  /** The crawl is ordered by relevance to a query (best-first), not breadth-first. */
  get byScore(): boolean {
    return this.#terms !== undefined;
  }

  /** The start URL's task. */
  startTask(url: string): CrawlTask {
    return this.#follower.startTask(url);
  }

  /**
   * Visits one URL. Throws only when `signal` aborts (its reason) or on a bug; every failure of
   * the page itself is an outcome.
   */
  async visit(task: CrawlTask, claims: PageClaims, signal: AbortSignal): Promise<VisitOutcome> {
    const url = new URL(task.url);
    if (await claims.claimed(task.url)) return { kind: "claimed" };
    let result: FetchResult;
    try {
      if (!(await this.#allowed(url, signal))) return { kind: "robots", error: robotsRefusal(url) };
      const done = await this.#pace(url, signal);
      try {
        result = await this.#fetch(task.url, { ...this.#call.page, links: true, signal });
      } finally {
        done();
      }
    } catch (error) {
      signal.throwIfAborted();
      if (!isWebFetchError(error)) throw error;
      if (error.code === "ROBOTS_DISALLOWED") return { kind: "robots", error };
      return {
        kind: "failed",
        failure: { url: task.url, code: error.code, message: error.message },
        error,
      };
    }
    signal.throwIfAborted();
    const names = [task.url, siteUrl(result.finalUrl), canonicalOf(result)].filter(
      (name): name is string => name !== undefined,
    );
    const hash = createHash("sha256").update(result.content).digest("base64url");
    if (!(await claims.claim(names, hash))) return { kind: "duplicate" };
    const share = this.#terms
      ? termShare(this.#terms, `${result.title ?? ""} ${result.content.slice(0, QUERY_SCAN_CHARS)}`)
      : 0;
    const links = this.#follower.follow(result.links ?? [], task, share);
    const page: CrawlPage = {
      ...result,
      depth: task.depth,
      ...(task.parent ? { parent: task.parent } : {}),
    };
    if (!this.#call.page.links) delete page.links;
    return { kind: "page", page, links };
  }

  /** Whether robots.txt lets the crawler fetch `url` (one robots.txt fetch per origin). */
  async #allowed(url: URL, signal: AbortSignal): Promise<boolean> {
    if (this.#ignoresRobots()) return true;
    let judge = this.#judges.get(url.origin);
    if (!judge) {
      judge = this.#within(signal, (deadline) =>
        this.#resources.fetcher.robotsJudge(url, deadline),
      );
      this.#judges.set(url.origin, judge);
      // A failure to read robots.txt is asked again for the next URL of the origin.
      judge.catch(() => this.#judges.delete(url.origin));
    }
    return (await judge)(url);
  }

  /**
   * Waits for the origin's turn when its robots.txt sets a `Crawl-delay`; resolves with what
   * ends the turn once the page is fetched.
   */
  async #pace(url: URL, signal: AbortSignal): Promise<() => void> {
    if (this.#ignoresRobots()) return NO_TURN;
    let delay = this.#delays.get(url.origin);
    if (!delay) {
      delay = this.#within(signal, (deadline) =>
        this.#resources.fetcher.robotsCrawlDelay(url, deadline),
      ).catch(() => undefined);
      this.#delays.set(url.origin, delay);
    }
    const seconds = await delay;
    if (!seconds) return NO_TURN;
    let ms = seconds * 1000;
    if (ms > LIMITS.crawlMaxDelayMs) {
      ms = LIMITS.crawlMaxDelayMs;
      this.warnings.push({
        kind: "crawl-delay-cut",
        origin: url.origin,
        seconds,
        maxSeconds: LIMITS.crawlMaxDelayMs / 1000,
      });
    }
    return this.#resources.pacer.acquire(url.origin, ms, signal);
  }

  #ignoresRobots(): boolean {
    return (this.#call.page.robots ?? this.#resources.resolved.robots) === "ignore";
  }

  /** `work` within a page's deadline, closed when the work ends. */
  #within<T>(signal: AbortSignal, work: (deadline: Deadline) => Promise<T>): Promise<T> {
    const deadline = new Deadline(
      this.#call.page.timeout ?? this.#resources.resolved.timeout,
      signal,
    );
    return work(deadline).finally(() => deadline.close());
  }
}

/** The page's canonical URL, normalized, when it names one. */
function canonicalOf(result: FetchResult): string | undefined {
  return result.canonicalUrl === undefined ? undefined : siteUrl(result.canonicalUrl);
}

/** The URL refused by robots.txt before any fetch. */
function robotsRefusal(url: URL): WebFetchError {
  return new WebFetchError(
    "ROBOTS_DISALLOWED",
    `robots.txt of ${url.host} disallows ${url.pathname}`,
    { retryable: false },
  );
}

/** A crawl's options over CRAWL_DEFAULTS. Caller-given text (query, paths) is INVALID_INPUT. */
export function checkCrawl(options: CrawlOptions): CrawlCall {
  const {
    limit = CRAWL_DEFAULTS.limit,
    maxDepth = CRAWL_DEFAULTS.maxDepth,
    allowSubdomains = CRAWL_DEFAULTS.allowSubdomains,
    allowExternal = CRAWL_DEFAULTS.allowExternal,
    concurrency = CRAWL_DEFAULTS.concurrency,
    includePaths,
    excludePaths,
    query,
    signal,
    onProgress,
    ...page
  } = options;
  intIn("limit", limit, 1, LIMITS.crawlMaxPages);
  intIn("maxDepth", maxDepth, 0, LIMITS.crawlMaxDepth);
  intIn("concurrency", concurrency, 1, LIMITS.crawlMaxConcurrency);
  for (const [name, value] of [
    ["allowSubdomains", allowSubdomains],
    ["allowExternal", allowExternal],
  ] as const) {
    if (typeof value !== "boolean") {
      throw new RangeError(`${name} must be true or false, got ${value}`);
    }
  }
  checkCall(page);
  return {
    limit,
    maxDepth,
    allowSubdomains,
    allowExternal,
    concurrency,
    paths: {
      include: checkPathPatterns(includePaths, "includePaths"),
      exclude: checkPathPatterns(excludePaths, "excludePaths"),
    },
    ...(query === undefined ? {} : { query: checkQuery(query, "query") }),
    page,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress } : {}),
  };
}

function intIn(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
}
