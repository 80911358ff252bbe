/**
 * The address guard's verdict on one IP address: only public unicast may be reached.
 *
 * Every address a URL names or a resolver returns passes through `classifyAddress` before a
 * socket is opened to it, so a hostile URL cannot reach loopback, the private network or a cloud
 * metadata service. The policy is the explicit tables below, each range with the RFC
 * that reserves it; ipaddr.js parses and matches, and its own range names are only a backstop.
 * Every row of the IANA IPv4 and IPv6 Special-Purpose Address Registries is refused, those the
 * registry calls globally reachable too: an anycast protocol service (PCP, TURN, AMT, AS112) or
 * an identifier (ORCHIDv2, drone IDs) is not a web host, and only ordinary public unicast is. A
 * row inside a wider row has its own reason only when it names such a service.
 * Pure: no DNS, no sockets.
 */

import ipaddr from "ipaddr.js";

/** The verdict on one address; `reason` completes "Blocked: <address> is …". */
export type AddressVerdict =
  | { allowed: true; address: string; family: 4 | 6 }
  | { allowed: false; address: string; reason: string };

/** One blocked range: a CIDR and the reason a person reads. */
interface BlockedRange {
  readonly cidr: string;
  readonly reason: string;
}

/** Reason for input that is not a canonical IP literal. */
const NOT_AN_IP = "not an IP address";
/** Reason for the cloud metadata services, checked before the ranges that contain them. */
const METADATA = "a cloud metadata address";

/**
 * Cloud metadata and credential endpoints, matched exactly before the range tables so the
 * reason names the real danger (most of them also sit in a blocked range; 168.63.129.16 does not).
 */
const METADATA_ADDRESSES: readonly string[] = [
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean, Hetzner, … IMDS
  "169.254.170.2", // AWS ECS task metadata and credentials
  "169.254.170.23", // AWS EKS Pod Identity agent
  "169.254.0.23", // Tencent Cloud metadata (metadata.tencentyun.com)
  "169.254.42.42", // Scaleway metadata
  "100.100.100.200", // Alibaba Cloud metadata
  "192.0.0.192", // Oracle Cloud metadata (legacy)
  "168.63.129.16", // Azure WireServer / platform host: a public address, refused by name here
  "fd00:ec2::254", // AWS IMDS over IPv6
  "fd00:ec2::23", // AWS EKS Pod Identity agent over IPv6
  "fd20:ce::254", // GCP metadata server over IPv6
  "fe80::a9fe:a9fe", // OpenStack metadata over IPv6
];

/** IPv4 ranges that are not public unicast (IANA IPv4 Special-Purpose Address Registry). */
const IPV4_BLOCKED: readonly BlockedRange[] = [
  { cidr: "0.0.0.0/8", reason: "an unspecified address" }, // RFC 791, RFC 1122 §3.2.1.3: "this network"
  { cidr: "10.0.0.0/8", reason: "a private address" }, // RFC 1918
  { cidr: "100.64.0.0/10", reason: "a carrier-grade NAT address" }, // RFC 6598 shared address space
  { cidr: "127.0.0.0/8", reason: "a loopback address" }, // RFC 1122 §3.2.1.3
  { cidr: "169.254.0.0/16", reason: "a link-local address" }, // RFC 3927
  { cidr: "172.16.0.0/12", reason: "a private address" }, // RFC 1918
  { cidr: "192.0.0.9/32", reason: "a Port Control Protocol anycast address" }, // RFC 7723
  { cidr: "192.0.0.10/32", reason: "a TURN anycast address" }, // RFC 8155
  // Also DS-Lite 192.0.0.0/29 (RFC 7335), the dummy 192.0.0.8 (RFC 7600) and NAT64 discovery
  // 192.0.0.170-171 (RFC 7050): none reachable, all under this row's reason.
  { cidr: "192.0.0.0/24", reason: "an IETF protocol assignment address" }, // RFC 6890
  { cidr: "192.0.2.0/24", reason: "a documentation address" }, // RFC 5737 TEST-NET-1
  { cidr: "192.31.196.0/24", reason: "an AS112 DNS service address" }, // RFC 7535 AS112-v4
  { cidr: "192.52.193.0/24", reason: "an AMT relay anycast address" }, // RFC 7450
  // Also the 6a44 relay 192.88.99.2 (RFC 6751), inside the deprecated block.
  { cidr: "192.88.99.0/24", reason: "a 6to4 relay anycast address" }, // RFC 3068, RFC 7526
  { cidr: "192.168.0.0/16", reason: "a private address" }, // RFC 1918
  { cidr: "192.175.48.0/24", reason: "an AS112 DNS service address" }, // RFC 7534 direct delegation
  { cidr: "198.18.0.0/15", reason: "a benchmarking address" }, // RFC 2544
  { cidr: "198.51.100.0/24", reason: "a documentation address" }, // RFC 5737 TEST-NET-2
  { cidr: "203.0.113.0/24", reason: "a documentation address" }, // RFC 5737 TEST-NET-3
  { cidr: "224.0.0.0/4", reason: "a multicast address" }, // RFC 5771
  { cidr: "255.255.255.255/32", reason: "a broadcast address" }, // RFC 919, RFC 8190; before 240/4
  { cidr: "240.0.0.0/4", reason: "a reserved address" }, // RFC 1112 §4 class E
];

/**
 * IPv6 ranges that are not public unicast (IANA IPv6 Special-Purpose Address Registry). Order
 * matters: the first match gives the reason, so narrow ranges come before the ranges holding them.
 */
const IPV6_BLOCKED: readonly BlockedRange[] = [
  { cidr: "::/128", reason: "an unspecified address" }, // RFC 4291 §2.5.2
  { cidr: "::1/128", reason: "a loopback address" }, // RFC 4291 §2.5.3
  { cidr: "::ffff:0:0/96", reason: "an IPv4-mapped IPv6 address" }, // RFC 4291 §2.5.5.2
  { cidr: "::/96", reason: "an IPv4-compatible IPv6 address" }, // RFC 4291 §2.5.5.1 (deprecated)
  { cidr: "::ffff:0:0:0/96", reason: "an IPv4-translated IPv6 address" }, // RFC 2765 §2.1 (SIIT)
  { cidr: "64:ff9b::/96", reason: "a NAT64 address" }, // RFC 6052 well-known prefix
  { cidr: "64:ff9b:1::/48", reason: "a NAT64 address" }, // RFC 8215 local-use prefix
  { cidr: "100::/64", reason: "a discard-only address" }, // RFC 6666
  { cidr: "100:0:0:1::/64", reason: "a dummy address" }, // RFC 9780
  { cidr: "2001::/32", reason: "a Teredo address" }, // RFC 4380
  { cidr: "2001:1::1/128", reason: "a Port Control Protocol anycast address" }, // RFC 7723
  { cidr: "2001:1::2/128", reason: "a TURN anycast address" }, // RFC 8155
  { cidr: "2001:1::3/128", reason: "a DNS-SD SRP anycast address" }, // RFC 9665
  { cidr: "2001:2::/48", reason: "a benchmarking address" }, // RFC 5180
  { cidr: "2001:3::/32", reason: "an AMT relay anycast address" }, // RFC 7450
  { cidr: "2001:4:112::/48", reason: "an AS112 DNS service address" }, // RFC 7535 AS112-v6
  { cidr: "2001:10::/28", reason: "an ORCHID address" }, // RFC 4843 (deprecated)
  { cidr: "2001:20::/28", reason: "an ORCHID address" }, // RFC 7343 ORCHIDv2
  { cidr: "2001:30::/28", reason: "a drone remote ID address" }, // RFC 9374 DETs
  { cidr: "2001::/23", reason: "an IETF protocol assignment address" }, // RFC 2928
  { cidr: "2001:db8::/32", reason: "a documentation address" }, // RFC 3849
  { cidr: "2002::/16", reason: "a 6to4 address" }, // RFC 3056
  { cidr: "2620:4f:8000::/48", reason: "an AS112 DNS service address" }, // RFC 7534 direct delegation
  { cidr: "3fff::/20", reason: "a documentation address" }, // RFC 9637
  { cidr: "5f00::/16", reason: "a segment routing address" }, // RFC 9602 SRv6 SIDs
  { cidr: "fc00::/7", reason: "a private address" }, // RFC 4193 unique local
  { cidr: "fe80::/10", reason: "a link-local address" }, // RFC 4291 §2.5.6
  { cidr: "fec0::/10", reason: "a site-local address" }, // RFC 3879 (deprecated)
  { cidr: "ff00::/8", reason: "a multicast address" }, // RFC 4291 §2.7
];

/** Only global unicast is reachable over IPv6 (RFC 4291 §2.4, IANA allocates from 2000::/3). */
const IPV6_GLOBAL_UNICAST = "2000::/3";
/** Reason for IPv6 outside 2000::/3 that no narrower range names. */
const NOT_GLOBAL_UNICAST = "not a global unicast address";
/** Reason for a scoped (zone id) IPv6 address that is otherwise global. */
const SCOPED = "a scoped IPv6 address";

/**
 * The ipaddr.js range name of ordinary public addresses; any other name the library reports for
 * an address our tables let through is refused as reserved (a backstop for newer registry entries).
 */
const LIBRARY_PUBLIC_RANGE = "unicast";

/** A dotted IPv4 tail inside an IPv6 literal (`::ffff:1.2.3.4`). */
const IPV6_DOTTED_TAIL = /:([^:]*\.[^:]*)$/;
/** Characters a bare IPv6 literal may contain (hex groups, colons, a dotted tail). */
const IPV6_CHARS = /^[0-9a-f:.]+$/i;

type Range<T> = [T, number];

const metadataSet: ReadonlySet<string> = new Set(
  METADATA_ADDRESSES.map((a) => canonical(ipaddr.parse(a))),
);
const ipv4Table = IPV4_BLOCKED.map(
  (r) => [ipaddr.IPv4.parseCIDR(r.cidr), r.reason] as [Range<ipaddr.IPv4>, string],
);
const ipv6Table = IPV6_BLOCKED.map(
  (r) => [ipaddr.IPv6.parseCIDR(r.cidr), r.reason] as [Range<ipaddr.IPv6>, string],
);
const ipv6GlobalUnicast = ipaddr.IPv6.parseCIDR(IPV6_GLOBAL_UNICAST);

/**
 * Decide whether one resolved or literal IP address may be connected to.
 *
 * Input must be a canonical literal as a resolver returns it: dotted-decimal IPv4 without
 * leading zeros, or IPv6 without brackets. Anything else (`0x7f.1`, `0177.0.0.1`, `127.1`) is
 * refused as "not an IP address" rather than reinterpreted. An IPv6 zone id (`fe80::1%eth0`) is
 * always refused.
 *
 * @example
 * classifyAddress("10.0.0.5")  // { allowed: false, address: "10.0.0.5", reason: "a private address" }
 * classifyAddress("93.184.215.14")  // { allowed: true, address: "93.184.215.14", family: 4 }
 */
export function classifyAddress(ip: string): AddressVerdict {
  const zoneAt = ip.indexOf("%");
  const bare = zoneAt === -1 ? ip : ip.slice(0, zoneAt);
  const parsed = parseStrict(bare);
  if (parsed === undefined) return refuse(ip, NOT_AN_IP);

  if (zoneAt !== -1) {
    // A zone id only makes sense for link-local and multicast: never a public destination.
    if (parsed.kind() !== "ipv6" || zoneAt === ip.length - 1) return refuse(ip, NOT_AN_IP);
    const inner = classifyParsed(parsed);
    return refuse(ip, inner.allowed ? SCOPED : inner.reason);
  }
  return classifyParsed(parsed);
}

/**
 * Parse a canonical IPv4 or IPv6 literal (no zone id, no brackets), or return undefined; the
 * strict parser shared by the classifier and the allowlist.
 *
 * @example
 * parseIpLiteral("127.0.0.1")?.kind()  // "ipv4"
 * parseIpLiteral("0x7f.1")             // undefined
 */
export function parseIpLiteral(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return parseStrict(text);
}

/** Four decimal parts without leading zeros; each is then checked to be at most 255. */
const FOUR_PART_DECIMAL = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

/**
 * Whether `text` is a dotted-decimal IPv4 address, four parts of 0-255 without leading zeros:
 * the only IPv4 form a resolver and a browser read alike. A regular expression and four
 * numbers: ipaddr.js builds (and for a name, throws) an address object to say the same.
 *
 * @example
 * isFourPartDecimal("127.0.0.1")  // true
 * isFourPartDecimal("127.1")      // false
 */
export function isFourPartDecimal(text: string): boolean {
  if (!FOUR_PART_DECIMAL.test(text)) return false;
  for (const part of text.split(".")) if (Number(part) > 255) return false;
  return true;
}

function parseStrict(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (isFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!IPV6_CHARS.test(text) || !ipaddr.IPv6.isValid(text)) return undefined;
  // ipaddr.js accepts octal and hex in a dotted tail (`::ffff:0x7f.0.0.1`); a resolver never does.
  const tail = IPV6_DOTTED_TAIL.exec(text)?.[1];
  if (tail !== undefined && !isFourPartDecimal(tail)) return undefined;
  if (tail !== undefined && text === `::${tail}`) {
    // ipaddr.js reads `::1.2.3.4` as IPv4-mapped (::ffff:1.2.3.4); RFC 4291 §2.5.5.1 says
    // IPv4-compatible (::102:304). Build it ourselves so the reason and allowlist are right.
    const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
    return new ipaddr.IPv6([0, 0, 0, 0, 0, 0, (a << 8) | b, (c << 8) | d]);
  }
  return ipaddr.IPv6.parse(text);
}

function classifyParsed(addr: ipaddr.IPv4 | ipaddr.IPv6): AddressVerdict {
  const address = canonical(addr);
  if (metadataSet.has(address)) return refuse(address, METADATA);

  if (addr.kind() === "ipv4") {
    const v4 = addr as ipaddr.IPv4;
    for (const [range, reason] of ipv4Table) if (v4.match(range)) return refuse(address, reason);
    if (v4.range() !== LIBRARY_PUBLIC_RANGE) return refuse(address, "a reserved address");
    return { allowed: true, address, family: 4 };
  }

  const v6 = addr as ipaddr.IPv6;
  for (const [range, reason] of ipv6Table) if (v6.match(range)) return refuse(address, reason);
  if (!v6.match(ipv6GlobalUnicast)) return refuse(address, NOT_GLOBAL_UNICAST);
  if (v6.range() !== LIBRARY_PUBLIC_RANGE) return refuse(address, "a reserved address");
  return { allowed: true, address, family: 6 };
}

/** The form used in verdicts and messages: dotted decimal, or RFC 5952 IPv6. */
function canonical(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  return addr.kind() === "ipv4" ? addr.toString() : (addr as ipaddr.IPv6).toRFC5952String();
}

function refuse(address: string, reason: string): AddressVerdict {
  return { allowed: false, address, reason };
}
