/**
 * Crawl jobs in this process: each a `web.crawl()` the job reads to its end (the crawl waits
 * while its reader has unread pages, so the job is that reader), its pages kept in crawl order.
 */
import { randomUUID } from "node:crypto";
import { isWebFetchError } from "../errors.js";
import type { Logger } from "../log.js";
import { CRAWL_JOB_LIMITS, type CrawlOptions, type CrawlProgress } from "../options.js";
import type { CrawlPage, CrawlSummary } from "../result.js";
import type { CrawlRun } from "../webfetch/crawl.js";
import type { WebFetch } from "../webfetch/index.js";
import {
  type CrawlJobPaging,
  type CrawlJobState,
  type CrawlJobStatus,
  type CrawlJobs,
  CrawlJobsFull,
  cursorOf,
  offsetOf,
} from "./contract.js";

export interface LocalCrawlJobsOptions {
  /** Jobs kept at most, running or ended; the one that ended first is dropped for a new one. @default 100 */
  maxJobs?: number;
  /** How long an ended job stays readable, ms. @default 3600000 (an hour) */
  keepMs?: number;
  /** Where a crawl that broke (a bug, not a page's failure) is logged. @default the instance's logger */
  logger?: Logger;
  /** The clock that ages ended jobs, ms. @default Date.now */
  now?: () => number;
}

/** One job of this process. */
interface LocalJob {
  id: string;
  url: string;
  status: CrawlJobStatus;
  pages: CrawlPage[];
  /** The crawl, while it runs; its last progress is kept once it has ended. */
  run: CrawlRun | undefined;
  progress?: CrawlProgress;
  summary?: CrawlSummary;
  error?: { code: string; message: string };
  stop: AbortController;
  /** Settles when the crawl has ended and the job holds its outcome. */
  ended: Promise<void>;
  endedAt?: number;
}

/**
 * Crawl jobs in this process, each a `web.crawl()` read to its end. Ended jobs are forgotten
 * after `keepMs`, and beyond `maxJobs` the one that ended first goes; when every job kept is
 * running, `start` refuses.
 *
 * @example
 * const jobs = new LocalCrawlJobs(web);
 * const { id } = await jobs.start(url, { limit: 10 });
 */
export class LocalCrawlJobs implements CrawlJobs {
  readonly #web: WebFetch;
  readonly #maxJobs: number;
  readonly #keepMs: number;
  readonly #logger: Logger;
  readonly #now: () => number;
  /** Jobs in the order they started. */
  readonly #jobs = new Map<string, LocalJob>();
  #closed = false;

  constructor(web: WebFetch, options: LocalCrawlJobsOptions = {}) {
    this.#web = web;
    this.#maxJobs = options.maxJobs ?? CRAWL_JOB_LIMITS.maxJobs;
    this.#keepMs = options.keepMs ?? CRAWL_JOB_LIMITS.keepMs;
    this.#logger = options.logger ?? web.logger;
    this.#now = options.now ?? Date.now;
  }

  async start(url: string, options: CrawlOptions): Promise<{ id: string }> {
    if (this.#closed) throw new Error("The crawl jobs are closed");
    this.#forget();
    this.#makeRoom();
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    // The crawl refuses a bad URL or option here, before any job exists.
    const run = this.#web.crawl(url, { ...options, signal });
    const job: LocalJob = {
      id: randomUUID(),
      url,
      status: "running",
      pages: [],
      run,
      stop,
      ended: Promise.resolve(),
    };
    job.ended = this.#read(job, run);
    this.#jobs.set(job.id, job);
    return { id: job.id };
  }

  async get(id: string, paging: CrawlJobPaging = {}): Promise<CrawlJobState | undefined> {
    this.#forget();
    const job = this.#jobs.get(id);
    return job && stateOf(job, paging);
  }

  async cancel(id: string): Promise<CrawlJobState | undefined> {
    this.#forget();
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    if (job.status === "running") {
      job.stop.abort(new Error("crawl job cancelled"));
      await job.ended;
    }
    return stateOf(job, {});
  }

  async close(): Promise<void> {
    this.#closed = true;
    const running = [...this.#jobs.values()].filter((job) => job.status === "running");
    for (const job of running) job.stop.abort(new Error("the service is shutting down"));
    await Promise.all(running.map((job) => job.ended));
  }

  /** Reads the crawl's pages into the job as they come, then records how it ended. */
  async #read(job: LocalJob, run: CrawlRun): Promise<void> {
    try {
      for await (const page of run) job.pages.push(page);
    } catch (error) {
      if (isWebFetchError(error)) {
        job.error = { code: error.code, message: error.message };
      } else {
        this.#logger.error({ url: job.url, error: (error as Error).message }, "crawl job failed");
        job.error = { code: "INTERNAL_ERROR", message: "The crawl failed" };
      }
    }
    const summary = await run.summary;
    job.summary = summary;
    job.progress = run.progress();
    job.run = undefined;
    job.status = summary.cancelled ? "cancelled" : job.error ? "failed" : "completed";
    job.endedAt = this.#now();
  }

  /** Drops the ended jobs older than `keepMs`. */
  #forget(): void {
    const before = this.#now() - this.#keepMs;
    for (const [id, job] of this.#jobs) {
      if (job.endedAt !== undefined && job.endedAt <= before) this.#jobs.delete(id);
    }
  }

  /** Makes room for one more job: drops the job that ended first, or refuses when none has. */
  #makeRoom(): void {
    while (this.#jobs.size >= this.#maxJobs) {
      let oldest: LocalJob | undefined;
      for (const job of this.#jobs.values()) {
        if (job.endedAt !== undefined && (oldest === undefined || job.endedAt < oldest.endedAt!)) {
          oldest = job;
        }
      }
      if (!oldest) throw new CrawlJobsFull(this.#maxJobs);
      this.#jobs.delete(oldest.id);
    }
  }
}

/** A job's answer with its pages from the cursor on. */
function stateOf(job: LocalJob, paging: CrawlJobPaging): CrawlJobState {
  const from = paging.cursor === undefined ? 0 : offsetOf(paging.cursor, job.pages.length);
  const pages = job.pages.slice(from, from + (paging.limit ?? CRAWL_JOB_LIMITS.pagesPerRead));
  const to = from + pages.length;
  const more = to < job.pages.length || job.status === "running";
  return {
    id: job.id,
    url: job.url,
    status: job.status,
    progress: job.run ? job.run.progress() : job.progress!,
    pages,
    ...(more ? { next: cursorOf(to) } : {}),
    ...(job.summary ? { summary: job.summary } : {}),
    ...(job.error ? { error: job.error } : {}),
  };
}
