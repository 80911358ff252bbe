/**
 * The reader route, `GET /<url>`, speaks the headers Jina Reader's users already send: what to
 * return (`X-Return-Format`: markdown, text or html; `screenshot` and `pageshot` answer with
 * the PNG of the rendered viewport or whole page itself, not a link to it as Jina does), which part of the page (`X-Target-Selector`, `X-Remove-Selector`),
 * whether to skip the cache (`X-No-Cache`), a deadline in seconds (`X-Timeout`), the engine
 * (`X-Engine: browser` renders, `direct` never does) and the page's links and images listed
 * after the content (`X-With-Links-Summary`, `X-With-Images-Summary`). Unknown `X-` headers are
 * ignored, as Jina ignores them. A target without a scheme (`/example.com/a`) means https.
 */
import { type ExclusiveNames, optionConflict } from "../checks.js";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { FetchOptions } from "../options.js";
import type { FetchResult } from "../result.js";
import { bare } from "../tools/format.js";

/**
 * The return formats the route serves, by `X-Return-Format`. Jina's `html` is the page's HTML;
 * here it is the clean main-content HTML (no scripts, handlers or unsafe URLs; absolute URLs).
 */
const RETURN_FORMATS = ["markdown", "text", "html", "screenshot", "pageshot"] as const;

/** The headers the route reads, as its OpenAPI document lists them. */
export const READER_HEADERS: readonly {
  name: string;
  description: string;
  values?: readonly string[];
}[] = [
  { name: "X-Return-Format", description: "What the body is", values: RETURN_FORMATS },
  { name: "X-Target-Selector", description: "CSS: keep only what it matches" },
  { name: "X-Remove-Selector", description: "CSS: remove what it matches first" },
  { name: "X-With-Links-Summary", description: "true: list the page's links after the content" },
  { name: "X-With-Images-Summary", description: "true: list the page's images after the content" },
  { name: "X-No-Cache", description: "true: fetch fresh" },
  { name: "X-Timeout", description: "Deadline in seconds" },
  {
    name: "X-Engine",
    description: "browser renders; direct never does",
    values: ["browser", "direct"],
  },
  { name: "Accept", description: "application/json: Jina's JSON envelope" },
];

/** The return formats that answer with the page's PNG: the viewport, or the whole page. */
const IMAGE_FORMATS: Readonly<Record<string, true | { fullPage: true }>> = {
  screenshot: true,
  pageshot: { fullPage: true },
};

/** What a reader request asks for. */
export interface ReaderRequest {
  /** The target URL. */
  url: string;
  /** The call's options, from the headers. */
  call: FetchOptions;
  /** Jina's JSON envelope (`Accept: application/json`) instead of the content alone. */
  json: boolean;
  /** The page's screenshot, a PNG, is the answer (`X-Return-Format: screenshot`). */
  image: boolean;
}

/** The route's spelling of the options that exclude each other: its headers. */
const READER_NAMES = {
  prompt: "prompt",
  query: "query",
  startIndex: "startIndex",
  format: "X-Return-Format",
  includeSelectors: "X-Target-Selector",
  excludeSelectors: "X-Remove-Selector",
  screenshot: "X-Return-Format: screenshot",
  render: "X-Engine: direct",
} as const satisfies ExclusiveNames;

/** Files any client asks of the service itself, never a target: `GET /favicon.ico` is ours. */
const SERVICE_FILES: ReadonlySet<string> = new Set(["favicon.ico", "robots.txt"]);

/** A target that names its scheme: http(s), or any other, which the URL policy refuses. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The request behind `GET /<target>`, or undefined when `target` is not a URL at all (another
 * route's 404). A header value that cannot be used is INVALID_INPUT naming the header.
 *
 * @example
 * readerRequest("example.com/a", (name) => ({ "x-return-format": "text" })[name]);
 * // { url: "https://example.com/a", call: { format: "text" }, json: false, image: false }
 */
export function readerRequest(
  target: string,
  header: (name: string) => string | undefined,
): ReaderRequest | undefined {
  if (SERVICE_FILES.has(target.toLowerCase())) return undefined;
  const url = HAS_SCHEME.test(target) ? target : withHttps(target);
  if (url === undefined) return undefined;
  const call: FetchOptions = {};
  const format = header("x-return-format")?.trim().toLowerCase();
  if (format) {
    if (!(RETURN_FORMATS as readonly string[]).includes(format)) {
      throw invalid(`X-Return-Format must be one of ${RETURN_FORMATS.join(", ")}`);
    }
    const image = IMAGE_FORMATS[format];
    if (image) call.screenshot = image;
    else call.format = format as "markdown" | "text" | "html";
  }
  const keep = header("x-target-selector")?.trim();
  if (keep) call.includeSelectors = [keep];
  const remove = header("x-remove-selector")?.trim();
  if (remove) call.excludeSelectors = [remove];
  if (isTrue(header("x-no-cache"))) call.cache = false;
  if (isTrue(header("x-with-links-summary"))) call.links = true;
  if (isTrue(header("x-with-images-summary"))) call.images = true;
  const timeout = header("x-timeout")?.trim();
  if (timeout) call.timeout = seconds(timeout);
  const engine = header("x-engine")?.trim().toLowerCase();
  if (engine === "browser") call.render = "always";
  else if (engine === "direct") call.render = "never";
  const conflict = optionConflict(call, READER_NAMES);
  if (conflict) throw invalid(conflict.message);
  return {
    url,
    call,
    json: header("accept")?.includes("application/json") ?? false,
    image: call.screenshot !== undefined,
  };
}

/**
 * Jina's JSON envelope around a result: `{ code, status, data }`, `data` being the result
 * object with Jina's `publishedTime` beside its `publishedAt`.
 */
export function jinaEnvelope(result: FetchResult): {
  code: number;
  status: number;
  data: FetchResult & { publishedTime?: string };
} {
  const data = result.publishedAt ? { ...result, publishedTime: result.publishedAt } : result;
  return { code: 200, status: 20000, data };
}

/**
 * The route's plain body: the content, then (Markdown or text) the links and images when asked
 * for, under Jina's own headings (`Links/Buttons:`, `Images:`) so its users' parsers find them.
 */
export function readerBody(page: FetchResult): string {
  // HTML is a document of its own: nothing is appended to it (the JSON envelope carries lists).
  if (page.format === "html") return page.content;
  const parts = [page.content];
  if (page.links?.length) {
    parts.push(
      ["Links/Buttons:", ...page.links.map((l) => `- [${bare(l.text)}](${l.url})`)].join("\n"),
    );
  }
  if (page.images?.length) {
    const lines = page.images.map(
      (image, i) => `- ![Image ${i + 1}: ${bare(image.alt)}](${image.url})`,
    );
    parts.push(["Images:", ...lines].join("\n"));
  }
  return parts.join("\n\n");
}

/** `https://` + a target that starts like a host name, else undefined. */
function withHttps(target: string): string | undefined {
  const host = target.split(/[/?#]/, 1)[0] ?? "";
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?$/i.test(host) ? `https://${target}` : undefined;
}

/** `X-No-Cache: true` (any value but false or 0 counts, as a flag header does). */
function isTrue(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  return v !== "" && v !== "false" && v !== "0";
}

/** `X-Timeout` in seconds, as a deadline in ms. */
function seconds(value: string): number {
  const n = Number(value);
  const max = Math.floor(LIMITS.maxTimeout / 1000);
  if (!Number.isFinite(n) || n <= 0 || n > max) {
    throw invalid(`X-Timeout must be a number of seconds from 0 to ${max}`);
  }
  return Math.max(1, Math.round(n * 1000));
}

function invalid(message: string): WebFetchError {
  return new WebFetchError("INVALID_INPUT", message, { retryable: false });
}
