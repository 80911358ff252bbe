/**
 * Pathological responses: bombs, endless and slow bodies, hangs, huge headers, hostile HTML.
 * Bounds are asserted loosely here (the benchmark measures them); these tests check that each
 * case fails with the right code and does not hang.
 */
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliBudget } from "../../src/fetch/body.js";
import { bombBytes } from "../helpers/fixture-server.js";
import { failure, fixtureSuite, testWeb } from "../helpers/web.js";

const suite = fixtureSuite({}, () => {
  bombBytes("gzip");
  bombBytes("br");
});

describe("size caps", () => {
  it.each(["/gzip-bomb", "/br-bomb"])("%s stops at the decoded-byte cap", async (route) => {
    const e = await failure(suite.t.web.fetch(suite.server.url(route)));
    expect(e.code).toBe("TOO_LARGE");
    expect(e.message).toBe("Response exceeds 10 MiB");
  });
  it("a brotli bomb with the largest window counts its window against the cap", async () => {
    const e = await failure(suite.t.web.fetch(suite.server.url("/br24-bomb")));
    expect(e.code).toBe("TOO_LARGE");
    // 2 × 10 MiB − the 16 MiB window − 1 MiB for the decoder: 3 MiB of decoded bytes.
    expect(e.message).toContain("Response exceeds 3 MiB");
    expect(e.message).toContain("window");
  });
  it("brotliBudget reads the window from the first byte (RFC 7932 §9.1)", () => {
    const cap = 10 * 1024 * 1024;
    const first = (lgwin: number) =>
      zlib.brotliCompressSync(Buffer.alloc(1000, 97), {
        params: { [zlib.constants.BROTLI_PARAM_LGWIN]: lgwin },
      })[0];
    // Windows up to 8 MiB leave the 10 MiB cap as it is.
    for (const lgwin of [10, 16, 17, 18, 22, 23]) expect(brotliBudget(first(lgwin), cap)).toBe(cap);
    expect(brotliBudget(first(24), cap)).toBe(3 * 1024 * 1024);
    // A small cap keeps at least 1 MiB; an unknown first byte keeps the cap.
    expect(brotliBudget(first(24), 1024 * 1024)).toBe(1024 * 1024);
    expect(brotliBudget(undefined, cap)).toBe(cap);
  });
  it("an endless body stops at the cap", async () => {
    const small = testWeb(suite.server, { maxBytes: 1024 * 1024 });
    try {
      const e = await failure(small.web.fetch(suite.server.url("/endless")));
      expect(e.code).toBe("TOO_LARGE");
      expect(e.message).toBe("Response exceeds 1 MiB");
    } finally {
      await small.web.close();
    }
  });
  it("a declared Content-Length over the cap is refused before reading", async () => {
    expect((await failure(suite.t.web.fetch(suite.server.url("/declared-huge")))).code).toBe(
      "TOO_LARGE",
    );
  });
  it("huge response headers fail cleanly", async () => {
    expect((await failure(suite.t.web.fetch(suite.server.url("/huge-headers")))).code).toBe(
      "TOO_LARGE",
    );
  });
});

describe("deadline", () => {
  it("a slow drip fails with TIMEOUT near the deadline", async () => {
    const started = Date.now();
    const e = await failure(suite.t.web.fetch(suite.server.url("/slow-drip"), { timeout: 1000 }));
    const elapsed = Date.now() - started;
    expect(e.code).toBe("TIMEOUT");
    expect(e.message).toBe("Request timed out after 1s");
    expect(elapsed).toBeGreaterThanOrEqual(900);
  });
  it("a hang fails with TIMEOUT near the deadline", async () => {
    const e = await failure(suite.t.web.fetch(suite.server.url("/hang"), { timeout: 1000 }));
    expect(e.code).toBe("TIMEOUT");
  });
  it("a caller's signal cancels the fetch", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(
      suite.t.web.fetch(suite.server.url("/hang"), { signal: controller.signal, timeout: 10_000 }),
    ).rejects.toThrow();
  });
});

describe("hostile HTML", () => {
  it("100k unclosed nested divs convert without crashing", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/nested-divs"));
    expect(r.content).toContain("deep text");
  });
  it("a 20 MB single line converts within the cap it is given", async () => {
    const big = testWeb(suite.server, { maxBytes: 32 * 1024 * 1024 });
    try {
      // A deadline that a busy machine's conversion of 20 MB still meets.
      const r = await big.web.fetch(suite.server.url("/long-line"), {
        maxLength: 5000,
        timeout: 50_000,
      });
      expect(r.truncated).toBe(true);
      expect(r.content.length).toBeLessThanOrEqual(5000);
    } finally {
      await big.web.close();
    }
  });
});
