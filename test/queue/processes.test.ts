/**
 * Crawls run by real `webfetch worker` processes (the built CLI) sharing a real Redis: every
 * page of the crawl site comes back once with three workers, when one of them is killed with
 * SIGKILL mid-crawl, and when Redis itself is shut down and started again mid-crawl. Needs
 * `npm run build`.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CrawlOptions } from "../../src/options.js";
import { QueuedCrawls } from "../../src/queue/crawls.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { type CrawlSite, expectedPaths, startCrawlSite } from "../helpers/crawl-site.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import {
  CLI,
  pathsOf,
  readToEnd,
  siteOptions,
  startWorkerProcess,
  type WorkerProcess,
} from "./helpers.js";

/** Short locks, so a killed worker's pages run again within seconds. */
const LOCK_MS = 3000;
const OPTIONS: CrawlOptions = { limit: 400, maxDepth: 5 };

describe.runIf(hasService("redis-server"))("a queued crawl, worker processes", () => {
  let site: CrawlSite;
  let dir: string;
  let redis: RedisServer;
  let workers: WorkerProcess[] = [];
  /** What web.crawl returns for the same start and options. */
  let reference: string[];

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error("dist/bin/webfetch.js is missing: run npm run build");
    site = await startCrawlSite({ slowMs: 200 });
    dir = await mkdtemp(join(tmpdir(), "webfetch-queue-"));
    redis = await startRedis({ appendOnly: true, dir });
    const web = createWebFetch(siteOptions(site.port).options);
    const pages: { url: string }[] = [];
    for await (const page of web.crawl(start(), OPTIONS)) pages.push(page);
    await web.close();
    reference = pathsOf(pages);
  }, 120_000);

  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
  }, 60_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await redis?.stop();
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  const start = () => `http://127.0.0.1:${site.port}/`;

  function startWorkers(n: number) {
    for (let i = 0; i < n; i++) {
      workers.push(startWorkerProcess(redis.url, site.port, { concurrency: 4, lockMs: LOCK_MS }));
    }
  }

  /** Every page once, the same ones as in process. */
  function expectEveryPageOnce(pages: { url: string }[]) {
    const paths = pathsOf(pages);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(reference);
    const tree = expectedPaths().filter((path) => path.startsWith("/s/"));
    expect(paths).toEqual(expect.arrayContaining(tree));
  }

  it("three workers complete a crawl with every page once", async () => {
    startWorkers(3);
    const crawls = new QueuedCrawls({ redisUrl: redis.url });
    try {
      const { id } = await crawls.start(start(), OPTIONS);
      const { state, pages } = await readToEnd(crawls, id);
      expect(state.status).toBe("completed");
      expect(state.summary!.pages).toBe(pages.length);
      expectEveryPageOnce(pages);
    } finally {
      await crawls.close();
    }
    // SIGTERM: each worker finishes and exits by itself, with status 0.
    const codes = await Promise.all(workers.map((worker) => worker.stop()));
    expect(codes).toEqual([0, 0, 0]);
    workers = [];
  }, 300_000);

  it("a worker killed with SIGKILL mid-crawl: the crawl still completes, every page once", async () => {
    startWorkers(3);
    const crawls = new QueuedCrawls({ redisUrl: redis.url });
    try {
      const { id } = await crawls.start(start(), OPTIONS);
      let killed = false;
      const { state, pages } = await readToEnd(crawls, id, (now) => {
        if (!killed && now.progress.pages >= 60) {
          killed = true;
          workers[0]!.child.kill("SIGKILL");
        }
      });
      expect(killed).toBe(true);
      expect(state.status).toBe("completed");
      expectEveryPageOnce(pages);
    } finally {
      await crawls.close();
    }
  }, 300_000);

  it("Redis shut down and started again mid-crawl: the crawl completes, every page once", async () => {
    startWorkers(2);
    const crawls = new QueuedCrawls({ redisUrl: redis.url });
    try {
      const { id } = await crawls.start(start(), OPTIONS);
      let restarted = false;
      const { state, pages } = await readToEnd(crawls, id, async (now) => {
        if (!restarted && now.progress.pages >= 60) {
          restarted = true;
          // SIGTERM is Redis's SHUTDOWN: the append-only file is complete, then it exits.
          await redis.stop();
          await new Promise((resolve) => setTimeout(resolve, 1500));
          redis = await startRedis({ port: redis.port, appendOnly: true, dir });
        }
      });
      expect(restarted).toBe(true);
      expect(state.status).toBe("completed");
      expectEveryPageOnce(pages);
    } finally {
      await crawls.close();
    }
  }, 300_000);
});
