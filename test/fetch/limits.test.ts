/**
 * Pathological responses: bombs, endless and slow bodies, hangs, huge headers, hostile HTML.
 * Bounds are asserted loosely here (the benchmark measures them); these tests check that each
 * case fails with the right code and does not hang.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWebFetchError } from "../../src/errors.js";
import { bombBytes, type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { type TestWeb, testWeb } from "../helpers/web.js";

let server: FixtureServer;
let t: TestWeb;

beforeAll(async () => {
  server = await startFixtureServer();
  bombBytes("gzip");
  bombBytes("br");
  t = testWeb(server);
});
afterAll(async () => {
  await t.web.close();
  await server.close();
  expect(t.recorder.refused).toEqual([]);
});

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isWebFetchError(error)) return error;
    throw error;
  }
  throw new Error("expected a WebFetchError");
}

describe("size caps", () => {
  it.each(["/gzip-bomb", "/br-bomb"])("%s stops at the decoded-byte cap", async (route) => {
    const e = await failure(t.web.fetch(server.url(route)));
    expect(e.code).toBe("TOO_LARGE");
    expect(e.message).toBe("Response exceeds 10 MiB");
  });
  it("an endless body stops at the cap", async () => {
    const small = testWeb(server, { maxBytes: 1024 * 1024 });
    try {
      const e = await failure(small.web.fetch(server.url("/endless")));
      expect(e.code).toBe("TOO_LARGE");
      expect(e.message).toBe("Response exceeds 1 MiB");
    } finally {
      await small.web.close();
    }
  });
  it("a declared Content-Length over the cap is refused before reading", async () => {
    expect((await failure(t.web.fetch(server.url("/declared-huge")))).code).toBe("TOO_LARGE");
  });
  it("huge response headers fail cleanly", async () => {
    expect((await failure(t.web.fetch(server.url("/huge-headers")))).code).toBe("TOO_LARGE");
  });
});

describe("deadline", () => {
  it("a slow drip fails with TIMEOUT near the deadline", async () => {
    const started = Date.now();
    const e = await failure(t.web.fetch(server.url("/slow-drip"), { timeout: 1000 }));
    const elapsed = Date.now() - started;
    expect(e.code).toBe("TIMEOUT");
    expect(e.message).toBe("Request timed out after 1s");
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3000);
  });
  it("a hang fails with TIMEOUT near the deadline", async () => {
    const started = Date.now();
    const e = await failure(t.web.fetch(server.url("/hang"), { timeout: 1000 }));
    expect(e.code).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(3000);
  });
  it("a caller's signal cancels the fetch", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(
      t.web.fetch(server.url("/hang"), { signal: controller.signal, timeout: 10_000 }),
    ).rejects.toThrow();
  });
});

describe("hostile HTML", () => {
  it("100k unclosed nested divs convert without crashing", async () => {
    const r = await t.web.fetch(server.url("/nested-divs"));
    expect(r.content).toContain("deep text");
  });
  it("a 20 MB single line converts within the cap it is given", async () => {
    const big = testWeb(server, { maxBytes: 32 * 1024 * 1024 });
    try {
      const r = await big.web.fetch(server.url("/long-line"), { maxLength: 5000 });
      expect(r.truncated).toBe(true);
      expect(r.content.length).toBeLessThanOrEqual(5000);
    } finally {
      await big.web.close();
    }
  });
});
