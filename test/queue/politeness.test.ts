/**
 * Politeness across workers: the Redis pacer spaces requests to an origin however many
 * processes share it, and two workers crawling a site whose robots.txt sets a Crawl-delay never
 * start two of its requests closer than the delay.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisOriginPacer } from "../../src/cache/redis-pacer.js";
import { QueuedCrawls } from "../../src/queue/crawls.js";
import { type CrawlWorker, startCrawlWorker } from "../../src/queue/worker.js";
import { type CrawlSite, startCrawlSite } from "../helpers/crawl-site.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { readToEnd, siteOptions } from "./helpers.js";

/** Timer and socket jitter allowed below an interval, ms. */
const SLACK_MS = 30;

describe.runIf(hasService("redis-server"))("politeness across crawl workers", () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it("two Redis pacers space one origin's requests between them", async () => {
    const pacers = [
      new RedisOriginPacer({ url: redis.url }),
      new RedisOriginPacer({ url: redis.url }),
    ];
    const signal = AbortSignal.timeout(30_000);
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        await pacers[i % 2]!.wait("http://paced.test:80", 150, signal);
        starts.push(performance.now());
      }),
    );
    await Promise.all(pacers.map((pacer) => pacer.close()));
    starts.sort((a, b) => a - b);
    for (let i = 1; i < starts.length; i++) {
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(150 - SLACK_MS);
    }
  }, 60_000);

  it("a pacer whose server is gone spaces requests in its own process", async () => {
    const pacer = new RedisOriginPacer({ url: "redis://127.0.0.1:1" });
    const signal = AbortSignal.timeout(30_000);
    const before = performance.now();
    await pacer.wait("http://paced.test:80", 100, signal);
    await pacer.wait("http://paced.test:80", 100, signal);
    expect(performance.now() - before).toBeGreaterThanOrEqual(100 - SLACK_MS);
    await pacer.close();
  }, 30_000);

  describe("two workers and a Crawl-delay", () => {
    let site: CrawlSite;
    let workers: CrawlWorker[] = [];

    beforeAll(async () => {
      site = await startCrawlSite({ crawlDelaySeconds: 0.3 });
    });

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await site?.close();
    });

    it("never start two requests closer than the delay", async () => {
      workers = await Promise.all(
        [1, 2].map(() =>
          startCrawlWorker({
            web: siteOptions(site.port).options,
            redisUrl: redis.url,
            concurrency: 4,
          }),
        ),
      );
      const crawls = new QueuedCrawls({ redisUrl: redis.url });
      try {
        const { id } = await crawls.start(site.url("/"), { limit: 8 });
        const { state } = await readToEnd(crawls, id);
        expect(state.status).toBe("completed");
        expect(state.summary!.pages).toBeGreaterThan(1);
      } finally {
        await crawls.close();
      }
      const starts = site.requests
        .filter((request) => request.path !== "/robots.txt")
        .map((request) => request.start)
        .sort((a, b) => a - b);
      expect(starts.length).toBeGreaterThan(2);
      for (let i = 1; i < starts.length; i++) {
        expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(300 - SLACK_MS);
      }
    }, 120_000);
  });
});
