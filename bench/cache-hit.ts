/**
 * Cache-hit latency of each store (issue 9): memory, SQLite in a temporary file, and Redis
 * against a redis-server this script starts on 127.0.0.1. Each store gets realistic entries
 * (20–60 KB of text each), then serves random hits; the table shows get latency (median, p99)
 * and set latency (median), including the codec's checksum and validation. A second table
 * measures a whole `web.fetch()` answered from each store (key, lookup, shaping of a 40 KB
 * page from the local fixture server), which is what an agent waits for.
 * Run: npm run bench:cache
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "../src/cache/memory.js";
import { RedisStore } from "../src/cache/redis.js";
import { SqliteStore } from "../src/cache/sqlite.js";
import type { CacheEntry, CacheStore } from "../src/cache/store.js";
import { silentLogger } from "../src/log.js";
import type { CacheStoreKind } from "../src/options.js";
import { createWebFetch } from "../src/webfetch/index.js";
import { startFixtureServer, testLookup } from "../test/helpers/fixture-server.js";
import { startRedis } from "../test/helpers/redis.js";
import { percentile } from "./stats.js";

/** Entries stored per store. */
const ENTRIES = 200;
/** Hits measured per store. */
const GETS = 5_000;
/** Large enough that nothing is evicted: this measures hits. */
const MAX_BYTES = 256 << 20;

/** A small deterministic generator, so every store sees the same entries and order. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS =
  "the cache keeps converted pages so an agent that reads the same documentation twice does not wait for the network again while every entry carries its url status content type and the markdown itself"
    .split(" ")
    .concat(["café", "naïve", "日本語", "ドキュメント"]);

/** A page of `chars` characters of Markdown-like text. */
function page(i: number, chars: number, rand: () => number): CacheEntry {
  const parts: string[] = [`# Page ${i}\n\n`];
  let length = parts[0]!.length;
  while (length < chars) {
    const words = Array.from({ length: 40 }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
    const paragraph = `${words.join(" ")}.\n\n`;
    parts.push(paragraph);
    length += paragraph.length;
  }
  const url = `https://docs.example.com/guide/${i}`;
  const now = Date.now();
  return {
    page: {
      url,
      finalUrl: url,
      redirects: [],
      status: 200,
      contentType: "text/html",
      charset: "utf-8",
      content: parts.join("").slice(0, chars),
      fetchedAt: new Date(now).toISOString(),
      title: `Guide, part ${i}`,
      description: "A page of the guide.",
      lang: "en",
      etag: `"v${i}"`,
    },
    storedAt: now,
  };
}

interface Row {
  store: string;
  getMedian: number;
  getP99: number;
  setMedian: number;
}

async function measure(name: string, store: CacheStore): Promise<Row> {
  const rand = random(42);
  const entries = Array.from({ length: ENTRIES }, (_, i) =>
    page(i, 20_000 + Math.floor(rand() * 40_000), rand),
  );
  const sets: number[] = [];
  for (const [i, entry] of entries.entries()) {
    const started = performance.now();
    await store.set(`key-${i}`, entry, 3600);
    sets.push(performance.now() - started);
  }
  // Warm-up: JIT, statement caches, scripts loaded on the server.
  for (let i = 0; i < 200; i++) await store.get(`key-${i % ENTRIES}`);
  const gets: number[] = [];
  for (let i = 0; i < GETS; i++) {
    const key = `key-${Math.floor(rand() * ENTRIES)}`;
    const started = performance.now();
    const hit = await store.get(key);
    gets.push(performance.now() - started);
    if (!hit) throw new Error(`${name}: ${key} missed`);
  }
  await store.close?.();
  return {
    store: name,
    getMedian: percentile(gets, 50),
    getP99: percentile(gets, 99),
    setMedian: percentile(sets, 50),
  };
}

/** Pipeline hits measured per store. */
const FETCHES = 2_000;

/** `web.fetch()` of one cached page, again and again: median and p99 of the whole call, ms. */
async function measureFetch(
  store: CacheStoreKind,
  extra: { cachePath?: string; cacheUrl?: string },
  url: string,
  port: number,
): Promise<{ store: string; median: number; p99: number }> {
  const web = createWebFetch({
    lookup: testLookup(),
    allowAddresses: [`127.0.0.1:${port}`],
    logger: silentLogger,
    cacheStore: store,
    ...extra,
  });
  try {
    const first = await web.fetch(url);
    if (first.cached) throw new Error(`${store}: the first fetch was a hit`);
    const times: number[] = [];
    for (let i = 0; i < FETCHES + 100; i++) {
      const started = performance.now();
      const hit = await web.fetch(url);
      if (i >= 100) times.push(performance.now() - started);
      if (!hit.cached) throw new Error(`${store}: fetch ${i} missed the cache`);
    }
    return { store, median: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await web.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), "webfetch-bench-cache-"));
const redis = await startRedis();
const fixtures = await startFixtureServer();
const rows: Row[] = [];
const fetchRows: { store: string; median: number; p99: number }[] = [];
try {
  rows.push(await measure("memory", new MemoryStore({ maxBytes: MAX_BYTES })));
  rows.push(
    await measure(
      "sqlite",
      new SqliteStore({ path: join(dir, "cache.sqlite"), maxBytes: MAX_BYTES }),
    ),
  );
  rows.push(await measure("redis", new RedisStore({ url: redis.url, maxBytes: MAX_BYTES })));
  const url = fixtures.url("/big?kb=40");
  fetchRows.push(await measureFetch("memory", {}, url, fixtures.port));
  fetchRows.push(
    await measureFetch("sqlite", { cachePath: join(dir, "fetch.sqlite") }, url, fixtures.port),
  );
  fetchRows.push(await measureFetch("redis", { cacheUrl: `${redis.url}/1` }, url, fixtures.port));
} finally {
  await fixtures.close();
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
}

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
console.log(
  `\nwebfetch cache hits: ${ENTRIES} entries of 20–60 KB, ${GETS} random gets (Node ${process.version})\n`,
);
console.log("store   | get median | get p99   | set median");
console.log("--------|------------|-----------|-----------");
for (const r of rows) {
  console.log(
    `${r.store.padEnd(7)} | ${us(r.getMedian).padStart(10)} | ${us(r.getP99).padStart(9)} | ${us(r.setMedian).padStart(10)}`,
  );
}

console.log(`\nweb.fetch() answered from the cache: a 40 KB page, ${FETCHES} calls\n`);
console.log("store   | median    | p99");
console.log("--------|-----------|----------");
for (const r of fetchRows) {
  console.log(`${r.store.padEnd(7)} | ${us(r.median).padStart(9)} | ${us(r.p99).padStart(9)}`);
}
