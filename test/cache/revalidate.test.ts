/**
 * HTTP revalidation of stale cache entries: a page stored with an ETag or Last-Modified is kept
 * past its freshness, asked for again with If-None-Match / If-Modified-Since, and a 304
 * refreshes it without a new download; a changed page replaces it.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { articleHtml } from "../helpers/fixture-server.js";
import { type TestWeb, testWeb } from "../helpers/web.js";

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

const LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT";

describe("revalidation", () => {
  let server: Server;
  let port: number;
  const seen: Seen[] = [];
  let version = 1;
  let t: TestWeb;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? "/";
      const reply = (status: number, headers: Record<string, string>, body = "") => {
        seen.push({ path, headers: req.headers, status });
        res.writeHead(status, headers);
        res.end(body);
      };
      if (path === "/robots.txt") return reply(404, {});
      const html = { "content-type": "text/html; charset=utf-8" };
      if (path === "/etag") {
        const etag = `"v${version}"`;
        if (req.headers["if-none-match"] === etag) return reply(304, { etag });
        return reply(200, { ...html, etag }, articleHtml(`Version ${version}`, 5));
      }
      if (path === "/modified") {
        if (req.headers["if-modified-since"] === LAST_MODIFIED) return reply(304, {});
        return reply(200, { ...html, "last-modified": LAST_MODIFIED }, articleHtml("Dated", 5));
      }
      if (path === "/plain") return reply(200, html, articleHtml("No validators", 5));
      return reply(404, {});
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    port = (server.address() as AddressInfo).port;
    t = testWeb(undefined, { allowAddresses: [`127.0.0.1:${port}`] });
  });

  afterAll(async () => {
    await t.web.close();
    server.closeAllConnections();
    server.close();
    expect(t.recorder.refused).toEqual([]);
  });

  const url = (path: string) => `http://site.test:${port}${path}`;
  const pageRequests = (path: string) => seen.filter((s) => s.path === path);

  it("a 304 to If-None-Match refreshes the stale entry", async () => {
    const first = await t.web.fetch(url("/etag"));
    expect(first.cached).toBe(false);
    expect(first.content).toContain("Version 1");
    // maxAge 0: the entry is stale at once, so the next call revalidates it.
    const again = await t.web.fetch(url("/etag"), { maxAge: 0 });
    const requests = pageRequests("/etag");
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers["if-none-match"]).toBe('"v1"');
    expect(requests[1]?.status).toBe(304);
    expect(again.cached).toBe(true);
    expect(again.content).toBe(first.content);
    expect(Date.parse(again.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(first.fetchedAt));
    // Refreshed: fresh again for the default max age, no request at all.
    const hit = await t.web.fetch(url("/etag"));
    expect(hit.cached).toBe(true);
    expect(pageRequests("/etag")).toHaveLength(2);
  });

  it("a changed page (200 to the conditional request) replaces the entry", async () => {
    version = 2;
    const changed = await t.web.fetch(url("/etag"), { maxAge: 0 });
    expect(changed.cached).toBe(false);
    expect(changed.content).toContain("Version 2");
    expect(pageRequests("/etag").at(-1)?.status).toBe(200);
    const next = await t.web.fetch(url("/etag"), { maxAge: 0 });
    expect(pageRequests("/etag").at(-1)?.headers["if-none-match"]).toBe('"v2"');
    expect(next.content).toContain("Version 2");
  });

  it("revalidates with If-Modified-Since from Last-Modified", async () => {
    await t.web.fetch(url("/modified"));
    const again = await t.web.fetch(url("/modified"), { maxAge: 0 });
    const last = pageRequests("/modified").at(-1);
    expect(last?.headers["if-modified-since"]).toBe(LAST_MODIFIED);
    expect(last?.status).toBe(304);
    expect(again.cached).toBe(true);
  });

  it("a page without validators is fetched again, unconditionally", async () => {
    await t.web.fetch(url("/plain"));
    const again = await t.web.fetch(url("/plain"), { maxAge: 0 });
    const last = pageRequests("/plain").at(-1);
    expect(last?.headers["if-none-match"]).toBeUndefined();
    expect(last?.headers["if-modified-since"]).toBeUndefined();
    expect(again.cached).toBe(false);
  });

  it("cache: false skips the cached copy and its validators", async () => {
    await t.web.fetch(url("/etag"), { cache: false });
    expect(pageRequests("/etag").at(-1)?.headers["if-none-match"]).toBeUndefined();
  });
});
