/**
 * One sitemap file as data: an XML `urlset` (pages) or `sitemapindex` (more sitemaps), or a
 * plain-text list of URLs, as the sitemaps protocol allows. Parsed with htmlparser2 in XML mode,
 * event by event: no tree is built, no DTD or external entity is ever read, and the work is
 * linear in the (already byte-capped) input. Entries past `maxEntries` are counted, not kept.
 */
import { Parser } from "htmlparser2";
import { LIMITS } from "../limits.js";

/** One `<url>` or `<sitemap>` entry. */
export interface SitemapEntry {
  loc: string;
  /** As written, when it looks like a W3C datetime. */
  lastmod?: string;
}

export interface ParsedSitemap {
  /** `urlset`: pages; `index`: more sitemaps; `text`: a list of URLs; `none`: not a sitemap. */
  kind: "urlset" | "index" | "text" | "none";
  entries: SitemapEntry[];
  /** Entries past the cap, counted but not kept. */
  dropped: number;
}

/** A W3C datetime (the sitemaps protocol's `lastmod`): a year, up to a full time and zone. */
const W3C_DATETIME =
  /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?)?)?$/;
/** Characters of a `lastmod`, at most. */
const MAX_LASTMOD_CHARS = 40;
/** An absolute http(s) URL on a line of a text sitemap. */
const HTTP_LINE = /^https?:\/\/\S+$/i;
/** A byte order mark. */
const BOM = /^\uFEFF/;

/** The local name of an element (`sm:url` → `url`), lowercased. */
function localName(name: string): string {
  const colon = name.lastIndexOf(":");
  return (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
}

/**
 * Parses one sitemap. Never throws: what is not a sitemap is `kind: "none"` with no entries.
 *
 * @example
 * parseSitemap('<urlset><url><loc>https://a.example/x</loc></url></urlset>', 10).entries
 * // [{ loc: "https://a.example/x" }]
 */
export function parseSitemap(text: string, maxEntries: number): ParsedSitemap {
  const body = text.replace(BOM, "").trimStart();
  if (body === "") return { kind: "none", entries: [], dropped: 0 };
  if (!body.startsWith("<")) return parseText(body, maxEntries);

  let kind: ParsedSitemap["kind"] = "none";
  const entries: SitemapEntry[] = [];
  let dropped = 0;
  /** Local names of the open elements (bounded by the input, which is capped). */
  const open: string[] = [];
  /** The entry element open now (`url` or `sitemap` right under the root), and its fields. */
  let entry: { loc: string; lastmod: string } | undefined;
  /** The field whose text is being read (`loc` or `lastmod` directly inside the entry). */
  let field: "loc" | "lastmod" | undefined;
  const maxFieldChars = LIMITS.maxUrlLength + 64;

  const parser = new Parser(
    {
      onopentag(name) {
        const local = localName(name);
        const depth = open.length;
        open.push(local);
        if (depth === 0) {
          if (local === "urlset") kind = "urlset";
          else if (local === "sitemapindex") kind = "index";
          return;
        }
        if (kind === "none") return;
        const child = kind === "urlset" ? "url" : "sitemap";
        if (depth === 1 && local === child) entry = { loc: "", lastmod: "" };
        else if (depth === 2 && entry && (local === "loc" || local === "lastmod")) field = local;
      },
      ontext(data) {
        if (!entry || !field) return;
        // A field longer than any URL we accept is noise; stop growing it.
        if (entry[field].length <= maxFieldChars) entry[field] += data;
      },
      onclosetag() {
        const local = open.pop();
        const depth = open.length;
        if (depth === 2 && field === local) field = undefined;
        if (depth === 1 && entry) {
          const loc = entry.loc.trim();
          if (loc !== "" && loc.length <= LIMITS.maxUrlLength) {
            if (entries.length < maxEntries) entries.push(withLastmod(loc, entry.lastmod));
            else dropped++;
          }
          entry = undefined;
          field = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(body);
  parser.end();
  return { kind, entries, dropped };
}

function withLastmod(loc: string, raw: string): SitemapEntry {
  const lastmod = raw.trim();
  return lastmod.length <= MAX_LASTMOD_CHARS && W3C_DATETIME.test(lastmod)
    ? { loc, lastmod }
    : { loc };
}

/** A text sitemap: one absolute URL per line; other lines are ignored. */
function parseText(body: string, maxEntries: number): ParsedSitemap {
  const entries: SitemapEntry[] = [];
  let dropped = 0;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length > LIMITS.maxUrlLength || !HTTP_LINE.test(line)) continue;
    if (entries.length < maxEntries) entries.push({ loc: line });
    else dropped++;
  }
  return { kind: entries.length > 0 || dropped > 0 ? "text" : "none", entries, dropped };
}
