/**
 * Crawl jobs: a crawl started by one request and read by later ones, page by page through an
 * opaque cursor. `CrawlJobs` is everything the service's routes need, in JSON values, so the
 * crawls of this process (`LocalCrawlJobs`) and crawls queued in Redis for worker processes
 * (`QueuedCrawls`) answer alike.
 */
import { WebFetchError } from "../errors.js";
import type { CrawlOptions, CrawlProgress } from "../options.js";
import type { CrawlPage, CrawlSummary } from "../result.js";

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

/** The cursor of the page at `offset`: opaque to clients, so its form may change. */
export function cursorOf(offset: number): string {
  return Buffer.from(`p${offset}`).toString("base64url");
}

/** The offset a cursor names; INVALID_INPUT when it names none of the `stored` pages' places. */
export function offsetOf(cursor: string, stored: number): number {
  const match = /^p(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!(offset <= stored)) {
    throw new WebFetchError("INVALID_INPUT", "cursor: not a cursor of this crawl job", {
      retryable: false,
    });
  }
  return offset;
}
