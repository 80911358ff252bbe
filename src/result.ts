/**
 * The result object of one fetch. The CLI's --json, the HTTP API and MCP
 * structuredContent all carry this same object.
 */
import type { ErrorCode } from "./errors.js";
import type { PageImage, PageLink } from "./extract/links.js";
import type { PageMetadata } from "./extract/metadata.js";
import type { Grepped } from "./shape/grep.js";
import type { OutputFormat } from "./values.js";

/** One redirect hop a fetch followed: the URL redirected, where to, and the status that did. */
export interface Redirect {
  from: string;
  to: string;
  /** 301, 302, 303, 307 or 308. */
  status: number;
}

/** A PNG of the rendered page (`screenshot`), sized to fit the screenshot byte cap. */
export interface Screenshot {
  mimeType: "image/png";
  /** The PNG, base64. */
  data: string;
  /** The image's width and height, pixels (a scaled capture is smaller than the viewport). */
  width: number;
  height: number;
}

export interface FetchResult extends PageMetadata {
  /** As requested, normalized. */
  url: string;
  /**
   * Id of the page's full content: `web.read()` and `web.grep()` (the web_read and web_grep
   * tools) reach the rest of a cut page through it. One URL fetched with the same options keeps
   * one id.
   */
  id: string;
  /** After redirects. */
  finalUrl: string;
  /** Every hop from `url` to `finalUrl`, in order; empty when there was none. */
  redirects: Redirect[];
  status: number;
  contentType: string;
  charset?: string;
  format: OutputFormat;
  content: string;
  /** Characters of the full converted content. */
  totalLength: number;
  startIndex: number;
  truncated: boolean;
  /** Where the next window starts, when `truncated`. */
  nextStartIndex?: number;
  /** The `query` the content was focused on: only its matching passages are in `content`. */
  query?: string;
  /** With `query`: chunks of the page, chunks that matched, chunks returned. */
  chunks?: { total: number; matched: number; returned: number };
  /** The `prompt` answered: `content` is the model's answer (or, without a model, passages). */
  prompt?: string;
  /** The model that answered the prompt (or filled the schema). */
  model?: string;
  /** Tokens the provider reported for the answer (of the first call, for a cached answer). */
  usage?: { inputTokens: number; outputTokens: number };
  /**
   * With `schema`: the model's data from the page, validated against the schema (a zod schema's
   * output). `content` is then the page's content as usual.
   */
  data?: unknown;
  /** With `prompt` or `schema`: whether the page was cut to its most relevant chunks to fit the model. */
  inputTruncated?: boolean;
  /** Why the content is not what was asked for (no model configured: passages, not an answer). */
  note?: string;
  /**
   * Every reason the result is thinner than the page, in the instance's language: a limit that
   * cut the content, a page that needed a browser it did not get, a query or prompt that matched
   * nothing, a page with no text. Omitted when there is none; empty content always has one.
   */
  warnings?: string[];
  /** Page count of a PDF. */
  pages?: number;
  /** Present when the page was rendered in a browser (its scripts ran): true. */
  rendered?: boolean;
  /** Requests the rendered page made that the address guard or domain lists refused. */
  blockedRequests?: number;
  /** The page's links (`links: true`): absolute, each once, in page order. */
  links?: PageLink[];
  /** The page's images (`images: true`). */
  images?: PageImage[];
  /** A PNG of the rendered page (`screenshot`); absent for a page that is not HTML. */
  screenshot?: Screenshot;
  /** Where the full content was saved, when a save directory is configured. */
  savedPath?: string;
  cached: boolean;
  /** ISO 8601 time of the network fetch (of the cached copy on a hit). */
  fetchedAt: string;
  timings: Timings;
}

/**
 * Where a call's time went, ms. Each phase is there when this call measured it: a result the
 * cache answered has `totalMs` alone, a cached copy a 304 confirmed has the network phases but
 * no `convertMs`, and a page fetched elsewhere (Tavily, a remote service) has none. Phases are
 * summed over every hop of a redirect chain and every attempt; robots.txt, politeness waits,
 * reading the body and rendering are in none of them, so they need not add up to `totalMs`.
 */
export interface Timings {
  /** The whole call, from the call to its result. */
  totalMs: number;
  /** Resolving and checking the host's addresses (about 0 for an IP literal or a name resolved moments ago). */
  dnsMs?: number;
  /** Opening the connection, TCP and TLS (about 0 when a kept-alive connection was reused). */
  connectMs?: number;
  /** From the request sent to the response's headers. */
  firstByteMs?: number;
  /** Converting the body, including the hand-off to and from the conversion thread. */
  convertMs?: number;
}

/** The phases of `Timings` one load measured. */
export type PhaseTimings = Omit<Timings, "totalMs">;

/** A page an instance keeps, as `web.pages()` lists it: its id reaches its full content. */
export interface KeptPageInfo {
  id: string;
  /** As requested, normalized. */
  url: string;
  finalUrl: string;
  title?: string;
  format: OutputFormat;
  contentType: string;
  /** ISO 8601 time of the network fetch. */
  fetchedAt: string;
}

/** The answer of `web.grep()`: matching lines of a page's full content. */
export interface GrepResult extends Grepped {
  /** The page's id and URLs, as in its FetchResult. */
  id: string;
  url: string;
  finalUrl: string;
  title?: string;
  pattern: string;
  savedPath?: string;
}

/** One URL of a site, as `web.map()` lists it. */
export interface MapLink {
  /** Absolute and normalized: no fragment, no default port, no session id in the query. */
  url: string;
  /** The link's text on the start page (the page's own title for the start URL). */
  title?: string;
  /** When the page last changed, as its sitemap says (W3C datetime, as written). */
  lastmod?: string;
}

/** The answer of `web.map()`: a site's URLs. */
export interface MapResult {
  /** The start URL, normalized. */
  url: string;
  /** The site's URLs: sitemap order then the start page's, or best first with `search`. */
  links: MapLink[];
  /** More URLs were found than `limit`. */
  truncated: boolean;
  /**
   * Every reason the list may be shorter than the site, in the instance's language: a sitemap
   * that could not be read or was cut at a cap, a start page that failed, a deadline that
   * passed. Omitted when there is none.
   */
  warnings?: string[];
}

/** One page of a crawl: a fetch's result, and where the crawl found it. */
export interface CrawlPage extends FetchResult {
  /** Links followed from the start URL to reach it (0 for the start page). */
  depth: number;
  /** The page it was linked from (absent for the start page). */
  parent?: string;
}

/** A URL a crawl fetched that gave no page, and why. */
export interface CrawlFailure {
  url: string;
  code: ErrorCode;
  message: string;
}

/** How a crawl ended: what it returned, what failed, what it left out and why. */
export interface CrawlSummary {
  /** The start URL, normalized. */
  url: string;
  /** Pages returned. */
  pages: number;
  /** URLs fetched that gave no page. */
  failed: CrawlFailure[];
  /**
   * URLs found and not returned: refused by robots.txt; left out by the site, path and trap
   * rules; duplicates of a page returned (the same URL after normalizing, its canonical URL, or
   * the same content); beyond `limit`, `maxDepth` or the frontier's size.
   */
  skipped: { robots: number; filtered: number; duplicate: number; limit: number };
  /** The crawl was stopped (its signal, or the consumer stopped reading) before it ran out. */
  cancelled: boolean;
  elapsedMs: number;
  /** Why the crawl may have read less than asked (a long `Crawl-delay` cut to the maximum). */
  warnings?: string[];
}
