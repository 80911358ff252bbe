/**
 * web.map() against the local test site: sitemaps found through robots.txt (an index, a nested
 * index, a gzip file, a gzip-encoded one), the start page's links, normalization and duplicates,
 * the site, path and robots.txt filters, search, the caps, and that no socket went anywhere but
 * the site server's port (another host, a private address named by an index or a link).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../../src/limits.js";
import {
  ARCHIVE_PATH,
  BIG_SITEMAP_URLS,
  SITE_DOCS,
  SITE_PAGES,
  SITE_POSTS,
  type SiteServer,
  startSiteServer,
} from "../helpers/site-server.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";

let server: SiteServer;
let t: TestWeb;

beforeAll(async () => {
  server = await startSiteServer();
  t = testWeb(undefined, {
    allowAddresses: [`127.0.0.1:${server.port}`],
    names: { "internal.site.test": "10.0.0.5" },
  });
});

afterAll(async () => {
  await t.web.close();
  await server.close();
  // Nothing but the site server was ever dialled: not other.test's sitemap (another site), not
  // 10.0.0.5 (refused by the guard before any socket), not the 10.0.0.9 link (never fetched).
  expect(t.recorder.refused).toEqual([]);
  for (const attempt of t.recorder.attempts) {
    expect(attempt).toEqual({ hostname: "127.0.0.1", port: String(server.port) });
  }
  expect(server.hosts().has("other.test")).toBe(false);
  expect(server.hosts().has("internal.site.test")).toBe(false);
});

describe("web.map", () => {
  it("lists the sitemaps' URLs, then the start page's, normalized and each once", async () => {
    const result = await t.web.map(server.url("/"), { limit: 5_000 });
    const urls = result.links.map((l) => l.url);
    expect(result.url).toBe(server.url("/"));
    expect(result.truncated).toBe(false);
    // Sitemap order: the plain sitemap, the gzip file, the nested index's gzip-encoded one.
    expect(urls.slice(0, SITE_PAGES)).toEqual(
      Array.from({ length: SITE_PAGES }, (_, i) => server.url(`/page/${i + 1}`)),
    );
    const posts = urls.filter((u) => u.includes("/blog/post-"));
    expect(posts).toHaveLength(SITE_POSTS);
    for (const name of SITE_DOCS) expect(urls).toContain(server.url(`/docs/${name}`));
    expect(urls.indexOf(server.url("/blog/post-1"))).toBeLessThan(
      urls.indexOf(server.url("/docs/install")),
    );
    // The session id is gone, so the two spellings of /page/2?lang=en are one.
    expect(urls.filter((u) => u.includes("/page/2?"))).toEqual([server.url("/page/2?lang=en")]);
    // The start page, then its links (page order), after every sitemap URL.
    const home = urls.indexOf(server.url("/"));
    expect(home).toBeGreaterThan(urls.indexOf(server.url("/docs/pricing-faq")));
    expect(urls.slice(home)).toEqual([
      server.url("/"),
      server.url("/about"),
      server.url("/contact"),
      server.url("/team", "www.site.test"),
      server.url(ARCHIVE_PATH),
    ]);
    expect(new Set(urls).size).toBe(urls.length);
    // Not on the site, not http(s), refused by robots.txt.
    expect(urls.some((u) => u.includes("other.test") || u.includes("blog.site.test"))).toBe(false);
    expect(urls.some((u) => u.includes("10.0.0.9") || u.startsWith("ftp:"))).toBe(false);
    expect(urls.some((u) => u.includes("/private/"))).toBe(false);
    expect(urls.some((u) => u.includes("#"))).toBe(false);
  });

  it("gives titles from the start page's links and lastmod from the sitemap", async () => {
    const { links } = await t.web.map(server.url("/"));
    const byUrl = new Map(links.map((l) => [l.url, l]));
    expect(byUrl.get(server.url("/"))?.title).toBe("Site Home");
    expect(byUrl.get(server.url("/about"))?.title).toBe("About us");
    // Found first in a sitemap (with lastmod), its title comes from the link.
    expect(byUrl.get(server.url("/page/1"))).toEqual({
      url: server.url("/page/1"),
      title: "First page",
      lastmod: "2026-01-15",
    });
    expect(byUrl.get(server.url("/docs/install"))?.title).toBe("Installation guide");
  });

  it("names what could not be read in warnings, and keeps the rest", async () => {
    const { warnings } = await t.web.map(server.url("/"));
    expect(warnings).toEqual([
      expect.stringContaining(
        `${server.url("/sitemap.xml", "internal.site.test")} could not be read (Blocked`,
      ),
      expect.stringContaining(
        `${server.url("/sitemaps/missing.xml")} could not be read (Page not found (404)`,
      ),
    ]);
  });

  it("reads the sitemaps alone with sitemap: only, the start page alone with skip", async () => {
    const only = await t.web.map(server.url("/"), { sitemap: "only", limit: 5_000 });
    expect(only.links.map((l) => l.url)).not.toContain(server.url("/about"));
    expect(only.links).toHaveLength(SITE_PAGES + 1 + SITE_POSTS + SITE_DOCS.length);
    const skip = await t.web.map(server.url("/"), { sitemap: "skip" });
    expect(skip.links.map((l) => l.url)).toEqual([
      server.url("/"),
      server.url("/about"),
      server.url("/contact"),
      server.url("/page/1"),
      server.url("/page/3"),
      server.url("/docs/install"),
      server.url("/team", "www.site.test"),
      server.url(ARCHIVE_PATH),
    ]);
  });

  it("cuts at limit and says truncated", async () => {
    const result = await t.web.map(server.url("/"), { limit: 3 });
    expect(result.links).toHaveLength(3);
    expect(result.truncated).toBe(true);
  });

  it("widens to subdomains with includeSubdomains", async () => {
    const { links } = await t.web.map(server.url("/"), { includeSubdomains: true, limit: 5_000 });
    const urls = links.map((l) => l.url);
    expect(urls).toContain(server.url("/post", "blog.site.test"));
    expect(urls).toContain(server.url("/hello", "blog.site.test"));
    expect(urls.some((u) => u.includes("other.test"))).toBe(false);
  });

  it("filters paths with includePaths and excludePaths", async () => {
    const docs = await t.web.map(server.url("/"), { includePaths: ["^/docs/"] });
    expect(docs.links.map((l) => l.url)).toEqual(SITE_DOCS.map((n) => server.url(`/docs/${n}`)));
    const noPages = await t.web.map(server.url("/"), {
      excludePaths: ["^/page/", "^/blog/"],
      limit: 5_000,
    });
    expect(noPages.links.some((l) => /\/(page|blog)\//.test(l.url))).toBe(false);
    expect(noPages.links.map((l) => l.url)).toContain(server.url("/about"));
  });

  it("ranks by search, best first, leaving out links that do not match", async () => {
    const { links } = await t.web.map(server.url("/"), { search: "installation guide" });
    expect(links[0]?.url).toBe(server.url("/docs/install"));
    const pricing = await t.web.map(server.url("/"), { search: "pricing" });
    expect(pricing.links.map((l) => l.url)).toEqual([server.url("/docs/pricing-faq")]);
  });

  it("refuses bad path patterns and search as INVALID_INPUT", async () => {
    expect((await failure(t.web.map(server.url("/"), { includePaths: ["("] }))).code).toBe(
      "INVALID_INPUT",
    );
    const long = "a".repeat(LIMITS.pathPatternMaxLength + 1);
    expect((await failure(t.web.map(server.url("/"), { excludePaths: [long] }))).code).toBe(
      "INVALID_INPUT",
    );
    expect((await failure(t.web.map(server.url("/"), { search: " " }))).code).toBe("INVALID_INPUT");
    await expect(t.web.map(server.url("/"), { limit: 0 })).rejects.toThrow(RangeError);
  });

  it("stops a catastrophic path pattern and calls it INVALID_INPUT", async () => {
    const error = await failure(
      t.web.map(server.url("/"), { sitemap: "skip", includePaths: ["^/archive/(a+)+b$"] }),
    );
    expect(error.code).toBe("INVALID_INPUT");
  }, 30_000);

  it("reads the first 50,000 URLs of a sitemap over the cap, and warns", async () => {
    const result = await t.web.map(server.url("/", "big.test"), {
      sitemap: "only",
      limit: 10,
    });
    expect(result.truncated).toBe(true);
    expect(result.links[0]?.url).toBe(server.url("/p0", "big.test"));
    expect(result.warnings?.[0]).toContain(
      `more than ${LIMITS.sitemapMaxUrls.toLocaleString("en-US")} URLs`,
    );
    expect(BIG_SITEMAP_URLS).toBeGreaterThan(LIMITS.sitemapMaxUrls);
  }, 60_000);

  it("stops at the nesting cap of sitemap indexes", async () => {
    const result = await t.web.map(server.url("/", "deep.test"));
    expect(result.links.map((l) => l.url)).not.toContain(server.url("/bottom", "deep.test"));
    expect(result.links.map((l) => l.url)).toContain(server.url("/top", "deep.test"));
    expect(result.warnings?.join("\n")).toContain("nested more than 3 levels");
    expect(server.hits.has(`deep.test /level-${LIMITS.sitemapMaxDepth + 1}.xml`)).toBe(false);
  });

  it("throws the start page's error when nothing could be read", async () => {
    const error = await failure(t.web.map("http://10.0.0.9/", { sitemap: "skip" }));
    expect(error.code).toBe("BLOCKED_ADDRESS");
  });

  it("is cancelled by its signal, and answers TIMEOUT when its deadline leaves nothing read", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(t.web.map(server.url("/"), { signal: controller.signal })).rejects.toThrow();
    // A site that never answers: the deadline passes with nothing read, however fast the
    // machine (a start URL of a quick site could be read within even 1 ms).
    const error = await failure(t.web.map(server.url("/", "slow.test"), { timeout: 50 }));
    expect(error.code).toBe("TIMEOUT");
  });

  it("reads each sitemap through the guarded fetcher, robots.txt included", async () => {
    expect(server.hits.get("site.test /robots.txt")).toBe(1);
    expect(server.hits.get("site.test /sitemap-index.xml")).toBeGreaterThan(0);
  });
});
