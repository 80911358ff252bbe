/**
 * Per-origin politeness: at most `maxConnectionsPerOrigin` requests at once to one origin, per
 * instance by default, and across instances (processes, machines) that share a Redis server.
 * A Redis server that is down costs the cache and the shared count, never the fetch.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalOriginLimiter } from "../../src/net/politeness.js";
import { articleHtml } from "../helpers/fixture-server.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { testWeb } from "../helpers/web.js";

describe("per-origin politeness", () => {
  let server: Server;
  let port: number;
  const withRedis = hasService("redis-server");
  let redis: RedisServer | undefined;
  const load = { now: 0, max: 0 };

  beforeAll(async () => {
    if (withRedis) redis = await startRedis();
    server = createServer((req, res) => {
      if (req.url === "/robots.txt") {
        res.writeHead(404);
        res.end();
        return;
      }
      load.now++;
      load.max = Math.max(load.max, load.now);
      setTimeout(() => {
        load.now--;
        res.writeHead(200, { "content-type": "text/html" });
        res.end(articleHtml("Slow page", 3));
      }, 60);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await redis?.stop();
  });

  /** Two instances fetch four pages each at once; the most requests the server saw at once. */
  async function busiest(options: Record<string, unknown>): Promise<number> {
    load.max = 0;
    const base = { allowAddresses: [`127.0.0.1:${port}`], maxConnectionsPerOrigin: 1, ...options };
    const a = testWeb(undefined, base);
    const b = testWeb(undefined, base);
    try {
      const url = (i: number) => `http://polite.test:${port}/p${i}`;
      const results = await Promise.all(
        [a, b].flatMap((t, n) =>
          [0, 1, 2, 3].map((i) => t.web.fetch(url(n * 10 + i), { cache: false })),
        ),
      );
      expect(results.every((r) => r.status === 200)).toBe(true);
      return load.max;
    } finally {
      await a.web.close();
      await b.web.close();
    }
  }

  it("each instance counts its own requests by default", async () => {
    expect(await busiest({})).toBe(2);
  });

  it.runIf(withRedis)("instances sharing a Redis server share the limit", async () => {
    expect(await busiest({ cacheStore: "redis", cacheUrl: `${redis?.url}/3` })).toBe(1);
  });

  it("with the Redis server down, fetches still work, counted per process", async () => {
    const closed = testWeb(undefined, {
      allowAddresses: [`127.0.0.1:${port}`],
      cacheStore: "redis",
      // A loopback port nothing listens on.
      cacheUrl: "redis://127.0.0.1:9",
    });
    try {
      const page = await closed.web.fetch(`http://polite.test:${port}/down`);
      expect(page.status).toBe(200);
      expect(page.cached).toBe(false);
    } finally {
      await closed.web.close();
    }
  });
});

describe("LocalOriginLimiter", () => {
  it("hands a free slot at once with tryAcquire, none past the limit, and one origin's slots are its own", async () => {
    const limiter = new LocalOriginLimiter(2);
    const a = "http://a.test:80";
    const first = limiter.tryAcquire(a);
    const second = await limiter.acquire(a, new AbortController().signal);
    expect(first).toBeTypeOf("function");
    expect(limiter.tryAcquire(a)).toBeUndefined();
    const other = limiter.tryAcquire("http://b.test:80");
    expect(other).toBeTypeOf("function");
    // A waiter gets the next slot released, before anyone who only tries.
    const waiting = limiter.acquire(a, new AbortController().signal);
    first!();
    expect(limiter.tryAcquire(a)).toBeUndefined();
    (await waiting)();
    second();
    other!();
    // Released twice is harmless: the limit stays two.
    first!();
    const again = [limiter.tryAcquire(a), limiter.tryAcquire(a), limiter.tryAcquire(a)];
    expect(again.filter(Boolean)).toHaveLength(2);
  });
});
