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

  it("two Redis pacers give an origin one request at a time, spaced from the last one's end", async () => {
    const pacers = [
      new RedisOriginPacer({ url: redis.url }),
      new RedisOriginPacer({ url: redis.url }),
    ];
    const signal = AbortSignal.timeout(30_000);
    const spans: [number, number][] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const done = await pacers[i % 2]!.acquire("http://paced.test:80", 150, signal);
        const start = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 20));
        spans.push([start, performance.now()]);
        done();
      }),
    );
    await Promise.all(pacers.map((pacer) => pacer.close()));
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]![0] - spans[i - 1]![1]).toBeGreaterThanOrEqual(150 - SLACK_MS);
    }
  }, 60_000);

  it("a pacer whose server is gone spaces requests in its own process", async () => {
    const pacer = new RedisOriginPacer({ url: "redis://127.0.0.1:1" });
    const signal = AbortSignal.timeout(30_000);
    (await pacer.acquire("http://paced.test:80", 100, signal))();
    const ended = performance.now();
    (await pacer.acquire("http://paced.test:80", 100, signal))();
    expect(performance.now() - ended).toBeGreaterThanOrEqual(100 - SLACK_MS);
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

    it("send one request at a time, the delay after the previous one ended", async () => {
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
      // One request at a time, each starting the delay after the previous one ended.
      const requests = site.requests
        .filter((request) => request.path !== "/robots.txt")
        .sort((a, b) => a.start - b.start);
      expect(requests.length).toBeGreaterThan(2);
      for (let i = 1; i < requests.length; i++) {
        expect(requests[i]!.start - requests[i - 1]!.end).toBeGreaterThanOrEqual(300 - SLACK_MS);
      }
    }, 120_000);
  });
});
