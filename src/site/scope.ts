/**
 * Which URLs belong to a site: the start URL's host (with or without `www.`), or with
 * subdomains every host of its registrable domain; and which paths a caller wants, by regular
 * expressions. The patterns come from callers and models, so they are bounded in number and
 * length, and they run in a `vm` context whose timeout stops a catastrophic one (`(a+)+$`) over
 * all the paths at once.
 */
import vm from "node:vm";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { inDomain } from "../net/domains.js";
import { siteOf } from "../sites.js";

/** A leading `www.` and trailing dots: `www.example.com.` is the site `example.com`. */
const WWW_AND_DOTS = /^www\.|\.+$/g;

/** The host a site is named by: lowercase, no `www.`, no trailing dot. */
export function siteHost(hostname: string): string {
  return hostname.toLowerCase().replace(WWW_AND_DOTS, "");
}

/**
 * A test of whether a URL is on the site of `start`: its host, or with `includeSubdomains` any
 * host of its registrable domain. The scheme does not matter (a site's http and https pages are
 * one site).
 *
 * @example
 * const inSite = siteTest(new URL("https://docs.example.com/"), true);
 * inSite(new URL("https://blog.example.com/x"))  // true
 */
export function siteTest(start: URL, includeSubdomains: boolean): (url: URL) => boolean {
  const own = siteHost(start.hostname);
  if (!includeSubdomains) return (url) => siteHost(url.hostname) === own;
  const domain = siteOf(own);
  return (url) => inDomain(siteHost(url.hostname), domain);
}

/** Include and exclude patterns on paths, checked and compiled once. */
export interface PathPatterns {
  include: readonly string[];
  exclude: readonly string[];
}

/**
 * Checks caller-given path patterns: lists of at most 20 regular expressions of 1 to 200
 * characters that compile. Anything else is INVALID_INPUT naming `field`.
 */
export function checkPathPatterns(patterns: unknown, field: string): readonly string[] {
  if (patterns === undefined) return [];
  const fail = (message: string): never => {
    throw new WebFetchError("INVALID_INPUT", `${field} ${message}`, { retryable: false });
  };
  if (!Array.isArray(patterns)) fail("must be an array of regular expressions");
  const list = patterns as unknown[];
  if (list.length > LIMITS.pathPatternsMax) {
    fail(`holds at most ${LIMITS.pathPatternsMax} patterns`);
  }
  for (const pattern of list) {
    if (typeof pattern !== "string" || pattern === "") fail("must hold non-empty strings");
    const text = pattern as string;
    if (text.length > LIMITS.pathPatternMaxLength) {
      fail(`patterns are at most ${LIMITS.pathPatternMaxLength} characters`);
    }
    try {
      new RegExp(text);
    } catch (error) {
      fail(
        `has an invalid regular expression ${JSON.stringify(text)}: ${(error as Error).message}`,
      );
    }
  }
  return list as string[];
}

/**
 * Runs inside the vm context: for each path, whether it passes (matches an include pattern
 * when there are any, and no exclude pattern).
 */
const FILTER = new vm.Script(`(() => {
  const inc = include.map((p) => new RegExp(p));
  const exc = exclude.map((p) => new RegExp(p));
  const out = new Uint8Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    const wanted = inc.length === 0 || inc.some((re) => re.test(path));
    out[i] = wanted && !exc.some((re) => re.test(path)) ? 1 : 0;
  }
  return out;
})()`);

/**
 * Whether each path passes the patterns, in order. The whole batch runs under one time budget;
 * a pattern too slow for it is INVALID_INPUT (it would be as slow on every other site).
 *
 * @example
 * filterPaths(["/blog/a", "/about"], { include: ["^/blog/"], exclude: [] })  // [true, false]
 */
export function filterPaths(paths: readonly string[], patterns: PathPatterns): boolean[] {
  if (patterns.include.length === 0 && patterns.exclude.length === 0) return paths.map(() => true);
  const context = vm.createContext({
    paths: [...paths],
    include: [...patterns.include],
    exclude: [...patterns.exclude],
  });
  try {
    const out = FILTER.runInContext(context, {
      timeout: LIMITS.pathFilterTimeBudgetMs,
    }) as Uint8Array;
    return Array.from(out, (flag) => flag === 1);
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new WebFetchError(
        "INVALID_INPUT",
        "includePaths or excludePaths: a pattern took too long to match (simplify it)",
        { retryable: false },
      );
    }
    throw error;
  }
}
