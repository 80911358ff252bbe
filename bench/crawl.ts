/**
 * Crawl throughput of the Redis queue: the local crawl site (about 350 pages on one host,
 * 127.0.0.1, each answer taking LATENCY_MS) crawled by 1, 2 and 3 `webfetch worker` processes
 * (the built CLI, each its own process, concurrency 4 each) against a redis-server this script starts, with the in-process
 * `web.crawl` (concurrency 4) as the reference row. Each row gets a fresh site, so its
 * "max in flight" is the most requests the site served at once during that row: the per-origin
 * politeness limit (counted in Redis across the workers) must hold it at or under the
 * configured limit however many workers run. Bounded: 400 pages, 180 s a row.
 * Needs `npm run build` (the workers run dist/bin/webfetch.js). Run: npm run bench:crawl
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { silentLogger } from "../src/log.js";
import { type CrawlOptions, resolveOptions } from "../src/options.js";
import { QueuedCrawls } from "../src/queue/crawls.js";
import { createWebFetch } from "../src/webfetch/index.js";
import { startCrawlSite } from "../test/helpers/crawl-site.js";
import { startRedis } from "../test/helpers/redis.js";

const CLI = fileURLToPath(new URL("../dist/bin/webfetch.js", import.meta.url));
const CRAWL: CrawlOptions = { limit: 400, maxDepth: 5, concurrency: 4 };
const WORKER_CONCURRENCY = 4;
const ROW_TIMEOUT_MS = 180_000;
const HOST = "127.0.0.1";
/**
 * Each answer of the site takes this long, as a real server's would: the crawl is then bound by
 * how many requests it keeps in flight (each worker's concurrency, and across workers the
 * per-origin limit), not by this machine's two cores.
 */
const LATENCY_MS = 40;

interface Row {
  name: string;
  pages: number;
  seconds: number;
  maxInFlight: number;
}

const perOrigin = resolveOptions({}).maxConnectionsPerOrigin;

async function inProcess(): Promise<Row> {
  const site = await startCrawlSite({ slowMs: 200, latencyMs: LATENCY_MS });
  const web = createWebFetch({ logger: silentLogger, allowAddresses: [`${HOST}:${site.port}`] });
  try {
    const started = performance.now();
    const run = web.crawl(`http://${HOST}:${site.port}/`, {
      ...CRAWL,
      signal: AbortSignal.timeout(ROW_TIMEOUT_MS),
    });
    for await (const _ of run) {
      // Reading is all the reference does with its pages.
    }
    const summary = await run.summary;
    return {
      name: "web.crawl, in process",
      pages: summary.pages,
      seconds: (performance.now() - started) / 1000,
      maxInFlight: site.maxInFlight(HOST),
    };
  } finally {
    await web.close();
    await site.close();
  }
}

/** Starts a worker process and resolves once it says it is ready. */
function startWorker(redisUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "worker",
      "--redis",
      redisUrl,
      "--concurrency",
      String(WORKER_CONCURRENCY),
      "--allow-address",
      `${HOST}:${port}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { PATH: process.env.PATH } },
  );
  return new Promise((resolve, reject) => {
    let stderr = "";
    const onData = (data: Buffer) => {
      stderr += data.toString();
      if (stderr.includes("crawl worker ready")) {
        child.stderr?.off("data", onData);
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`worker exited (${code}): ${stderr}`)));
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

async function queued(workers: number, redisUrl: string): Promise<Row> {
  const site = await startCrawlSite({ slowMs: 200, latencyMs: LATENCY_MS });
  const children: ChildProcess[] = [];
  const crawls = new QueuedCrawls({ redisUrl });
  try {
    for (let i = 0; i < workers; i++) children.push(await startWorker(redisUrl, site.port));
    const started = performance.now();
    const { id } = await crawls.start(`http://${HOST}:${site.port}/`, CRAWL);
    const deadline = Date.now() + ROW_TIMEOUT_MS;
    for (;;) {
      const state = await crawls.get(id, { limit: 0 });
      if (state && state.status !== "running") {
        return {
          name: `${workers} worker process${workers > 1 ? "es" : ""} × ${WORKER_CONCURRENCY}`,
          pages: state.summary?.pages ?? state.progress.pages,
          seconds: (performance.now() - started) / 1000,
          maxInFlight: site.maxInFlight(HOST),
        };
      }
      if (Date.now() > deadline) {
        await crawls.cancel(id);
        throw new Error(`${workers} workers: the crawl did not end in ${ROW_TIMEOUT_MS} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await crawls.close();
    await Promise.all(children.map(stopWorker));
    await site.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error("dist/bin/webfetch.js is missing: run npm run build first");
  const redis = await startRedis();
  const rows: Row[] = [];
  try {
    rows.push(await inProcess());
    for (const n of [1, 2, 3]) rows.push(await queued(n, redis.url));
  } finally {
    await redis.stop();
  }
  const lines = [
    "| crawler | pages | seconds | pages/s | max in flight (127.0.0.1) | per-origin limit |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.pages} | ${row.seconds.toFixed(1)} | ${(row.pages / row.seconds).toFixed(1)} | ${row.maxInFlight} | ${perOrigin} |`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  const broken = rows.filter((row) => row.maxInFlight > perOrigin);
  if (broken.length > 0) {
    process.stderr.write(`politeness broken: ${broken.map((row) => row.name).join(", ")}\n`);
    process.exitCode = 1;
  }
}

await main();
