/**
 * A generated web site for breadth-first crawl tests, on 127.0.0.1: the Host header picks the
 * site, so names the injected lookup maps to 127.0.0.1 act as different hosts. Everything is
 * deterministic.
 *
 * `crawl.test` (also answered as `127.0.0.1`, where it names itself so):
 * - A tree: `/` links to 5 section indexes `/s/{a..e}/`, each to 6 sub-sections `/s/a/1/`, each
 *   to 10 articles `/s/a/1/p1`…`/p10`. Every section has a topic word (a astronomy, b botany,
 *   c chemistry, d geology, e zoology) used only in its own pages' titles and text, with the
 *   section letter and numbers in words. Articles link to the next article and back to their
 *   section index. Every page shares a `<nav>` (home and the 5 sections) and a `<footer>`.
 * - Duplicates: `/dup/one` and `/dup/two` are byte-identical; `/canon/alias` and `/canon/main`
 *   are byte-identical and both say `<link rel="canonical">` is `/canon/main`. `/loop/` links to
 *   itself through dot segments only.
 * - Traps: an endless calendar `/calendar/2026/11` (previous and next month, any year), session
 *   ids `/session?sid=N` linking to `sid=N+1` with the same content, `/deep/x/` linking to the
 *   relative `x/` forever.
 * - Failures: `/fail/500`, `/fail/404`, and `/slow` answering after `slowMs`.
 * - Never to be fetched: `/private/secret` (robots.txt disallows `/private/`), `other.test/page`
 *   (another host, which does answer), `10.0.0.1` and `169.254.169.254` (private and metadata
 *   addresses), a `mailto:` link.
 * - robots.txt with `Crawl-delay` when asked and a Sitemap index: a plain sitemap of the indexes
 *   and extra pages, a gzip file of the articles; together they list exactly expectedPaths().
 *
 * `docs.crawl.test` is a 3-page subdomain site the home page links to; `other.test` serves one
 * page. Every request is logged with its host, path, query and start and end times.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import zlib from "node:zlib";
import { listenOnLoopback } from "./listen.js";

export interface CrawlSiteOptions {
  /** Adds `Crawl-delay: N` to robots.txt; absent, robots.txt has no delay. */
  crawlDelaySeconds?: number;
  /** How long `/slow` waits before answering. @default 3000 */
  slowMs?: number;
  /**
   * How long every other answer waits, ms, like a server that takes its time (a crawl's speed
   * then depends on how many requests it has in flight). @default 0
   */
  latencyMs?: number;
}

export interface CrawlRequest {
  /** Host header without the port, lowercased. */
  host: string;
  path: string;
  /** The query string without `?`; empty when there is none. */
  query: string;
  /** performance.now() when the request arrived. */
  start: number;
  /** performance.now() when the response ended (or its socket closed); NaN until then. */
  end: number;
}

export interface CrawlSite {
  port: number;
  /** `http://{host}:{port}{path}`. */
  url(path: string, host?: string): string;
  /** Every request, in arrival order. */
  requests: CrawlRequest[];
  /** The most requests to `host` that were being served at the same time. */
  maxInFlight(host: string): number;
  /** Destroys open sockets and pending timers, then closes the server. */
  close(): Promise<void>;
}

export const CRAWL_HOST = "crawl.test";
export const CRAWL_DOCS_HOST = "docs.crawl.test";
export const CRAWL_OTHER_HOST = "other.test";
/** Section letters and their topic words, in link order. */
export const CRAWL_SECTIONS = [
  { letter: "a", topic: "astronomy" },
  { letter: "b", topic: "botany" },
  { letter: "c", topic: "chemistry" },
  { letter: "d", topic: "geology" },
  { letter: "e", topic: "zoology" },
] as const;
/** Sub-sections per section. */
export const CRAWL_SUBSECTIONS = 6;
/** Articles per sub-section. */
export const CRAWL_ARTICLES_PER_SUBSECTION = 10;
/** All article pages: 300. */
export const CRAWL_ARTICLES =
  CRAWL_SECTIONS.length * CRAWL_SUBSECTIONS * CRAWL_ARTICLES_PER_SUBSECTION;
/** Section and sub-section index pages: 35. */
export const CRAWL_INDEXES = CRAWL_SECTIONS.length * (1 + CRAWL_SUBSECTIONS);
/** Links inside `<nav>` on every crawl.test page: home and the 5 sections. */
export const CRAWL_NAV_LINKS = 1 + CRAWL_SECTIONS.length;
/** Pages besides the tree that a correct crawl returns, first spellings of the duplicates. */
export const CRAWL_EXTRA_PAGES = ["/dup/one", "/canon/main", "/loop/"] as const;
/** A duplicate's path → the path a deduplicating crawl returns instead. */
export const CRAWL_DUPLICATES: Readonly<Record<string, string>> = {
  "/dup/two": "/dup/one",
  "/canon/alias": "/canon/main",
};
/**
 * Where each endless trap starts, as linked from `/`. `sid` is a session-id parameter, so a
 * crawler that drops those sees the session trap as the single page `/session`.
 */
export const CRAWL_TRAPS = {
  calendar: "/calendar/2026/11",
  session: "/session?sid=1",
  deep: "/deep/x/",
} as const;
/** Failing pages linked from `/` and their statuses. */
export const CRAWL_FAILING: Readonly<Record<string, number>> = {
  "/fail/500": 500,
  "/fail/404": 404,
};
/** Answers only after `slowMs`. */
export const CRAWL_SLOW_PATH = "/slow";
/** Disallowed by robots.txt, linked from `/`. */
export const CRAWL_PRIVATE_PATH = "/private/secret";
/** Paths of docs.crawl.test, home first. */
export const CRAWL_DOCS_PATHS = ["/", "/guide", "/reference"] as const;
/** Path of other.test's page. */
export const CRAWL_OTHER_PATH = "/page";
/** Links on `/` that leave the machine's allowed set and must never be dialled. */
export const CRAWL_FORBIDDEN_LINKS = [
  "http://10.0.0.1/admin",
  "http://169.254.169.254/latest/meta-data/",
  "mailto:webmaster@crawl.test",
] as const;

const WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
/** Nouns per topic, for generated text that stays inside its section. */
const NOUNS: Record<string, readonly string[]> = {
  astronomy: ["stars", "galaxies", "telescopes", "orbits", "nebulae", "comets", "planets"],
  botany: ["ferns", "pollen", "roots", "seeds", "mosses", "orchids", "leaves"],
  chemistry: ["molecules", "acids", "catalysts", "isotopes", "polymers", "salts", "reactions"],
  geology: ["minerals", "strata", "fossils", "glaciers", "basalt", "faults", "volcanoes"],
  zoology: ["beetles", "herons", "mammals", "corals", "reptiles", "otters", "molluscs"],
};
const MONTHS =
  "January February March April May June July August September October November December".split(
    " ",
  );

const word = (n: number) => WORDS[n - 1]!;
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const sectionPath = (letter: string) => `/s/${letter}/`;
const subPath = (letter: string, sub: number) => `/s/${letter}/${sub}/`;
const articlePath = (letter: string, sub: number, n: number) => `/s/${letter}/${sub}/p${n}`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/**
 * Every path a full, correct crawl of crawl.test from `/` returns, each once, in breadth-first
 * order (links in document order): `/`, the 5 sections, the extra pages (`/dup/one`,
 * `/canon/main`, `/loop/`), the 30 sub-sections, the 300 articles. Left out: the duplicates'
 * second spellings (`/dup/two`, `/canon/alias`), every trap page (calendar, session, deep), the
 * failing and slow pages, `/private/secret`, robots.txt and sitemaps, other hosts' pages.
 */
export function expectedPaths(): string[] {
  const letters = CRAWL_SECTIONS.map((s) => s.letter);
  return [
    "/",
    ...letters.map(sectionPath),
    ...CRAWL_EXTRA_PAGES,
    ...letters.flatMap((l) => range(CRAWL_SUBSECTIONS).map((sub) => subPath(l, sub))),
    ...letters.flatMap((l) =>
      range(CRAWL_SUBSECTIONS).flatMap((sub) =>
        range(CRAWL_ARTICLES_PER_SUBSECTION).map((n) => articlePath(l, sub, n)),
      ),
    ),
  ];
}

/** Distinct real content pages reachable from `/`: 339. */
export const CRAWL_CONTENT_PAGES = expectedPaths().length;

const NAV = `<nav><a href="/">Home</a>${CRAWL_SECTIONS.map((s) => ` <a href="${sectionPath(s.letter)}">Index ${s.letter.toUpperCase()}</a>`).join("")}</nav>`;
const FOOTER = "<footer><p>Crawl test site. Generated pages, same footer everywhere.</p></footer>";

function html(title: string, main: string, head = "", nav = NAV, footer = FOOTER): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title>${head}</head>
<body>${nav}
<main><h1>${title}</h1>
${main}
</main>
${footer}</body></html>`;
}

const links = (items: readonly [string, string][]) =>
  `<ul>${items.map(([href, text]) => `<li><a href="${href}">${text}</a></li>`).join("")}</ul>`;

function sectionOf(letter: string) {
  const section = CRAWL_SECTIONS.find((s) => s.letter === letter)!;
  return { ...section, nouns: NOUNS[section.topic]!, upper: letter.toUpperCase() };
}

function sectionPage(letter: string): string {
  const { topic, upper, nouns } = sectionOf(letter);
  return html(
    `${cap(topic)}: section ${upper}`,
    `<p>Section ${upper} gathers every ${topic} page of the site, from ${nouns[0]} to ${nouns[6]}.</p>
<p>It has ${word(CRAWL_SUBSECTIONS)} parts; each ${topic} part holds ${word(CRAWL_ARTICLES_PER_SUBSECTION)} articles.</p>
${links(range(CRAWL_SUBSECTIONS).map((sub) => [subPath(letter, sub), `${cap(topic)} part ${word(sub)}`]))}`,
  );
}

function subPage(letter: string, sub: number): string {
  const { topic, upper, nouns } = sectionOf(letter);
  return html(
    `${cap(topic)} part ${word(sub)}, section ${upper}`,
    `<p>Part ${word(sub)} of section ${upper} covers ${topic} questions about ${nouns[sub % 7]} and ${nouns[(sub + 3) % 7]}.</p>
<p>The ${word(CRAWL_ARTICLES_PER_SUBSECTION)} ${topic} articles below are numbered one to ten.</p>
${links(range(CRAWL_ARTICLES_PER_SUBSECTION).map((n) => [articlePath(letter, sub, n), `${cap(topic)} article ${word(n)} of part ${word(sub)}`]))}
<p><a href="${sectionPath(letter)}">Back to section ${upper}</a></p>`,
  );
}

function articlePage(letter: string, sub: number, n: number): string {
  const { topic, upper, nouns } = sectionOf(letter);
  const first = nouns[(n + sub) % 7]!;
  const second = nouns[(n * 3 + sub + 1) % 7]!;
  const next = n < CRAWL_ARTICLES_PER_SUBSECTION ? n + 1 : 1;
  const third =
    n % 2 === 1
      ? `\n<p>A closing ${topic} note for section ${upper}, part ${word(sub)}, article ${word(n)}: ${second} outlast ${first}.</p>`
      : "";
  return html(
    `${cap(topic)} article ${word(n)} of part ${word(sub)}, section ${upper}`,
    `<p>This ${topic} article, number ${word(n)} in part ${word(sub)} of section ${upper}, looks at ${first} and ${second}.</p>
<p>Readers of ${topic} part ${word(sub)} learn how ${first} relate to ${second}; article ${word(n)} ends with a short list.</p>${third}
<p><a href="${articlePath(letter, sub, next)}">Next ${topic} article</a> <a href="${sectionPath(letter)}">Back to section ${upper}</a></p>`,
  );
}

type Route = { status?: number; type: string; body: string | Buffer; delay?: boolean };

const page = (body: string, status = 200): Route => ({
  status,
  type: "text/html; charset=utf-8",
  body,
});

function urlset(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((loc) => `<url><loc>${loc}</loc></url>`).join("\n")}
</urlset>`;
}

/** Starts the crawl site on 127.0.0.1 with an ephemeral port. */
export async function startCrawlSite(options: CrawlSiteOptions = {}): Promise<CrawlSite> {
  const slowMs = options.slowMs ?? 3000;
  const latencyMs = options.latencyMs ?? 0;
  const requests: CrawlRequest[] = [];
  const inFlight = new Map<string, number>();
  const maxima = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let port = 0;
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;

  const crawlRoute = (own: string, path: string, query: string): Route | undefined => {
    const tree = /^\/s\/([a-e])\/(?:(\d+)\/(?:p(\d+))?)?$/.exec(path);
    if (tree) {
      const [, letter, sub, n] = tree;
      if (sub === undefined) return page(sectionPage(letter!));
      const s = Number(sub);
      if (s < 1 || s > CRAWL_SUBSECTIONS || String(s) !== sub) return undefined;
      if (n === undefined) return page(subPage(letter!, s));
      const a = Number(n);
      if (a < 1 || a > CRAWL_ARTICLES_PER_SUBSECTION || String(a) !== n) return undefined;
      return page(articlePage(letter!, s, a));
    }
    const month = /^\/calendar\/(\d{1,6})\/(\d{1,2})$/.exec(path);
    if (month) {
      const [y, m] = [Number(month[1]), Number(month[2])];
      if (m < 1 || m > 12) return undefined;
      const prev = m === 1 ? `${y - 1}/12` : `${y}/${m - 1}`;
      const next = m === 12 ? `${y + 1}/1` : `${y}/${m + 1}`;
      return page(
        html(
          `Calendar for ${MONTHS[m - 1]} ${y}`,
          `<p>No events in ${MONTHS[m - 1]} ${y}.</p>
<p><a href="/calendar/${prev}">Previous month</a> <a href="/calendar/${next}">Next month</a></p>`,
        ),
      );
    }
    if (/^\/deep\/(x\/)+$/.test(path)) {
      const level = path.split("/").length - 3;
      return page(html(`Deeper, level ${level}`, `<p>Go deeper.</p><a href="x/">Deeper</a>`));
    }
    switch (path) {
      case "/robots.txt":
        return {
          type: "text/plain; charset=utf-8",
          body: `User-agent: *\nDisallow: /private/\n${options.crawlDelaySeconds === undefined ? "" : `Crawl-delay: ${options.crawlDelaySeconds}\n`}\nSitemap: ${at(own, "/sitemap-index.xml")}\n`,
        };
      case "/sitemap-index.xml":
        return {
          type: "application/xml",
          body: `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${at(own, "/sitemaps/sections.xml")}</loc></sitemap>
<sitemap><loc>${at(own, "/sitemaps/articles.xml.gz")}</loc></sitemap>
</sitemapindex>`,
        };
      case "/sitemaps/sections.xml":
        return {
          type: "application/xml",
          body: urlset(
            expectedPaths()
              .filter((p) => !/\/p\d+$/.test(p))
              .map((p) => at(own, p)),
          ),
        };
      case "/sitemaps/articles.xml.gz":
        return {
          type: "application/gzip",
          body: zlib.gzipSync(
            urlset(
              expectedPaths()
                .filter((p) => /\/p\d+$/.test(p))
                .map((p) => at(own, p)),
            ),
          ),
        };
      case "/":
        return page(homePage());
      case "/dup/one":
      case "/dup/two":
        return page(
          html("Duplicated notice", "<p>This notice is published under two addresses.</p>"),
        );
      case "/canon/alias":
      case "/canon/main":
        return page(
          html(
            "Canonical notice",
            "<p>This notice names its canonical address in its head.</p>",
            `<link rel="canonical" href="${at(own, "/canon/main")}">`,
          ),
        );
      case "/loop/":
        return page(
          html(
            "Loop",
            `<p>Every link here resolves back to this page.</p>
<a href="./">Here</a> <a href="../loop/">Here again</a> <a href="a/../">And again</a> <a href="b/../../loop/">Once more</a>`,
          ),
        );
      case "/session": {
        const sid = Number(new URLSearchParams(query).get("sid") ?? "0") || 0;
        return page(
          html(
            "Session page",
            `<p>The same page under every session id.</p><a href="/session?sid=${sid + 1}">Continue</a>`,
          ),
        );
      }
      case "/fail/500":
        return page(html("Server error", "<p>Something broke.</p>"), 500);
      case CRAWL_SLOW_PATH:
        return { ...page(html("Slow page", "<p>Worth the wait.</p>")), delay: true };
      case CRAWL_PRIVATE_PATH:
        return page(html("Private", "<p>Robots may not read this.</p>"));
      default:
        return undefined;
    }
  };

  const homePage = () =>
    html(
      "Crawl Test Site",
      `<p>A generated site with five sections of articles, duplicates, traps and failures.</p>
${links(CRAWL_SECTIONS.map((s) => [sectionPath(s.letter), `Section ${s.letter.toUpperCase()}: ${s.topic}`]))}
${links([
  ["/dup/one", "Notice"],
  ["/dup/two", "Notice, again"],
  ["/canon/alias", "Canonical notice (alias)"],
  ["/canon/main", "Canonical notice"],
  ["/loop/", "Loop"],
  [at(CRAWL_DOCS_HOST, "/"), "Documentation"],
  [CRAWL_TRAPS.calendar, "Calendar"],
  [CRAWL_TRAPS.session, "Session"],
  [CRAWL_TRAPS.deep, "Deep"],
  ["/fail/500", "Broken"],
  ["/fail/404", "Missing"],
  [CRAWL_SLOW_PATH, "Slow"],
  [CRAWL_PRIVATE_PATH, "Secret"],
  [at(CRAWL_OTHER_HOST, CRAWL_OTHER_PATH), "Another site"],
  ...CRAWL_FORBIDDEN_LINKS.map((href): [string, string] => [href, "Off limits"]),
])}`,
    );

  const docsNav = `<nav><a href="/">Docs home</a> <a href="/guide">Guide</a> <a href="/reference">Reference</a></nav>`;
  const docsRoute = (path: string): Route | undefined => {
    const titles: Record<string, string> = {
      "/": "Documentation home",
      "/guide": "Documentation guide",
      "/reference": "Documentation reference",
    };
    const title = titles[path];
    if (!title) return undefined;
    return page(
      html(title, `<p>The ${title.toLowerCase()} of the crawl test site.</p>`, "", docsNav, ""),
    );
  };

  const route = (host: string, path: string, query: string): Route | undefined => {
    if (host === CRAWL_HOST || host === "127.0.0.1") return crawlRoute(host, path, query);
    if (host === CRAWL_DOCS_HOST) return docsRoute(path);
    if (host === CRAWL_OTHER_HOST && path === CRAWL_OTHER_PATH) {
      return page(html("Another site", "<p>A page on a different host.</p>", "", "", ""));
    }
    return undefined;
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "").toLowerCase();
    const [path = "/", query = ""] = (req.url ?? "/").split(/\?(.*)/s);
    const entry: CrawlRequest = { host, path, query, start: performance.now(), end: Number.NaN };
    requests.push(entry);
    const live = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, live);
    maxima.set(host, Math.max(maxima.get(host) ?? 0, live));
    res.on("close", () => {
      entry.end = performance.now();
      inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
    });
    const found =
      route(host, path, query) ??
      page(html("Not found", `<p>Nothing lives at ${path.replace(/[<>&"]/g, "")}.</p>`), 404);
    const send = () => {
      res.writeHead(found.status ?? 200, { "content-type": found.type });
      res.end(found.body);
    };
    const wait = found.delay ? slowMs : latencyMs;
    if (wait === 0) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, wait);
    timers.add(timer);
    res.on("close", () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  });
  const listening = await listenOnLoopback(server);
  port = listening.port;

  return {
    port,
    url: (path, host = CRAWL_HOST) => at(host, path),
    requests,
    maxInFlight: (host) => maxima.get(host) ?? 0,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await listening.close();
    },
  };
}
