/**
 * A crawl queued in a real Redis and run by a worker in this process returns the same pages as
 * web.crawl with the same options; robots.txt, failures and cancel behave as in process.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueuedCrawls } from "../../src/queue/crawls.js";
import { type CrawlWorker, startCrawlWorker } from "../../src/queue/worker.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import {
  CRAWL_FAILING,
  type CrawlSite,
  expectedPaths,
  startCrawlSite,
} from "../helpers/crawl-site.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { pathsOf, readToEnd, siteOptions } from "./helpers.js";

describe.runIf(hasService("redis-server"))("a queued crawl, one worker in process", () => {
  let redis: RedisServer;
  let site: CrawlSite;
  let worker: CrawlWorker;
  let crawls: QueuedCrawls;
  let recorder: ReturnType<typeof siteOptions>["recorder"];

  beforeAll(async () => {
    redis = await startRedis();
    site = await startCrawlSite({ slowMs: 200 });
    const wired = siteOptions(site.port);
    recorder = wired.recorder;
    worker = await startCrawlWorker({
      web: wired.options,
      redisUrl: redis.url,
      concurrency: 4,
    });
    crawls = new QueuedCrawls({ redisUrl: redis.url });
  });

  afterAll(async () => {
    await crawls?.close();
    await worker?.close();
    await site?.close();
    await redis?.stop();
    expect(recorder.refused).toEqual([]);
  });

  it("returns the same pages as web.crawl", async () => {
    const options = { limit: 400, maxDepth: 5 };
    const start = site.url("/");
    const wired = siteOptions(site.port);
    const web = createWebFetch(wired.options);
    const local: string[] = [];
    const run = web.crawl(start, options);
    for await (const page of run) local.push(page.url);
    const localSummary = await run.summary;
    await web.close();

    const { id } = await crawls.start(start, options);
    const { state, pages } = await readToEnd(crawls, id);
    expect(state.status).toBe("completed");
    expect(pathsOf(pages)).toEqual(pathsOf(local.map((url) => ({ url }))));
    // The whole tree is there (the trap rules let a few trap pages through, as in process).
    const tree = expectedPaths().filter((path) => path.startsWith("/s/"));
    expect(pathsOf(pages)).toEqual(expect.arrayContaining(tree));
    // Every page once.
    expect(new Set(pages.map((page) => page.url)).size).toBe(pages.length);
    const summary = state.summary!;
    expect(summary.pages).toBe(pages.length);
    expect(summary.cancelled).toBe(false);
    expect(summary.failed.map((f) => new URL(f.url).pathname).sort()).toEqual(
      localSummary.failed.map((f) => new URL(f.url).pathname).sort(),
    );
    expect(summary.failed.map((f) => new URL(f.url).pathname)).toEqual(
      expect.arrayContaining(Object.keys(CRAWL_FAILING)),
    );
    expect(summary.skipped.robots).toBe(localSummary.skipped.robots);
    expect(summary.skipped.filtered).toBe(localSummary.skipped.filtered);
    expect(state.progress.queued).toBe(0);
    expect(pages.every((page) => typeof page.depth === "number")).toBe(true);
    // Without a configured store the worker caches pages in the queue's Redis, for every worker.
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect((await client.keys("webfetch:page:*")).length).toBeGreaterThan(100);
    } finally {
      await client.quit();
    }
  }, 180_000);

  it("reads pages by cursor, a few at a time", async () => {
    const { id } = await crawls.start(site.url("/s/a/1/"), { limit: 5, maxDepth: 1 });
    await readToEnd(crawls, id);
    const first = await crawls.get(id, { limit: 2 });
    expect(first!.pages).toHaveLength(2);
    const second = await crawls.get(id, { cursor: first!.next, limit: 10 });
    expect(second!.next).toBeUndefined();
    expect(first!.pages.length + second!.pages.length).toBe(first!.summary!.pages);
    await expect(crawls.get(id, { cursor: "nonsense" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(await crawls.get("00000000-0000-0000-0000-000000000000")).toBeUndefined();
    expect(await crawls.get("not-an-id")).toBeUndefined();
  }, 60_000);

  it("a start page that fails fails the crawl with its error", async () => {
    const { id } = await crawls.start(site.url("/fail/500"), { limit: 5 });
    const { state } = await readToEnd(crawls, id);
    expect(state.status).toBe("failed");
    expect(state.error?.code).toBe("HTTP_ERROR");
    expect(state.summary?.failed).toHaveLength(1);
  }, 60_000);

  it("a start page robots.txt refuses fails the crawl", async () => {
    const { id } = await crawls.start(site.url("/private/secret"), { limit: 5 });
    const { state } = await readToEnd(crawls, id);
    expect(state.status).toBe("failed");
    expect(state.error?.code).toBe("ROBOTS_DISALLOWED");
    expect(state.summary?.skipped.robots).toBe(1);
  }, 60_000);

  it("bad options are refused at start", async () => {
    await expect(crawls.start(site.url("/"), { limit: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(crawls.start("not a url")).rejects.toMatchObject({ code: "INVALID_URL" });
  });

  it("cancel stops the crawl: it ends cancelled with fewer pages", async () => {
    const { id } = await crawls.start(site.url("/"), { limit: 400, maxDepth: 5 });
    // Let it begin, then stop it.
    for (;;) {
      const state = await crawls.get(id);
      if (state!.progress.pages >= 5) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const state = await crawls.cancel(id);
    expect(state!.status).toBe("cancelled");
    expect(state!.summary!.cancelled).toBe(true);
    expect(state!.summary!.pages).toBeLessThan(expectedPaths().length);
    expect(state!.progress.queued).toBe(0);
    // Cancelling an ended crawl leaves it as it is.
    expect((await crawls.cancel(id))!.status).toBe("cancelled");
  }, 120_000);
});
