/**
 * Fetch-core bounds (issue 2), measured against the local fixture server only:
 * - 200 concurrent fetches of a 100 KB page: all succeed, connections stay within the
 *   per-origin limit, no socket leaks, throughput;
 * - gzip and brotli bombs: peak RSS growth against the byte cap, every run (each in a fresh child
 *   process, peak from the kernel's VmHWM reset just before the bomb; see bomb-child.ts);
 * - slow drip and hang: when the TIMEOUT arrives relative to the deadline;
 * - cache hit latency: median and p99.
 * Run: npm run bench
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { silentLogger } from "../src/log.js";
import { createWebFetch } from "../src/webfetch/index.js";
import { bombBytes, startFixtureServer, testLookup } from "../test/helpers/fixture-server.js";
import { median, percentile } from "./stats.js";

const CONCURRENT = 200;
const DEADLINE_MS = 2_000;
const BOMB_RUNS = 5;

interface BombRun {
  code: string;
  ms: number;
  method: "VmHWM" | "polled";
  baselineMiB: number;
  peakMiB: number;
  growthMiB: number;
  capMiB: number;
}

function openSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
}

const server = await startFixtureServer();
bombBytes("gzip");
bombBytes("br");
bombBytes("br24");
const base = {
  lookup: testLookup(),
  allowAddresses: [`127.0.0.1:${server.port}`],
  logger: silentLogger,
};
const rows: string[][] = [];

// 1. Concurrency.
{
  const web = createWebFetch({ ...base, cache: false });
  await web.fetch(server.url("/big?kb=100&warm=1")); // robots.txt cached, pool warm
  const socketsBefore = openSockets();
  server.connections.maxOpen = server.connections.open;
  const started = performance.now();
  const settled = await Promise.allSettled(
    Array.from({ length: CONCURRENT }, (_, i) => web.fetch(server.url(`/big?kb=100&i=${i}`))),
  );
  const seconds = (performance.now() - started) / 1000;
  const ok = settled.filter((s) => s.status === "fulfilled").length;
  const bytes = settled.reduce(
    (n, s) => n + (s.status === "fulfilled" ? s.value.totalLength : 0),
    0,
  );
  await web.close();
  await new Promise((r) => setTimeout(r, 200));
  rows.push(["200 concurrent fetches, 100 KB page", `${ok}/${CONCURRENT} ok`]);
  rows.push([
    "  throughput",
    `${(CONCURRENT / seconds).toFixed(0)} pages/s (${seconds.toFixed(2)} s, ${(bytes / CONCURRENT / 1024).toFixed(0)} KiB Markdown each)`,
  ]);
  rows.push(["  most connections open at once (limit 6)", String(server.connections.maxOpen)]);
  rows.push([
    `  sockets open after close (before: ${socketsBefore})`,
    `${openSockets()} client, ${server.connections.open} server`,
  ]);
}

// 2. Bombs, each in a fresh process so RSS is its own (bomb-child.ts says how it is measured).
{
  const child = fileURLToPath(new URL("./bomb-child.ts", import.meta.url));
  for (const route of ["/gzip-bomb", "/br-bomb", "/br24-bomb"]) {
    const runs: BombRun[] = [];
    for (let i = 0; i < BOMB_RUNS; i++) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", child, String(server.port), route],
        { timeout: 60_000 },
      );
      runs.push(JSON.parse(stdout));
    }
    const growth = runs.map((r) => r.growthMiB);
    const cap = runs[0]!.capMiB;
    const max = Math.max(...growth);
    const codes = [...new Set(runs.map((r) => r.code))].join(",");
    const methods = [...new Set(runs.map((r) => r.method))].join(",");
    rows.push([
      `${route} (64 MiB of zeros, cap ${cap} MiB, ${BOMB_RUNS} runs)`,
      `${codes} in ${median(runs.map((r) => r.ms))} ms; peak RSS growth median ${median(growth).toFixed(1)} MiB (${(median(growth) / cap).toFixed(2)}× cap), max ${max.toFixed(1)} MiB (${(max / cap).toFixed(2)}× cap, ${max < 2 * cap ? "under" : "NOT under"} 2×)`,
    ]);
    runs.forEach((r, i) => {
      rows.push([
        `  run ${i + 1} (${r.method})`,
        `${r.code} in ${r.ms} ms; RSS ${r.baselineMiB.toFixed(1)} → peak ${r.peakMiB.toFixed(1)} MiB, growth ${r.growthMiB.toFixed(1)} MiB (${(r.growthMiB / cap).toFixed(2)}× cap)`,
      ]);
    });
    if (methods !== "VmHWM")
      rows.push(["  (peak RSS polled: a peak between samples is missed)", ""]);
  }
}

// 3. Deadlines.
{
  const web = createWebFetch({ ...base, cache: false });
  for (const route of ["/slow-drip", "/hang"]) {
    const times: number[] = [];
    let code = "";
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await web
        .fetch(server.url(`${route}?i=${i}`), { timeout: DEADLINE_MS })
        .catch((e: { code: string }) => {
          code = e.code;
        });
      times.push(performance.now() - started);
    }
    const m = median(times);
    rows.push([
      `${route}, deadline ${DEADLINE_MS} ms`,
      `${code} after ${m.toFixed(0)} ms median (${((m / DEADLINE_MS - 1) * 100).toFixed(1)}% off)`,
    ]);
  }
  await web.close();
}

// 4. Cache hits.
{
  const web = createWebFetch(base);
  const url = server.url("/big?kb=100&cache=1");
  await web.fetch(url);
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const started = performance.now();
    const r = await web.fetch(url);
    times.push(performance.now() - started);
    if (!r.cached) throw new Error("expected a cache hit");
  }
  rows.push([
    "cache hit (100 KB page, 2000 hits)",
    `median ${median(times).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`,
  ]);
  await web.close();
}

await server.close();
const width = Math.max(...rows.map((r) => r[0]!.length));
console.log(`\nwebfetch fetch-core bounds (local fixture server, Node ${process.version})\n`);
for (const [k, v] of rows) console.log(`${k!.padEnd(width)}  ${v}`);
