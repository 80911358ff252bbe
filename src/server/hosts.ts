/**
 * Which host names mean this machine, and which binds name no host at all. The service's Host
 * and Origin check and `webfetch serve` (its warning when it listens beyond loopback, its refusal
 * to fetch through itself) decide both the same way.
 */
import { parseIpLiteral } from "../net/address.js";

/** Binds on every interface: they name no host of their own. */
const WILDCARD_HOSTS: ReadonlySet<string> = new Set(["0.0.0.0", "::", ""]);

/** A host name or address as written in a flag, a Host header or a URL (brackets optional). */
function bare(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

/**
 * True when `host` means this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or ::1.
 *
 * @example
 * isLoopbackHost("127.0.0.2")  // true
 * isLoopbackHost("[::1]")      // true
 * isLoopbackHost("0.0.0.0")    // false: a wildcard bind, see isWildcardHost
 */
export function isLoopbackHost(host: string): boolean {
  const name = bare(host);
  return name === "localhost" || parseIpLiteral(name)?.range() === "loopback";
}

/**
 * True when listening on `host` listens on every interface (`0.0.0.0`, `::`, or no host).
 *
 * @example
 * isWildcardHost("::")  // true
 */
export function isWildcardHost(host: string): boolean {
  return WILDCARD_HOSTS.has(bare(host));
}
