/**
 * Reads a site's sitemaps: from the roots found (robots.txt `Sitemap:` lines, the usual paths),
 * through sitemap indexes down to a capped depth, each file capped in bytes and URLs, gzip ones
 * inflated under the same byte cap. Fetching is injected, so every byte comes through the
 * caller's guarded fetcher; this module only decides what to read next and keeps the order:
 * entries come out in the order a reader of the files would meet them.
 */
import { Readable } from "node:stream";
import { isWebFetchError } from "../errors.js";
import { readBody } from "../fetch/body.js";
import type { SitemapEntry } from "./sitemap.js";

/** A sitemap to read: where it is, and whether it was named (robots.txt, an index) or guessed. */
export interface SitemapRoot {
  url: string;
  /** A guessed path (`/sitemap.xml`) that fails is normal, not worth a warning. */
  guessed: boolean;
}

/** Why the URLs read may be fewer than the sitemaps hold. */
export type SitemapProblem =
  /** A named sitemap could not be fetched or read. */
  | { kind: "sitemap-failed"; url: string; reason: string }
  /** A sitemap held more URLs than the per-file cap: the first ones were read. */
  | { kind: "sitemap-cut"; url: string; max: number }
  /** An index nested deeper than the cap: not read. */
  | { kind: "sitemap-too-deep"; url: string; maxDepth: number }
  /** More sitemap files than the cap: the rest were not read. */
  | { kind: "sitemaps-too-many"; max: number }
  /** More URLs in all than the cap: the rest were not read. */
  | { kind: "urls-cut"; max: number };

export interface SitemapLimits {
  /** Decoded bytes of one file. */
  maxBytes: number;
  /** URLs kept from one file. */
  maxUrlsPerFile: number;
  /** URLs kept in all. */
  maxUrls: number;
  /** Files read in all, indexes included. */
  maxFiles: number;
  /** Indexes nested below a root. */
  maxDepth: number;
  /** Files fetched at once. */
  concurrency: number;
}

export interface ReadSitemapsOptions {
  /** GETs one sitemap (guard, robots.txt, deadline, byte cap: the caller's), the body raw. */
  fetch(url: string): Promise<Uint8Array>;
  /** Whether a sitemap URL may be read at all (the site's own, an http(s) URL). */
  readable(url: string): boolean;
  /** True once reading should stop (the deadline passed): what was read is kept. */
  stopped(): boolean;
  limits: SitemapLimits;
}

export interface SitemapsRead {
  entries: SitemapEntry[];
  problems: SitemapProblem[];
  /** Files fetched. */
  files: number;
}

/** The gzip magic bytes: a `.xml.gz` file served without Content-Encoding still starts so. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * Reads the sitemaps under `roots`, depth first in document order, skipping any URL met twice.
 * Failures of single files become problems; only a caller's cancellation is thrown.
 */
export async function readSitemaps(
  roots: readonly SitemapRoot[],
  options: ReadSitemapsOptions,
): Promise<SitemapsRead> {
  const { limits } = options;
  const seen = new Set<string>();
  const problems: SitemapProblem[] = [];
  const entries: SitemapEntry[] = [];
  let files = 0;
  let tooMany = false;
  let full = false;

  /** One file's entries, or its sitemaps' entries for an index, in order. */
  async function readOne(root: SitemapRoot, depth: number): Promise<SitemapEntry[]> {
    if (seen.has(root.url) || !options.readable(root.url) || options.stopped()) return [];
    seen.add(root.url);
    if (files >= limits.maxFiles) {
      tooMany = true;
      return [];
    }
    files++;
    let text: string;
    try {
      text = await inflate(await options.fetch(root.url), limits.maxBytes);
    } catch (error) {
      if (!isWebFetchError(error)) throw error;
      // A guessed path the site does not have is no news; anything else about it is.
      const absent = root.guessed && error.code === "HTTP_ERROR";
      if (!absent && !options.stopped()) {
        problems.push({ kind: "sitemap-failed", url: root.url, reason: error.message });
      }
      return [];
    }
    // The XML parser loads with the first sitemap, not with every instance.
    const { parseSitemap } = await import("./sitemap.js");
    const parsed = parseSitemap(text, limits.maxUrlsPerFile);
    if (parsed.dropped > 0) {
      problems.push({ kind: "sitemap-cut", url: root.url, max: limits.maxUrlsPerFile });
    }
    if (parsed.kind !== "index") return parsed.entries;
    if (depth >= limits.maxDepth) {
      problems.push({ kind: "sitemap-too-deep", url: root.url, maxDepth: limits.maxDepth });
      return [];
    }
    const children = parsed.entries.map((e) => ({ url: e.loc, guessed: false }));
    const lists = await mapInOrder(children, limits.concurrency, (child) =>
      readOne(child, depth + 1),
    );
    return lists.flat();
  }

  for (const root of roots) {
    if (full) break;
    for (const entry of await readOne(root, 0)) {
      if (entries.length >= limits.maxUrls) {
        full = true;
        break;
      }
      entries.push(entry);
    }
  }
  if (tooMany) problems.push({ kind: "sitemaps-too-many", max: limits.maxFiles });
  if (full) problems.push({ kind: "urls-cut", max: limits.maxUrls });
  return { entries, problems, files };
}

/**
 * A sitemap's text: gzip inflated (under the same cap, through the same bomb-proof reader as
 * any body), else the bytes as UTF-8, which the protocol requires.
 */
async function inflate(bytes: Uint8Array, maxBytes: number): Promise<string> {
  const gzip = bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
  const body = gzip
    ? await readBody(Readable.from([Buffer.from(bytes)]), ["gzip"], maxBytes)
    : Buffer.from(bytes);
  return body.toString("utf8");
}

/** `fn` over `items`, at most `concurrency` at once, the results in the items' order. */
async function mapInOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
