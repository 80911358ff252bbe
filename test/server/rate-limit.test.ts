/**
 * The rate limit counts calls, not HTTP requests: each message of a JSON-RPC batch on /mcp is
 * one. It is kept per client address (each test connects from an address of 127/8 of its own);
 * X-Forwarded-For counts only when the service is told to trust a proxy, and then its last
 * entry, an IPv6 client by its /64.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { rawRequest, serviceSuite } from "./helpers.js";

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** A JSON-RPC batch of `n` web_fetch calls to an address the guard refuses (no traffic). */
function batch(n: number): string {
  return JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "web_fetch", arguments: { url: "http://127.0.0.1:9/" } },
    })),
  );
}

describe("rate limit per call", () => {
  const s = serviceSuite({ server: { rateLimit: 3 } });
  const from = (localAddress: string, path = "/nothing", headers: Record<string, string> = {}) =>
    rawRequest(s.url, path, { localAddress, headers });

  it("counts each call of a JSON-RPC batch: a batch of 4 exhausts a limit of 3", async () => {
    const res = await rawRequest(s.url, "/mcp", {
      method: "POST",
      headers: MCP_HEADERS,
      body: batch(4),
      localAddress: "127.0.0.2",
    });
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: "RATE_LIMITED" } });
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
  });

  it("serves a batch within the limit, then counts it whole", async () => {
    const res = await rawRequest(s.url, "/mcp", {
      method: "POST",
      headers: MCP_HEADERS,
      body: batch(3),
      localAddress: "127.0.0.3",
    });
    expect(res.status).toBe(200);
    const replies = JSON.parse(res.body) as { id: number; result: { isError: boolean } }[];
    expect(replies.map((r) => [r.id, r.result.isError])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect((await from("127.0.0.3")).status).toBe(429);
  });

  it("counts two client addresses apart", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await from("127.0.0.4")).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect((await from("127.0.0.5")).status).toBe(404);
  });

  it("ignores X-Forwarded-For unless a proxy is trusted", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const forwarded = { "x-forwarded-for": `198.51.100.${i + 1}` };
      statuses.push((await from("127.0.0.6", "/nothing", forwarded)).status);
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});

describe("rate limit behind a trusted proxy", () => {
  const s = serviceSuite({ server: { rateLimit: 2, trustProxy: true } });
  const via = (forwardedFor: string) =>
    rawRequest(s.url, "/nothing", { headers: { "x-forwarded-for": forwardedFor } });

  it("keys on the entry the proxy appended to X-Forwarded-For", async () => {
    expect((await via("198.51.100.1")).status).toBe(404);
    // A client's own X-Forwarded-For comes first; the proxy appends the address it saw.
    expect((await via("203.0.113.9, 198.51.100.1")).status).toBe(404);
    expect((await via("203.0.113.10,198.51.100.1")).status).toBe(429);
    expect((await via("198.51.100.2")).status).toBe(404);
  });

  it("keys an IPv6 client on its /64, an IPv4-mapped one on its IPv4 address", async () => {
    expect((await via("2001:db8:1:2::1")).status).toBe(404);
    expect((await via("2001:db8:1:2:ffff::99")).status).toBe(404);
    expect((await via("2001:db8:1:2::abcd")).status).toBe(429);
    expect((await via("2001:db8:1:3::1")).status).toBe(404);
    expect((await via("192.0.2.7")).status).toBe(404);
    expect((await via("::ffff:192.0.2.7")).status).toBe(404);
    expect((await via("192.0.2.7")).status).toBe(429);
  });
});

describe("rate limit option", () => {
  it("refuses a limit that is not an integer >= 1", async () => {
    const web = createWebFetch({ network: "none" });
    try {
      for (const rateLimit of [0, -1, 1.5, Number.NaN]) {
        expect(() => createApp({ web, rateLimit })).toThrow(/rateLimit must be an integer >= 1/);
      }
    } finally {
      await web.close();
    }
  });
});
