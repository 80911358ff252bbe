/**
 * The parts of a map that crawl reuses, without a network: URL normalization (session ids,
 * fragments, default ports), the site test, path patterns, sitemap parsing (urlset, index,
 * text, namespaces, image entries, the cap), ranking by a query.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { isWebFetchError, WebFetchError } from "../../src/errors.js";
import { rankLinks } from "../../src/site/rank.js";
import { checkPathPatterns, filterPaths, siteTest } from "../../src/site/scope.js";
import { parseSitemap } from "../../src/site/sitemap.js";
import { readSitemaps } from "../../src/site/sitemaps.js";
import { siteUrl } from "../../src/site/url.js";

describe("siteUrl", () => {
  it("lowercases scheme and host, drops the fragment and the default port", () => {
    expect(siteUrl("HTTPS://Example.COM:443/A/b?x=1#top")).toBe("https://example.com/A/b?x=1");
  });
  it("drops session-id parameters, keeping the rest in their order", () => {
    expect(siteUrl("http://a.example/p?z=1&PHPSESSID=abc&a=2&sid=9")).toBe(
      "http://a.example/p?z=1&a=2",
    );
    expect(siteUrl("http://a.example/p?jsessionid=1")).toBe("http://a.example/p");
    expect(siteUrl("http://a.example/p?ASPSESSIONIDQACRBTSA=x&q=1")).toBe("http://a.example/p?q=1");
    expect(siteUrl("http://a.example/cart;jsessionid=ABC?x=1")).toBe("http://a.example/cart?x=1");
    expect(siteUrl("http://a.example/p?side=1")).toBe("http://a.example/p?side=1");
  });
  it("resolves against a base and refuses what cannot be fetched", () => {
    expect(siteUrl("../b", "https://a.example/x/y")).toBe("https://a.example/b");
    expect(siteUrl("mailto:x@a.example")).toBeUndefined();
    expect(siteUrl("ftp://a.example/")).toBeUndefined();
    expect(siteUrl("http://user:pw@a.example/")).toBeUndefined();
    expect(siteUrl(`http://a.example/${"x".repeat(3000)}`)).toBeUndefined();
  });
});

describe("siteTest", () => {
  const start = new URL("https://www.example.co.uk/");
  it("keeps the start host, with or without www., whatever the scheme", () => {
    const inSite = siteTest(start, false);
    expect(inSite(new URL("http://example.co.uk/a"))).toBe(true);
    expect(inSite(new URL("https://docs.example.co.uk/a"))).toBe(false);
    expect(inSite(new URL("https://example.com/a"))).toBe(false);
  });
  it("widens to the registrable domain's hosts with includeSubdomains", () => {
    const inSite = siteTest(start, true);
    expect(inSite(new URL("https://docs.example.co.uk/a"))).toBe(true);
    expect(inSite(new URL("https://other.co.uk/a"))).toBe(false);
  });
});

describe("path patterns", () => {
  it("includes when any include matches and no exclude does", () => {
    const pass = filterPaths(["/blog/a", "/blog/draft/b", "/about"], {
      include: ["^/blog/"],
      exclude: ["/draft/"],
    });
    expect(pass).toEqual([true, false, false]);
  });
  it("refuses too many, too long, empty and invalid patterns", () => {
    const codeOf = (value: unknown) => {
      try {
        checkPathPatterns(value, "includePaths");
      } catch (error) {
        return isWebFetchError(error) ? error.code : "other";
      }
      return "ok";
    };
    expect(codeOf(["^/a"])).toBe("ok");
    expect(codeOf(Array.from({ length: 21 }, () => "a"))).toBe("INVALID_INPUT");
    expect(codeOf(["a".repeat(201)])).toBe("INVALID_INPUT");
    expect(codeOf([""])).toBe("INVALID_INPUT");
    expect(codeOf(["[a-"])).toBe("INVALID_INPUT");
    expect(codeOf("^/a")).toBe("INVALID_INPUT");
  });
});

describe("parseSitemap", () => {
  it("reads a urlset's loc and lastmod, not its image entries", () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<url><loc> https://a.example/x?a=1&amp;b=2 </loc><lastmod>2026-03-01T10:00:00+00:00</lastmod>
<image:image><image:loc>https://a.example/x.png</image:loc></image:image></url>
<url><loc>https://a.example/y</loc><lastmod>last tuesday</lastmod></url>
<url><lastmod>2026-01-01</lastmod></url></urlset>`;
    expect(parseSitemap(xml, 10)).toEqual({
      kind: "urlset",
      entries: [
        { loc: "https://a.example/x?a=1&b=2", lastmod: "2026-03-01T10:00:00+00:00" },
        { loc: "https://a.example/y" },
      ],
      dropped: 0,
    });
  });
  it("reads an index, prefixed names included", () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://a.example/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>`;
    expect(parseSitemap(xml, 10)).toEqual({
      kind: "index",
      entries: [{ loc: "https://a.example/s1.xml" }],
      dropped: 0,
    });
  });
  it("reads a text sitemap, and counts what is past the cap", () => {
    const text = "https://a.example/1\nnot a url\nhttps://a.example/2\r\nhttps://a.example/3\n";
    expect(parseSitemap(text, 2)).toEqual({
      kind: "text",
      entries: [{ loc: "https://a.example/1" }, { loc: "https://a.example/2" }],
      dropped: 1,
    });
  });
  it("finds nothing in HTML or a feed, and never expands entities it does not know", () => {
    expect(parseSitemap("<!doctype html><html><body>404</body></html>", 10).entries).toEqual([]);
    const xxe = `<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]><urlset><url><loc>https://a.example/&x;</loc></url></urlset>`;
    expect(parseSitemap(xxe, 10).entries[0]?.loc).not.toContain("root:");
  });
});

describe("rankLinks", () => {
  it("ranks by the words of the path and the title, best first, dropping the rest", () => {
    const links = [
      { url: "https://a.example/about" },
      { url: "https://a.example/docs/install-guide" },
      { url: "https://a.example/p/12", title: "How to install" },
      { url: "https://a.example/blog/install-install-install-news" },
    ];
    const ranked = rankLinks(links, "install guide");
    expect(ranked[0]?.url).toBe("https://a.example/docs/install-guide");
    expect(ranked.map((l) => l.url)).not.toContain("https://a.example/about");
    expect(ranked).toHaveLength(3);
  });
});

describe("readSitemaps", () => {
  const index = (locs: string[]) =>
    `<sitemapindex>${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join("")}</sitemapindex>`;
  const urlset = (locs: string[]) =>
    `<urlset>${locs.map((l) => `<url><loc>${l}</loc></url>`).join("")}</urlset>`;
  const files: Record<string, Uint8Array> = {
    "https://a.example/index.xml": Buffer.from(
      index([
        "https://a.example/s1.xml",
        "not a url",
        "https://a.example/s1.xml",
        "https://a.example/s2.xml.gz",
        "https://a.example/gone.xml",
      ]),
    ),
    "https://a.example/s1.xml": Buffer.from(urlset(["https://a.example/1", "https://a.example/2"])),
    "https://a.example/s2.xml.gz": gzipSync(urlset(["https://a.example/3"])),
  };
  const limits = {
    maxBytes: 1024 * 1024,
    maxUrlsPerFile: 100,
    maxUrls: 100,
    maxFiles: 10,
    maxDepth: 3,
    concurrency: 2,
  };
  const fetched: string[] = [];
  const options = {
    limits,
    readable: (url: string) => URL.canParse(url),
    stopped: () => false,
    fetch: async (url: string) => {
      fetched.push(url);
      const body = files[url];
      if (!body) throw new WebFetchError("HTTP_ERROR", "Page not found (404)", { status: 404 });
      return body;
    },
  };

  it("walks an index in order, each file once, gzip inflated, failures named", async () => {
    const read = await readSitemaps(
      [
        { url: "https://a.example/index.xml", guessed: false },
        { url: "https://a.example/sitemap.xml", guessed: true },
      ],
      options,
    );
    expect(read.entries.map((e) => e.loc)).toEqual([
      "https://a.example/1",
      "https://a.example/2",
      "https://a.example/3",
    ]);
    expect(read.problems).toEqual([
      { kind: "sitemap-failed", url: "https://a.example/gone.xml", reason: "Page not found (404)" },
    ]);
    expect(fetched.filter((u) => u === "https://a.example/s1.xml")).toHaveLength(1);
    expect(fetched).not.toContain("not a url");
  });

  it("stops at the file and URL caps and says so", async () => {
    const read = await readSitemaps([{ url: "https://a.example/index.xml", guessed: false }], {
      ...options,
      limits: { ...limits, maxFiles: 2, maxUrls: 1 },
    });
    expect(read.entries).toHaveLength(1);
    expect(read.problems).toContainEqual({ kind: "sitemaps-too-many", max: 2 });
    expect(read.problems).toContainEqual({ kind: "urls-cut", max: 1 });
  });
});
