/**
 * The crawl test site itself, fetched with plain node:http and a Host header: the tree's link
 * counts and topic words, robots.txt with and without a delay, the sitemaps listing exactly
 * expectedPaths(), the traps' links, the duplicates' bodies, the failures, the other hosts, and
 * the request log's in-flight bookkeeping, a close() that does not wait for /slow, and web.map
 * reading it all through the guard.
 */
import { get } from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CRAWL_ARTICLES,
  CRAWL_CONTENT_PAGES,
  CRAWL_DOCS_HOST,
  CRAWL_DUPLICATES,
  CRAWL_FORBIDDEN_LINKS,
  CRAWL_INDEXES,
  CRAWL_NAV_LINKS,
  CRAWL_OTHER_HOST,
  CRAWL_PRIVATE_PATH,
  CRAWL_SECTIONS,
  CRAWL_TRAPS,
  type CrawlSite,
  expectedPaths,
  startCrawlSite,
} from "../helpers/crawl-site.js";
import { testWeb } from "../helpers/web.js";

interface Reply {
  status: number;
  type: string;
  body: Buffer;
  text: string;
}

/** GET from the site's port on 127.0.0.1, naming `host` in the Host header. */
function fetchFrom(site: CrawlSite, path: string, host = "crawl.test"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = get(
      { host: "127.0.0.1", port: site.port, path, headers: { host: `${host}:${site.port}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"]),
            body,
            text: body.toString("utf8"),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

/** The hrefs inside one element (`main`, `nav`) of a page. */
function hrefs(page: string, element: string): string[] {
  const inner = new RegExp(`<${element}>([\\s\\S]*?)</${element}>`).exec(page)?.[1] ?? "";
  return [...inner.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
}

const title = (page: string) => /<title>(.*?)<\/title>/.exec(page)?.[1];
const locs = (xml: string) => [...xml.matchAll(/<loc>(.*?)<\/loc>/g)].map((m) => m[1]!);
const TOPICS = CRAWL_SECTIONS.map((s) => s.topic);

let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite({ slowMs: 60_000 });
});

afterAll(async () => {
  await site.close();
});

describe("the crawl site's description", () => {
  it("counts 300 articles, 35 indexes and 339 content pages, each path once", () => {
    const paths = expectedPaths();
    expect(CRAWL_ARTICLES).toBe(300);
    expect(CRAWL_INDEXES).toBe(35);
    expect(paths).toHaveLength(CRAWL_CONTENT_PAGES);
    expect(CRAWL_CONTENT_PAGES).toBe(1 + 35 + 300 + 3);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.slice(0, 9)).toEqual([
      "/",
      "/s/a/",
      "/s/b/",
      "/s/c/",
      "/s/d/",
      "/s/e/",
      "/dup/one",
      "/canon/main",
      "/loop/",
    ]);
    for (const left of [...Object.keys(CRAWL_DUPLICATES), CRAWL_PRIVATE_PATH, "/slow"]) {
      expect(paths).not.toContain(left);
    }
  });
});

describe("crawl.test", () => {
  it("links the home page to the sections, the extras, the traps and the forbidden links", async () => {
    const home = await fetchFrom(site, "/");
    expect(home.status).toBe(200);
    expect(home.type).toBe("text/html; charset=utf-8");
    expect(hrefs(home.text, "nav")).toHaveLength(CRAWL_NAV_LINKS);
    const main = hrefs(home.text, "main");
    expect(main.slice(0, 5)).toEqual(CRAWL_SECTIONS.map((s) => `/s/${s.letter}/`));
    for (const href of [
      "/dup/one",
      "/dup/two",
      "/canon/alias",
      "/canon/main",
      "/loop/",
      ...Object.values(CRAWL_TRAPS),
      "/fail/500",
      "/fail/404",
      "/slow",
      CRAWL_PRIVATE_PATH,
      site.url("/", CRAWL_DOCS_HOST),
      site.url("/page", CRAWL_OTHER_HOST),
      ...CRAWL_FORBIDDEN_LINKS,
    ]) {
      expect(main).toContain(href);
    }
  });

  it("gives each index its children and each article its next and section links", async () => {
    const section = await fetchFrom(site, "/s/c/");
    expect(hrefs(section.text, "main")).toEqual([1, 2, 3, 4, 5, 6].map((n) => `/s/c/${n}/`));
    const sub = await fetchFrom(site, "/s/c/4/");
    const subLinks = hrefs(sub.text, "main");
    expect(subLinks).toHaveLength(11);
    expect(subLinks.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `/s/c/4/p${i + 1}`));
    expect(subLinks[10]).toBe("/s/c/");
    const article = await fetchFrom(site, "/s/c/4/p3");
    expect(hrefs(article.text, "main")).toEqual(["/s/c/4/p4", "/s/c/"]);
    expect(hrefs((await fetchFrom(site, "/s/c/4/p10")).text, "main")[0]).toBe("/s/c/4/p1");
    expect(hrefs(article.text, "nav")).toEqual(hrefs(section.text, "nav"));
    expect((await fetchFrom(site, "/s/c/7/")).status).toBe(404);
    expect((await fetchFrom(site, "/s/c/4/p11")).status).toBe(404);
  });

  it("writes distinct titles and keeps each topic word inside its own section", async () => {
    const pages = ["/", "/s/a/", "/s/a/1/", "/s/a/1/p1", "/s/a/1/p2", "/s/a/2/p1", "/s/c/6/p10"];
    const texts = await Promise.all(pages.map(async (p) => (await fetchFrom(site, p)).text));
    expect(new Set(texts.map(title)).size).toBe(pages.length);
    const article = texts[6]!;
    expect(title(article)).toBe("Chemistry article ten of part six, section C");
    const body = /<main>([\s\S]*)<\/main>/.exec(article)![1]!;
    expect(body.match(/<p>/g)!.length).toBeGreaterThanOrEqual(2);
    expect(body).toContain("chemistry");
    for (const topic of TOPICS.filter((t) => t !== "chemistry")) {
      expect(article.toLowerCase()).not.toContain(topic);
    }
    expect(texts[3]).toContain("<footer>");
  });

  it("serves robots.txt and sitemaps that list exactly the expected paths", async () => {
    const robots = await fetchFrom(site, "/robots.txt");
    expect(robots.type).toBe("text/plain; charset=utf-8");
    expect(robots.text).toBe(
      `User-agent: *\nDisallow: /private/\n\nSitemap: ${site.url("/sitemap-index.xml")}\n`,
    );
    const index = await fetchFrom(site, "/sitemap-index.xml");
    expect(index.type).toBe("application/xml");
    expect(locs(index.text)).toEqual([
      site.url("/sitemaps/sections.xml"),
      site.url("/sitemaps/articles.xml.gz"),
    ]);
    const sections = await fetchFrom(site, "/sitemaps/sections.xml");
    const articles = await fetchFrom(site, "/sitemaps/articles.xml.gz");
    expect(articles.type).toBe("application/gzip");
    const articleLocs = locs(gunzipSync(articles.body).toString("utf8"));
    expect(articleLocs).toHaveLength(CRAWL_ARTICLES);
    expect([...locs(sections.text), ...articleLocs].sort()).toEqual(
      expectedPaths()
        .map((p) => site.url(p))
        .sort(),
    );
  });

  it("adds Crawl-delay only when asked", async () => {
    const delayed = await startCrawlSite({ crawlDelaySeconds: 2 });
    try {
      const robots = await fetchFrom(delayed, "/robots.txt");
      expect(robots.text).toContain("Disallow: /private/\nCrawl-delay: 2\n");
      expect(robots.text).toContain(`Sitemap: ${delayed.url("/sitemap-index.xml")}`);
    } finally {
      await delayed.close();
    }
  });

  it("builds endless traps", async () => {
    const december = await fetchFrom(site, "/calendar/2026/12");
    expect(title(december.text)).toBe("Calendar for December 2026");
    expect(hrefs(december.text, "main")).toEqual(["/calendar/2026/11", "/calendar/2027/1"]);
    const far = await fetchFrom(site, "/calendar/98765/1");
    expect(hrefs(far.text, "main")).toEqual(["/calendar/98764/12", "/calendar/98765/2"]);
    expect((await fetchFrom(site, "/calendar/2026/13")).status).toBe(404);
    const s1 = await fetchFrom(site, "/session?sid=1");
    const s2 = await fetchFrom(site, "/session?sid=2");
    expect(hrefs(s1.text, "main")).toEqual(["/session?sid=2"]);
    expect(hrefs(s2.text, "main")).toEqual(["/session?sid=3"]);
    expect(title(s1.text)).toBe(title(s2.text));
    const deep = await fetchFrom(site, "/deep/x/x/x/");
    expect(deep.status).toBe(200);
    expect(hrefs(deep.text, "main")).toEqual(["x/"]);
    expect(title(deep.text)).toBe("Deeper, level 3");
    const loop = await fetchFrom(site, "/loop/");
    for (const href of hrefs(loop.text, "main")) {
      expect(new URL(href, site.url("/loop/")).pathname).toBe("/loop/");
    }
  });

  it("serves duplicates byte for byte, the canonical pair naming /canon/main", async () => {
    const [one, two, alias, main] = await Promise.all(
      ["/dup/one", "/dup/two", "/canon/alias", "/canon/main"].map((p) => fetchFrom(site, p)),
    );
    expect(one!.body.equals(two!.body)).toBe(true);
    expect(alias!.body.equals(main!.body)).toBe(true);
    expect(alias!.text).toContain(`<link rel="canonical" href="${site.url("/canon/main")}">`);
  });

  it("fails where it says, with HTML bodies", async () => {
    const broken = await fetchFrom(site, "/fail/500");
    expect(broken.status).toBe(500);
    expect(broken.type).toBe("text/html; charset=utf-8");
    expect((await fetchFrom(site, "/fail/404")).status).toBe(404);
    expect((await fetchFrom(site, "/nowhere")).type).toBe("text/html; charset=utf-8");
    expect((await fetchFrom(site, CRAWL_PRIVATE_PATH)).status).toBe(200);
  });
});

describe("the other hosts", () => {
  it("serves docs.crawl.test's three pages and other.test's one", async () => {
    const home = await fetchFrom(site, "/", CRAWL_DOCS_HOST);
    expect(title(home.text)).toBe("Documentation home");
    expect(hrefs(home.text, "nav")).toEqual(["/", "/guide", "/reference"]);
    expect((await fetchFrom(site, "/guide", CRAWL_DOCS_HOST)).status).toBe(200);
    expect((await fetchFrom(site, "/reference", CRAWL_DOCS_HOST)).status).toBe(200);
    expect((await fetchFrom(site, "/s/a/", CRAWL_DOCS_HOST)).status).toBe(404);
    const other = await fetchFrom(site, "/page", CRAWL_OTHER_HOST);
    expect(title(other.text)).toBe("Another site");
  });
});

describe("the request log", () => {
  it("records host, path, query and times, and counts requests served at once", async () => {
    const own = await startCrawlSite({ slowMs: 60_000 });
    await fetchFrom(own, "/page", CRAWL_OTHER_HOST);
    await fetchFrom(own, "/session?sid=7&x=1");
    const [first, second] = own.requests;
    expect(first).toMatchObject({ host: CRAWL_OTHER_HOST, path: "/page", query: "" });
    expect(second).toMatchObject({ host: "crawl.test", path: "/session", query: "sid=7&x=1" });
    expect(first!.end).toBeGreaterThanOrEqual(first!.start);
    expect(own.maxInFlight(CRAWL_OTHER_HOST)).toBe(1);
    expect(own.maxInFlight(CRAWL_DOCS_HOST)).toBe(0);

    // Three slow requests wait together; close() ends them without waiting for the timer.
    const pending = [1, 2, 3].map(() => fetchFrom(own, "/slow").catch((error: Error) => error));
    while (own.requests.filter((r) => r.path === "/slow").length < 3) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(own.maxInFlight("crawl.test")).toBe(3);
    expect(own.requests.filter((r) => r.path === "/slow").every((r) => Number.isNaN(r.end))).toBe(
      true,
    );
    await own.close();
    for (const outcome of await Promise.all(pending)) expect(outcome).toBeInstanceOf(Error);
  });
});

describe("through the real stack", () => {
  it("web.map reads robots.txt and both sitemaps: every expected path, nothing private", async () => {
    const t = testWeb(undefined, { allowAddresses: [`127.0.0.1:${site.port}`] });
    try {
      const result = await t.web.map(site.url("/"), { limit: 5_000 });
      const urls = result.links.map((link) => link.url);
      for (const path of expectedPaths()) expect(urls).toContain(site.url(path));
      expect(urls.some((u) => u.includes("/private/") || !u.startsWith(site.url("/")))).toBe(false);
    } finally {
      await t.web.close();
    }
    expect(t.recorder.refused).toEqual([]);
  });
});
