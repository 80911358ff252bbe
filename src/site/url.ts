/**
 * One spelling per URL of a site, so the same page found in a sitemap, in a link and with a
 * session id is listed (and, for a crawl, fetched) once. The WHATWG parser already lowercases
 * the scheme and host and drops default ports; here the fragment and session-id parameters go
 * too. Nothing else changes: query order, trailing slashes and case in the path are the
 * server's to interpret.
 */
import { parseTargetUrl } from "../net/url.js";

/**
 * Query parameters that carry a session id, compared case-insensitively: Java servlets
 * (`jsessionid`), PHP (`phpsessid`), ColdFusion (`cfid`, `cftoken`), Zen Cart (`zenid`),
 * osCommerce (`oscsid`) and the generic names (`sid`, `sessionid`, `session_id`, `sessid`).
 * Classic ASP's `aspsessionid` is matched as a prefix, since the server appends random letters.
 */
export const SESSION_PARAMS: ReadonlySet<string> = new Set([
  "jsessionid",
  "phpsessid",
  "sid",
  "sessionid",
  "session_id",
  "sessid",
  "cfid",
  "cftoken",
  "zenid",
  "oscsid",
]);

/** The prefix of Classic ASP's session parameter (`ASPSESSIONIDQACRBTSA`). */
const ASP_SESSION_PREFIX = "aspsessionid";

/** A session id carried as a path parameter (`/cart;jsessionid=ABC123`). */
const PATH_SESSION = /;(?:jsessionid|phpsessid|sid|sessionid)=[^/?#]*/gi;

/**
 * A URL in its normalized form, or undefined when it is not one webfetch could fetch (not
 * http(s), credentials, too long, unparsable).
 *
 * @example
 * siteUrl("HTTP://Example.com:80/a;jsessionid=1?b=2&PHPSESSID=x#top")  // "http://example.com/a?b=2"
 * siteUrl("/docs", "https://example.com/start")                      // "https://example.com/docs"
 */
export function siteUrl(input: string, base?: string): string | undefined {
  let absolute: string;
  try {
    absolute = base === undefined ? input.trim() : new URL(input.trim(), base).href;
  } catch {
    return undefined;
  }
  let url: URL;
  try {
    url = parseTargetUrl(absolute).url;
  } catch {
    return undefined;
  }
  url.hash = "";
  const path = url.pathname.replace(PATH_SESSION, "");
  if (path !== url.pathname) url.pathname = path;
  if (url.search !== "") url.search = withoutSessionParams(url.search);
  return url.href;
}

/** A query string without its session parameters, the others left in their order and spelling. */
function withoutSessionParams(search: string): string {
  const kept = search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && !isSessionParam(pair));
  return kept.length === 0 ? "" : `?${kept.join("&")}`;
}

function isSessionParam(pair: string): boolean {
  const eq = pair.indexOf("=");
  let name: string;
  try {
    name = decodeURIComponent(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
  } catch {
    return false;
  }
  return SESSION_PARAMS.has(name) || name.startsWith(ASP_SESSION_PREFIX);
}
