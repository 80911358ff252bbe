/**
 * The HTTP service (`webfetch/server`): the app factory and the listening server. A subpath of
 * its own so the core import stays free of the HTTP stack.
 */

export type {
  CrawlJobPaging,
  CrawlJobState,
  CrawlJobStatus,
  CrawlJobs,
} from "../queue/contract.js";
export { CRAWL_JOB_STATUSES, CrawlJobsFull } from "../queue/contract.js";
export type { QueuedCrawlsOptions } from "../queue/crawls.js";
export { QueuedCrawls } from "../queue/crawls.js";
export type { LocalCrawlJobsOptions } from "../queue/local.js";
export { LocalCrawlJobs } from "../queue/local.js";
export type { AppOptions } from "./app.js";
export { createApp } from "./app.js";
export type { MdRequest, MdResponse } from "./md.js";
export { MD_FILTERS, markdownFor } from "./md.js";
export type { ServerOptions, WebFetchServer } from "./serve.js";
export { createServer } from "./serve.js";
