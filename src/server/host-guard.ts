/**
 * Host and Origin check against DNS rebinding: a web page can point a name of its own at this
 * loopback port, and the browser then sends the page's name in Host and its origin in Origin.
 * Only names that mean this machine, the bound host, or names the operator listed are served.
 * A browser also marks the requests it sends for another site's page (Sec-Fetch-Site), which
 * Host cannot tell apart when the page targets 127.0.0.1 itself: those are refused too.
 */
import type { MiddlewareHandler } from "hono";
import { parseIpLiteral } from "../net/address.js";
import { errorResponse } from "./errors.js";
import { isLoopbackHost, isWildcardHost } from "./hosts.js";

/** A Host header: a name or an IPv4 address, or a bracketed IPv6 address; an optional port. */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([^\s:@/\\?#[\]]+))(?::\d{1,5})?$/i;

/** The host name of a Host header, without port and brackets; undefined if malformed. */
function hostOfHeader(value: string): string | undefined {
  const match = HOST_HEADER.exec(value.trim());
  return (match?.[1] ?? match?.[2])?.toLowerCase();
}

/** The host name of an Origin header; undefined for `null` or anything else malformed. */
function hostOfOrigin(value: string): string | undefined {
  try {
    const { hostname, username, pathname } = new URL(value);
    if (username || pathname !== "/") return undefined;
    return hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

/** A host name as Host carries it: labels of letters, digits, `-` and `_`, dot-separated. */
const HOST_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/i;

/**
 * The names a guard accepts besides loopback: the bound host unless a wildcard, and `allowed`,
 * each a host name or an IP address (brackets optional); anything else is a RangeError, since it
 * could never match and would leave the operator's clients refused without a word why.
 */
function acceptedNames(bindHost: string, allowed: readonly string[]): Set<string> {
  for (const name of allowed) {
    const bare = name.replace(/^\[(.*)\]$/, "$1");
    if (!HOST_NAME.test(bare) && !parseIpLiteral(bare)) {
      throw new RangeError(
        `allowed host ${JSON.stringify(name)} is not a host name or IP address (no scheme, port or path)`,
      );
    }
  }
  return new Set(
    [...(isWildcardHost(bindHost) ? [] : [bindHost]), ...allowed].map((n) =>
      n.replace(/^\[|\]$/g, "").toLowerCase(),
    ),
  );
}

/**
 * Middleware that answers 403 `FORBIDDEN_HOST` unless the Host header (and the Origin header,
 * when a browser sends one) names this machine, the host the service binds, or one of
 * `allowed`, and no browser marked the request as sent by another site's page.
 *
 * @example
 * app.use("*", hostGuard("127.0.0.1", ["webfetch.internal"]));
 */
export function hostGuard(bindHost: string, allowed: readonly string[] = []): MiddlewareHandler {
  const names = acceptedNames(bindHost, allowed);
  const accepted = (name: string | undefined) =>
    name !== undefined && (isLoopbackHost(name) || names.has(name));
  return async (c, next) => {
    // A request made in process (app.request()) carries no Host: its URL names the host.
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!accepted(hostOfHeader(host))) {
      return errorResponse(c, "FORBIDDEN_HOST", `Host not allowed: ${host}`);
    }
    const origin = c.req.header("origin");
    if (origin !== undefined && !accepted(hostOfOrigin(origin))) {
      return errorResponse(c, "FORBIDDEN_HOST", `Origin not allowed: ${origin}`);
    }
    if (c.req.header("sec-fetch-site")?.toLowerCase() === "cross-site") {
      return errorResponse(c, "FORBIDDEN_HOST", "Cross-site browser requests are not allowed");
    }
    await next();
  };
}
