/**
 * DuckDuckGo, without a key: its HTML results page (`POST {base}/html/`, form field `q`, `df`
 * for the time range), read with webfetch's own HTML parser. Each result is a `.result` block
 * (`.result--ad` ones are adverts) with the title link `a.result__a` — whose href may be
 * DuckDuckGo's redirect `/l/?uddg=<target>` — and the text `.result__snippet`. When DuckDuckGo
 * suspects a bot it answers 202 with a challenge page instead: RATE_LIMITED.
 */

import { bodyDetail, expectOk } from "../endpoint/client.js";
import { WebFetchError } from "../errors.js";
import { attr, type DomElement, textOf, walkElements } from "../extract/dom.js";
import type { TimeRange } from "../values.js";
import { queryWithSites } from "./results.js";
import { endpoint } from "./tavily.js";
import type { SearchHit, SearchProvider } from "./types.js";

/** The HTML endpoint's address; DUCKDUCKGO_BASE_URL overrides it. */
export const DUCKDUCKGO_BASE_URL = "https://html.duckduckgo.com";

/** DuckDuckGo's `df`: past day, week, month, year. */
const DATE_FILTER: Record<TimeRange, string> = { day: "d", week: "w", month: "m", year: "y" };
/** Marks of the bot challenge page ("anomaly" modal, challenge form). */
const CHALLENGE = /anomaly-modal|challenge-form|id="anomaly/i;

export interface DuckDuckGoOptions {
  /** @default "https://html.duckduckgo.com" */
  baseUrl?: string;
}

/**
 * The DuckDuckGo provider (no key).
 *
 * @example
 * createWebFetch({ search: { provider: createDuckDuckGoProvider() } });
 */
export function createDuckDuckGoProvider(options: DuckDuckGoOptions = {}): SearchProvider {
  const base = options.baseUrl ?? DUCKDUCKGO_BASE_URL;
  return {
    id: "duckduckgo",
    name: "DuckDuckGo",
    async search(request, { fetch }) {
      const form = new URLSearchParams({ q: queryWithSites(request), b: "" });
      if (request.timeRange) form.set("df", DATE_FILTER[request.timeRange]);
      const res = await fetch({
        method: "POST",
        url: endpoint(base, "html/"),
        headers: { accept: "text/html" },
        form,
      });
      if (res.status === 202 || (res.status === 200 && CHALLENGE.test(res.text))) {
        throw new WebFetchError(
          "RATE_LIMITED",
          `DuckDuckGo asked for a bot check (${res.status}): try again later or configure another provider`,
          { status: res.status },
        );
      }
      expectOk("DuckDuckGo", res, bodyDetail(res.text));
      return parseResults(res.text, base);
    },
  };
}

/** The results of a DuckDuckGo HTML page, adverts left out. */
export async function parseResults(html: string, base: string): Promise<SearchHit[]> {
  // The HTML parser loads with the first results page: an instance that only fetches pages
  // converts them on a thread and never needs it here.
  const { parseDocument } = await import("../extract/parse.js");
  const document = parseDocument(html);
  const root = document.documentElement;
  if (!root) return [];
  const hits: SearchHit[] = [];
  walkElements(root, (el) => {
    const classes = classList(el);
    if (!classes.has("result")) return true;
    if (!classes.has("result--ad")) {
      const hit = readResult(el, base);
      if (hit) hits.push(hit);
    }
    return false;
  });
  return hits;
}

function readResult(block: DomElement, base: string): SearchHit | undefined {
  let link: DomElement | undefined;
  let snippet: DomElement | undefined;
  walkElements(block, (el) => {
    const classes = classList(el);
    if (!link && classes.has("result__a")) link = el;
    if (!snippet && classes.has("result__snippet")) snippet = el;
    return true;
  });
  if (!link) return undefined;
  const url = targetUrl(attr(link, "href"), base);
  if (!url) return undefined;
  return { title: textOf(link), url, snippet: snippet ? textOf(snippet) : "" };
}

/** The result's own URL: DuckDuckGo's redirect `/l/?uddg=` unwrapped. */
function targetUrl(href: string, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    const wrapped = url.pathname === "/l/" ? url.searchParams.get("uddg") : null;
    return wrapped ?? url.href;
  } catch {
    return undefined;
  }
}

function classList(el: DomElement): Set<string> {
  return new Set(attr(el, "class").split(/\s+/).filter(Boolean));
}
