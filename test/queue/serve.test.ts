/**
 * `webfetch serve --redis`: two service processes sharing a real Redis only enqueue and report,
 * a `webfetch worker` process runs the crawl, and the crawl one replica started is read to its
 * end, every page once, from the other replica; DELETE through either cancels. Needs
 * `npm run build`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlJobState } from "../../src/queue/contract.js";
import { type CrawlSite, startCrawlSite } from "../helpers/crawl-site.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { CLI, pathsOf, startWorkerProcess, type WorkerProcess } from "./helpers.js";

interface Service {
  child: ChildProcess;
  url: string;
}

/** `webfetch serve --port 0 --redis URL`, resolved once it says where it listens. */
async function startService(redisUrl: string, sitePort: number): Promise<Service> {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--port", "0", "--redis", redisUrl, "--allow-address", `127.0.0.1:${sitePort}`],
    { cwd: tmpdir(), env: { PATH: process.env.PATH }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk;
      const ready = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(stderr);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  expect(stderr).toContain("queued in Redis");
  return { child, url };
}

async function stopService(service: Service | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null) return;
  const exited = once(service.child, "exit");
  service.child.kill("SIGTERM");
  await exited;
}

const json = { "content-type": "application/json" };

describe.runIf(hasService("redis-server"))("webfetch serve --redis", () => {
  let site: CrawlSite;
  let redis: RedisServer;
  let a: Service | undefined;
  let b: Service | undefined;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error("dist/bin/webfetch.js is missing: run npm run build");
    site = await startCrawlSite({ crawlDelaySeconds: 0.05 });
    redis = await startRedis();
    [a, b] = await Promise.all([
      startService(redis.url, site.port),
      startService(redis.url, site.port),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stopService(a), stopService(b), worker?.stop()]);
    await redis?.stop();
    await site?.close();
  }, 60_000);

  async function read(service: Service, id: string, cursor?: string): Promise<CrawlJobState> {
    const query = new URLSearchParams({ limit: "50", ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${service.url}/v1/crawl/${id}?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as CrawlJobState;
  }

  it("queues a crawl on one replica that a worker runs and the other reads to its end", async () => {
    const res = await fetch(`${a!.url}/v1/crawl`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ url: site.url("/s/e/", "127.0.0.1"), limit: 30, max_depth: 2 }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    // Nothing runs it until a worker comes: the services only enqueue.
    const waiting = await read(b!, id);
    expect(waiting.status).toBe("running");
    worker = startWorkerProcess(redis.url, site.port, { concurrency: 2 });
    const pages: { url: string }[] = [];
    let cursor: string | undefined;
    let state: CrawlJobState;
    for (;;) {
      state = await read(b!, id, cursor);
      pages.push(...state.pages);
      cursor = state.next ?? cursor;
      if (state.status !== "running" && state.next === undefined) break;
      if (state.pages.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state.status).toBe("completed");
    expect(state.summary?.pages).toBe(pages.length);
    const paths = pathsOf(pages);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain("/s/e/");
    expect(paths).toContain("/s/e/6/");
    // The replica that started it reads the same pages.
    expect((await read(a!, id)).summary?.pages).toBe(pages.length);
  }, 120_000);

  it("cancels a crawl through the other replica", async () => {
    const res = await fetch(`${b!.url}/v1/crawl`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ url: site.url("/", "127.0.0.1"), limit: 400, max_depth: 5 }),
    });
    const { id } = (await res.json()) as { id: string };
    const cancelled = await fetch(`${a!.url}/v1/crawl/${id}`, { method: "DELETE" });
    expect(cancelled.status).toBe(200);
    const state = (await cancelled.json()) as CrawlJobState;
    expect(state.status).toBe("cancelled");
    expect(state.summary?.cancelled).toBe(true);
    expect((await read(b!, id)).status).toBe("cancelled");
  }, 120_000);
});
