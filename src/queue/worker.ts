/**
 * A crawl worker: takes page jobs of queued crawls from Redis and runs each as one step of its
 * crawl (crawl-visit.ts), the same step `web.crawl` runs in process. A job ends without a fetch
 * when its crawl was cancelled or has used its limit; otherwise its page is visited with the
 * crawl's shared claims, the links it follows become jobs (each URL once per crawl), and its
 * outcome is recorded. The last job of a crawl to finish ends the crawl, once.
 *
 * Jobs run at least once: a worker that dies leaves its jobs to run again elsewhere. A second
 * run records nothing twice (store.ts) and re-adds the jobs of its links that are open but may
 * never have been added, so a crawl cannot hang on a job lost between the two steps.
 *
 * Politeness holds across workers: given a Redis URL, the instance the worker makes counts its
 * per-origin limit and spaces its Crawl-delay in Redis.
 */
import { setMaxListeners } from "node:events";
import { RedisConnection } from "../cache/redis.js";
import { RedisOriginLimiter } from "../cache/redis-limiter.js";
import { RedisOriginPacer } from "../cache/redis-pacer.js";
import { LIMITS } from "../limits.js";
import { type Logger, silentLogger } from "../log.js";
import { FallbackOriginLimiter, LocalOriginLimiter } from "../net/politeness.js";
import { QUEUE_DEFAULTS, resolveOptions, type WebFetchOptions } from "../options.js";
import type { CrawlFailure } from "../result.js";
import type { CrawlTask } from "../site/frontier.js";
import { CrawlVisitor, type VisitOutcome } from "../webfetch/crawl-visit.js";
import {
  createWebFetchWith,
  type WebFetch,
  type WebFetchInternals,
  webFetchInternals,
} from "../webfetch/index.js";
import {
  type BullQueue,
  type BullWorker,
  closeRedis,
  loadBullmq,
  openRedis,
  type QueueJob,
  queueConnection,
  type RedisClient,
} from "./connection.js";
import { addPageJob, jobIdFor, type PageJobData, priorityOf, QUEUE_NAME } from "./jobs.js";
import { type CrawlMeta, CrawlStore } from "./store.js";

/** Crawls whose visitor (robots.txt judges, Crawl-delays) a worker keeps at once. */
const KEPT_CRAWLS = 64;
/** How often a worker renews a running crawl's TTL at most, ms. */
const TTL_REFRESH_MS = 60_000;
/** How often a worker looks for crawls whose open jobs did not move, ms. */
const REAP_INTERVAL_MS = 60_000;
/** Open jobs of one crawl a worker checks at once. */
const REAP_BATCH = 1000;

export interface CrawlWorkerOptions {
  /**
   * The instance that fetches, or the options to make one. Made from options, it counts the
   * per-origin limit and Crawl-delay in Redis; an instance given keeps its own counters.
   * @default {}
   */
  web?: WebFetchOptions | WebFetch;
  /** The Redis server of the queue: `redis://host:port[/db]`. */
  redisUrl: string;
  /** Pages this worker fetches at once. @default 8 */
  concurrency?: number;
  /** Where the worker logs. @default the instance's logger */
  logger?: Logger;
  /**
   * How long a job's lock lasts without renewal, ms: a dead worker's jobs run again after about
   * this long. Workers look for them every third of it (at most every 15 s). @default 30000
   */
  lockMs?: number;
}

/** A running worker. */
export interface CrawlWorker {
  /** Takes no new jobs, waits for the ones running, then closes every connection. */
  close(): Promise<void>;
}

/** One crawl as a worker knows it. */
interface CrawlContext {
  meta: CrawlMeta & { crawlId: string };
  store: CrawlStore;
  visitor: CrawlVisitor;
  refreshedAt: number;
  /** Open jobs at the reaper's last look. */
  lastOpen?: number;
}

/**
 * Starts a worker; resolves once it is connected and taking jobs.
 *
 * @example
 * const worker = await startCrawlWorker({ redisUrl: "redis://127.0.0.1:6379", concurrency: 8 });
 * process.once("SIGTERM", () => worker.close());
 */
export async function startCrawlWorker(options: CrawlWorkerOptions): Promise<CrawlWorker> {
  const concurrency = options.concurrency ?? QUEUE_DEFAULTS.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000) {
    throw new RangeError(`concurrency must be an integer from 1 to 1000, got ${concurrency}`);
  }
  const lockMs = options.lockMs ?? QUEUE_DEFAULTS.lockMs;
  if (!(Number.isInteger(lockMs) && lockMs >= 1000)) {
    throw new RangeError(`lockMs must be an integer of at least 1000, got ${lockMs}`);
  }
  const { Queue, Worker } = loadBullmq();
  const owned = openInstance(options.web ?? {}, options.redisUrl);
  const { resources } = owned.inner;
  const logger = options.logger ?? resources.logger;
  const log = (error: Error) =>
    logger.warn({ error: error.message }, "crawl worker: Redis connection");
  const redis = openRedis(options.redisUrl, log);
  const connection = queueConnection(options.redisUrl);
  const queue = new Queue<PageJobData>(QUEUE_NAME, { connection });
  queue.on("error", log);
  const runner = new JobRunner(owned.inner, redis, queue, logger);
  const worker: BullWorker<PageJobData> = new Worker<PageJobData>(
    QUEUE_NAME,
    (job) => runner.run(job),
    {
      connection,
      concurrency,
      lockDuration: lockMs,
      stalledInterval: Math.min(Math.ceil(lockMs / 3), QUEUE_DEFAULTS.stalledIntervalMs),
      maxStalledCount: QUEUE_DEFAULTS.maxStalledCount,
    },
  );
  worker.on("error", log);
  // A job that failed for good (it threw on every attempt, or its workers kept dying) still
  // closes, or its crawl would never end.
  worker.on("failed", (job, error) => runner.failedForGood(job, error));
  await worker.waitUntilReady();
  const reaper = setInterval(() => void runner.reap(), REAP_INTERVAL_MS);
  reaper.unref();
  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        clearInterval(reaper);
        await worker.close();
        await queue.close();
        await owned.close();
        await closeRedis(redis);
      })();
      return closing;
    },
  };
}

/** The instance a worker fetches with, and how to let go of what the worker made for it. */
function openInstance(
  web: WebFetchOptions | WebFetch,
  redisUrl: string,
): { inner: WebFetchInternals; close(): Promise<void> } {
  const given = webFetchInternals(web);
  if (given) return { inner: given, close: async () => {} };
  // Workers share the page cache through the queue's Redis too, unless a store is configured.
  const configured = web as WebFetchOptions;
  const options: WebFetchOptions =
    configured.cache === undefined && configured.cacheStore === undefined
      ? { ...configured, cacheStore: "redis", cacheUrl: redisUrl }
      : configured;
  const resolved = resolveOptions(options);
  const connection = new RedisConnection({ url: redisUrl });
  const limiter = new FallbackOriginLimiter(
    new RedisOriginLimiter({ connection, limit: resolved.maxConnectionsPerOrigin }),
    new LocalOriginLimiter(resolved.maxConnectionsPerOrigin),
    () => {},
  );
  const pacer = new RedisOriginPacer({ connection });
  const instance = createWebFetchWith(options, { pacer, limiter });
  return {
    inner: webFetchInternals(instance)!,
    async close() {
      await instance.close();
      await limiter.close();
      await pacer.close();
      await connection.close();
    },
  };
}

/** Runs page jobs. */
class JobRunner {
  readonly #inner: WebFetchInternals;
  readonly #redis: RedisClient;
  readonly #queue: BullQueue<PageJobData>;
  readonly #logger: Logger;
  readonly #crawls = new Map<string, Promise<CrawlContext | undefined>>();
  /** Never aborted: a closing worker lets its jobs finish. */
  readonly #signal = new AbortController().signal;

  constructor(
    inner: WebFetchInternals,
    redis: RedisClient,
    queue: BullQueue<PageJobData>,
    logger: Logger,
  ) {
    this.#inner = inner;
    this.#redis = redis;
    this.#queue = queue;
    // Every job in flight may wait on it at once (its turn at a slow origin), each listening
    // until its wait ends: past ten, Node would warn of a leak that is not one.
    setMaxListeners(0, this.#signal);
    this.#logger = logger ?? silentLogger;
  }

  async run(job: QueueJob<PageJobData>): Promise<void> {
    const jobId = job.id!;
    const crawl = await this.#crawl(job.data.crawlId);
    // A crawl forgotten (its keys expired) has nothing left to do.
    if (!crawl) return;
    const { store, meta, visitor } = crawl;
    if ((await store.outcome(jobId)) === undefined) {
      const task = job.data.task ?? visitor.startTask(meta.start);
      await this.#visit(job, crawl, task);
    }
    await this.#finish(crawl, jobId);
  }

  /** Closes a job that failed for good (its page counted as failed). */
  async failedForGood(job: QueueJob<PageJobData> | undefined, error: Error): Promise<void> {
    if (!job?.id) return;
    try {
      if ((await job.getState()) !== "failed") return;
      const crawl = await this.#crawl(job.data.crawlId);
      if (!crawl) return;
      this.#logger.error({ url: job.data.url, error: error.message }, "crawl job failed");
      // Not the page's failure but the worker's (a bug, or Redis lost for good).
      const failure: CrawlFailure = {
        url: job.data.url,
        code: "PROVIDER_ERROR",
        message: `the crawl worker failed: ${error.message}`,
      };
      const start = job.data.task === undefined;
      await crawl.store.recordFailure(job.id, failure, start ? failure : undefined);
      await this.#finish(crawl, job.id);
    } catch (cause) {
      this.#logger.error({ error: (cause as Error).message }, "crawl job: could not close");
    }
  }

  /**
   * Closes the open jobs that failed for good without being closed (their worker died between
   * the failure and its listener), in the crawls this worker knows whose open jobs did not move
   * since the last look.
   */
  async reap(): Promise<void> {
    for (const [crawlId, pending] of this.#crawls) {
      try {
        const crawl = await pending;
        if (!crawl) continue;
        const open = await crawl.store.openJobs();
        const still = open > 0 && open === crawl.lastOpen;
        crawl.lastOpen = open;
        if (!still) continue;
        for (const id of await crawl.store.openIds(REAP_BATCH)) {
          if ((await this.#queue.getJobState(id)) !== "failed") continue;
          this.#logger.warn({ crawl: crawlId, job: id }, "crawl job failed unclosed: closing it");
          await crawl.store.record(id, "failed", "failed");
          await this.#finish(crawl, id);
        }
      } catch (error) {
        this.#logger.warn({ crawl: crawlId, error: (error as Error).message }, "crawl reaper");
      }
    }
  }

  async #visit(job: QueueJob<PageJobData>, crawl: CrawlContext, task: CrawlTask): Promise<void> {
    const jobId = job.id!;
    const { store, meta, visitor } = crawl;
    if (await store.cancelled()) return store.record(jobId, "cancelled", "limit");
    if (!(await store.take(jobId, meta.call.limit))) return store.record(jobId, "limit", "limit");
    const outcome: VisitOutcome = await visitor.visit(task, store.claimsFor(jobId), this.#signal);
    await store.warn(visitor.warnings.splice(0));
    const start = task.depth === 0;
    switch (outcome.kind) {
      case "robots":
        await store.giveBack(jobId);
        if (start) await store.setError(outcome.error);
        return store.record(jobId, "robots", "robots");
      case "claimed":
        await store.giveBack(jobId);
        return store.record(jobId, "claimed", "duplicate");
      case "failed":
        return store.recordFailure(
          jobId,
          outcome.failure,
          start ? { code: outcome.error.code, message: outcome.error.message } : undefined,
        );
      case "duplicate":
        return store.record(jobId, "duplicate", "duplicate");
      case "page": {
        const { links } = outcome;
        const repair = job.attemptsStarted > 1;
        for (const url of links.filtered) await store.skip(url, "filtered");
        for (const url of links.tooDeep) await store.skip(url, "limit");
        let rank = 0;
        for (const next of links.tasks) {
          const childId = jobIdFor(meta.crawlId, next.url);
          const added = await store.enqueue(next.url, childId, LIMITS.crawlMaxFrontier);
          // A second run re-adds the jobs of links still open: the first run may have died
          // between marking a link open and adding its job.
          if (added === 1 || (added === 0 && repair && (await store.isOpen(childId)))) {
            await addPageJob(
              this.#queue,
              { crawlId: meta.crawlId, url: next.url, task: next },
              priorityOf(next.depth, rank, visitor.byScore ? next.score : undefined),
            );
          }
          rank++;
        }
        // A page that arrives after the crawl was cancelled is not handed out.
        if (await store.cancelled()) return store.record(jobId, "cancelled");
        await store.addPage(jobId, task.url, outcome.page);
        return;
      }
    }
  }

  async #finish(crawl: CrawlContext, jobId: string): Promise<void> {
    if (await crawl.store.finish(jobId)) {
      const meta = await crawl.store.meta();
      this.#logger.info(
        { crawl: crawl.meta.crawlId, url: crawl.meta.start, status: meta?.status },
        "crawl ended",
      );
      this.#crawls.delete(crawl.meta.crawlId);
      return;
    }
    const now = Date.now();
    if (now - crawl.refreshedAt >= TTL_REFRESH_MS) {
      crawl.refreshedAt = now;
      await crawl.store.refreshTtl();
    }
  }

  /** The crawl's context, made once per crawl while it is kept. */
  #crawl(crawlId: string): Promise<CrawlContext | undefined> {
    let context = this.#crawls.get(crawlId);
    if (!context) {
      if (this.#crawls.size >= KEPT_CRAWLS) {
        this.#crawls.delete(this.#crawls.keys().next().value!);
      }
      context = this.#open(crawlId);
      this.#crawls.set(crawlId, context);
      context.then(
        (made) => made ?? this.#crawls.delete(crawlId),
        () => this.#crawls.delete(crawlId),
      );
    }
    return context;
  }

  async #open(crawlId: string): Promise<CrawlContext | undefined> {
    const store = new CrawlStore(this.#redis, crawlId);
    const stored = await store.meta();
    if (!stored) return undefined;
    const meta = { ...stored, crawlId };
    const { resources, fetchPage } = this.#inner;
    const visitor = new CrawlVisitor(resources, fetchPage, meta.start, meta.call);
    return { meta, store, visitor, refreshedAt: 0 };
  }
}
