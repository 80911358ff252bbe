/**
 * The page jobs of queued crawls: one BullMQ queue for every crawl, one job per URL. A job's id
 * is its crawl's id and its URL's digest, so a URL queued twice while its job lives is one job;
 * which URLs a crawl has seen is kept in the crawl's own set (store.ts), since BullMQ forgets a
 * finished job. Lower priorities run first: the shallowest pages (breadth-first), or for a
 * crawl with a query the most relevant.
 */
import { createHash } from "node:crypto";
import { QUEUE_DEFAULTS } from "../options.js";
import type { CrawlTask } from "../site/frontier.js";
import type { BullQueue, JobOptions } from "./connection.js";

/** The queue's name (BullMQ names cannot hold `:`). */
export const QUEUE_NAME = "webfetch-crawl";

/** A page job: its crawl, and its task (absent for the start page, made by the worker). */
export interface PageJobData {
  crawlId: string;
  url: string;
  task?: CrawlTask;
}

/** The job id of a crawl's URL. */
export function jobIdFor(crawlId: string, url: string): string {
  return `${crawlId}-${createHash("sha1").update(url).digest("hex")}`;
}

/** Highest priority BullMQ takes. */
const MAX_PRIORITY = 2_097_151;

/**
 * A job's priority, at least 1 (0 would run before every prioritized job): by depth, then by
 * the order links were found on their page; with a query, by score first.
 */
export function priorityOf(depth: number, rank: number, score?: number): number {
  const order = Math.min(Math.max(rank, 0), 999);
  if (score === undefined) return Math.min(1 + depth * 1000 + order, MAX_PRIORITY);
  const distance = Math.round((1 - Math.min(Math.max(score, 0), 1)) * 1000);
  return Math.min(1 + distance * 1000 + Math.min(depth, 999), MAX_PRIORITY);
}

/** Options of a page job. */
export function pageJobOptions(jobId: string, priority: number): JobOptions {
  return {
    jobId,
    priority,
    attempts: QUEUE_DEFAULTS.attempts,
    backoff: { type: "exponential", delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  };
}

/** Adds a page job. */
export async function addPageJob(
  queue: BullQueue<PageJobData>,
  data: PageJobData,
  priority: number,
): Promise<void> {
  await queue.add("page", data, pageJobOptions(jobIdFor(data.crawlId, data.url), priority));
}
