/**
 * Domain lists and redirect scopes: pure checks on host names, before any byte is sent.
 */
import { WebFetchError } from "../errors.js";
import { siteOf, stripDots } from "../sites.js";
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

/** Whether a redirect from `from` to `to` stays within `policy`. */
export function redirectAllowed(policy: RedirectPolicy, from: URL, to: URL): boolean {
  if (policy === "follow") return true;
  // `example.com.` and `example.com` are one host; a trailing dot must not make "test." a site.
  const a = stripDots(from.hostname);
  const b = stripDots(to.hostname);
  if (policy === "same-host") return a === b;
  return siteOf(a) === siteOf(b);
}
