/**
 * The classifier alone: every special-purpose range is refused with its reason, public unicast is
 * allowed, and anything that is not a canonical literal is refused rather than reinterpreted.
 */
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { classifyAddress, isFourPartDecimal, parseIpLiteral } from "../../src/net/address.js";

/** [address, reason]: one or two addresses per range, edges included. */
const REFUSED: readonly (readonly [string, string])[] = [
  ["0.0.0.0", "an unspecified address"],
  ["0.255.255.255", "an unspecified address"],
  ["10.0.0.0", "a private address"],
  ["10.255.255.255", "a private address"],
  ["172.16.0.1", "a private address"],
  ["172.31.255.255", "a private address"],
  ["192.168.1.1", "a private address"],
  ["100.64.0.1", "a carrier-grade NAT address"],
  ["100.127.255.255", "a carrier-grade NAT address"],
  ["127.0.0.1", "a loopback address"],
  ["127.255.255.254", "a loopback address"],
  ["169.254.0.1", "a link-local address"],
  ["169.254.255.255", "a link-local address"],
  ["192.0.0.1", "an IETF protocol assignment address"],
  ["192.0.2.1", "a documentation address"],
  ["198.51.100.7", "a documentation address"],
  ["203.0.113.200", "a documentation address"],
  ["198.18.0.1", "a benchmarking address"],
  ["198.19.255.255", "a benchmarking address"],
  ["192.88.99.1", "a 6to4 relay anycast address"],
  ["224.0.0.1", "a multicast address"],
  ["239.255.255.250", "a multicast address"],
  ["240.0.0.1", "a reserved address"],
  ["255.255.255.254", "a reserved address"],
  ["255.255.255.255", "a broadcast address"],
  ["::", "an unspecified address"],
  ["::1", "a loopback address"],
  ["::ffff:127.0.0.1", "an IPv4-mapped IPv6 address"],
  ["::ffff:7f00:1", "an IPv4-mapped IPv6 address"],
  ["::ffff:93.184.215.14", "an IPv4-mapped IPv6 address"],
  ["::127.0.0.1", "an IPv4-compatible IPv6 address"],
  ["::7f00:1", "an IPv4-compatible IPv6 address"],
  ["::ffff:0:7f00:1", "an IPv4-translated IPv6 address"],
  ["64:ff9b::7f00:1", "a NAT64 address"],
  ["64:ff9b::a9fe:a9fe", "a NAT64 address"],
  ["64:ff9b:1::1", "a NAT64 address"],
  ["100::1", "a discard-only address"],
  ["2001::1", "a Teredo address"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "a Teredo address"],
  ["2001:2::1", "a benchmarking address"],
  ["2001:10::1", "an ORCHID address"],
  ["2001:20::1", "an ORCHID address"],
  ["2001:30::1", "a drone remote ID address"],
  ["2001:1::1", "a Port Control Protocol anycast address"],
  ["2001:1::4", "an IETF protocol assignment address"],
  ["2001:db8::1", "a documentation address"],
  ["2001:db8:ffff::1", "a documentation address"],
  ["3fff::1", "a documentation address"],
  ["3fff:fff::1", "a documentation address"],
  ["2002:7f00:1::", "a 6to4 address"],
  ["2002:a9fe:a9fe::", "a 6to4 address"],
  ["fc00::1", "a private address"],
  ["fd12:3456:789a::1", "a private address"],
  ["fe80::1", "a link-local address"],
  ["febf::1", "a link-local address"],
  ["fec0::1", "a site-local address"],
  ["ff02::1", "a multicast address"],
  ["ff0e::1", "a multicast address"],
  ["4000::1", "not a global unicast address"],
  ["5f00::1", "a segment routing address"],
  ["5e00::1", "not a global unicast address"],
  ["1::1", "not a global unicast address"],
  ["e000::1", "not a global unicast address"],
];

/** Cloud metadata endpoints: the exact address names the danger, before its range. */
const METADATA: readonly string[] = [
  "169.254.169.254",
  "169.254.170.2",
  "169.254.170.23",
  "169.254.0.23",
  "169.254.42.42",
  "100.100.100.200",
  "192.0.0.192",
  "168.63.129.16",
  "fd00:ec2::254",
  "FD00:EC2::254",
  "fd00:ec2:0:0:0:0:0:254",
  "fd00:ec2::23",
  "fd20:ce::254",
  "fe80::a9fe:a9fe",
];

const PUBLIC: readonly (readonly [string, 4 | 6])[] = [
  ["93.184.215.14", 4],
  ["1.1.1.1", 4],
  ["8.8.8.8", 4],
  ["100.63.255.255", 4],
  ["100.128.0.0", 4],
  ["172.15.255.255", 4],
  ["172.32.0.0", 4],
  ["169.253.255.255", 4],
  ["198.17.255.255", 4],
  ["198.20.0.0", 4],
  ["223.255.255.255", 4],
  ["2606:4700::1111", 6],
  ["2a00:1450:4001:80b::200e", 6],
  ["2001:4860:4860::8888", 6],
  ["2001:200::1", 6],
  ["2003::1", 6],
  ["3ffe::1", 6],
];

/** Strings a resolver never returns; refused, never reinterpreted as 127.0.0.1 or anything else. */
const NOT_LITERALS: readonly string[] = [
  "",
  " 127.0.0.1",
  "127.0.0.1 ",
  "0x7f.1",
  "0x7f000001",
  "2130706433",
  "017700000001",
  "0177.0.0.1",
  "127.1",
  "127.0.1",
  "127.000.000.001",
  "127.0.0.01",
  "256.0.0.1",
  "1.2.3.4.5",
  "１２７.０.０.１",
  "localhost",
  "[::1]",
  "::ffff:0x7f.0.0.1",
  "::ffff:127.0.0.01",
  "::ffff:127.1",
  "1::2::3",
  ":::1",
  "12345::1",
  "1:2:3:4:5:6:7:8:9",
  "::1%",
  "127.0.0.1%eth0",
  "example.com",
];

describe("classifyAddress", () => {
  it.each(REFUSED)("refuses %s as %s", (ip, reason) => {
    const verdict = classifyAddress(ip);
    expect(verdict).toMatchObject({ allowed: false, reason });
  });

  it.each(METADATA)("refuses %s as a cloud metadata address", (ip) => {
    expect(classifyAddress(ip)).toMatchObject({
      allowed: false,
      reason: "a cloud metadata address",
    });
  });

  it.each(PUBLIC)("allows public unicast %s", (ip, family) => {
    expect(classifyAddress(ip)).toEqual({ allowed: true, address: ip, family });
  });

  it.each(NOT_LITERALS)("refuses %j as not an IP address", (input) => {
    expect(classifyAddress(input)).toEqual({
      allowed: false,
      address: input,
      reason: "not an IP address",
    });
  });

  it("refuses IPv6 zone ids, keeping the reason of the address when it has one", () => {
    expect(classifyAddress("fe80::1%eth0")).toEqual({
      allowed: false,
      address: "fe80::1%eth0",
      reason: "a link-local address",
    });
    expect(classifyAddress("fe80::1%2")).toMatchObject({ reason: "a link-local address" });
    expect(classifyAddress("ff02::1%en0")).toMatchObject({ reason: "a multicast address" });
    expect(classifyAddress("2606:4700::1111%eth0")).toMatchObject({
      allowed: false,
      reason: "a scoped IPv6 address",
    });
  });

  it("reports the canonical address (RFC 5952 for IPv6)", () => {
    expect(classifyAddress("2606:4700:0:0:0:0:0:1111")).toEqual({
      allowed: true,
      address: "2606:4700::1111",
      family: 6,
    });
    expect(classifyAddress("2606:4700::1111".toUpperCase())).toMatchObject({
      address: "2606:4700::1111",
    });
    expect(classifyAddress("::ffff:10.0.0.5")).toMatchObject({ address: "::ffff:a00:5" });
    expect(classifyAddress("10.0.0.5")).toEqual({
      allowed: false,
      address: "10.0.0.5",
      reason: "a private address",
    });
  });

  it("refuses every non-unicast range ipaddr.js knows (our tables cover the library)", () => {
    // The library's own view is a cross-check: a range it names that we let through is a gap.
    const publicInLibrary = new Set(["unicast"]);
    // SpecialRanges is public at runtime but missing from the library's type declarations.
    type Entry = [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][];
    const special = (proto: object): Entry[] =>
      Object.values((proto as { SpecialRanges?: Record<string, Entry> }).SpecialRanges ?? {});
    const probes = [...special(ipaddr.IPv4.prototype), ...special(ipaddr.IPv6.prototype)];
    expect(probes.length).toBeGreaterThan(10);
    for (const entry of probes) {
      const ranges = (Array.isArray(entry[0]) ? entry : [entry]) as [
        ipaddr.IPv4 | ipaddr.IPv6,
        number,
      ][];
      for (const [network] of ranges) {
        if (publicInLibrary.has(network.range())) continue;
        const text =
          network.kind() === "ipv4"
            ? network.toString()
            : (network as ipaddr.IPv6).toRFC5952String();
        expect(classifyAddress(text).allowed, text).toBe(false);
      }
    }
  });
});

describe("parseIpLiteral", () => {
  it("parses canonical literals and nothing else", () => {
    expect(parseIpLiteral("127.0.0.1")?.kind()).toBe("ipv4");
    expect(parseIpLiteral("::1")?.kind()).toBe("ipv6");
    expect(parseIpLiteral("::ffff:1.2.3.4")?.kind()).toBe("ipv6");
    expect(parseIpLiteral("0x7f.1")).toBeUndefined();
    expect(parseIpLiteral("fe80::1%eth0")).toBeUndefined();
  });
});

describe("isFourPartDecimal", () => {
  // The same answer as ipaddr.js's own check, which it replaces on the hot path.
  it.each([
    "127.0.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "256.0.0.1",
    "1.2.3.999",
    "01.2.3.4",
    "1.2.3",
    "1.2.3.4.5",
    "0x7f.0.0.1",
    "127.1",
    "2130706433",
    "1.2.3.4 ",
    "example.com",
    "::1",
    "",
    "1..2.3",
    "1.2.3.",
    "1000.1.1.1",
    "99.199.249.250",
  ])("%j as ipaddr.js says", (text) => {
    expect(isFourPartDecimal(text)).toBe(ipaddr.IPv4.isValidFourPartDecimal(text));
  });
});
