/**
 * The classifier against the IANA IPv4 and IPv6 Special-Purpose Address Registries, row by row
 * (2024-2025 contents), plus the multicast, site-local and legacy IPv6 ranges that sit outside
 * them. Every row is refused: only ordinary public unicast is a web page's address, and a row
 * the registry marks globally reachable (anycast services, AMT, AS112, ORCHIDv2, drone IDs) is
 * still a protocol service, not a web host. Each row says why, in its `why`. Pure: no sockets.
 */
import { describe, expect, it } from "vitest";
import { classifyAddress } from "../../src/net/address.js";

interface Row {
  /** The registry's address block. */
  prefix: string;
  /** The registry's name for it. */
  name: string;
  /** An address inside the block (inside the row itself, not only its parent). */
  sample: string;
  /** The verdict's reason. */
  reason: string;
  /** Why the product refuses it, in one line. */
  why: string;
}

const IETF = "an IETF protocol assignment address";
const DOCS = "a documentation address";
const PRIVATE = "a private address";
const AS112 = "an AS112 DNS service address";
const AMT = "an AMT relay anycast address";
const NAT64 = "a NAT64 address";
const ORCHID = "an ORCHID address";

const IPV4_ROWS: readonly Row[] = [
  {
    prefix: "0.0.0.0/8",
    name: '"This network"',
    sample: "0.1.2.3",
    reason: "an unspecified address",
    why: "never a destination",
  },
  {
    prefix: "0.0.0.0/32",
    name: '"This host on this network"',
    sample: "0.0.0.0",
    reason: "an unspecified address",
    why: "connects to the local host on most stacks",
  },
  {
    prefix: "10.0.0.0/8",
    name: "Private-Use",
    sample: "10.1.2.3",
    reason: PRIVATE,
    why: "the operator's own network",
  },
  {
    prefix: "100.64.0.0/10",
    name: "Shared Address Space",
    sample: "100.64.1.2",
    reason: "a carrier-grade NAT address",
    why: "the provider's network behind a CGNAT",
  },
  {
    prefix: "127.0.0.0/8",
    name: "Loopback",
    sample: "127.1.2.3",
    reason: "a loopback address",
    why: "this host",
  },
  {
    prefix: "169.254.0.0/16",
    name: "Link Local",
    sample: "169.254.1.2",
    reason: "a link-local address",
    why: "the local link, cloud metadata included",
  },
  {
    prefix: "172.16.0.0/12",
    name: "Private-Use",
    sample: "172.20.1.2",
    reason: PRIVATE,
    why: "the operator's own network",
  },
  {
    prefix: "192.0.0.0/24",
    name: "IETF Protocol Assignments",
    sample: "192.0.0.100",
    reason: IETF,
    why: "unusable except through a narrower assignment",
  },
  {
    prefix: "192.0.0.0/29",
    name: "IPv4 Service Continuity Prefix",
    sample: "192.0.0.2",
    reason: IETF,
    why: "DS-Lite tunnel endpoints, not globally reachable",
  },
  {
    prefix: "192.0.0.8/32",
    name: "IPv4 dummy address",
    sample: "192.0.0.8",
    reason: IETF,
    why: "a placeholder source, not globally reachable",
  },
  {
    prefix: "192.0.0.9/32",
    name: "Port Control Protocol Anycast",
    sample: "192.0.0.9",
    reason: "a Port Control Protocol anycast address",
    why: "globally reachable, but a NAT control service, not a web host",
  },
  {
    prefix: "192.0.0.10/32",
    name: "Traversal Using Relays around NAT Anycast",
    sample: "192.0.0.10",
    reason: "a TURN anycast address",
    why: "globally reachable, but a media relay service, not a web host",
  },
  {
    prefix: "192.0.0.170/32",
    name: "NAT64/DNS64 Discovery",
    sample: "192.0.0.170",
    reason: IETF,
    why: "a DNS64 discovery answer, not a host",
  },
  {
    prefix: "192.0.0.171/32",
    name: "NAT64/DNS64 Discovery",
    sample: "192.0.0.171",
    reason: IETF,
    why: "a DNS64 discovery answer, not a host",
  },
  {
    prefix: "192.0.2.0/24",
    name: "Documentation (TEST-NET-1)",
    sample: "192.0.2.1",
    reason: DOCS,
    why: "examples only",
  },
  {
    prefix: "192.31.196.0/24",
    name: "AS112-v4",
    sample: "192.31.196.1",
    reason: AS112,
    why: "globally reachable, but an anycast DNS sink run by whoever announces it",
  },
  {
    prefix: "192.52.193.0/24",
    name: "AMT",
    sample: "192.52.193.1",
    reason: AMT,
    why: "globally reachable, but multicast tunnel relays, not web hosts",
  },
  {
    prefix: "192.88.99.0/24",
    name: "Deprecated (6to4 Relay Anycast)",
    sample: "192.88.99.1",
    reason: "a 6to4 relay anycast address",
    why: "deprecated relays announced by anyone",
  },
  {
    prefix: "192.88.99.2/32",
    name: "6a44-relay anycast address",
    sample: "192.88.99.2",
    reason: "a 6to4 relay anycast address",
    why: "a tunnel relay inside the deprecated block",
  },
  {
    prefix: "192.168.0.0/16",
    name: "Private-Use",
    sample: "192.168.1.2",
    reason: PRIVATE,
    why: "the operator's own network",
  },
  {
    prefix: "192.175.48.0/24",
    name: "Direct Delegation AS112 Service",
    sample: "192.175.48.1",
    reason: AS112,
    why: "globally reachable, but an anycast DNS sink run by whoever announces it",
  },
  {
    prefix: "198.18.0.0/15",
    name: "Benchmarking",
    sample: "198.19.1.2",
    reason: "a benchmarking address",
    why: "lab networks",
  },
  {
    prefix: "198.51.100.0/24",
    name: "Documentation (TEST-NET-2)",
    sample: "198.51.100.7",
    reason: DOCS,
    why: "examples only",
  },
  {
    prefix: "203.0.113.0/24",
    name: "Documentation (TEST-NET-3)",
    sample: "203.0.113.200",
    reason: DOCS,
    why: "examples only",
  },
  {
    prefix: "240.0.0.0/4",
    name: "Reserved",
    sample: "240.1.2.3",
    reason: "a reserved address",
    why: "not allocated",
  },
  {
    prefix: "255.255.255.255/32",
    name: "Limited Broadcast",
    sample: "255.255.255.255",
    reason: "a broadcast address",
    why: "every host on the link",
  },
  {
    prefix: "224.0.0.0/4",
    name: "Multicast (its own registry)",
    sample: "233.252.0.1",
    reason: "a multicast address",
    why: "a group, not a host",
  },
];

const IPV6_ROWS: readonly Row[] = [
  {
    prefix: "::1/128",
    name: "Loopback Address",
    sample: "::1",
    reason: "a loopback address",
    why: "this host",
  },
  {
    prefix: "::/128",
    name: "Unspecified Address",
    sample: "::",
    reason: "an unspecified address",
    why: "connects to the local host on most stacks",
  },
  {
    prefix: "::ffff:0:0/96",
    name: "IPv4-mapped Address",
    sample: "::ffff:203.0.113.9",
    reason: "an IPv4-mapped IPv6 address",
    why: "reaches the embedded IPv4 address, which could be any of the above",
  },
  {
    prefix: "64:ff9b::/96",
    name: "IPv4-IPv6 Translat.",
    sample: "64:ff9b::a00:1",
    reason: NAT64,
    why: "a NAT64 gateway reaches the embedded IPv4 address",
  },
  {
    prefix: "64:ff9b:1::/48",
    name: "IPv4-IPv6 Translat. (local use)",
    sample: "64:ff9b:1::a00:1",
    reason: NAT64,
    why: "the operator's NAT64 reaches the embedded IPv4 address",
  },
  {
    prefix: "100::/64",
    name: "Discard-Only Address Block",
    sample: "100::1",
    reason: "a discard-only address",
    why: "a black hole",
  },
  {
    prefix: "100:0:0:1::/64",
    name: "Dummy IPv6 Prefix",
    sample: "100:0:0:1::1",
    reason: "a dummy address",
    why: "a placeholder source, never a destination",
  },
  {
    prefix: "2001::/23",
    name: "IETF Protocol Assignments",
    sample: "2001:5::1",
    reason: IETF,
    why: "unusable except through a narrower assignment",
  },
  {
    prefix: "2001::/32",
    name: "TEREDO",
    sample: "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    reason: "a Teredo address",
    why: "a tunnel to an embedded, possibly private, IPv4 address",
  },
  {
    prefix: "2001:1::1/128",
    name: "Port Control Protocol Anycast",
    sample: "2001:1::1",
    reason: "a Port Control Protocol anycast address",
    why: "globally reachable, but a NAT control service, not a web host",
  },
  {
    prefix: "2001:1::2/128",
    name: "Traversal Using Relays around NAT Anycast",
    sample: "2001:1::2",
    reason: "a TURN anycast address",
    why: "globally reachable, but a media relay service, not a web host",
  },
  {
    prefix: "2001:1::3/128",
    name: "DNS-SD Service Registration Protocol Anycast",
    sample: "2001:1::3",
    reason: "a DNS-SD SRP anycast address",
    why: "globally reachable, but a service registration endpoint, not a web host",
  },
  {
    prefix: "2001:2::/48",
    name: "Benchmarking",
    sample: "2001:2::1",
    reason: "a benchmarking address",
    why: "lab networks",
  },
  {
    prefix: "2001:3::/32",
    name: "AMT",
    sample: "2001:3::1",
    reason: AMT,
    why: "globally reachable, but multicast tunnel relays, not web hosts",
  },
  {
    prefix: "2001:4:112::/48",
    name: "AS112-v6",
    sample: "2001:4:112::1",
    reason: AS112,
    why: "globally reachable, but an anycast DNS sink run by whoever announces it",
  },
  {
    prefix: "2001:10::/28",
    name: "Deprecated (previously ORCHID)",
    sample: "2001:10::1",
    reason: ORCHID,
    why: "cryptographic identifiers, not routable locators",
  },
  {
    prefix: "2001:20::/28",
    name: "ORCHIDv2",
    sample: "2001:20::1",
    reason: ORCHID,
    why: "globally reachable per the registry, but identifiers, not web hosts",
  },
  {
    prefix: "2001:30::/28",
    name: "Drone Remote ID Protocol Entity Tags (DETs) Prefix",
    sample: "2001:30::1",
    reason: "a drone remote ID address",
    why: "globally reachable per the registry, but aircraft identifiers, not web hosts",
  },
  {
    prefix: "2001:db8::/32",
    name: "Documentation",
    sample: "2001:db8::1",
    reason: DOCS,
    why: "examples only",
  },
  {
    prefix: "2002::/16",
    name: "6to4",
    sample: "2002:c000:201::1",
    reason: "a 6to4 address",
    why: "a tunnel to an embedded, possibly private, IPv4 address",
  },
  {
    prefix: "2620:4f:8000::/48",
    name: "Direct Delegation AS112 Service",
    sample: "2620:4f:8000::1",
    reason: AS112,
    why: "globally reachable, but an anycast DNS sink run by whoever announces it",
  },
  {
    prefix: "3fff::/20",
    name: "Documentation",
    sample: "3fff:fff::1",
    reason: DOCS,
    why: "examples only",
  },
  {
    prefix: "5f00::/16",
    name: "Segment Routing (SRv6) SIDs",
    sample: "5f00:1::1",
    reason: "a segment routing address",
    why: "instructions inside an SRv6 domain, not hosts",
  },
  {
    prefix: "fc00::/7",
    name: "Unique-Local",
    sample: "fd12:3456:789a::1",
    reason: PRIVATE,
    why: "the operator's own network",
  },
  {
    prefix: "fe80::/10",
    name: "Link-Local Unicast",
    sample: "fe80::1",
    reason: "a link-local address",
    why: "the local link",
  },
  {
    prefix: "fec0::/10",
    name: "Site-local (deprecated, outside the registry)",
    sample: "fec0::1",
    reason: "a site-local address",
    why: "the operator's own site, where still in use",
  },
  {
    prefix: "ff00::/8",
    name: "Multicast (its own registry)",
    sample: "ff0e::1",
    reason: "a multicast address",
    why: "a group, not a host",
  },
];

/** Just outside the blocks that sit in public space: the blocks are exact, not broad. */
const NEIGHBOURS: readonly string[] = [
  "192.31.195.255",
  "192.31.197.0",
  "192.52.192.255",
  "192.52.194.0",
  "192.175.47.255",
  "192.175.49.0",
  "2620:4f:7fff:ffff:ffff:ffff:ffff:ffff",
  "2620:4f:8001::",
];

describe("classifyAddress against the IANA IPv4 Special-Purpose Address Registry", () => {
  it.each(IPV4_ROWS)("refuses $prefix ($name) as $reason: $why", (row) => {
    expect(classifyAddress(row.sample)).toEqual({
      allowed: false,
      address: row.sample,
      reason: row.reason,
    });
  });
});

describe("classifyAddress against the IANA IPv6 Special-Purpose Address Registry", () => {
  it.each(IPV6_ROWS)("refuses $prefix ($name) as $reason: $why", (row) => {
    expect(classifyAddress(row.sample)).toMatchObject({ allowed: false, reason: row.reason });
  });

  it("refuses 2620:4f:8000::1, the AS112 direct delegation, naming the service", () => {
    expect(classifyAddress("2620:4f:8000::1")).toEqual({
      allowed: false,
      address: "2620:4f:8000::1",
      reason: AS112,
    });
  });
});

describe("classifyAddress just outside the special-purpose blocks in public space", () => {
  it.each(NEIGHBOURS)("allows %s", (ip) => {
    expect(classifyAddress(ip)).toMatchObject({ allowed: true });
  });
});
