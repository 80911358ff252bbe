/**
 * What every provider's hits go through before an agent sees them: only http(s) links, the
 * domain lists enforced (a provider may ignore them or only approximate them with operators),
 * duplicates dropped, at most `maxResults`, and a score for every result.
 */
import { domainToASCII } from "node:url";
import type { SearchHit, SearchRequest, SearchResult } from "./types.js";

/** Hits to results: filtered, deduplicated, capped, scored. */
export function toResults(hits: readonly SearchHit[], request: SearchRequest): SearchResult[] {
  const seen = new Set<string>();
  const kept: SearchHit[] = [];
  for (const hit of hits) {
    const host = httpHost(hit.url);
    if (host === undefined || seen.has(hit.url)) continue;
    if (request.includeDomains.length > 0 && !inDomains(host, request.includeDomains)) continue;
    if (inDomains(host, request.excludeDomains)) continue;
    seen.add(hit.url);
    kept.push(hit);
    if (kept.length === request.maxResults) break;
  }
  return kept.map((hit, i) => ({
    title: clean(hit.title) || hit.url,
    url: hit.url,
    snippet: clean(hit.snippet),
    score: round(hit.score ?? rankScore(i, kept.length)),
    ...(hit.publishedAt ? { publishedAt: hit.publishedAt } : {}),
  }));
}

/**
 * The query with the domain lists as `site:` / `-site:` operators, for engines without domain
 * parameters. Several included domains need `(site:a OR site:b)`, which only some engines
 * (`anyOf`) understand; the others get no include operator and rely on the filter above.
 */
export function queryWithSites(request: SearchRequest, options: { anyOf?: boolean } = {}): string {
  const include = request.includeDomains.map((d) => `site:${d}`);
  const sites =
    include.length === 1
      ? include[0]
      : include.length > 1 && options.anyOf
        ? `(${include.join(" OR ")})`
        : "";
  const exclude = request.excludeDomains.map((d) => `-site:${d}`);
  return [request.query, sites, ...exclude].filter(Boolean).join(" ");
}

/** A score from the rank, for providers that give none: 1 for the first, down evenly. */
export function rankScore(index: number, count: number): number {
  return count <= 0 ? 0 : (count - index) / count;
}

/** `{ publishedAt }` in ISO 8601 when `value` is a date, else nothing. */
export function isoDate(value: unknown): { publishedAt?: string } {
  if (typeof value !== "string" || value.trim() === "") return {};
  const time = Date.parse(value);
  return Number.isNaN(time) ? {} : { publishedAt: new Date(time).toISOString() };
}

/** True when `host` is one of `domains` or a subdomain of one. */
export function inDomains(host: string, domains: readonly string[]): boolean {
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** A domain as the lists compare it: ASCII, lower case, no leading `*.` or dots. */
export function normalizeDomain(domain: string): string {
  return domainToASCII(
    domain
      .trim()
      .replace(/^\*?\.+/, "")
      .replace(/\.+$/, ""),
  ).toLowerCase();
}

function httpHost(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:"
      ? parsed.hostname.replace(/\.+$/, "").toLowerCase()
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whitespace collapsed: snippets come with the layout of the provider's page. */
function clean(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function round(score: number): number {
  return Number.isFinite(score) ? Math.round(score * 10_000) / 10_000 : 0;
}
