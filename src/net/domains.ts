/**
 * Domain lists and redirect scopes: pure checks on host names, before any byte is sent.
 */
import { isIP } from "node:net";
import { WebFetchError } from "../errors.js";
import type { RedirectPolicy } from "../values.js";

/** True when `host` is `domain` or one of its subdomains. */
export function inDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** Throws BLOCKED_DOMAIN when the lists refuse `host` (already lowercase, no trailing dot). */
export function checkDomainLists(
  host: string,
  allowed: readonly string[],
  blocked: readonly string[],
): void {
  if (blocked.some((d) => inDomain(host, d))) {
    throw new WebFetchError("BLOCKED_DOMAIN", `Blocked: ${host} is a blocked domain`, {
      retryable: false,
    });
  }
  if (allowed.length > 0 && !allowed.some((d) => inDomain(host, d))) {
    throw new WebFetchError("BLOCKED_DOMAIN", `Blocked: ${host} is not an allowed domain`, {
      retryable: false,
    });
  }
}

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

/** Whether a redirect from `from` to `to` stays within `policy`. */
export function redirectAllowed(policy: RedirectPolicy, from: URL, to: URL): boolean {
  if (policy === "follow") return true;
  // `example.com.` and `example.com` are one host; a trailing dot must not make "test." a site.
  const a = stripDots(from.hostname);
  const b = stripDots(to.hostname);
  if (policy === "same-host") return a === b;
  return siteOf(a) === siteOf(b);
}

function stripDots(host: string): string {
  return host.replace(/\.+$/, "");
}
