import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { encodeEntry } from "../../src/cache/codec.js";
import { RedisConnection, RedisStore } from "../../src/cache/redis.js";
import { RedisOriginLimiter } from "../../src/cache/redis-limiter.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { entry, expectRoundTrip, runChild } from "./entries.js";

/** A plain node-redis client, to look inside and to damage values. */
interface RawClient {
  connect(): Promise<unknown>;
  sendCommand(args: (string | Buffer)[]): Promise<unknown>;
  close(): Promise<void>;
}
const { createClient } = createRequire(import.meta.url)("redis") as {
  createClient(options: { url: string }): RawClient;
};

let redis: RedisServer;
let raw: RawClient;
let counter = 0;
const closers: Array<() => Promise<void>> = [];

/** A prefix of its own for each test, so tests share the server without seeing each other. */
function prefix(): string {
  counter += 1;
  return `t${counter}:`;
}

function store(p: string, maxBytes = 1 << 20): RedisStore {
  const s = new RedisStore({ url: redis.url, prefix: p, maxBytes });
  closers.push(() => s.close());
  return s;
}

function limiter(p: string, limit: number, leaseMs?: number): RedisOriginLimiter {
  const l = new RedisOriginLimiter({
    url: redis.url,
    prefix: p,
    limit,
    ...(leaseMs === undefined ? {} : { leaseMs }),
  });
  closers.push(() => l.close());
  return l;
}

const cmd = (...args: (string | Buffer)[]) => raw.sendCommand(args);

/** Values present under the prefix, and the tracked total against the recorded sizes. */
async function inspect(
  p: string,
): Promise<{ keys: string[]; total: number; sum: number; lru: number }> {
  const keys = ((await cmd("KEYS", `${p}page:*`)) as string[])
    .map((k) => k.slice(`${p}page:`.length))
    .sort();
  const total = Number((await cmd("GET", `${p}total`)) ?? 0);
  const sizes = (await cmd("HVALS", `${p}sizes`)) as string[];
  const lru = Number(await cmd("ZCARD", `${p}lru`));
  return { keys, total, sum: sizes.reduce((a, s) => a + Number(s), 0), lru };
}

beforeAll(async () => {
  redis = await startRedis();
  raw = createClient({ url: redis.url });
  await raw.connect();
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

afterAll(async () => {
  await raw?.close();
  await redis?.stop();
});

describe.runIf(hasService("redis-server"))("RedisStore", () => {
  it("stores and reads entries back; delete removes them and their accounting", async () => {
    const p = prefix();
    const s = store(p);
    await expectRoundTrip(s);
    const state = await inspect(p);
    expect(state.keys).toEqual(["b"]);
    expect(state.total).toBe(state.sum);
    expect(state.total).toBe(encodeEntry(entry("b")).length);
    expect(Number(await cmd("PTTL", `${p}page:b`))).toBeGreaterThan(55_000);
  });

  it("expires entries after their TTL and cleans their accounting", async () => {
    const p = prefix();
    const s = store(p);
    await s.set("short", entry("short"), 0.2);
    await s.set("long", entry("long"), 60);
    expect(await s.get("short")).toBeDefined();
    await sleep(300);
    expect(await s.get("short")).toBeUndefined();
    expect(await s.get("long")).toBeDefined();
    const state = await inspect(p);
    expect(state.keys).toEqual(["long"]);
    expect(state.total).toBe(state.sum);
    expect(state.lru).toBe(1);
  });

  it("keeps one bound across two clients, evicting expired entries first, then the least recently read", async () => {
    const p = prefix();
    const size = encodeEntry(entry("k0", 4000)).length;
    const maxBytes = size * 6 + 100;
    const one = store(p, maxBytes);
    const two = store(p, maxBytes);
    await one.set("expiring", entry("expiring", 4000), 0.15);
    for (let i = 0; i < 5; i++) await (i % 2 ? two : one).set(`k${i}`, entry(`k${i}`, 4000), 3600);
    expect((await inspect(p)).keys).toHaveLength(6);
    await sleep(200);
    expect(await two.get("k0")).toBeDefined();
    await one.set("k5", entry("k5", 4000), 3600);
    let state = await inspect(p);
    expect(state.keys).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    await two.set("k6", entry("k6", 4000), 3600);
    state = await inspect(p);
    expect(state.keys).toEqual(["k0", "k2", "k3", "k4", "k5", "k6"]);
    expect(state.total).toBe(state.sum);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? one : two).set(`m${i}`, entry(`m${i}`, 4000), 3600),
      ),
    );
    state = await inspect(p);
    expect(state.total).toBe(state.sum);
    expect(state.total).toBeLessThanOrEqual(maxBytes);
    expect(state.keys).toHaveLength(6);
    expect(state.lru).toBe(6);
  });

  it("does not keep entries with a non-positive TTL or over a quarter of maxBytes", async () => {
    const p = prefix();
    const s = store(p, 40_000);
    await s.set("k", entry("k"), 60);
    await s.set("k", entry("k"), 0);
    expect(await s.get("k")).toBeUndefined();
    await s.set("big", entry("big", 12_000), 60);
    expect(await s.get("big")).toBeUndefined();
    expect((await inspect(p)).total).toBe(0);
  });

  it("drops corrupted values and never serves them", async () => {
    const p = prefix();
    const s = store(p);
    const names = ["garbage", "flipped", "bitflip", "old", "shape"];
    for (const k of names) await s.set(k, entry(k), 60);
    await cmd("SET", `${p}page:garbage`, "garbage");
    const value = encodeEntry(entry("flipped")).toString("utf8");
    const at = value.indexOf("caching");
    await cmd("SET", `${p}page:flipped`, `${value.slice(0, at)}cachinG${value.slice(at + 7)}`);
    const bytes = encodeEntry(entry("bitflip"));
    bytes[bytes.length - 50] = (bytes[bytes.length - 50] ?? 0) ^ 0x04;
    await cmd("SET", `${p}page:bitflip`, bytes);
    await cmd("SET", `${p}page:old`, `wf0:${encodeEntry(entry("old")).toString("utf8").slice(4)}`);
    await cmd("SET", `${p}page:shape`, encodeEntry({ storedAt: 1, page: { url: "x" } } as never));
    for (const k of names) expect(await s.get(k), k).toBeUndefined();
    const state = await inspect(p);
    expect(state).toEqual({ keys: [], total: 0, sum: 0, lru: 0 });
  });

  it("is read by a second process", async () => {
    const p = prefix();
    const s = store(p);
    const e = entry("shared", 30_000);
    await s.set("shared", e, 3600);
    expect(JSON.parse(await runChild("read", "redis", redis.url, p, "shared"))).toEqual(e);
    expect(JSON.parse(await runChild("read", "redis", redis.url, p, "absent"))).toBeNull();
  });

  it("fails fast with a clear error when the server is unreachable, and recovers when it is back", async () => {
    const down = await startRedis();
    await down.stop();
    const s = new RedisStore({ url: down.url, maxBytes: 1 << 20 });
    closers.push(() => s.close());
    // Errors, not hangs (a hang fails at the test's timeout); no wall-clock bound, which a busy
    // machine would break.
    await expect(s.get("k")).rejects.toThrow(/Redis at 127\.0\.0\.1:\d+ is unreachable/);
    // Inside the retry pause, operations fail without a new attempt.
    await expect(s.set("k", entry("k"), 60)).rejects.toThrow(/unreachable/);
    const back = await startRedis({ port: down.port });
    closers.push(() => back.stop());
    await sleep(1100);
    await s.set("k", entry("k"), 60);
    expect(await s.get("k")).toEqual(entry("k"));
    // The server goes away under an open connection: errors, not hangs; then back again.
    await back.stop();
    await expect(s.get("k")).rejects.toThrow(/Redis at 127\.0\.0\.1/);
    const again = await startRedis({ port: down.port });
    closers.push(() => again.stop());
    await expect
      .poll(async () => s.set("k", entry("k"), 60).then(() => "ok", String), {
        timeout: 8000,
        interval: 200,
      })
      .toBe("ok");
  });

  it("does not hang on a server that stops answering", async () => {
    const frozen = await startRedis();
    closers.push(() => frozen.stop());
    const connection = new RedisConnection({
      url: frozen.url,
      commandTimeoutMs: 300,
      connectTimeoutMs: 300,
    });
    closers.push(() => connection.close());
    const s = new RedisStore({ connection, maxBytes: 1 << 20 });
    await s.set("k", entry("k"), 60);
    process.kill(frozen.pid, "SIGSTOP");
    try {
      await expect(s.get("k")).rejects.toThrow(/did not answer EVALSHA in time/);
      // A connection that never completes its handshake is abandoned too.
      const second = new RedisConnection({ url: frozen.url, connectTimeoutMs: 300 });
      closers.push(() => second.close());
      const fresh = new RedisStore({ connection: second, maxBytes: 1 << 20 });
      await expect(fresh.get("k")).rejects.toThrow(/unreachable/);
    } finally {
      process.kill(frozen.pid, "SIGCONT");
    }
    // The late replies are matched to their commands; the connection keeps working.
    expect(await s.get("k")).toEqual(entry("k"));
  });

  it("shares one connection between a store and a limiter", async () => {
    const p = prefix();
    const connection = new RedisConnection({ url: redis.url });
    closers.push(() => connection.close());
    const s = new RedisStore({ connection, prefix: p, maxBytes: 1 << 20 });
    const l = new RedisOriginLimiter({ connection, prefix: p, limit: 1 });
    await s.set("k", entry("k"), 60);
    const release = await l.acquire("https://example.com:443", new AbortController().signal);
    // Closing users of a shared connection leaves it open.
    await s.close();
    await l.close();
    expect(await s.get("k")).toEqual(entry("k"));
    release();
  });
});

const ORIGIN = "https://example.com:443";

/** Whether the promise settles within `ms`. */
async function settles(promise: Promise<unknown>, ms = 300): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    sleep(ms).then(() => false),
  ]);
}

describe.runIf(hasService("redis-server"))("RedisOriginLimiter", () => {
  it("lets `limit` holders in; the next waits until one releases", async () => {
    const p = prefix();
    const l = limiter(p, 2);
    const signal = new AbortController().signal;
    const first = await l.acquire(ORIGIN, signal);
    const second = await l.acquire(ORIGIN, signal);
    const third = l.acquire(ORIGIN, signal);
    expect(await settles(third)).toBe(false);
    // Another origin is not affected.
    (await l.acquire("https://other.example:443", signal))();
    first();
    first(); // twice is harmless
    const release = await third;
    expect(Number(await cmd("ZCARD", `${p}origin:${ORIGIN}`))).toBe(2);
    second();
    release();
    await expect.poll(() => cmd("EXISTS", `${p}origin:${ORIGIN}`).then(Number)).toBe(0);
  });

  it("rejects with the signal's reason on abort and leaks no slot", async () => {
    const p = prefix();
    const l = limiter(p, 2);
    const signal = new AbortController().signal;
    const held = [await l.acquire(ORIGIN, signal), await l.acquire(ORIGIN, signal)];
    const controller = new AbortController();
    const waiting = l.acquire(ORIGIN, controller.signal);
    await sleep(100);
    const reason = new Error("gave up");
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    const pre = new AbortController();
    pre.abort(new Error("already"));
    await expect(l.acquire(ORIGIN, pre.signal)).rejects.toThrow("already");
    expect(Number(await cmd("ZCARD", `${p}origin:${ORIGIN}`))).toBe(2);
    held[0]?.();
    const next = await l.acquire(ORIGIN, signal);
    expect(Number(await cmd("ZCARD", `${p}origin:${ORIGIN}`))).toBe(2);
    next();
    held[1]?.();
  });

  it("renews a held lease, and reclaims the lease of a crashed process", async () => {
    const p = prefix();
    const child: ChildProcess = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(new URL("./child.ts", import.meta.url)),
        "hold",
        redis.url,
        p,
        ORIGIN,
        "300",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const [data] = (await once(child.stdout!, "data")) as [Buffer];
      expect(data.toString()).toBe("held\n");
      const l = limiter(p, 1, 300);
      const controller = new AbortController();
      const waiting = l.acquire(ORIGIN, controller.signal);
      // The live holder renews its 300 ms lease: no slot for a whole second.
      expect(await settles(waiting, 1000)).toBe(false);
      child.kill("SIGKILL");
      await once(child, "exit");
      // The dead holder's lease lapses and the waiter gets the slot (a hang fails at the timeout).
      const release = await waiting;
      release();
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("shares the bound between two limiters (two clients)", async () => {
    const p = prefix();
    const limiters = [limiter(p, 2), limiter(p, 2)];
    let active = 0;
    let most = 0;
    const task = async (i: number) => {
      const release = await limiters[i % 2]!.acquire(ORIGIN, new AbortController().signal);
      active += 1;
      most = Math.max(most, active);
      await sleep(30);
      active -= 1;
      release();
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => task(i)));
    expect(most).toBe(2);
  });

  it("gives held leases back on close", async () => {
    const p = prefix();
    const l = new RedisOriginLimiter({ url: redis.url, prefix: p, limit: 3 });
    await l.acquire(ORIGIN, new AbortController().signal);
    await l.acquire(ORIGIN, new AbortController().signal);
    expect(Number(await cmd("ZCARD", `${p}origin:${ORIGIN}`))).toBe(2);
    await l.close();
    expect(Number(await cmd("ZCARD", `${p}origin:${ORIGIN}`))).toBe(0);
  });
});
