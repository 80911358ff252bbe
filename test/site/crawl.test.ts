/**
 * web.crawl() against the local crawl site: every real page once and nothing else (duplicates,
 * canonical URLs, traps, robots.txt, other hosts, private addresses), breadth-first order, the
 * limits and filters, a query that finds its section first, Crawl-delay and the per-origin
 * limit, cancelling by signal and by the reader, and the start page's failures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWebFetchError } from "../../src/errors.js";
import { LIMITS } from "../../src/limits.js";
import type { CrawlPage, CrawlSummary } from "../../src/result.js";
import type { CrawlRun } from "../../src/webfetch/crawl.js";
import {
  CRAWL_DOCS_HOST,
  CRAWL_DOCS_PATHS,
  CRAWL_DUPLICATES,
  CRAWL_FAILING,
  CRAWL_HOST,
  CRAWL_OTHER_HOST,
  CRAWL_PRIVATE_PATH,
  type CrawlSite,
  expectedPaths,
  startCrawlSite,
} from "../helpers/crawl-site.js";
import { type TestWeb, testWeb } from "../helpers/web.js";

let site: CrawlSite;
let t: TestWeb;

beforeAll(async () => {
  site = await startCrawlSite({ slowMs: 200 });
  t = testWeb(undefined, { allowAddresses: [`127.0.0.1:${site.port}`] });
});

afterAll(async () => {
  await t.web.close();
  await site.close();
  // Only the site's port was ever dialled: never 10.0.0.1 or the metadata address.
  expect(t.recorder.refused).toEqual([]);
  for (const attempt of t.recorder.attempts) {
    expect(attempt).toEqual({ hostname: "127.0.0.1", port: String(site.port) });
  }
});

async function collect(run: CrawlRun): Promise<{ pages: CrawlPage[]; summary: CrawlSummary }> {
  const pages: CrawlPage[] = [];
  for await (const page of run) pages.push(page);
  return { pages, summary: await run.summary };
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe("web.crawl over the whole site", () => {
  let pages: CrawlPage[];
  let summary: CrawlSummary;

  beforeAll(async () => {
    ({ pages, summary } = await collect(
      t.web.crawl(site.url("/"), { limit: 1_000, maxDepth: 20 }),
    ));
  }, 120_000);

  it("returns every real page exactly once", () => {
    const paths = pages.filter((p) => new URL(p.url).host.startsWith(`${CRAWL_HOST}:`));
    const seen = paths.map((p) => pathOf(p.url));
    expect(new Set(seen).size).toBe(seen.length);
    // A page is named by the URL it was fetched as, or by the canonical URL it declares.
    const named = new Set(
      paths.flatMap((p) => [pathOf(p.url), ...(p.canonicalUrl ? [pathOf(p.canonicalUrl)] : [])]),
    );
    for (const path of expectedPaths()) expect(named).toContain(path);
    expect(summary.pages).toBe(pages.length);
    expect(summary.cancelled).toBe(false);
  });

  it("returns a duplicate or a canonical alias once, under the spelling fetched first", () => {
    const seen = pages.map((p) => pathOf(p.url));
    for (const pair of Object.entries(CRAWL_DUPLICATES)) {
      expect(seen.filter((path) => pair.includes(path))).toHaveLength(1);
    }
    expect(summary.skipped.duplicate).toBeGreaterThanOrEqual(2);
  });

  it("bounds the traps: a calendar chain, a session id, an ever-deeper path", () => {
    const seen = pages.map((p) => pathOf(p.url));
    const calendar = seen.filter((p) => p.startsWith("/calendar/"));
    // The first month and a chain each way, LIMITS.crawlMaxShapeChain long at most.
    expect(calendar.length).toBeGreaterThan(1);
    expect(calendar.length).toBeLessThanOrEqual(1 + 2 * LIMITS.crawlMaxShapeChain);
    // Session ids are not part of a URL: the session pages are one page.
    expect(seen.filter((p) => p.startsWith("/session"))).toEqual(["/session"]);
    const deep = seen.filter((p) => p.startsWith("/deep/"));
    expect(deep.length).toBeLessThanOrEqual(LIMITS.crawlMaxSegmentRepeats);
    expect(summary.skipped.filtered).toBeGreaterThan(0);
  });

  it("lists the failing pages, never fetches what robots.txt refuses or other hosts", () => {
    const failed = Object.fromEntries(summary.failed.map((f) => [pathOf(f.url), f.code]));
    for (const path of Object.keys(CRAWL_FAILING)) expect(failed[path]).toBe("HTTP_ERROR");
    expect(summary.skipped.robots).toBeGreaterThanOrEqual(1);
    const asked = site.requests.map((r) => `${r.host} ${r.path}`);
    expect(asked).not.toContain(`${CRAWL_HOST} ${CRAWL_PRIVATE_PATH}`);
    expect(site.requests.some((r) => r.host === CRAWL_OTHER_HOST)).toBe(false);
    expect(site.requests.some((r) => r.host === CRAWL_DOCS_HOST)).toBe(false);
  });

  it("fetches each URL once", () => {
    const pagesAsked = site.requests
      .filter((r) => r.host === CRAWL_HOST && r.path !== "/robots.txt")
      .map((r) => r.path + (r.query ? `?${r.query}` : ""));
    const counts = new Map<string, number>();
    for (const p of pagesAsked) counts.set(p, (counts.get(p) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
  });

  it("gives each page its depth and the page that linked to it", () => {
    const byUrl = new Map(pages.map((p) => [p.url, p]));
    for (const page of pages) {
      if (page.depth === 0) {
        expect(page.parent).toBeUndefined();
        continue;
      }
      const parent = byUrl.get(page.parent!);
      expect(parent, page.url).toBeDefined();
      expect(page.depth).toBe(parent!.depth + 1);
    }
    expect(pages.find((p) => pathOf(p.url) === "/s/c/4/p7")?.depth).toBe(3);
  });
});

describe("web.crawl's order and bounds", () => {
  it("goes breadth-first: depths never go down with one page at a time", async () => {
    const { pages } = await collect(
      t.web.crawl(site.url("/"), { limit: 60, concurrency: 1, maxDepth: 20 }),
    );
    const depths = pages.map((p) => p.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
  });

  it("fetches at most `limit` pages and counts the rest as past the limit", async () => {
    const before = site.requests.length;
    const { pages, summary } = await collect(t.web.crawl(site.url("/"), { limit: 12 }));
    const fetched = pages.length + summary.failed.length;
    expect(fetched).toBeLessThanOrEqual(12);
    expect(pages.length).toBeGreaterThan(0);
    expect(summary.skipped.limit).toBeGreaterThan(0);
    const asked = site.requests.slice(before).filter((r) => r.path !== "/robots.txt");
    expect(asked.length).toBeLessThanOrEqual(12);
  });

  it("stops at maxDepth", async () => {
    const { pages, summary } = await collect(t.web.crawl(site.url("/"), { maxDepth: 1 }));
    expect(Math.max(...pages.map((p) => p.depth))).toBe(1);
    expect(summary.skipped.limit).toBeGreaterThan(0);
  });

  it("follows only the paths asked for", async () => {
    const { pages } = await collect(
      t.web.crawl(site.url("/"), { includePaths: ["^/s/c/"], limit: 100, maxDepth: 10 }),
    );
    const rest = pages.filter((p) => p.depth > 0).map((p) => pathOf(p.url));
    expect(rest.length).toBe(6 + 60 + 1);
    for (const path of rest) expect(path).toMatch(/^\/s\/c\//);
  });

  it("follows the site's subdomains when allowed", async () => {
    const { pages } = await collect(
      t.web.crawl(site.url("/"), { allowSubdomains: true, maxDepth: 2, limit: 200 }),
    );
    const docs = pages.filter((p) => new URL(p.url).hostname === CRAWL_DOCS_HOST);
    expect(docs.map((p) => new URL(p.url).pathname).sort()).toEqual([...CRAWL_DOCS_PATHS].sort());
  });

  it("with a query, finds the pages about it first", async () => {
    const { pages } = await collect(
      t.web.crawl(site.url("/"), { query: "chemistry reactions", limit: 15, concurrency: 1 }),
    );
    const about = pages.filter((p) => pathOf(p.url).startsWith("/s/c/"));
    expect(about.length).toBeGreaterThanOrEqual(10);
  });

  it("refuses bad options before any fetch", () => {
    expect(() => t.web.crawl(site.url("/"), { limit: 0 })).toThrow(RangeError);
    expect(() => t.web.crawl(site.url("/"), { limit: LIMITS.crawlMaxPages + 1 })).toThrow(
      RangeError,
    );
    expect(() => t.web.crawl(site.url("/"), { maxDepth: -1 })).toThrow(RangeError);
    try {
      t.web.crawl(site.url("/"), { includePaths: ["("] });
      expect.unreachable();
    } catch (error) {
      expect(isWebFetchError(error) && error.code).toBe("INVALID_INPUT");
    }
    expect(() => t.web.crawl("ftp://crawl.test/")).toThrow();
  });
});

describe("web.crawl's politeness", () => {
  it("sends an origin with a Crawl-delay one request at a time, spaced by the delay", async () => {
    const slow = await startCrawlSite({ crawlDelaySeconds: 0.2 });
    const w = testWeb(undefined, { allowAddresses: [`127.0.0.1:${slow.port}`] });
    try {
      const { pages } = await collect(w.web.crawl(slow.url("/"), { limit: 5, concurrency: 4 }));
      expect(pages.length).toBeGreaterThan(1);
      // One request at a time, each starting the delay after the previous one ended (the two
      // clocks read milliseconds differently: a few of slack).
      const requests = slow.requests
        .filter((r) => r.path !== "/robots.txt")
        .sort((a, b) => a.start - b.start);
      for (let i = 1; i < requests.length; i++) {
        expect(requests[i]!.start - requests[i - 1]!.end).toBeGreaterThanOrEqual(195);
      }
    } finally {
      await w.web.close();
      await slow.close();
    }
  });

  it("lets sixteen pages wait on one crawl's signal without a leak warning", async () => {
    // Behind a Crawl-delay every page in flight waits for its turn, listening on the crawl's
    // stop signal, and each page's deadline follows the caller's signal.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const slow = await startCrawlSite({ crawlDelaySeconds: 0.01 });
    const w = testWeb(undefined, { allowAddresses: [`127.0.0.1:${slow.port}`] });
    try {
      const caller = new AbortController();
      const { pages } = await collect(
        w.web.crawl(slow.url("/"), { limit: 40, concurrency: 16, signal: caller.signal }),
      );
      expect(pages.length).toBeGreaterThan(16);
      // Node emits its warning on a later turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((x) => x.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await w.web.close();
      await slow.close();
    }
  });

  it("keeps each origin within its connection limit", async () => {
    const busy = await startCrawlSite();
    const w = testWeb(undefined, {
      allowAddresses: [`127.0.0.1:${busy.port}`],
      maxConnectionsPerOrigin: 2,
    });
    try {
      await collect(w.web.crawl(busy.url("/"), { limit: 40, concurrency: 8 }));
      expect(busy.maxInFlight(CRAWL_HOST)).toBeLessThanOrEqual(2);
    } finally {
      await w.web.close();
      await busy.close();
    }
  });
});

describe("a slow reader", () => {
  it("gets every page: the crawl waits while its buffer is full and goes on as it is read", async () => {
    const run = t.web.crawl(site.url("/s/d/"), { limit: 60, concurrency: 4, maxDepth: 3 });
    const pages: CrawlPage[] = [];
    for await (const page of run) {
      pages.push(page);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const summary = await run.summary;
    expect(summary.cancelled).toBe(false);
    expect(pages.length).toBe(summary.pages);
    expect(pages.length + summary.failed.length + summary.skipped.duplicate).toBeGreaterThan(
      LIMITS.crawlBuffer + 4,
    );
  });
});

describe("stopping a crawl", () => {
  it("stops when its signal aborts, and says so in the summary", async () => {
    const stop = new AbortController();
    const run = t.web.crawl(site.url("/"), { limit: 1_000, signal: stop.signal });
    const pages: CrawlPage[] = [];
    for await (const page of run) {
      pages.push(page);
      if (pages.length === 3) stop.abort();
    }
    const summary = await run.summary;
    expect(summary.cancelled).toBe(true);
    expect(pages.length).toBeLessThan(50);
  });

  it("stops when the reader stops reading", async () => {
    const run = t.web.crawl(site.url("/"), { limit: 1_000 });
    for await (const page of run) {
      expect(page.depth).toBe(0);
      break;
    }
    const summary = await run.summary;
    expect(summary.cancelled).toBe(true);
    expect(run.progress().pages).toBe(summary.pages);
  });

  it("abandons a slow page in flight", async () => {
    const slow = await startCrawlSite({ slowMs: 120_000 });
    const w = testWeb(undefined, { allowAddresses: [`127.0.0.1:${slow.port}`] });
    try {
      const stop = new AbortController();
      const run = w.web.crawl(slow.url("/"), {
        includePaths: ["^/slow$"],
        signal: stop.signal,
      });
      const iterating = collect(run);
      // Wait until the slow page is being served, then cancel.
      while (!slow.requests.some((r) => r.path === "/slow")) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      stop.abort();
      const { summary } = await iterating;
      expect(summary.cancelled).toBe(true);
      expect(summary.failed).toEqual([]);
    } finally {
      await w.web.close();
      await slow.close();
    }
  }, 60_000);
});

describe("a start page that gives nothing", () => {
  it("throws its error from the iteration, and the summary lists it", async () => {
    const run = t.web.crawl(site.url("/fail/500"));
    await expect(collect(run)).rejects.toMatchObject({ code: "HTTP_ERROR" });
    const summary = await run.summary;
    expect(summary.pages).toBe(0);
    expect(summary.failed.map((f) => f.code)).toEqual(["HTTP_ERROR"]);
  });

  it("throws ROBOTS_DISALLOWED when robots.txt refuses the start URL", async () => {
    const run = t.web.crawl(site.url(CRAWL_PRIVATE_PATH));
    await expect(collect(run)).rejects.toMatchObject({ code: "ROBOTS_DISALLOWED" });
    expect(site.requests.some((r) => r.path === CRAWL_PRIVATE_PATH)).toBe(false);
  });

  it("refuses a private address without a socket (the guard's error)", async () => {
    await expect(collect(t.web.crawl("http://10.0.0.1/"))).rejects.toMatchObject({
      code: "BLOCKED_ADDRESS",
    });
  });
});
