/**
 * The HTTP service (`webfetch/server`): the app factory and the listening server. A subpath of
 * its own so the core import stays free of the HTTP stack.
 */
export type { AppOptions } from "./app.js";
export { createApp } from "./app.js";
export type {
  CrawlJobPaging,
  CrawlJobState,
  CrawlJobStatus,
  CrawlJobs,
  LocalCrawlJobsOptions,
} from "./crawl-jobs.js";
export { CRAWL_JOB_STATUSES, CrawlJobsFull, LocalCrawlJobs } from "./crawl-jobs.js";
export type { MdRequest, MdResponse } from "./md.js";
export { MD_FILTERS, markdownFor } from "./md.js";
export type { ServerOptions, WebFetchServer } from "./serve.js";
export { createServer } from "./serve.js";
