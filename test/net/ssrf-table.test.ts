/**
 * The SSRF table: hostile URL spellings through the whole pure policy (URL policy → name check →
 * address check), as the fetch pipeline runs it before any socket or DNS lookup. Each row names
 * the outcome and, when blocked, the reason. A second table covers addresses a DNS answer could
 * hold. Nothing here resolves a name or opens a socket.
 */
import { describe, expect, it } from "vitest";
import { isWebFetchError } from "../../src/errors.js";
import { classifyAddress } from "../../src/net/address.js";
import { blockedHostnameReason } from "../../src/net/hostname.js";
import { parseTargetUrl } from "../../src/net/url.js";

type Outcome = "INVALID_URL" | "BLOCKED_ADDRESS" | "allowed";

/** What the policy decides for one raw URL, without touching the network. */
function evaluate(raw: string): { outcome: Outcome; reason?: string } {
  let target: ReturnType<typeof parseTargetUrl>;
  try {
    target = parseTargetUrl(raw);
  } catch (error) {
    if (isWebFetchError(error) && error.code === "INVALID_URL") return { outcome: "INVALID_URL" };
    throw error;
  }
  const nameReason = blockedHostnameReason(target.hostname);
  if (nameReason !== undefined) return { outcome: "BLOCKED_ADDRESS", reason: nameReason };
  if (target.ipLiteral !== undefined) {
    const verdict = classifyAddress(target.ipLiteral);
    if (!verdict.allowed) return { outcome: "BLOCKED_ADDRESS", reason: verdict.reason };
  }
  return { outcome: "allowed" };
}

const LOOPBACK = "a loopback address";
const PRIVATE = "a private address";
const LINK_LOCAL = "a link-local address";
const METADATA = "a cloud metadata address";
const LOCAL_NAME = "a local host name";
const METADATA_NAME = "a cloud metadata host name";
const PRIVATE_NAME = "a private network host name";
const MAPPED = "an IPv4-mapped IPv6 address";
const UNSPECIFIED = "an unspecified address";

/** [raw URL, outcome, reason when blocked]. */
const TABLE: readonly (readonly [string, Outcome, string?])[] = [
  // Loopback in every IPv4 spelling WHATWG accepts.
  ["http://127.0.0.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.0.0.1:8080/admin", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.255.255.254/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://2130706433/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://0x7f000001/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://017700000001/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://0177.0.0.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://0x7f.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://0x7f.0.0.0x1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://0177.0x0.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.0.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://１２７.０.０.１/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127。0。0。1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127%2e0%2e0%2e1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.0.0.1./", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.0.0.1../", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://0x7f.1../", "BLOCKED_ADDRESS", LOOPBACK],
  ["http:\\\\127.0.0.1\\", "BLOCKED_ADDRESS", LOOPBACK],
  ["http:127.0.0.1/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://０ｘ７ｆ.１/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://2130706433。/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.0.0.1#@example.com/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://127.0.0.1?@example.com/", "BLOCKED_ADDRESS", LOOPBACK],
  // Unspecified.
  ["http://0/", "BLOCKED_ADDRESS", UNSPECIFIED],
  ["http://0.0.0.0/", "BLOCKED_ADDRESS", UNSPECIFIED],
  ["http://[::]/", "BLOCKED_ADDRESS", UNSPECIFIED],
  // Private, CGNAT, link-local, and the rest of the IPv4 special ranges.
  ["http://10.0.0.5/", "BLOCKED_ADDRESS", PRIVATE],
  ["http://167772165/", "BLOCKED_ADDRESS", PRIVATE], // 10.0.0.5 in decimal
  ["http://0xa.5/", "BLOCKED_ADDRESS", PRIVATE], // 10.0.0.5, hex short
  ["http://172.16.0.1/", "BLOCKED_ADDRESS", PRIVATE],
  ["http://192.168.0.1/", "BLOCKED_ADDRESS", PRIVATE],
  ["http://0300.0250.0.1/", "BLOCKED_ADDRESS", PRIVATE], // 192.168.0.1 in octal
  ["http://100.64.0.1/", "BLOCKED_ADDRESS", "a carrier-grade NAT address"],
  ["http://169.254.1.1/", "BLOCKED_ADDRESS", LINK_LOCAL],
  ["http://224.0.0.1/", "BLOCKED_ADDRESS", "a multicast address"],
  ["http://255.255.255.255/", "BLOCKED_ADDRESS", "a broadcast address"],
  ["http://4294967295/", "BLOCKED_ADDRESS", "a broadcast address"],
  ["http://240.0.0.1/", "BLOCKED_ADDRESS", "a reserved address"],
  ["http://192.0.0.8/", "BLOCKED_ADDRESS", "an IETF protocol assignment address"],
  ["http://192.0.2.1/", "BLOCKED_ADDRESS", "a documentation address"],
  ["http://198.51.100.1/", "BLOCKED_ADDRESS", "a documentation address"],
  ["http://203.0.113.1/", "BLOCKED_ADDRESS", "a documentation address"],
  ["http://198.18.0.1/", "BLOCKED_ADDRESS", "a benchmarking address"],
  ["http://192.88.99.1/", "BLOCKED_ADDRESS", "a 6to4 relay anycast address"],
  // IPv6 loopback, IPv4 embedded in IPv6, tunnels and translators.
  ["http://[::1]/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://[0:0:0:0:0:0:0:1]:8080/", "BLOCKED_ADDRESS", LOOPBACK],
  ["http://[::ffff:127.0.0.1]/", "BLOCKED_ADDRESS", MAPPED],
  ["http://[::ffff:7f00:1]/", "BLOCKED_ADDRESS", MAPPED],
  ["http://[::ffff:169.254.169.254]/", "BLOCKED_ADDRESS", MAPPED],
  ["http://[::ffff:93.184.215.14]/", "BLOCKED_ADDRESS", MAPPED],
  ["http://[::127.0.0.1]/", "BLOCKED_ADDRESS", "an IPv4-compatible IPv6 address"],
  ["http://[::ffff:0:7f00:1]/", "BLOCKED_ADDRESS", "an IPv4-translated IPv6 address"],
  ["http://[64:ff9b::a9fe:a9fe]/", "BLOCKED_ADDRESS", "a NAT64 address"],
  ["http://[64:ff9b::127.0.0.1]/", "BLOCKED_ADDRESS", "a NAT64 address"],
  ["http://[64:ff9b:1::a00:5]/", "BLOCKED_ADDRESS", "a NAT64 address"],
  ["http://[2002:a9fe:a9fe::]/", "BLOCKED_ADDRESS", "a 6to4 address"],
  ["http://[2002:7f00:1::1]/", "BLOCKED_ADDRESS", "a 6to4 address"],
  ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "BLOCKED_ADDRESS", "a Teredo address"],
  ["http://[2001:db8::1]/", "BLOCKED_ADDRESS", "a documentation address"],
  ["http://[2001:10::1]/", "BLOCKED_ADDRESS", "an ORCHID address"],
  ["http://[100::1]/", "BLOCKED_ADDRESS", "a discard-only address"],
  ["http://[fe80::1]/", "BLOCKED_ADDRESS", LINK_LOCAL],
  ["http://[fec0::1]/", "BLOCKED_ADDRESS", "a site-local address"],
  ["http://[fc00::1]/", "BLOCKED_ADDRESS", PRIVATE],
  ["http://[fd12:3456::1]/", "BLOCKED_ADDRESS", PRIVATE],
  ["http://[ff02::1]/", "BLOCKED_ADDRESS", "a multicast address"],
  ["http://[4000::1]/", "BLOCKED_ADDRESS", "not a global unicast address"],
  ["http://[fe80::1%25eth0]/", "INVALID_URL"], // zone ids are not URL syntax
  // Cloud metadata, by address in every spelling and by name.
  ["http://169.254.169.254/latest/meta-data/", "BLOCKED_ADDRESS", METADATA], // AWS, GCP, Azure
  ["http://2852039166/", "BLOCKED_ADDRESS", METADATA], // 169.254.169.254 in decimal
  ["http://0xa9fea9fe/", "BLOCKED_ADDRESS", METADATA],
  ["http://0251.0376.0251.0376/", "BLOCKED_ADDRESS", METADATA],
  ["http://169.254.43518/", "BLOCKED_ADDRESS", METADATA], // 169.254.169.254, short
  ["http://169.254.169.254../", "BLOCKED_ADDRESS", METADATA],
  ["http://169.254.170.2/v2/credentials", "BLOCKED_ADDRESS", METADATA], // AWS ECS
  ["http://100.100.100.200/latest/meta-data/", "BLOCKED_ADDRESS", METADATA], // Alibaba
  ["http://192.0.0.192/", "BLOCKED_ADDRESS", METADATA], // Oracle
  ["http://168.63.129.16/", "BLOCKED_ADDRESS", METADATA], // Azure WireServer
  ["http://[fd00:ec2::254]/latest/meta-data/", "BLOCKED_ADDRESS", METADATA], // AWS IPv6
  ["http://[fd00:ec2:0:0:0:0:0:254]/", "BLOCKED_ADDRESS", METADATA],
  ["http://metadata.google.internal/computeMetadata/v1/", "BLOCKED_ADDRESS", METADATA_NAME],
  ["http://METADATA.google.internal./", "BLOCKED_ADDRESS", METADATA_NAME],
  ["http://metadata.goog/", "BLOCKED_ADDRESS", METADATA_NAME],
  ["http://metadata/computeMetadata/v1/", "BLOCKED_ADDRESS", METADATA_NAME],
  ["http://instance-data/latest/", "BLOCKED_ADDRESS", METADATA_NAME],
  ["http://instance-data.ec2.internal/", "BLOCKED_ADDRESS", METADATA_NAME],
  // Local names, with trailing dots, case and compatibility forms.
  ["http://localhost/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://localhost:3000/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://LocalHost/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://localhost./", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://localhost../", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://ＬＯＣＡＬＨＯＳＴ/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://localhost。/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://loc%61lhost/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://app.localhost/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://a.b.LOCALHOST./", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://localhost.localdomain/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://ip6-localhost/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://ip6-loopback/", "BLOCKED_ADDRESS", LOCAL_NAME],
  ["http://db.internal/", "BLOCKED_ADDRESS", PRIVATE_NAME],
  ["http://printer.local/", "BLOCKED_ADDRESS", PRIVATE_NAME],
  ["http://nas.home.arpa/", "BLOCKED_ADDRESS", PRIVATE_NAME],
  // Credentials, whatever the host.
  ["http://user:pass@example.com/", "INVALID_URL"],
  ["http://user@example.com/", "INVALID_URL"],
  ["http://@example.com/", "INVALID_URL"],
  ["http://example.com@127.0.0.1/", "INVALID_URL"],
  ["http://127.0.0.1@example.com/", "INVALID_URL"],
  // Schemes other than http(s), and garbage.
  ["file:///etc/passwd", "INVALID_URL"],
  ["file://localhost/etc/passwd", "INVALID_URL"],
  ["data:text/html,<script>alert(1)</script>", "INVALID_URL"],
  ["javascript:alert(document.domain)", "INVALID_URL"],
  ["ftp://example.com/", "INVALID_URL"],
  ["gopher://127.0.0.1:6379/_INFO", "INVALID_URL"],
  ["dict://127.0.0.1:11211/stat", "INVALID_URL"],
  ["ws://127.0.0.1/", "INVALID_URL"],
  ["http://256.256.256.256/", "INVALID_URL"],
  ["http://1.2.3.4.5/", "INVALID_URL"],
  ["http://1.2.3.09../", "INVALID_URL"],
  ["http://./", "INVALID_URL"],
  // Public: allowed (their DNS answers, for names, are checked later by the guard).
  ["http://93.184.215.14/", "allowed"],
  ["http://1572394766/", "allowed"], // 93.184.215.14 in decimal: an encoding is not a crime
  ["https://[2606:4700::1111]/", "allowed"],
  ["https://[2001:4860:4860::8888]/dns-query", "allowed"],
  ["https://example.com/", "allowed"],
  ["https://example.com./path?q=1#frag", "allowed"],
  ["https://☃.com/", "allowed"],
  ["https://localhost.example.com/", "allowed"], // only the name itself and *.localhost
  ["https://metadata.example.com/", "allowed"],
  ["https://internal.example.com/", "allowed"],
  ["https://example.com/@127.0.0.1", "allowed"],
  ["http://example.com\\@127.0.0.1/", "allowed"], // backslash ends the authority: host example.com
  ["https://100.63.255.255/", "allowed"],
];

describe("SSRF table: raw URL → policy outcome", () => {
  it("has at least 50 cases", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(50);
  });

  const rows = TABLE.map(([raw, outcome, reason]) => ({ raw, outcome, reason }));
  it.each(rows)("$raw → $outcome $reason", ({ raw, outcome, reason }) => {
    const result = evaluate(raw);
    expect(result.outcome).toBe(outcome);
    if (outcome === "BLOCKED_ADDRESS") expect(result.reason).toBe(reason);
  });
});

/** Addresses a DNS answer could carry for an attacker's name, as a resolver formats them. */
const RESOLVED: readonly (readonly [string, string | undefined])[] = [
  ["10.0.0.5", PRIVATE],
  ["172.20.1.1", PRIVATE],
  ["192.168.1.10", PRIVATE],
  ["127.0.0.1", LOOPBACK],
  ["127.0.1.1", LOOPBACK], // Debian's /etc/hosts entry for the machine's own name
  ["0.0.0.0", UNSPECIFIED],
  ["169.254.169.254", METADATA],
  ["169.254.170.2", METADATA],
  ["100.100.100.200", METADATA],
  ["100.64.12.34", "a carrier-grade NAT address"],
  ["::1", LOOPBACK],
  ["::", UNSPECIFIED],
  ["::ffff:10.0.0.5", MAPPED],
  ["::ffff:127.0.0.1", MAPPED],
  ["::ffff:a00:5", MAPPED],
  ["::ffff:169.254.169.254", MAPPED],
  ["64:ff9b::10.0.0.5", "a NAT64 address"],
  ["2002:a00:5::1", "a 6to4 address"],
  ["2001:0:53aa:64c:0:0:0:1", "a Teredo address"],
  ["fd00:ec2::254", METADATA],
  ["fd00::1", PRIVATE],
  ["fe80::1%eth0", LINK_LOCAL],
  ["fe80::1", LINK_LOCAL],
  ["ff02::1", "a multicast address"],
  ["0x7f.1", "not an IP address"], // a resolver never hands us this; never reinterpret it
  ["0177.0.0.1", "not an IP address"],
  ["93.184.215.14", undefined],
  ["2606:4700::1111", undefined],
];

describe("SSRF table: resolved addresses", () => {
  it.each(RESOLVED)("%s → %s", (ip, reason) => {
    const verdict = classifyAddress(ip);
    if (reason === undefined) expect(verdict.allowed).toBe(true);
    else expect(verdict).toMatchObject({ allowed: false, reason });
  });

  it("one private address in an answer is enough to refuse the whole answer", () => {
    const answer = ["93.184.215.14", "2606:4700::1111", "10.0.0.5"];
    expect(answer.map((ip) => classifyAddress(ip).allowed)).toEqual([true, true, false]);
    expect(answer.every((ip) => classifyAddress(ip).allowed)).toBe(false);
  });
});

describe("blockedHostnameReason", () => {
  it.each([
    ["localhost", LOCAL_NAME],
    ["localhost.", LOCAL_NAME],
    ["localhost..", LOCAL_NAME],
    ["LOCALHOST", LOCAL_NAME],
    ["x.localhost", LOCAL_NAME],
    ["localhost.localdomain", LOCAL_NAME],
    ["localhost6", LOCAL_NAME],
    ["ip6-localhost", LOCAL_NAME],
    ["ip6-loopback", LOCAL_NAME],
    ["metadata.google.internal", METADATA_NAME],
    ["metadata.google.internal.", METADATA_NAME],
    ["metadata.goog", METADATA_NAME],
    ["metadata", METADATA_NAME],
    ["instance-data", METADATA_NAME],
    ["instance-data.ec2.internal", METADATA_NAME],
    ["metadata.tencentyun.com", METADATA_NAME],
    ["ip-10-0-0-5.ec2.internal", PRIVATE_NAME],
    ["internal", PRIVATE_NAME],
    ["host.docker.internal", PRIVATE_NAME],
    ["printer.local", PRIVATE_NAME],
    ["router.home.arpa", PRIVATE_NAME],
  ])("%s → %s", (hostname, reason) => {
    expect(blockedHostnameReason(hostname)).toBe(reason);
  });

  it.each([
    "example.com",
    "localhost.example.com",
    "notlocalhost",
    "mylocal",
    "metadata.example.com",
    "internal.example.com",
    "home.arpa.example.com",
    "127.0.0.1",
    "[::1]",
    "",
  ])("%j is left to the address check", (hostname) => {
    expect(blockedHostnameReason(hostname)).toBeUndefined();
  });
});
