/**
 * web.crawl(): a site's pages from a start URL, breadth-first (or best-first for a query), each
 * fetched as `web.fetch` would (the guard, the domain lists, the cache, the per-origin limit)
 * and handed out as it arrives. robots.txt decides which URLs are fetched, and its
 * `Crawl-delay` gives its origin one request at a time, spaced by the delay; a URL is fetched
 * once after normalizing, a page returned once (its redirect target, its canonical URL and its
 * text are remembered); traps are bounded (follow.ts, traps.ts). The crawl waits while its
 * reader has unread pages, and stops at once when its signal aborts or its reader stops reading.
 */
import { setMaxListeners } from "node:events";
import { LIMITS } from "../limits.js";
import { parseTargetUrl } from "../net/url.js";
import type { CrawlOptions, CrawlProgress } from "../options.js";
import type { CrawlFailure, CrawlPage, CrawlSummary } from "../result.js";
import type { Followed } from "../site/follow.js";
import { type CrawlTask, Frontier } from "../site/frontier.js";
import { siteUrl } from "../site/url.js";
import { type CrawlWarning, crawlWarningText } from "../warnings.js";
import {
  type CrawlCall,
  CrawlVisitor,
  checkCrawl,
  type PageClaims,
  type PageFetch,
  type VisitOutcome,
} from "./crawl-visit.js";
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
  readonly #visitor: CrawlVisitor;
  readonly #call: CrawlCall;
  readonly #start: string;
  readonly #started = performance.now();
  readonly #stop = new AbortController();
  readonly #frontier: Frontier;
  /** Every URL queued or decided on, so each is counted and fetched once. */
  readonly #seen = new Set<string>();
  readonly #claims = new LocalClaims();
  readonly #failed: CrawlFailure[] = [];
  readonly #skipped = { robots: 0, filtered: 0, duplicate: 0, limit: 0 };
  readonly #warnings: CrawlWarning[] = [];
  /** Fetches begun or about to begin (a URL robots.txt refuses gives its place back). */
  #fetches = 0;
  #pages = 0;
  #startError: Error | undefined;
  #cancelled = false;
  #done = false;
  readonly #buffer: CrawlPage[] = [];
  #wakeReader: (() => void) | undefined;
  /** Visits waiting for room in the buffer: each looks again when woken. */
  readonly #writers: Array<() => void> = [];
  #iterating = false;

  constructor(resources: Resources, fetchPage: PageFetch, start: string, call: CrawlCall) {
    this.#resources = resources;
    this.#call = call;
    this.#start = start;
    this.#visitor = new CrawlVisitor(resources, fetchPage, start, call);
    this.#frontier = new Frontier(this.#visitor.byScore);
    // Every page in flight may wait on the stop signal at once (its turn at a slow origin, its
    // deadline), and each stops listening when its wait ends: past ten, Node would warn of a
    // leak that is not one.
    setMaxListeners(0, this.#stop.signal);
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
            this.#wakeWriters();
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
    this.#wakeWriters();
  }

  async #run(): Promise<CrawlSummary> {
    const { logger } = this.#resources;
    this.#seen.add(this.#start);
    this.#frontier.push(this.#visitor.startTask(this.#start));
    try {
      await this.#loop();
    } catch (error) {
      // A bug, not a page's failure: the reader sees it, the summary still settles.
      logger.error({ url: this.#start, error: (error as Error).message }, "crawl failed");
      this.#startError ??= error as Error;
    }
    this.#skipped.limit += this.#frontier.drain().length;
    if (this.#cancelled) {
      // Pages the reader will not read are not returned.
      this.#pages -= this.#buffer.length;
      this.#buffer.length = 0;
    }
    this.#done = true;
    this.#wakeReader?.();
    const warnings = [...this.#warnings, ...this.#visitor.warnings].map((w) =>
      crawlWarningText(w, this.#resources.resolved.locale),
    );
    const summary: CrawlSummary = {
      url: this.#start,
      pages: this.#pages,
      failed: this.#failed,
      skipped: this.#skipped,
      cancelled: this.#cancelled,
      elapsedMs: Math.round(performance.now() - this.#started),
      ...(warnings.length > 0 ? { warnings: [...new Set(warnings)] } : {}),
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
    let outcome: VisitOutcome;
    try {
      outcome = await this.#visitor.visit(task, this.#claims, this.#stop.signal);
    } catch (error) {
      if (this.#stop.signal.aborted) return;
      throw error;
    }
    switch (outcome.kind) {
      case "robots":
      case "claimed":
        // Nothing was fetched: the place goes back to the next URL.
        this.#fetches--;
        if (outcome.kind === "robots") this.#skipped.robots++;
        else this.#skipped.duplicate++;
        if (task.depth === 0 && outcome.kind === "robots") this.#startError = outcome.error;
        break;
      case "failed":
        this.#failed.push(outcome.failure);
        if (task.depth === 0) this.#startError = outcome.error;
        break;
      case "duplicate":
        this.#skipped.duplicate++;
        break;
      case "page":
        this.#enqueue(outcome.links);
        await this.#emit(outcome.page);
        return;
    }
    this.#report();
  }

  /** Queues the links a page's crawl follows, once each; counts the rest. */
  #enqueue(links: Followed): void {
    const fresh = (url: string) => {
      if (this.#seen.has(url)) return false;
      this.#seen.add(url);
      return true;
    };
    for (const url of links.filtered) if (fresh(url)) this.#skipped.filtered++;
    for (const url of links.tooDeep) if (fresh(url)) this.#skipped.limit++;
    for (const next of links.tasks) {
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
        this.#writers.push(resolve);
      });
    }
    if (this.#stop.signal.aborted) return;
    this.#buffer.push(page);
    this.#pages++;
    this.#wakeReader?.();
    this.#report();
  }

  #wakeWriters(): void {
    for (const wake of this.#writers.splice(0)) wake();
  }

  #report(): void {
    this.#call.onProgress?.(this.progress());
  }
}

/** The pages this process's crawl returned, by URL and by text hash. */
class LocalClaims implements PageClaims {
  readonly #names = new Set<string>();
  readonly #hashes = new Set<string>();

  claimed(url: string): boolean {
    return this.#names.has(url);
  }

  claim(names: readonly string[], hash: string): boolean {
    if (this.#hashes.has(hash) || names.some((name) => this.#names.has(name))) return false;
    this.#hashes.add(hash);
    for (const name of names) this.#names.add(name);
    return true;
  }
}
