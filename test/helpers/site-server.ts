/**
 * A small web site for mapping and crawling tests, on 127.0.0.1: the Host header picks the site,
 * so names the injected lookup maps to 127.0.0.1 act as different hosts. `site.test` has a
 * robots.txt with Sitemap lines and a Disallow, a sitemap index with a nested index, a gzip file
 * and a gzip-encoded one, duplicate URLs (fragments, session ids), links to another host, to a
 * subdomain and to private addresses; reached as 127.0.0.1 it is the same site under that name. `big.test` has a sitemap over the per-file URL cap,
 * `deep.test` indexes nested past the depth cap, and `slow.test` never answers (a request waits
 * until the server closes). Every request is counted by host and path.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import zlib from "node:zlib";
import { listenOnLoopback } from "./listen.js";

export interface SiteServer {
  port: number;
  /** `http://{host}:{port}{path}`. */
  url(path: string, host?: string): string;
  /** Requests seen, keyed `host path` (host without the port). */
  hits: Map<string, number>;
  /** Hosts that were asked anything. */
  hosts(): Set<string>;
  close(): Promise<void>;
}

/** Pages of site.test listed by its plain sitemap. */
export const SITE_PAGES = 20;
/** Posts of site.test listed by its gzip sitemap. */
export const SITE_POSTS = 10;
/** Documentation pages of site.test, in the gzip-encoded sitemap under the nested index. */
export const SITE_DOCS = ["install", "getting-started", "api-reference", "pricing-faq"] as const;
/** A long path the start page links to, for patterns that backtrack on it. */
export const ARCHIVE_PATH = `/archive/${"a".repeat(40)}`;
/** URLs in big.test's sitemap: one more than a sitemap may hold. */
export const BIG_SITEMAP_URLS = 50_001;

function urlset(locs: readonly { loc: string; lastmod?: string }[]): string {
  const items = locs
    .map(
      ({ loc, lastmod }) =>
        `<url><loc>${loc.replace(/&/g, "&amp;")}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}<image:image><image:loc>${loc}/image.png</image:loc></image:image></url>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
${items}
</urlset>`;
}

function sitemapIndex(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join("\n")}
</sitemapindex>`;
}

function page(title: string, body = ""): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>A page of the test site about ${title}.</p>${body}</main></body></html>`;
}

/** Starts the site server on 127.0.0.1 with an ephemeral port. */
export async function startSiteServer(): Promise<SiteServer> {
  const hits = new Map<string, number>();
  let port = 0;
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;
  let big: Buffer | undefined;

  const routes = (
    host: string,
    path: string,
  ): { type: string; body: string | Buffer; encoding?: string } | undefined => {
    const xml = (body: string) => ({ type: "application/xml", body });
    if (host === "site.test" || host === "www.site.test" || host === "127.0.0.1") {
      // Reached by its IP (a CLI run has no test resolver), the site names itself so.
      const own = host === "127.0.0.1" ? host : "site.test";
      switch (path) {
        case "/robots.txt":
          return {
            type: "text/plain",
            body: `User-agent: *\nDisallow: /private/\n\nSitemap: ${at(own, "/sitemap-index.xml")}\nSitemap: ${at("other.test", "/sitemap.xml")}\n`,
          };
        case "/sitemap-index.xml":
          return xml(
            sitemapIndex([
              at(own, "/sitemaps/pages.xml"),
              at(own, "/sitemaps/blog.xml.gz"),
              at(own, "/sitemaps/nested-index.xml"),
              at("internal.site.test", "/sitemap.xml"),
              at("other.test", "/sitemap.xml"),
              at(own, "/sitemaps/missing.xml"),
            ]),
          );
        case "/sitemaps/pages.xml":
          return xml(
            urlset([
              ...Array.from({ length: SITE_PAGES }, (_, i) => ({
                loc: at(own, `/page/${i + 1}`),
                lastmod: `2026-0${(i % 9) + 1}-15`,
              })),
              { loc: at(own, "/page/1#comments") },
              { loc: at(own.toUpperCase(), "/page/2?jsessionid=ABC123&lang=en") },
              { loc: at(own, "/page/2?lang=en") },
              { loc: at(own, "/private/secret") },
              { loc: at("other.test", "/elsewhere") },
              { loc: at("blog.site.test", "/post") },
              { loc: "ftp://site.test/file" },
            ]),
          );
        case "/sitemaps/blog.xml.gz":
          return {
            type: "application/gzip",
            body: zlib.gzipSync(
              urlset(
                Array.from({ length: SITE_POSTS }, (_, i) => ({
                  loc: at(own, `/blog/post-${i + 1}`),
                })),
              ),
            ),
          };
        case "/sitemaps/nested-index.xml":
          return xml(sitemapIndex([at(own, "/sitemaps/docs.xml")]));
        case "/sitemaps/docs.xml":
          return {
            type: "application/xml",
            encoding: "gzip",
            body: zlib.gzipSync(
              urlset(SITE_DOCS.map((name) => ({ loc: at(own, `/docs/${name}`) }))),
            ),
          };
        case "/":
          return {
            type: "text/html",
            body: page(
              "Site Home",
              `<nav><a href="/about">About us</a> <a href="/contact">Contact</a></nav>
<p><a href="/page/1#section">First page</a> <a href="/page/3?PHPSESSID=zz9">Third page</a>
<a href="/docs/install">Installation guide</a> <a href="/private/hidden">Hidden</a>
<a href="${at("other.test", "/from-home")}">Other site</a> <a href="http://10.0.0.9/admin">Router</a>
<a href="mailto:someone@site.test">Mail</a> <a href="${at("www.site.test", "/team")}">Our team</a>
<a href="${at("blog.site.test", "/hello")}">Blog</a> <a href="${ARCHIVE_PATH}">Archive</a></p>`,
            ),
          };
        default:
          if (/^\/(page|blog|docs|about|contact|team|archive)/.test(path)) {
            return { type: "text/html", body: page(`Site ${path}`) };
          }
          return undefined;
      }
    }
    if (host === "big.test") {
      if (path === "/robots.txt") {
        return { type: "text/plain", body: `Sitemap: ${at("big.test", "/big.xml")}\n` };
      }
      if (path === "/big.xml") {
        big ??= Buffer.from(
          urlset(
            Array.from({ length: BIG_SITEMAP_URLS }, (_, i) => ({ loc: at("big.test", `/p${i}`) })),
          ),
        );
        return { type: "application/xml", body: big };
      }
      if (path === "/") return { type: "text/html", body: page("Big") };
      return undefined;
    }
    if (host === "deep.test") {
      const level = /^\/level-(\d+)\.xml$/.exec(path);
      if (path === "/sitemap.xml") return xml(sitemapIndex([at("deep.test", "/level-1.xml")]));
      if (level) {
        const n = Number(level[1]);
        return xml(
          n < 5
            ? sitemapIndex([at("deep.test", `/level-${n + 1}.xml`)])
            : urlset([{ loc: at("deep.test", "/bottom") }]),
        );
      }
      if (path === "/") return { type: "text/html", body: page("Deep", '<a href="/top">Top</a>') };
      return undefined;
    }
    return undefined;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    const path = (req.url ?? "/").split("?")[0]!;
    const key = `${host} ${path}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    if (host === "slow.test") return; // held open: close() ends it
    const route = routes(host, path);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": route.type,
      ...(route.encoding ? { "content-encoding": route.encoding } : {}),
    });
    res.end(route.body);
  });
  const listening = await listenOnLoopback(server);
  port = listening.port;

  return {
    port,
    url: (path, host = "site.test") => at(host, path),
    hits,
    hosts: () => new Set([...hits.keys()].map((key) => key.split(" ")[0]!)),
    async close() {
      await listening.close();
    },
  };
}
