/**
 * web.crawl(): a site's pages from a start URL, breadth-first (or best-first for a query), each
 * fetched as `web.fetch` would (the guard, the domain lists, the cache, the per-origin limit)
 * and handed out as it arrives. robots.txt decides which URLs are fetched and its `Crawl-delay`
 * spaces the requests to its origin; a URL is fetched once after normalizing, a page returned
 * once (its redirect target, its canonical URL and its text are remembered); traps are bounded
 * (follow.ts, traps.ts). The crawl waits while its reader has unread pages, and stops at once
 * when its signal aborts or its reader stops reading.
 */
import { createHash } from "node:crypto";
import { isWebFetchError, WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { Deadline } from "../net/deadline.js";
import { parseTargetUrl } from "../net/url.js";
import {
  CRAWL_DEFAULTS,
  type CrawlOptions,
  type CrawlPageOptions,
  type CrawlProgress,
  type FetchOptions,
} from "../options.js";
import type { CrawlFailure, CrawlPage, CrawlSummary, FetchResult } from "../result.js";
import { checkQuery } from "../search/validate.js";
import { LinkFollower } from "../site/follow.js";
import { type CrawlTask, Frontier } from "../site/frontier.js";
import { queryTerms, termShare } from "../site/relevance.js";
import { checkPathPatterns } from "../site/scope.js";
import { siteUrl } from "../site/url.js";
import { type CrawlWarning, crawlWarningText } from "../warnings.js";
import { checkCall } from "./call.js";
import { type Resources, refuseOffline } from "./resources.js";

/** A crawl under way: its pages as they come (`for await`), and its summary once it ends. */
export interface CrawlRun extends AsyncIterable<CrawlPage> {
  /**
   * How the crawl ended; settles when it is over (every page read, or stopped). It never
   * rejects: a start page that could not be fetched is in `failed` (and the iteration throws).
   */
  readonly summary: Promise<CrawlSummary>;
  /** Where the crawl stands now. */
  progress(): CrawlProgress;
}

/** Characters of a page's content read to score its links for a query. */
const QUERY_SCAN_CHARS = 20_000;

/** One crawl's options, checked, over CRAWL_DEFAULTS. */
interface CrawlCall {
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

export class SiteCrawler {
  readonly #resources: Resources;
  readonly #fetch: PageFetch;

  constructor(resources: Resources, fetchPage: PageFetch) {
    this.#resources = resources;
    this.#fetch = fetchPage;
  }

  /** Starts a crawl. Bad options throw here (RangeError, or INVALID_INPUT for caller text). */
  crawl(url: string, options: CrawlOptions = {}): CrawlRun {
    const { resolved } = this.#resources;
    const call = checkCrawl(options);
    const target = parseTargetUrl(url);
    refuseOffline(resolved);
    if (resolved.endpoint) {
      throw new RangeError(
        "crawl is not available in remote mode (endpoint): call the service's /v1/crawl instead",
      );
    }
    this.#resources.fetcher.checkTarget(target);
    return new Crawl(this.#resources, this.#fetch, siteUrl(target.url.href)!, call);
  }
}

class Crawl implements CrawlRun {
  readonly summary: Promise<CrawlSummary>;
  readonly #resources: Resources;
  readonly #fetch: PageFetch;
  readonly #call: CrawlCall;
  readonly #start: string;
  readonly #started = performance.now();
  readonly #stop = new AbortController();
  readonly #follower: LinkFollower;
  readonly #frontier: Frontier;
  readonly #terms: ReadonlySet<string> | undefined;
  /** Every URL queued or decided on, so each is counted and fetched once. */
  readonly #seen = new Set<string>();
  /** URLs of the pages returned: requested, final after redirects, canonical. */
  readonly #returned = new Set<string>();
  readonly #hashes = new Set<string>();
  readonly #judges = new Map<string, Promise<(url: URL) => boolean>>();
  readonly #delays = new Map<string, Promise<number | undefined>>();
  readonly #warnings: CrawlWarning[] = [];
  readonly #failed: CrawlFailure[] = [];
  readonly #skipped = { robots: 0, filtered: 0, duplicate: 0, limit: 0 };
  /** Fetches begun or about to begin (a URL robots.txt refuses gives its place back). */
  #fetches = 0;
  #pages = 0;
  #startError: WebFetchError | undefined;
  #cancelled = false;
  #done = false;
  readonly #buffer: CrawlPage[] = [];
  #wakeReader: (() => void) | undefined;
  #wakeWriter: (() => void) | undefined;
  #iterating = false;

  constructor(resources: Resources, fetchPage: PageFetch, start: string, call: CrawlCall) {
    this.#resources = resources;
    this.#fetch = fetchPage;
    this.#call = call;
    this.#start = start;
    this.#terms = call.query === undefined ? undefined : queryTerms(call.query);
    this.#frontier = new Frontier(this.#terms !== undefined);
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
    if (call.signal) {
      if (call.signal.aborted) this.#cancel();
      else call.signal.addEventListener("abort", () => this.#cancel(), { once: true });
    }
    this.summary = this.#run();
  }

  progress(): CrawlProgress {
    const s = this.#skipped;
    return {
      pages: this.#pages,
      failed: this.#failed.length,
      queued: this.#frontier.size,
      skipped: s.robots + s.filtered + s.duplicate + s.limit,
      elapsedMs: Math.round(performance.now() - this.#started),
    };
  }

  [Symbol.asyncIterator](): AsyncIterator<CrawlPage> {
    if (this.#iterating) throw new TypeError("a crawl's pages can be read once");
    this.#iterating = true;
    return {
      next: async () => {
        for (;;) {
          const page = this.#buffer.shift();
          if (page) {
            this.#wakeWriter?.();
            return { value: page, done: false };
          }
          if (this.#done) {
            if (this.#startError) throw this.#startError;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => {
            this.#wakeReader = resolve;
          });
        }
      },
      return: async () => {
        // The reader stopped: so does the crawl.
        if (!this.#done) this.#cancel();
        await this.summary;
        return { value: undefined, done: true };
      },
    };
  }

  #cancel(): void {
    if (this.#stop.signal.aborted) return;
    this.#cancelled = true;
    this.#stop.abort(this.#call.signal?.reason ?? new Error("crawl cancelled"));
    this.#wakeWriter?.();
  }

  async #run(): Promise<CrawlSummary> {
    const { logger } = this.#resources;
    const startTask = this.#follower.startTask(this.#start);
    this.#seen.add(this.#start);
    this.#frontier.push(startTask);
    try {
      await this.#loop();
    } catch (error) {
      // A bug, not a page's failure: the reader sees it, the summary still settles.
      logger.error({ url: this.#start, error: (error as Error).message }, "crawl failed");
      this.#startError ??= error as WebFetchError;
    }
    this.#skipped.limit += this.#frontier.drain().length;
    if (this.#cancelled) this.#buffer.length = 0;
    this.#done = true;
    this.#wakeReader?.();
    const summary: CrawlSummary = {
      url: this.#start,
      pages: this.#pages,
      failed: this.#failed,
      skipped: this.#skipped,
      cancelled: this.#cancelled,
      elapsedMs: Math.round(performance.now() - this.#started),
      ...(this.#warnings.length > 0
        ? {
            warnings: [
              ...new Set(
                this.#warnings.map((w) => crawlWarningText(w, this.#resources.resolved.locale)),
              ),
            ],
          }
        : {}),
    };
    logger.info(
      {
        url: this.#start,
        pages: summary.pages,
        failed: summary.failed.length,
        skipped: summary.skipped,
        cancelled: summary.cancelled,
        ms: summary.elapsedMs,
      },
      "crawl",
    );
    return summary;
  }

  async #loop(): Promise<void> {
    const active = new Set<Promise<void>>();
    const stopped = new Promise<void>((resolve) =>
      this.#stop.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    for (;;) {
      while (
        !this.#stop.signal.aborted &&
        active.size < this.#call.concurrency &&
        this.#fetches < this.#call.limit &&
        this.#frontier.size > 0
      ) {
        const task = this.#frontier.pop()!;
        if (this.#returned.has(task.url)) {
          // The canonical URL of a page already returned.
          this.#skipped.duplicate++;
          continue;
        }
        this.#fetches++;
        const visit: Promise<void> = this.#visit(task).finally(() => active.delete(visit));
        active.add(visit);
      }
      if (active.size === 0 || this.#stop.signal.aborted) break;
      await Promise.race([...active, stopped]);
    }
    // Visits in flight see the abort and end at once; a page they finish is not handed out.
    await Promise.allSettled(active);
  }

  async #visit(task: CrawlTask): Promise<void> {
    const url = new URL(task.url);
    const signal = this.#stop.signal;
    let result: FetchResult;
    try {
      if (!(await this.#allowed(url))) {
        this.#fetches--;
        this.#skipped.robots++;
        if (task.depth === 0) this.#startError = robotsRefusal(url);
        return;
      }
      await this.#pace(url);
      result = await this.#fetch(task.url, { ...this.#call.page, links: true, signal });
    } catch (error) {
      if (signal.aborted) return;
      if (!isWebFetchError(error)) throw error;
      if (error.code === "ROBOTS_DISALLOWED") this.#skipped.robots++;
      else this.#failed.push({ url: task.url, code: error.code, message: error.message });
      if (task.depth === 0) this.#startError = error;
      this.#report();
      return;
    }
    if (signal.aborted) return;
    if (this.#duplicate(task, result)) {
      this.#skipped.duplicate++;
      this.#report();
      return;
    }
    this.#enqueue(result, task);
    const page: CrawlPage = {
      ...result,
      depth: task.depth,
      ...(task.parent ? { parent: task.parent } : {}),
    };
    if (!this.#call.page.links) delete page.links;
    await this.#emit(page);
  }

  /** Whether robots.txt lets the crawler fetch `url` (one robots.txt fetch per origin). */
  async #allowed(url: URL): Promise<boolean> {
    const robots = this.#call.page.robots ?? this.#resources.resolved.robots;
    if (robots === "ignore") return true;
    let judge = this.#judges.get(url.origin);
    if (!judge) {
      judge = this.#resources.fetcher.robotsJudge(url, this.#deadline());
      this.#judges.set(url.origin, judge);
      // A failure to read robots.txt is asked again for the next URL of the origin.
      judge.catch(() => this.#judges.delete(url.origin));
    }
    return (await judge)(url);
  }

  /** Waits for the origin's turn when its robots.txt sets a `Crawl-delay`. */
  async #pace(url: URL): Promise<void> {
    const robots = this.#call.page.robots ?? this.#resources.resolved.robots;
    if (robots === "ignore") return;
    let delay = this.#delays.get(url.origin);
    if (!delay) {
      delay = this.#resources.fetcher
        .robotsCrawlDelay(url, this.#deadline())
        .catch(() => undefined);
      this.#delays.set(url.origin, delay);
    }
    const seconds = await delay;
    if (!seconds) return;
    let ms = seconds * 1000;
    if (ms > LIMITS.crawlMaxDelayMs) {
      ms = LIMITS.crawlMaxDelayMs;
      this.#warnings.push({
        kind: "crawl-delay-cut",
        origin: url.origin,
        seconds,
        maxSeconds: LIMITS.crawlMaxDelayMs / 1000,
      });
    }
    await this.#resources.pacer.wait(url.origin, ms, this.#stop.signal);
  }

  #deadline(): Deadline {
    return new Deadline(
      this.#call.page.timeout ?? this.#resources.resolved.timeout,
      this.#stop.signal,
    );
  }

  /**
   * Whether the page was returned already: under the URL it redirected to, under its canonical
   * URL, or with the same text. Otherwise its URLs and text are remembered for the pages to come.
   */
  #duplicate(task: CrawlTask, result: FetchResult): boolean {
    const names = [task.url, siteUrl(result.finalUrl), canonicalOf(result)].filter(
      (name): name is string => name !== undefined,
    );
    const hash = createHash("sha256").update(result.content).digest("base64url");
    if (names.some((name) => this.#returned.has(name)) || this.#hashes.has(hash)) return true;
    this.#hashes.add(hash);
    for (const name of names) {
      this.#returned.add(name);
      this.#seen.add(name);
    }
    return false;
  }

  /** Queues the links of a page the crawl follows, once each; counts the rest. */
  #enqueue(result: FetchResult, task: CrawlTask): void {
    const share = this.#terms
      ? termShare(this.#terms, `${result.title ?? ""} ${result.content.slice(0, QUERY_SCAN_CHARS)}`)
      : 0;
    const followed = this.#follower.follow(result.links ?? [], task, share);
    const fresh = (url: string) => {
      if (this.#seen.has(url)) return false;
      this.#seen.add(url);
      return true;
    };
    for (const url of followed.filtered) if (fresh(url)) this.#skipped.filtered++;
    for (const url of followed.tooDeep) if (fresh(url)) this.#skipped.limit++;
    for (const next of followed.tasks) {
      if (!fresh(next.url)) continue;
      if (this.#frontier.size >= LIMITS.crawlMaxFrontier) {
        this.#skipped.limit++;
        this.#warnings.push({ kind: "frontier-full", max: LIMITS.crawlMaxFrontier });
        continue;
      }
      this.#frontier.push(next);
    }
  }

  /** Hands a page to the reader, waiting while it has a full buffer unread. */
  async #emit(page: CrawlPage): Promise<void> {
    while (this.#buffer.length >= LIMITS.crawlBuffer && !this.#stop.signal.aborted) {
      await new Promise<void>((resolve) => {
        this.#wakeWriter = resolve;
      });
    }
    if (this.#stop.signal.aborted) return;
    this.#buffer.push(page);
    this.#pages++;
    this.#wakeReader?.();
    this.#report();
  }

  #report(): void {
    this.#call.onProgress?.(this.progress());
  }
}

/** The page's canonical URL, normalized, when it names one. */
function canonicalOf(result: FetchResult): string | undefined {
  return result.canonicalUrl === undefined ? undefined : siteUrl(result.canonicalUrl);
}

/** The start URL refused by robots.txt: the crawl has nothing to begin with. */
function robotsRefusal(url: URL): WebFetchError {
  return new WebFetchError(
    "ROBOTS_DISALLOWED",
    `robots.txt of ${url.host} disallows ${url.pathname}`,
    {
      retryable: false,
    },
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
    if (typeof value !== "boolean")
      throw new RangeError(`${name} must be true or false, got ${value}`);
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
