/**
 * web.map(): a site's URLs without reading its pages. They come from its sitemaps (robots.txt
 * `Sitemap:` lines and the usual paths, indexes and gzip files included) and from the links of
 * the start page; each is normalized, listed once, kept on the site and the caller's paths, and
 * left out when robots.txt refuses it. Every byte comes through the instance's guarded fetcher
 * (address guard, domain lists, robots.txt for each sitemap, the byte caps) within one deadline.
 */
import { checkTimeout, oneOf } from "../checks.js";
import { isWebFetchError, WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { Deadline } from "../net/deadline.js";
import { parseTargetUrl } from "../net/url.js";
import { MAP_DEFAULTS, type MapOptions } from "../options.js";
import type { MapLink, MapResult } from "../result.js";
import { checkQuery } from "../search/validate.js";
import { rankLinks } from "../site/rank.js";
import { checkPathPatterns, filterPaths, type PathPatterns, siteTest } from "../site/scope.js";
import { readSitemaps, type SitemapRoot } from "../site/sitemaps.js";
import { siteUrl } from "../site/url.js";
import { SITEMAP_MODES, type SitemapMode } from "../values.js";
import { type MapWarning, mapWarningText } from "../warnings.js";
import { proseFormat, resolveCall } from "./call.js";
import type { PageLoader } from "./loader.js";
import { logOutcome } from "./outcome.js";
import { type Resources, refuseOffline } from "./resources.js";

/** Where a site's sitemaps usually are, when robots.txt names none (or as well). */
const USUAL_SITEMAPS = ["/sitemap.xml", "/sitemap_index.xml"] as const;

/** One map's options, checked, over MAP_DEFAULTS and the instance's. */
interface MapCall {
  limit: number;
  search?: string;
  sitemap: SitemapMode;
  includeSubdomains: boolean;
  paths: PathPatterns;
  timeout: number;
  signal?: AbortSignal;
}

/** A URL found, before filtering. */
interface Found {
  url: string;
  title?: string;
  lastmod?: string;
}

/** What the start page gave: its URL and links, or why it failed. */
interface StartPage {
  found: Found[];
  error?: WebFetchError;
}

/** The start page when it is not fetched (`sitemap: "only"`). */
const NO_PAGE: StartPage = { found: [] };

export class SiteMapper {
  readonly #resources: Resources;
  readonly #loader: PageLoader;

  constructor(resources: Resources, loader: PageLoader) {
    this.#resources = resources;
    this.#loader = loader;
  }

  map(url: string, options: MapOptions = {}): Promise<MapResult> {
    let result: MapResult | undefined;
    return logOutcome(
      this.#resources.logger,
      "map",
      async () => {
        result = await this.#map(url, checkMap(options, this.#resources.resolved.timeout));
        return result;
      },
      () => ({ url, links: result?.links.length, truncated: result?.truncated }),
    );
  }

  async #map(url: string, call: MapCall): Promise<MapResult> {
    const { resolved, fetcher } = this.#resources;
    const target = parseTargetUrl(url);
    refuseOffline(resolved);
    if (resolved.endpoint) {
      // Remote mode keeps every fetch in the service; a map here would fetch sitemaps itself.
      throw new WebFetchError(
        "INVALID_INPUT",
        "map is not available in remote mode (endpoint): call the service's /v1/map instead",
        { retryable: false },
      );
    }
    fetcher.checkTarget(target);
    const start = siteUrl(target.url.href)!;
    const deadline = new Deadline(call.timeout, call.signal);
    try {
      const warnings: MapWarning[] = [];
      const inSite = siteTest(target.url, call.includeSubdomains);

      const [fromSitemaps, fromPage] = await Promise.all([
        call.sitemap === "skip" ? [] : this.#sitemaps(target.url, deadline, warnings),
        call.sitemap === "only" ? NO_PAGE : this.#startPage(start, deadline),
      ]);
      if (deadline.cancelled) deadline.throwIfDone();
      if (fromSitemaps.length === 0 && fromPage.found.length === 0) {
        // Nothing to list: the reason is the answer (a blocked address, a dead host, the time).
        if (fromPage.error) throw fromPage.error;
        if (deadline.expired) throw deadline.timeoutError();
      }
      if (fromPage.error && !deadline.expired) {
        warnings.push({ kind: "start-page-failed", reason: fromPage.error.message });
      }
      if (deadline.expired) warnings.push({ kind: "map-timeout" });

      let links = this.#scoped(merge([...fromSitemaps, ...fromPage.found]), inSite, call.paths);
      if (call.search !== undefined) links = rankLinks(links, call.search);
      const allowed = await this.#allowedByRobots(links, call.limit + 1, deadline, warnings);
      if (deadline.cancelled) deadline.throwIfDone();
      return {
        url: start,
        links: allowed.slice(0, call.limit),
        truncated: allowed.length > call.limit,
        ...(warnings.length > 0
          ? { warnings: unique(warnings.map((w) => mapWarningText(w, resolved.locale))) }
          : {}),
      };
    } finally {
      deadline.close();
    }
  }

  /** The site's sitemap entries, in the order the files list them. */
  async #sitemaps(start: URL, deadline: Deadline, warnings: MapWarning[]): Promise<Found[]> {
    const { fetcher, resolved } = this.#resources;
    const roots: SitemapRoot[] = [];
    try {
      const rules = await fetcher.robotsRules(start, deadline);
      for (const loc of rules?.sitemaps ?? []) {
        const url = siteUrl(loc, start.origin);
        if (url) roots.push({ url, guessed: false });
      }
    } catch (error) {
      if (deadline.cancelled) throw error;
      // No robots.txt to read: the usual paths are still worth a try.
    }
    for (const path of USUAL_SITEMAPS) roots.push({ url: `${start.origin}${path}`, guessed: true });
    // Sitemaps are read from the site's own registrable domain only (a sitemap may sit on
    // www. or a static host of the site), never from a host an index points elsewhere.
    const ownSite = siteTest(start, true);
    const read = await readSitemaps(roots, {
      readable: (url) => URL.canParse(url) && ownSite(new URL(url)),
      stopped: () => deadline.signal.aborted,
      limits: {
        maxBytes: LIMITS.sitemapMaxBytes,
        maxUrlsPerFile: LIMITS.sitemapMaxUrls,
        maxUrls: LIMITS.mapMaxCandidates,
        maxFiles: LIMITS.sitemapMaxFiles,
        maxDepth: LIMITS.sitemapMaxDepth,
        concurrency: LIMITS.sitemapConcurrency,
      },
      fetch: async (url) => {
        const release = await deadline.slot((signal) => this.#resources.fetches.acquire(signal));
        try {
          const raw = await fetcher.fetch(
            parseTargetUrl(url),
            {
              redirects: resolved.redirects,
              maxRedirects: resolved.maxRedirects,
              robots: resolved.robots,
              headers: {},
              maxBytes: LIMITS.sitemapMaxBytes,
            },
            deadline,
          );
          return raw.body;
        } finally {
          release();
        }
      },
    });
    warnings.push(...read.problems);
    this.#resources.logger.debug({ url: start.href, files: read.files }, "map: sitemaps read");
    return read.entries.map((entry) => ({
      url: entry.loc,
      ...(entry.lastmod ? { lastmod: entry.lastmod } : {}),
    }));
  }

  /** The start page itself and its links, each with its text as title; or why it failed. */
  async #startPage(start: string, deadline: Deadline): Promise<StartPage> {
    const { resolved } = this.#resources;
    const call = resolveCall(resolved, {
      format: proseFormat(resolved.format),
      links: true,
      timeout: Math.max(1, deadline.remaining()),
      signal: deadline.signal,
    });
    try {
      const found = await this.#loader.withPage(start, call, ({ page }) => [
        { url: start, ...(page.title ? { title: page.title } : {}) },
        ...(page.links ?? []).map((link) => ({
          url: link.url,
          ...(link.text ? { title: link.text } : {}),
        })),
      ]);
      return { found };
    } catch (error) {
      if (deadline.cancelled || !isWebFetchError(error)) throw error;
      return { found: [], error };
    }
  }

  /** The links on the site, the domain lists and the caller's paths. */
  #scoped(links: MapLink[], inSite: (url: URL) => boolean, paths: PathPatterns): MapLink[] {
    const { fetcher } = this.#resources;
    const onSite = links.filter((link) => {
      const url = new URL(link.url);
      if (!inSite(url)) return false;
      try {
        fetcher.checkTarget({ url, hostname: url.hostname.replace(/\.+$/, ""), port: 0 });
        return true;
      } catch {
        return false;
      }
    });
    const pass = filterPaths(
      onSite.map((link) => new URL(link.url).pathname),
      paths,
    );
    return onSite.filter((_, i) => pass[i]);
  }

  /**
   * The links robots.txt allows, in order, up to `wanted` of them: each host's robots.txt is
   * fetched once (at most LIMITS.mapMaxRobotsHosts hosts), then matched without I/O.
   */
  async #allowedByRobots(
    links: MapLink[],
    wanted: number,
    deadline: Deadline,
    warnings: MapWarning[],
  ): Promise<MapLink[]> {
    const { fetcher, resolved } = this.#resources;
    if (resolved.robots === "ignore") return links.slice(0, wanted);
    const judges = new Map<string, ((url: URL) => boolean) | undefined>();
    const out: MapLink[] = [];
    for (const link of links) {
      if (out.length >= wanted) break;
      const url = new URL(link.url);
      let judge = judges.get(url.origin);
      if (!judges.has(url.origin)) {
        if (judges.size >= LIMITS.mapMaxRobotsHosts) {
          warnings.push({ kind: "robots-hosts", max: LIMITS.mapMaxRobotsHosts });
        } else {
          judge = await fetcher.robotsJudge(url, deadline).catch((error: unknown) => {
            if (deadline.cancelled) throw error;
            // Unreachable robots.txt: RFC 9309 treats the site as disallowed for now.
            return undefined;
          });
        }
        judges.set(url.origin, judge);
      }
      if (judge?.(url)) out.push(link);
    }
    return out;
  }
}

/**
 * The URLs normalized and listed once, at their first place; a later sighting lends its title or
 * lastmod to a first one that had none.
 */
function merge(found: readonly Found[]): MapLink[] {
  const byUrl = new Map<string, MapLink>();
  for (const item of found) {
    const url = siteUrl(item.url);
    if (url === undefined) continue;
    const known = byUrl.get(url);
    if (known) {
      if (!known.title && item.title) known.title = item.title;
      if (!known.lastmod && item.lastmod) known.lastmod = item.lastmod;
      continue;
    }
    byUrl.set(url, {
      url,
      ...(item.title ? { title: item.title } : {}),
      ...(item.lastmod ? { lastmod: item.lastmod } : {}),
    });
  }
  return [...byUrl.values()];
}

function unique(texts: string[]): string[] {
  return [...new Set(texts)];
}

/** A map's options over MAP_DEFAULTS. Caller-given text (search, paths) is INVALID_INPUT. */
export function checkMap(options: MapOptions, instanceTimeout: number): MapCall {
  const limit = options.limit ?? MAP_DEFAULTS.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.mapMaxLinks) {
    throw new RangeError(`limit must be an integer from 1 to ${LIMITS.mapMaxLinks}, got ${limit}`);
  }
  const includeSubdomains = options.includeSubdomains ?? MAP_DEFAULTS.includeSubdomains;
  if (typeof includeSubdomains !== "boolean") {
    throw new RangeError(`includeSubdomains must be true or false, got ${includeSubdomains}`);
  }
  return {
    limit,
    ...(options.search === undefined ? {} : { search: checkQuery(options.search, "search") }),
    sitemap: oneOf("sitemap", options.sitemap ?? MAP_DEFAULTS.sitemap, SITEMAP_MODES),
    includeSubdomains,
    paths: {
      include: checkPathPatterns(options.includePaths, "includePaths"),
      exclude: checkPathPatterns(options.excludePaths, "excludePaths"),
    },
    timeout: checkTimeout(options.timeout ?? instanceTimeout),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}
