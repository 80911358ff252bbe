/**
 * URL policy, the first gate of the pipeline: only http(s), no credentials, no
 * absurd lengths, and the host in the canonical form that the address guard checks.
 *
 * Host canonicalization is left to the WHATWG URL parser, which already turns every IPv4
 * spelling (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`, full-width
 * `１２７.０.０.１`, percent-encoded `127%2e0%2e0%2e1`) into dotted decimal and IPv6 into RFC 5952
 * form. What it leaves to us: trailing dots (`127.0.0.1..` stays a "domain"), and empty
 * userinfo (`http://@host/`), which it drops silently. Pure: no DNS, no sockets.
 */

import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { isFourPartDecimal } from "./address.js";

/** A URL that passed the policy, with the host ready for the address guard. */
export interface ParsedTarget {
  /** The parsed URL; an IP host spelled with trailing dots is rewritten to its canonical form. */
  url: URL;
  /** Lowercase host without brackets and without trailing dots. */
  hostname: string;
  /** The address, when the host is an IPv4 or IPv6 literal (canonical, no brackets). */
  ipLiteral?: string;
  /** The port to connect to: explicit, or 80 / 443 by scheme. */
  port: number;
}

/** Longest URL accepted, counted after trimming. */
const MAX_URL_LENGTH = LIMITS.maxUrlLength;
/** Schemes that may be fetched. */
const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set(["http:", "https:"]);
/** Default port by scheme (RFC 9110 §4.2). */
const DEFAULT_PORTS: Readonly<Record<string, number>> = { "http:": 80, "https:": 443 };
/** WHATWG URL strips leading and trailing C0 controls and spaces before parsing. */
const C0_OR_SPACE_EDGES = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
/** WHATWG URL removes every ASCII tab and newline anywhere in the input. */
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/**
 * Scheme, slashes (WHATWG treats `\` as `/` for http(s) and accepts any number, even none) and
 * the authority, which ends at the first `/`, `\`, `?` or `#`.
 */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i;
/** A scheme at the start: the input meant to be an absolute URL. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** Trailing dots of an absolute name (`example.com.`). */
const TRAILING_DOTS = /\.+$/;

/** True when the text starts with a scheme (`https:`, `ftp:`): it was meant as an absolute URL. */
export function hasScheme(input: string): boolean {
  return HAS_SCHEME.test(input.trim());
}

/**
 * Check a URL against the policy and return its parts for the address guard.
 *
 * @throws WebFetchError `INVALID_URL` when the URL is too long, unparsable, not http(s), carries
 * credentials or has no host.
 * @example
 * parseTargetUrl("http://0x7f.1/").ipLiteral  // "127.0.0.1"
 * parseTargetUrl("ftp://example.com/")        // throws "Invalid URL: must be http or https"
 */
export function parseTargetUrl(input: string): ParsedTarget {
  const text = input.trim();
  if (text.length > MAX_URL_LENGTH) {
    throw invalid(`Invalid URL: longer than ${MAX_URL_LENGTH} characters`, text);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    const why =
      text === ""
        ? "empty"
        : HAS_SCHEME.test(text)
          ? "cannot be parsed (check the host and port)"
          : "not an absolute URL (expected http:// or https://…)";
    throw invalid(`Invalid URL: ${why}`, text, error);
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) {
    throw invalid("Invalid URL: must be http or https", text);
  }
  if (url.username !== "" || url.password !== "" || hasUserinfo(text)) {
    throw invalid("Invalid URL: credentials are not allowed", text);
  }
  if (url.port === "0") throw invalid("Invalid URL: port 0", text);

  const port = url.port === "" ? DEFAULT_PORTS[url.protocol]! : Number(url.port);
  const host = url.hostname;
  if (host.startsWith("[")) {
    // WHATWG has already validated and compressed the IPv6 literal (and refuses zone ids).
    const ip = host.slice(1, -1);
    return { url, hostname: ip, ipLiteral: ip, port };
  }

  let hostname = host.replace(TRAILING_DOTS, "");
  if (hostname === "") throw invalid("Invalid URL: empty host", text);
  if (hostname !== host) {
    // WHATWG parses `127.0.0.1.` as IPv4 but `127.0.0.1..` and `0x7f.1..` as domains; a resolver
    // may still read them as addresses. Parse the dot-less name again so it gets the same checks.
    hostname = reparseHost(hostname, text);
  }
  if (isFourPartDecimal(hostname)) {
    if (hostname !== host) url.hostname = hostname;
    return { url, hostname, ipLiteral: hostname, port };
  }
  return { url, hostname, port };
}

/**
 * The URL as a cache key or result URL: no fragment, default port dropped, everything else (query
 * order included) as WHATWG serializes it (scheme and host already lowercase).
 *
 * @example
 * normalizeUrl(new URL("HTTPS://Example.com:443/a?b=2&a=1#top"))  // "https://example.com/a?b=2&a=1"
 */
export function normalizeUrl(url: URL): string {
  // An http(s) URL serializes every other "#" percent-encoded, so the first one starts the
  // fragment (even an empty one, "…/#").
  const { href } = url;
  const hash = href.indexOf("#");
  return hash === -1 ? href : href.slice(0, hash);
}

/** True when the raw input has userinfo: any `@` in the authority, even an empty `http://@host/`. */
function hasUserinfo(text: string): boolean {
  // Without an "@" anywhere there is no userinfo to find.
  if (!text.includes("@")) return false;
  const cleaned = text.replace(C0_OR_SPACE_EDGES, "").replace(TAB_OR_NEWLINE, "");
  return AUTHORITY.exec(cleaned)?.[1]?.includes("@") ?? false;
}

/** Canonical form of a host that had trailing dots, by the same WHATWG host parser. */
function reparseHost(hostname: string, text: string): string {
  try {
    return new URL(`http://${hostname}/`).hostname;
  } catch (error) {
    throw invalid("Invalid URL: invalid host", text, error);
  }
}

function invalid(message: string, url: string, cause?: unknown): WebFetchError {
  return new WebFetchError("INVALID_URL", message, {
    ...(cause === undefined ? {} : { cause }),
    ...(url === "" || url.length > MAX_URL_LENGTH ? {} : { url }),
  });
}
