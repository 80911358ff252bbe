/**
 * Exact holes in the address guard that an operator opens (`allowAddresses`, `--allow-address`,
 * WEBFETCH_ALLOW_ADDRESSES): an intranet range, or a test server on 127.0.0.1:8080.
 *
 * Entries are parsed once, strictly, at configuration time: a typo throws a TypeError naming the
 * entry instead of silently opening (or failing to open) a hole. Pure: no DNS, no sockets.
 */

import ipaddr from "ipaddr.js";
import { parseIpLiteral } from "./address.js";

/** One operator-opened hole: an address range and, optionally, a single port. */
export interface AddressRule {
  /** The entry as the operator wrote it (trimmed), for messages. */
  readonly entry: string;
  /** The range as a normalized CIDR, e.g. `"10.0.0.0/8"`, `"::1/128"`. */
  readonly cidr: string;
  /** Address family of the range; IPv4-mapped IPv6 entries become IPv4 rules. */
  readonly family: 4 | 6;
  /** The only port the rule opens; absent means every port. */
  readonly port?: number;
}

/** `[v6]`, `[v6]:port`, `[v6/len]:port`, `[v6]/len:port`. */
const BRACKETED =
  /^\[(?<addr>[^\]/]+)(?:\/(?<inner>\d{1,3}))?\](?:\/(?<prefix>\d{1,3}))?(?::(?<port>\d{1,5}))?$/;
/** `v4`, `v4:port`, `v4/len`, `v4/len:port` (dotted decimal, at most one colon). */
const IPV4_ENTRY = /^(?<addr>[0-9.]+)(?:\/(?<prefix>\d{1,3}))?(?::(?<port>\d{1,5}))?$/;
/** Bare IPv6: `v6`, `v6/len`, `v6/len:port` (a port needs a prefix or brackets to be unambiguous). */
const BARE_IPV6 = /^(?<addr>[^/[\]]+)(?:\/(?<prefix>\d{1,3})(?::(?<port>\d{1,5}))?)?$/;
/** Bits of the IPv4-mapped prefix ::ffff:0:0/96 (RFC 4291 §2.5.5.2). */
const MAPPED_PREFIX_BITS = 96;
/** Highest TCP port. */
const MAX_PORT = 65_535;

/**
 * Parse operator entries into rules: `"127.0.0.1"`, `"127.0.0.1:8080"`, `"10.0.0.0/8"`,
 * `"10.0.0.0/8:443"`, `"::1"`, `"[::1]:8080"`, `"fd00::/8"`. A bare IPv6 address takes no port
 * (`::1:8080` is itself an address); write `[::1]:8080`.
 *
 * @throws TypeError naming the first entry that is not an IP, a CIDR or a valid port.
 * @example
 * const rules = parseAddressRules(["127.0.0.1:8080", "10.0.0.0/8"]);
 * matchesAddressRule(rules, "127.0.0.1", 8080)  // true
 */
export function parseAddressRules(entries: readonly string[]): AddressRule[] {
  return entries.map(parseEntry);
}

/**
 * True when `ip` (a resolved literal) on `port` falls inside one of the rules. An IPv4-mapped
 * IPv6 address (`::ffff:127.0.0.1`) matches the IPv4 rules; an IPv6 zone id is ignored.
 *
 * @example
 * matchesAddressRule(parseAddressRules(["10.0.0.0/8:443"]), "::ffff:10.1.2.3", 443)  // true
 */
export function matchesAddressRule(
  rules: readonly AddressRule[],
  ip: string,
  port: number,
): boolean {
  if (rules.length === 0) return false;
  const zoneAt = ip.indexOf("%");
  const addr = unmap(parseIpLiteral(zoneAt === -1 ? ip : ip.slice(0, zoneAt)));
  if (addr === undefined) return false;
  return rules.some((rule) => {
    if (rule.port !== undefined && rule.port !== port) return false;
    const range = rangeOf(rule);
    return range[0].kind() === addr.kind() && addr.match(range);
  });
}

/** Each rule's range, parsed on its first match rather than on every one. */
const ranges = new WeakMap<AddressRule, [ipaddr.IPv4 | ipaddr.IPv6, number]>();

function rangeOf(rule: AddressRule): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  let range = ranges.get(rule);
  if (!range) {
    range = ipaddr.parseCIDR(rule.cidr);
    ranges.set(rule, range);
  }
  return range;
}

function parseEntry(raw: string): AddressRule {
  const entry = raw.trim();
  const fail = (why: string): never => {
    throw new TypeError(`Invalid address rule ${JSON.stringify(raw)}: ${why}`);
  };
  const bracketed = BRACKETED.exec(entry);
  const groups = (bracketed ?? IPV4_ENTRY.exec(entry) ?? BARE_IPV6.exec(entry))?.groups;
  if (entry === "" || groups === undefined) {
    return fail("expected an IP or CIDR, with an optional :port");
  }
  const { addr: text = "", inner, prefix: outer, port: portText } = groups;
  if (inner !== undefined && outer !== undefined) return fail("two prefix lengths");

  const parsed = parseIpLiteral(text);
  if (parsed === undefined) return fail(`${JSON.stringify(text)} is not an IP address`);
  if (bracketed !== null && parsed.kind() !== "ipv6") return fail("brackets are for IPv6 only");
  const bits = parsed.kind() === "ipv4" ? 32 : 128;
  const prefixText = inner ?? outer;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return fail(`prefix length /${prefix} is longer than ${bits} bits`);

  let network: ipaddr.IPv4 | ipaddr.IPv6 = parsed;
  let length = prefix;
  if (parsed.kind() === "ipv6" && prefix >= MAPPED_PREFIX_BITS) {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      network = v6.toIPv4Address();
      length = prefix - MAPPED_PREFIX_BITS;
    }
  }
  const family = network.kind() === "ipv4" ? 4 : 6;
  const cidr =
    family === 4
      ? `${ipaddr.IPv4.networkAddressFromCIDR(`${network.toString()}/${length}`).toString()}/${length}`
      : `${ipaddr.IPv6.networkAddressFromCIDR(`${network.toString()}/${length}`).toRFC5952String()}/${length}`;

  if (portText === undefined) return { entry, cidr, family };
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > MAX_PORT) {
    return fail(`port ${portText} is not between 1 and ${MAX_PORT}`);
  }
  return { entry, cidr, family, port };
}

/** IPv4-mapped IPv6 as the IPv4 address it carries; anything else unchanged. */
function unmap(addr: ipaddr.IPv4 | ipaddr.IPv6 | undefined): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (addr?.kind() !== "ipv6") return addr;
  const v6 = addr as ipaddr.IPv6;
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}
