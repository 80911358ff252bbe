/**
 * Queued crawls, as any replica of the service sees them: start one (its meta and its start
 * page's job go to Redis, the workers do the rest), read its state and pages through an opaque
 * cursor, cancel it. Nothing of a crawl lives in this process, so every replica that shares the
 * Redis server answers for every crawl.
 */
import { randomUUID } from "node:crypto";
import { LIMITS } from "../limits.js";
import { type Logger, silentLogger } from "../log.js";
import { parseTargetUrl } from "../net/url.js";
import { CRAWL_JOB_LIMITS, type CrawlOptions, DEFAULTS, QUEUE_DEFAULTS } from "../options.js";
import type { CrawlSummary } from "../result.js";
import { siteUrl } from "../site/url.js";
import type { Locale } from "../values.js";
import { crawlWarningText } from "../warnings.js";
import { checkCrawl } from "../webfetch/crawl-visit.js";
import { type WebFetch, webFetchInternals } from "../webfetch/index.js";
import { refuseOffline } from "../webfetch/resources.js";
import {
  type BullQueue,
  closeRedis,
  loadBullmq,
  openRedis,
  queueConnection,
  type RedisClient,
} from "./connection.js";
import {
  type CrawlJobPaging,
  type CrawlJobState,
  type CrawlJobs,
  cursorOf,
  offsetOf,
} from "./contract.js";
import { addPageJob, jobIdFor, type PageJobData, priorityOf, QUEUE_NAME } from "./jobs.js";
import { CrawlStore, type StoredCrawlCall } from "./store.js";

export interface QueuedCrawlsOptions {
  /** The Redis server the workers share: `redis://host:port[/db]`. */
  redisUrl: string;
  /**
   * The instance whose rules a start URL must pass (domain lists, offline, remote mode); without
   * one, the URL is only parsed and the workers refuse what their rules forbid.
   */
  web?: WebFetch;
  /** Language of the summary's warnings. @default "en" */
  locale?: Locale;
  /** Where lost connections are logged. @default silent */
  logger?: Logger;
}

/** Crawl ids are UUIDs; anything else names no crawl (and no key). */
const CRAWL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Crawls run by `webfetch worker` processes, started and read from here.
 *
 * @example
 * const crawls = new QueuedCrawls({ redisUrl: "redis://127.0.0.1:6379" });
 * const { id } = await crawls.start("https://example.com/docs", { limit: 100 });
 * const state = await crawls.get(id, { limit: 10 }); // state.next reads on
 * await crawls.close();
 */
export class QueuedCrawls implements CrawlJobs {
  readonly #redis: RedisClient;
  readonly #queue: BullQueue<PageJobData>;
  readonly #web: WebFetch | undefined;
  readonly #locale: Locale;
  #closed = false;

  constructor(options: QueuedCrawlsOptions) {
    const logger = options.logger ?? silentLogger;
    const log = (error: Error) =>
      logger.warn({ error: error.message }, "crawl queue: Redis connection");
    const { Queue } = loadBullmq();
    this.#queue = new Queue<PageJobData>(QUEUE_NAME, {
      connection: queueConnection(options.redisUrl),
    });
    this.#queue.on("error", log);
    this.#redis = openRedis(options.redisUrl, log);
    this.#web = options.web;
    this.#locale = options.locale ?? DEFAULTS.locale;
  }

  /**
   * Starts a crawl: bad options throw (RangeError, or INVALID_INPUT and the like for the URL),
   * as `web.crawl` does.
   */
  async start(url: string, options: CrawlOptions = {}): Promise<{ id: string }> {
    if (this.#closed) throw new Error("The queued crawls are closed");
    const { signal: _signal, onProgress: _onProgress, ...call } = checkCrawl(options);
    const target = parseTargetUrl(url);
    const inner = webFetchInternals(this.#web);
    if (inner) {
      refuseOffline(inner.resources.resolved);
      if (inner.resources.resolved.endpoint) {
        throw new RangeError(
          "crawl is not available in remote mode (endpoint): call the service's /v1/crawl instead",
        );
      }
      inner.resources.fetcher.checkTarget(target);
    }
    const start = siteUrl(target.url.href)!;
    const id = randomUUID();
    const store = new CrawlStore(this.#redis, id);
    const stored: StoredCrawlCall = call;
    await store.create({ url, start, call: stored, createdAt: Date.now() });
    await store.enqueue(start, jobIdFor(id, start), LIMITS.crawlMaxFrontier);
    await addPageJob(this.#queue, { crawlId: id, url: start }, priorityOf(0, 0, undefined));
    return { id };
  }

  /** The crawl's state with its pages from `cursor`; undefined for an id unknown or forgotten. */
  async get(id: string, paging: CrawlJobPaging = {}): Promise<CrawlJobState | undefined> {
    if (!CRAWL_ID.test(id)) return undefined;
    const store = new CrawlStore(this.#redis, id);
    const meta = await store.meta();
    if (!meta) return undefined;
    const [counts, queued, stored] = await Promise.all([
      store.counts(),
      store.openJobs(),
      store.pageCount(),
    ]);
    const from = paging.cursor === undefined ? 0 : offsetOf(paging.cursor, stored);
    const limit = paging.limit ?? CRAWL_JOB_LIMITS.pagesPerRead;
    const pages = await store.pages(from, Math.min(limit, stored - from));
    const to = from + pages.length;
    const running = meta.status === "running";
    const elapsedMs = (meta.endedAt ?? Date.now()) - meta.createdAt;
    const skipped = {
      robots: counts.robots,
      filtered: counts.filtered,
      duplicate: counts.duplicate,
      limit: counts.limit,
    };
    let summary: CrawlSummary | undefined;
    if (!running) {
      const warnings = (await store.warnings()).map((w) => crawlWarningText(w, this.#locale));
      summary = {
        url: meta.start,
        pages: counts.pages,
        failed: await store.failures(),
        skipped,
        cancelled: meta.status === "cancelled",
        elapsedMs,
        ...(warnings.length > 0 ? { warnings: [...new Set(warnings)] } : {}),
      };
    }
    return {
      id,
      url: meta.url,
      status: meta.status,
      progress: {
        pages: counts.pages,
        failed: counts.failed,
        queued,
        skipped: skipped.robots + skipped.filtered + skipped.duplicate + skipped.limit,
        elapsedMs,
      },
      pages,
      ...(to < stored || running ? { next: cursorOf(to) } : {}),
      ...(summary ? { summary } : {}),
      ...(meta.error && meta.status === "failed" ? { error: meta.error } : {}),
    };
  }

  /**
   * Stops a crawl: pages not yet begun are not fetched. Resolves once it has ended (or after
   * a while, should no worker be running), with its state from the first page; undefined for
   * an id unknown or forgotten.
   */
  async cancel(id: string): Promise<CrawlJobState | undefined> {
    if (!CRAWL_ID.test(id)) return undefined;
    const store = new CrawlStore(this.#redis, id);
    const meta = await store.meta();
    if (!meta) return undefined;
    if (meta.status === "running") {
      await store.cancel();
      const deadline = Date.now() + QUEUE_DEFAULTS.cancelWaitMs;
      while (Date.now() < deadline && (await store.meta())?.status === "running") {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return this.get(id);
  }

  /**
   * Closes the connections. Crawls go on: they run on the workers, and any other process that
   * shares the server reads them.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.close();
    await closeRedis(this.#redis);
  }
}
