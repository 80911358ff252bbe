/**
 * Sites by their host names: the registrable part of a host, which the network policy (redirect
 * scopes), a site's map and crawl, and extraction (links to the page's own site) all ask about.
 */
import { isIP } from "node:net";

/**
 * Second-level labels under which registries sell names (co.uk, com.au, ne.jp...): with no
 * public suffix list at hand, a short label under a two-letter country code counts as one.
 */
const SHORT_SECOND_LEVEL = /^(?:co|com|net|org|gov|edu|ac|ne|or|go|gr|lg|ed|ad|mil|nom|ltd|plc)$/;

/** The registrable part of a host name, approximated: example.co.uk, example.com, or the IP. */
export function siteOf(hostname: string): string {
  const host = stripDots(hostname);
  if (isIP(host.replace(/^\[|\]$/g, ""))) return host;
  const labels = host.split(".");
  if (labels.length <= 2) return host;
  const tld = labels[labels.length - 1]!;
  const second = labels[labels.length - 2]!;
  const take = tld.length === 2 && SHORT_SECOND_LEVEL.test(second) ? 3 : 2;
  return labels.slice(-take).join(".");
}

/** A host name without the trailing dots that name the same host (`example.com.`). */
export function stripDots(host: string): string {
  return host.replace(/\.+$/, "");
}
