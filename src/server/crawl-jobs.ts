/**
 * The service's crawl jobs: a crawl started by one request and read by later ones, page by page
 * through an opaque cursor. `CrawlJobs` is everything the routes need, in JSON-serializable
 * values, so a registry shared by several processes (Redis) can stand in for the in-process
 * `LocalCrawlJobs`. A job's pages are read from its crawl as they come and kept in crawl order:
 * the crawl waits while its reader has unread pages, so the job is that reader.
 */
import { randomUUID } from "node:crypto";
import { isWebFetchError, WebFetchError } from "../errors.js";
import type { Logger } from "../log.js";
import type { CrawlOptions, CrawlProgress } from "../options.js";
import type { CrawlPage, CrawlSummary } from "../result.js";
import type { CrawlRun } from "../webfetch/crawl.js";
import type { WebFetch } from "../webfetch/index.js";
import { CRAWL_JOB_LIMITS } from "./options.js";

/** Where a job stands: running, or how it ended. */
export const CRAWL_JOB_STATUSES = ["running", "completed", "cancelled", "failed"] as const;
export type CrawlJobStatus = (typeof CRAWL_JOB_STATUSES)[number];

/** Which of a job's pages to read: from `cursor` (the start when absent), `limit` at most. */
export interface CrawlJobPaging {
  /** A job's `next` from an earlier read; opaque. @default the first page */
  cursor?: string | undefined;
  /** Pages answered at most. @default 10 */
  limit?: number | undefined;
}

/** A job as the routes answer it: plain JSON. */
export interface CrawlJobState {
  id: string;
  /** The start URL as asked. */
  url: string;
  status: CrawlJobStatus;
  progress: CrawlProgress;
  /** The pages from the cursor on, in crawl order. */
  pages: CrawlPage[];
  /** The cursor of the pages after these: present while more are stored or may still come. */
  next?: string;
  /** How the crawl ended, once it has. */
  summary?: CrawlSummary;
  /** Why the crawl had nothing to begin with (status `failed`): its start page's error. */
  error?: { code: string; message: string };
}

/**
 * The registry of crawl jobs behind `/v1/crawl`.
 *
 * @example
 * const { id } = await jobs.start("https://example.com/docs", { limit: 20 });
 * const state = await jobs.get(id, { limit: 10 }); // state.next reads on
 */
export interface CrawlJobs {
  /**
   * Starts a crawl and keeps it as a job. Rejects with the crawl's own refusal (a WebFetchError
   * such as INVALID_URL or BLOCKED_ADDRESS, a RangeError for options out of bounds), or with
   * `CrawlJobsFull` when every job kept is still running.
   */
  start(url: string, options: CrawlOptions): Promise<{ id: string }>;
  /**
   * The job's state with its pages from `cursor`; undefined for an id unknown or forgotten. A
   * cursor that is not one of the job's is INVALID_INPUT.
   */
  get(id: string, paging?: CrawlJobPaging): Promise<CrawlJobState | undefined>;
  /**
   * Stops a running job (its pages so far stay readable) and resolves once it has ended, with
   * its state from the first page; a job already ended is left as it is. Undefined for an id
   * unknown or forgotten.
   */
  cancel(id: string): Promise<CrawlJobState | undefined>;
  /** Cancels every running job and resolves when they have ended; nothing starts after. */
  close(): Promise<void>;
}

/** Every job kept is still running: no room for another until one ends. */
export class CrawlJobsFull extends Error {
  override readonly name = "CrawlJobsFull";
  constructor(max: number) {
    super(`All ${max} crawl jobs kept are still running: try again once one has ended`);
  }
}

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

/** The cursor of the page at `offset`: opaque to clients, so its form may change. */
function cursorOf(offset: number): string {
  return Buffer.from(`p${offset}`).toString("base64url");
}

/** The offset a cursor names; INVALID_INPUT when it names none of the `stored` pages' places. */
function offsetOf(cursor: string, stored: number): number {
  const match = /^p(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!(offset <= stored)) {
    throw new WebFetchError("INVALID_INPUT", "cursor: not a cursor of this crawl job", {
      retryable: false,
    });
  }
  return offset;
}
