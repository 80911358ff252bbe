/**
 * Operator holes in the address guard: parsed strictly, matched exactly (address, range, port),
 * with IPv4-mapped IPv6 treated as the IPv4 address it carries.
 */
import { describe, expect, it } from "vitest";
import { matchesAddressRule, parseAddressRules } from "../../src/net/allowlist.js";

describe("parseAddressRules", () => {
  it("parses every documented form", () => {
    expect(
      parseAddressRules([
        "127.0.0.1",
        "127.0.0.1:8080",
        "10.0.0.0/8",
        "10.0.0.0/8:443",
        "::1",
        "[::1]:8080",
        "fd00::/8",
        "[fd00::/8]:443",
        "[fd00::]/8:443",
        "fd00::/8:443",
        " 192.168.0.0/16 ",
      ]),
    ).toEqual([
      { entry: "127.0.0.1", cidr: "127.0.0.1/32", family: 4 },
      { entry: "127.0.0.1:8080", cidr: "127.0.0.1/32", family: 4, port: 8080 },
      { entry: "10.0.0.0/8", cidr: "10.0.0.0/8", family: 4 },
      { entry: "10.0.0.0/8:443", cidr: "10.0.0.0/8", family: 4, port: 443 },
      { entry: "::1", cidr: "::1/128", family: 6 },
      { entry: "[::1]:8080", cidr: "::1/128", family: 6, port: 8080 },
      { entry: "fd00::/8", cidr: "fd00::/8", family: 6 },
      { entry: "[fd00::/8]:443", cidr: "fd00::/8", family: 6, port: 443 },
      { entry: "[fd00::]/8:443", cidr: "fd00::/8", family: 6, port: 443 },
      { entry: "fd00::/8:443", cidr: "fd00::/8", family: 6, port: 443 },
      { entry: "192.168.0.0/16", cidr: "192.168.0.0/16", family: 4 },
    ]);
  });

  it("normalizes host bits away and IPv4-mapped entries to IPv4", () => {
    expect(parseAddressRules(["10.1.2.3/8"])[0]?.cidr).toBe("10.0.0.0/8");
    expect(parseAddressRules(["::ffff:127.0.0.1"])[0]).toMatchObject({
      cidr: "127.0.0.1/32",
      family: 4,
    });
    expect(parseAddressRules(["[::ffff:10.0.0.0/104]:80"])[0]).toEqual({
      entry: "[::ffff:10.0.0.0/104]:80",
      cidr: "10.0.0.0/8",
      family: 4,
      port: 80,
    });
  });

  it("reads a bare IPv6 address with a trailing group as an address, not a port", () => {
    expect(parseAddressRules(["::1:8080"])[0]).toEqual({
      entry: "::1:8080",
      cidr: "::1:8080/128",
      family: 6,
    });
  });

  it("returns no rules for no entries", () => {
    expect(parseAddressRules([])).toEqual([]);
  });

  it.each([
    "",
    "   ",
    "localhost",
    "example.com:80",
    "0x7f.1",
    "127.1",
    "0177.0.0.1",
    "127.0.0.1:0",
    "127.0.0.1:65536",
    "127.0.0.1:http",
    "127.0.0.1:",
    "10.0.0.0/33",
    "10.0.0.0/",
    "::/129",
    "[::1]/64]",
    "[::1/64]/64",
    "[127.0.0.1]",
    "[::1]:",
    "fe80::1%eth0",
    "1.2.3.4/8/8",
  ])("throws a TypeError naming %j", (entry) => {
    expect(() => parseAddressRules(["127.0.0.1", entry])).toThrow(TypeError);
    expect(() => parseAddressRules([entry])).toThrow(JSON.stringify(entry));
  });
});

describe("matchesAddressRule", () => {
  const rules = parseAddressRules([
    "127.0.0.1:8080",
    "10.0.0.0/8",
    "192.168.1.0/24:443",
    "[::1]:9000",
    "fd00::/8",
  ]);

  it.each([
    ["127.0.0.1", 8080, true],
    ["127.0.0.1", 8081, false],
    ["127.0.0.2", 8080, false],
    ["10.0.0.5", 80, true],
    ["10.255.255.255", 65535, true],
    ["11.0.0.0", 80, false],
    ["192.168.1.77", 443, true],
    ["192.168.1.77", 80, false],
    ["192.168.2.1", 443, false],
    ["::1", 9000, true],
    ["::1", 9001, false],
    ["fd12::1", 1234, true],
    ["fe80::1", 1234, false],
    ["::ffff:127.0.0.1", 8080, true],
    ["::ffff:7f00:1", 8080, true],
    ["::ffff:10.0.0.5", 443, true],
    ["::ffff:127.0.0.1", 80, false],
    // ::127.0.0.1 is IPv4-compatible, not mapped: it does not open the IPv4 hole.
    ["::127.0.0.1", 8080, false],
    ["fd12::1%eth0", 1, true],
    ["0x7f.1", 8080, false],
    ["127.1", 8080, false],
    ["localhost", 8080, false],
    ["", 8080, false],
  ] as const)("%s port %d → %s", (ip, port, expected) => {
    expect(matchesAddressRule(rules, ip, port)).toBe(expected);
  });

  it("matches nothing without rules", () => {
    expect(matchesAddressRule([], "127.0.0.1", 80)).toBe(false);
  });

  it("matches IPv4 addresses against a mapped-range rule and vice versa", () => {
    const mapped = parseAddressRules(["::ffff:127.0.0.0/104"]);
    expect(matchesAddressRule(mapped, "127.0.0.9", 1)).toBe(true);
    expect(matchesAddressRule(mapped, "::ffff:127.0.0.9", 1)).toBe(true);
    expect(matchesAddressRule(mapped, "128.0.0.1", 1)).toBe(false);
  });

  it("opens everything with 0.0.0.0/0 and ::/0, for tests that need it", () => {
    const all = parseAddressRules(["0.0.0.0/0", "::/0"]);
    expect(matchesAddressRule(all, "169.254.169.254", 80)).toBe(true);
    expect(matchesAddressRule(all, "fe80::1", 80)).toBe(true);
  });
});
