/**
 * Crawl jobs through the service: POST /v1/crawl starts one (202), GET /v1/crawl/{id} pages
 * through what it found with a cursor until it has ended, DELETE stops a running one. The site
 * is the local test site; a slow site (each page answered late, a hundred links on its start
 * page) keeps a crawl running long enough to be cancelled. Both ports are opened in the guard.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebFetchOptions } from "../../src/options.js";
import { type CrawlJobState, CrawlJobsFull } from "../../src/queue/contract.js";
import { LocalCrawlJobs } from "../../src/queue/local.js";
import type { CrawlSummary } from "../../src/result.js";
import { createApp } from "../../src/server/app.js";
import { createServer as createService } from "../../src/server/serve.js";
import { type SiteServer, startSiteServer } from "../helpers/site-server.js";
import { type TestWeb, testWeb } from "../helpers/web.js";
import { serviceSuite } from "./helpers.js";

/** Links on the slow site's start page. */
const SLOW_LINKS = 100;
/** How late the slow site answers each page, ms. */
const SLOW_MS = 150;

interface SlowSite {
  port: number;
  url(path: string): string;
  close(): Promise<void>;
}

/** A site on 127.0.0.1 (as `slow.test`) whose start page links to many pages, each answered late. */
async function startSlowSite(): Promise<SlowSite> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/robots.txt") {
      res.writeHead(404, { "content-type": "text/plain" }).end("none");
      return;
    }
    const links =
      path === "/"
        ? Array.from({ length: SLOW_LINKS }, (_, i) => `<a href="/p/${i}">Page ${i}</a>`).join(" ")
        : "";
    const timer = setTimeout(() => {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><title>Slow ${path}</title></head><body><main><h1>Slow ${path}</h1><p>A slow page at ${path}.</p>${links}</main></body></html>`,
        );
    }, SLOW_MS);
    res.on("close", () => clearTimeout(timer));
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://slow.test:${port}${path}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

let site: SiteServer;
let slow: SlowSite;
const web: WebFetchOptions = {};
beforeAll(async () => {
  [site, slow] = await Promise.all([startSiteServer(), startSlowSite()]);
  web.allowAddresses = [`127.0.0.1:${site.port}`, `127.0.0.1:${slow.port}`];
  return async () => {
    await Promise.all([site.close(), slow.close()]);
  };
});
// Polling a job is many requests: more than the default rate limit allows a client.
const s = serviceSuite({ web, server: { rateLimit: 100_000 } });

type ErrorBody = { error: { code: string; message: string } };

/** GET /v1/crawl/{id} until the job has ended (polling with small sleeps). */
async function untilEnded(id: string): Promise<CrawlJobState> {
  for (;;) {
    const res = await s.get(`/v1/crawl/${id}?limit=1`);
    expect(res.status).toBe(200);
    const state = (await res.json()) as CrawlJobState;
    if (state.status !== "running") return state;
    await sleep(50);
  }
}

/** Every page of a job, read with the cursor `limit` at a time until `next` is absent. */
async function readAll(id: string, limit: number): Promise<{ urls: string[]; reads: number }> {
  const urls: string[] = [];
  let cursor: string | undefined;
  let reads = 0;
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const res = await s.get(`/v1/crawl/${id}?${query}`);
    expect(res.status).toBe(200);
    const state = (await res.json()) as CrawlJobState;
    expect(state.pages.length).toBeLessThanOrEqual(limit);
    urls.push(...state.pages.map((page) => page.url));
    cursor = state.next;
    reads++;
  } while (cursor !== undefined);
  return { urls, reads };
}

describe("POST /v1/crawl and GET /v1/crawl/{id}", () => {
  it("crawls a site as a job whose pages are read once each through the cursor", async () => {
    const res = await s.post("/v1/crawl", {
      url: site.url("/"),
      limit: 6,
      max_depth: 1,
      concurrency: 2,
      format: "text",
    });
    expect(res.status).toBe(202);
    const started = (await res.json()) as { id: string; status: string; url: string };
    expect(started).toEqual({ id: expect.any(String), status: "running", url: site.url("/") });
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);

    const ended = await untilEnded(started.id);
    expect(ended.status).toBe("completed");
    const summary = ended.summary as CrawlSummary;
    expect(summary.cancelled).toBe(false);
    expect(summary.url).toBe(site.url("/"));
    expect(ended.progress.pages).toBe(summary.pages);
    expect(ended.error).toBeUndefined();

    const { urls, reads } = await readAll(started.id, 2);
    expect(urls.length).toBe(summary.pages);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls[0]).toBe(site.url("/"));
    expect(reads).toBe(Math.max(1, Math.ceil(summary.pages / 2)));

    const first = (await (await s.get(`/v1/crawl/${started.id}`)).json()) as CrawlJobState;
    expect(first.pages[0]).toMatchObject({ url: site.url("/"), depth: 0, format: "text" });
    expect(first.pages[0]?.parent).toBeUndefined();
    expect(first.pages.slice(1).every((page) => page.depth === 1)).toBe(true);
    expect(first.pages[1]?.parent).toBe(site.url("/"));
    expect(first.pages[0]?.links).toBeUndefined();
  });

  it("keeps every page readable while the crawl runs: the cursor picks up where it left off", async () => {
    const res = await s.post("/v1/crawl", {
      url: slow.url("/"),
      limit: 12,
      concurrency: 2,
      links: true,
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const urls: string[] = [];
    let cursor: string | undefined;
    let state: CrawlJobState;
    do {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}&limit=5` : "?limit=5";
      state = (await (await s.get(`/v1/crawl/${id}${query}`)).json()) as CrawlJobState;
      urls.push(...state.pages.map((page) => page.url));
      // Running: there may be more, so the cursor is always there.
      if (state.status === "running") expect(state.next).toBeDefined();
      cursor = state.next;
      if (state.pages.length === 0) await sleep(50);
    } while (cursor !== undefined);
    expect(state.status).toBe("completed");
    expect(urls.length).toBe(12);
    expect(new Set(urls).size).toBe(12);
    expect(urls.length).toBe(state.summary?.pages);
    expect(urls[0]).toBe(slow.url("/"));
    const first = (await (await s.get(`/v1/crawl/${id}?limit=1`)).json()) as CrawlJobState;
    expect(first.pages[0]?.links?.length).toBeGreaterThanOrEqual(SLOW_LINKS);
  });

  it("answers a start page that failed as a failed job with its error", async () => {
    const res = await s.post("/v1/crawl", { url: site.url("/no-such-page") });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const ended = await untilEnded(id);
    expect(ended.status).toBe("failed");
    expect(ended.error?.code).toBe("HTTP_ERROR");
    expect(ended.pages).toEqual([]);
    expect(ended.next).toBeUndefined();
    expect(ended.summary?.failed).toEqual([
      expect.objectContaining({ url: site.url("/no-such-page"), code: "HTTP_ERROR" }),
    ]);
  });

  it("refuses a URL it cannot crawl at once; a blocked address fails the job", async () => {
    const bad = await s.post("/v1/crawl", { url: "ftp://site.test/" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.code).toBe("INVALID_URL");
    const res = await s.post("/v1/crawl", { url: "http://10.0.0.9/" });
    expect(res.status).toBe(202);
    const ended = await untilEnded(((await res.json()) as { id: string }).id);
    expect(ended.status).toBe("failed");
    expect(ended.error?.code).toBe("BLOCKED_ADDRESS");
  });

  it("refuses bad bodies with 400 INVALID_INPUT naming the field", async () => {
    const url = site.url("/");
    const cases: [unknown, string][] = [
      [{}, "url"],
      [{ url, limit: 0 }, "limit"],
      [{ url, limit: 10_001 }, "limit"],
      [{ url, max_depth: 101 }, "max_depth"],
      [{ url, concurrency: 17 }, "concurrency"],
      [{ url, include_paths: ["("] }, "include_paths"],
      [{ url, exclude_paths: Array.from({ length: 21 }, () => "x") }, "exclude_paths"],
      [{ url, allow_external: "yes" }, "allow_external"],
      [{ url, query: "" }, "query"],
      [{ url, format: "pdf" }, "format"],
      [{ url, max_length: 0 }, "max_length"],
      [{ url, render: "sometimes" }, "render"],
      [{ url, format: "raw", include_selectors: ["main"] }, "include_selectors"],
    ];
    for (const [body, field] of cases) {
      const res = await s.post("/v1/crawl", body);
      const { error } = (await res.json()) as ErrorBody;
      expect({ field, status: res.status, code: error.code }).toEqual({
        field,
        status: 400,
        code: "INVALID_INPUT",
      });
      expect(error.message).toContain(field);
    }
    const notJson = await s.post("/v1/crawl", "{not json");
    expect(notJson.status).toBe(400);
  });

  it("refuses a bad cursor or limit with 400, and an unknown id with 404", async () => {
    const res = await s.post("/v1/crawl", { url: site.url("/"), max_depth: 0 });
    const { id } = (await res.json()) as { id: string };
    await untilEnded(id);
    for (const query of ["?limit=0", "?limit=101", "?limit=two", "?cursor=nonsense"]) {
      const bad = await s.get(`/v1/crawl/${id}${query}`);
      expect({ query, status: bad.status }).toEqual({ query, status: 400 });
      const { error } = (await bad.json()) as ErrorBody;
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(query.includes("cursor") ? "cursor" : "limit");
    }
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const method of ["GET", "DELETE"]) {
      const missing = await fetch(`${s.url}/v1/crawl/${unknown}`, { method });
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as ErrorBody).error.code).toBe("NOT_FOUND");
    }
  });
});

describe("DELETE /v1/crawl/{id}", () => {
  it("cancels a running crawl; its pages so far stay readable", async () => {
    const res = await s.post("/v1/crawl", {
      url: slow.url("/"),
      limit: SLOW_LINKS,
      concurrency: 1,
    });
    const { id } = (await res.json()) as { id: string };
    // Once the start page is in, the crawl has a hundred slow pages ahead of it.
    for (;;) {
      const state = (await (await s.get(`/v1/crawl/${id}`)).json()) as CrawlJobState;
      expect(state.status).toBe("running");
      if (state.pages.length > 0) break;
      await sleep(50);
    }
    const cancelled = await fetch(`${s.url}/v1/crawl/${id}`, { method: "DELETE" });
    expect(cancelled.status).toBe(200);
    const state = (await cancelled.json()) as CrawlJobState;
    expect(state.status).toBe("cancelled");
    expect(state.summary?.cancelled).toBe(true);
    expect(state.pages[0]?.url).toBe(slow.url("/"));
    expect(state.summary!.pages).toBeLessThan(SLOW_LINKS);

    const later = (await (await s.get(`/v1/crawl/${id}?limit=100`)).json()) as CrawlJobState;
    expect(later.status).toBe("cancelled");
    expect(later.pages.length).toBeGreaterThanOrEqual(1);
    expect(later.next).toBeUndefined();
    // Cancelling again leaves it as it is.
    const again = await fetch(`${s.url}/v1/crawl/${id}`, { method: "DELETE" });
    expect(((await again.json()) as CrawlJobState).status).toBe("cancelled");
  });
});

describe("crawl jobs of an app", () => {
  let t: TestWeb;
  beforeAll(() => {
    t = testWeb(undefined, { allowAddresses: [`127.0.0.1:${slow.port}`] });
  });
  afterAll(async () => {
    await t.web.close();
    expect(t.recorder.refused).toEqual([]);
  });

  const post = (app: ReturnType<typeof createApp>, body: unknown) =>
    app.request("/v1/crawl", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("answers 429 TOO_MANY_CRAWLS when every job kept is running, and makes room once one ends", async () => {
    const jobs = new LocalCrawlJobs(t.web, { maxJobs: 2 });
    const app = createApp({ web: t.web, crawlJobs: jobs });
    try {
      const body = { url: slow.url("/"), limit: SLOW_LINKS, concurrency: 1 };
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await post(app, body);
        expect(res.status).toBe(202);
        ids.push(((await res.json()) as { id: string }).id);
      }
      const full = await post(app, body);
      expect(full.status).toBe(429);
      expect(((await full.json()) as ErrorBody).error.code).toBe("TOO_MANY_CRAWLS");
      // A cancelled job has ended: the next job takes its place, the oldest ended first.
      const cancelled = await app.request(`/v1/crawl/${ids[0]}`, { method: "DELETE" });
      expect(cancelled.status).toBe(200);
      const next = await post(app, { ...body, max_depth: 0 });
      expect(next.status).toBe(202);
      expect((await app.request(`/v1/crawl/${ids[0]}`)).status).toBe(404);
      expect((await app.request(`/v1/crawl/${ids[1]}`)).status).toBe(200);
    } finally {
      await jobs.close();
    }
    await expect(jobs.start(slow.url("/"), {})).rejects.toThrow(/closed/);
  });

  it("forgets an ended job after keepMs", async () => {
    let now = 1_000_000;
    const jobs = new LocalCrawlJobs(t.web, { keepMs: 60_000, now: () => now });
    try {
      const { id } = await jobs.start(slow.url("/"), { maxDepth: 0 });
      let state = await jobs.get(id);
      while (state?.status === "running") {
        await sleep(50);
        state = await jobs.get(id);
      }
      expect(state?.status).toBe("completed");
      now += 59_000;
      expect((await jobs.get(id))?.status).toBe("completed");
      now += 2_000;
      expect(await jobs.get(id)).toBeUndefined();
      expect(await jobs.cancel(id)).toBeUndefined();
    } finally {
      await jobs.close();
    }
  });

  it("refuses a new job with CrawlJobsFull, and close() cancels the running ones", async () => {
    const jobs = new LocalCrawlJobs(t.web, { maxJobs: 1 });
    const { id } = await jobs.start(slow.url("/"), { limit: SLOW_LINKS, concurrency: 1 });
    await expect(jobs.start(slow.url("/"), {})).rejects.toBeInstanceOf(CrawlJobsFull);
    await jobs.close();
    expect((await jobs.get(id))?.status).toBe("cancelled");
  });

  it("cancels its running crawls when the server closes", async () => {
    const server = createService({ web: t.web, host: "127.0.0.1", port: 0 });
    const { url } = await server.listen();
    const res = await fetch(`${url}/v1/crawl`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: slow.url("/"), limit: SLOW_LINKS, concurrency: 1 }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await server.close();
    // The app still answers in-process: the job ended when the server closed.
    const state = (await (await server.app.request(`/v1/crawl/${id}`)).json()) as CrawlJobState;
    expect(state.status).toBe("cancelled");
    expect(state.summary?.cancelled).toBe(true);
  });

  it("has no crawl routes when the web_crawl tool is disabled, as a disabled tool's route", async () => {
    const app = createApp({ web: t.web, tools: { web_crawl: { enabled: false } } });
    const res = await post(app, { url: slow.url("/") });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "NOT_FOUND", message: "No route POST /v1/crawl" },
    });
    expect((await app.request("/v1/crawl/x")).status).toBe(404);
    expect((await app.request("/v1/crawl/x", { method: "DELETE" })).status).toBe(404);
    const doc = (await (await app.request("/openapi.json")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).not.toContain("/v1/crawl");
    const enabled = createApp({ web: t.web, crawlJobs: new LocalCrawlJobs(t.web) });
    const withCrawl = (await (await enabled.request("/openapi.json")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(withCrawl.paths)).toEqual(
      expect.arrayContaining(["/v1/crawl", "/v1/crawl/{id}"]),
    );
  });
});
