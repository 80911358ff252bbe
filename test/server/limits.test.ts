/**
 * Rate limit (429 with Retry-After, /health exempt), the timeout mapping (504), and graceful
 * shutdown: a request in flight when close() starts still gets its answer; new connections are
 * refused.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import type { WebFetch } from "../../src/webfetch/index.js";
import { serviceSuite } from "./helpers.js";

describe("rate limit", () => {
  const s = serviceSuite({ server: { rateLimit: 3, rateWindowMs: 60_000 } });

  it("answers 429 with Retry-After once a client used up its window", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.post("/v1/nothing", {})).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const limited = await s.post("/md", { url: s.page("/article") });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    // Health probes are never limited.
    expect((await s.get("/health")).status).toBe(200);
  });
});

describe("timeout", () => {
  const s = serviceSuite({ web: { timeout: 300, retries: 0 } });

  it("maps a fetch that ran out of time to 504", async () => {
    const res = await s.post("/v1/fetch", { url: s.page("/hang") });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("TIMEOUT");
  });
});

describe("graceful shutdown", () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => {};
  const inFlight = new Promise<void>((resolve) => {
    started = resolve;
  });
  // The instance waits at the gate, so the request is surely in flight when close() starts.
  const slow = (web: WebFetch): WebFetch =>
    new Proxy(web, {
      get(target, key, receiver) {
        if (key !== "fetch") return Reflect.get(target, key, receiver);
        return async (...args: Parameters<WebFetch["fetch"]>) => {
          started();
          await gate;
          return target.fetch(...args);
        };
      },
    });
  const s = serviceSuite({ wrap: slow, server: { shutdownGraceMs: 5_000 } });

  it("drains in-flight requests, then stops accepting", async () => {
    const pending = s.post("/v1/fetch", { url: s.page("/article") });
    await inFlight;
    const closing = s.server.close();
    let done = false;
    void closing.then(() => {
      done = true;
    });
    await sleep(50);
    expect(done).toBe(false);
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();
    release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe("Fixture Article");
    await closing;
    expect(done).toBe(true);
  });
});
