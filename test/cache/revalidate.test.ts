/**
 * HTTP revalidation of stale cache entries, on every store (memory, a real SQLite file, a real
 * redis-server): a page stored with an ETag or Last-Modified is kept past its freshness, asked
 * for again with If-None-Match / If-Modified-Since, and a 304 refreshes it without a new
 * download; a changed page replaces it. Then the same through two instances sharing one store.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CacheStoreKind } from "../../src/options.js";
import { articleHtml } from "../helpers/fixture-server.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { type TestWeb, testWeb } from "../helpers/web.js";

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

const LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT";

const withRedis = hasService("redis-server");
let redis: RedisServer | undefined;
const dir = mkdtempSync(join(tmpdir(), "webfetch-revalidate-"));

beforeAll(async () => {
  if (withRedis) redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each<CacheStoreKind>(["memory", "sqlite"])("revalidation, %s store", revalidation);
describe.runIf(withRedis)("revalidation, redis store", () => revalidation("redis"));

function revalidation(store: CacheStoreKind): void {
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
    t = testWeb(undefined, { allowAddresses: [`127.0.0.1:${port}`], ...storeOptions(store) });
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
}

/** Instance options for one store kind: a fresh SQLite file, or a fresh key prefix on Redis. */
function storeOptions(store: CacheStoreKind, name: string = store) {
  if (store === "sqlite") return { cacheStore: store, cachePath: join(dir, `${name}.sqlite`) };
  if (store === "redis") {
    // A database of its own per test, so runs never see each other's pages.
    return { cacheStore: store, cacheUrl: `${redis?.url}/${name === "redis" ? 1 : 2}` };
  }
  return { cacheStore: store };
}

describe("two instances sharing a sqlite store", () => sharing("sqlite"));
describe.runIf(withRedis)("two instances sharing a redis store", () => sharing("redis"));

function sharing(store: CacheStoreKind): void {
  it("the second instance is served what the first fetched, and revalidates it", async () => {
    let requests = 0;
    let conditional = 0;
    const server = createServer((req, res) => {
      if (req.url === "/robots.txt") {
        res.writeHead(404);
        res.end();
        return;
      }
      requests++;
      if (req.headers["if-none-match"] === '"same"') {
        conditional++;
        res.writeHead(304, { etag: '"same"' });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "text/html", etag: '"same"' });
      res.end(articleHtml("Shared page", 5));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as AddressInfo).port;
    const options = { allowAddresses: [`127.0.0.1:${port}`], ...storeOptions(store, "shared") };
    const first = testWeb(undefined, options);
    const second = testWeb(undefined, options);
    try {
      const url = `http://shared.test:${port}/page`;
      const fetched = await first.web.fetch(url);
      expect(fetched.cached).toBe(false);
      const hit = await second.web.fetch(url);
      expect(hit.cached).toBe(true);
      expect(hit.content).toBe(fetched.content);
      expect(requests).toBe(1);
      const revalidated = await second.web.fetch(url, { maxAge: 0 });
      expect(revalidated.cached).toBe(true);
      expect(conditional).toBe(1);
      // The refresh is shared too: the first instance sees a fresh entry again.
      expect((await first.web.fetch(url)).cached).toBe(true);
      expect(requests).toBe(2);
    } finally {
      await first.web.close();
      await second.web.close();
      server.closeAllConnections();
      server.close();
    }
  });
}
