/**
 * SSRF, end to end through web.fetch(): every case must fail with its code and leave the victim
 * listener untouched. Loopback cases aim at the real 127.0.0.1 victim; private, link-local and
 * metadata cases can only reach the safety connector, which records and refuses instead of
 * connecting, so no packet ever leaves the machine even if the guard had a bug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWebFetchError } from "../../src/errors.js";
import {
  type FixtureServer,
  startFixtureServer,
  startVictim,
  type Victim,
} from "../helpers/fixture-server.js";
import { type TestWeb, testWeb } from "../helpers/web.js";

let server: FixtureServer;
let victim: Victim;
let t: TestWeb;

const NAMES: Record<string, string | string[]> = {
  "internal.test": "10.0.0.5",
  "metadata.test": "169.254.169.254",
  "mapped.test": "::ffff:10.0.0.1",
  "v6private.test": "fd12::1",
  "mixed.test": ["93.184.215.14", "127.0.0.1"],
  "mixed6.test": ["2606:4700::1111", "::1"],
  "cgnat.test": "100.64.1.1",
};

beforeAll(async () => {
  server = await startFixtureServer();
  victim = await startVictim();
  t = testWeb(server, { names: NAMES });
});
afterAll(async () => {
  await t.web.close();
  await server.close();
  await victim.close();
});

async function code(url: string): Promise<string> {
  try {
    await t.web.fetch(url, { cache: false, timeout: 5000 });
  } catch (error) {
    if (isWebFetchError(error)) return error.code;
    throw error;
  }
  return "OK";
}

const V = () => victim.port;
const P = () => server.port;

/** [description, url, expected code] — the URL is built once the listeners have ports. */
const CASES: Array<[string, () => string, string]> = [
  ["loopback literal", () => `http://127.0.0.1:${V()}/`, "BLOCKED_ADDRESS"],
  ["loopback elsewhere in 127/8", () => `http://127.0.0.2:${V()}/`, "BLOCKED_ADDRESS"],
  ["decimal IPv4", () => `http://2130706433:${V()}/`, "BLOCKED_ADDRESS"],
  ["hex IPv4", () => `http://0x7f000001:${V()}/`, "BLOCKED_ADDRESS"],
  ["octal IPv4", () => `http://017700000001:${V()}/`, "BLOCKED_ADDRESS"],
  ["dotted octal IPv4", () => `http://0177.0.0.1:${V()}/`, "BLOCKED_ADDRESS"],
  ["short IPv4", () => `http://127.1:${V()}/`, "BLOCKED_ADDRESS"],
  ["mixed hex short IPv4", () => `http://0x7f.1:${V()}/`, "BLOCKED_ADDRESS"],
  ["zero-padded IPv4", () => `http://127.000.000.001:${V()}/`, "BLOCKED_ADDRESS"],
  ["IPv6 loopback", () => `http://[::1]:${V()}/`, "BLOCKED_ADDRESS"],
  ["IPv4-mapped IPv6 dotted", () => `http://[::ffff:127.0.0.1]:${V()}/`, "BLOCKED_ADDRESS"],
  ["IPv4-mapped IPv6 hex", () => `http://[::ffff:7f00:1]:${V()}/`, "BLOCKED_ADDRESS"],
  [
    "IPv4-mapped IPv6 long form",
    () => `http://[0:0:0:0:0:ffff:127.0.0.1]:${V()}/`,
    "BLOCKED_ADDRESS",
  ],
  ["IPv4-compatible IPv6", () => `http://[::127.0.0.1]:${V()}/`, "BLOCKED_ADDRESS"],
  ["localhost", () => `http://localhost:${V()}/`, "BLOCKED_ADDRESS"],
  ["localhost with a trailing dot", () => `http://localhost.:${V()}/`, "BLOCKED_ADDRESS"],
  ["LOCALHOST upper case", () => `http://LOCALHOST:${V()}/`, "BLOCKED_ADDRESS"],
  ["*.localhost", () => `http://app.localhost:${V()}/`, "BLOCKED_ADDRESS"],
  ["full-width digits", () => `http://１２７.０.０.１:${V()}/`, "BLOCKED_ADDRESS"],
  ["ideographic full stops", () => `http://127。0。0。1:${V()}/`, "BLOCKED_ADDRESS"],
  ["IDN enclosed letters spelling localhost", () => `http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${V()}/`, "BLOCKED_ADDRESS"],
  ["0 as a host", () => `http://0:${V()}/`, "BLOCKED_ADDRESS"],
  ["unspecified IPv4", () => `http://0.0.0.0:${V()}/`, "BLOCKED_ADDRESS"],
  ["unspecified IPv6", () => `http://[::]:${V()}/`, "BLOCKED_ADDRESS"],
  ["RFC 1918 10/8", () => "http://10.0.0.5/", "BLOCKED_ADDRESS"],
  ["RFC 1918 172.16/12", () => "http://172.16.0.1/", "BLOCKED_ADDRESS"],
  ["RFC 1918 192.168/16", () => "http://192.168.1.1/", "BLOCKED_ADDRESS"],
  ["AWS metadata", () => "http://169.254.169.254/latest/meta-data/", "BLOCKED_ADDRESS"],
  ["metadata in octal", () => "http://0251.0376.0251.0376/", "BLOCKED_ADDRESS"],
  ["metadata as decimal", () => "http://2852039166/", "BLOCKED_ADDRESS"],
  ["metadata IPv4-mapped", () => "http://[::ffff:a9fe:a9fe]/", "BLOCKED_ADDRESS"],
  [
    "GCP metadata by name",
    () => "http://metadata.google.internal/computeMetadata/v1/",
    "BLOCKED_ADDRESS",
  ],
  [
    "GCP metadata by name, trailing dot",
    () => "http://metadata.google.internal./",
    "BLOCKED_ADDRESS",
  ],
  ["Alibaba metadata", () => "http://100.100.100.200/", "BLOCKED_ADDRESS"],
  ["AWS IPv6 metadata", () => "http://[fd00:ec2::254]/", "BLOCKED_ADDRESS"],
  ["IPv6 link-local", () => "http://[fe80::1]/", "BLOCKED_ADDRESS"],
  ["IPv6 unique local", () => "http://[fc00::1]/", "BLOCKED_ADDRESS"],
  ["CGNAT", () => "http://100.64.0.1/", "BLOCKED_ADDRESS"],
  ["NAT64 of metadata", () => "http://[64:ff9b::a9fe:a9fe]/", "BLOCKED_ADDRESS"],
  ["6to4 of metadata", () => "http://[2002:a9fe:a9fe::]/", "BLOCKED_ADDRESS"],
  ["Teredo", () => "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "BLOCKED_ADDRESS"],
  ["multicast", () => "http://224.0.0.1/", "BLOCKED_ADDRESS"],
  ["broadcast", () => "http://255.255.255.255/", "BLOCKED_ADDRESS"],
  ["reserved 240/4", () => "http://240.0.0.1/", "BLOCKED_ADDRESS"],
  ["name → private through the lookup", () => `http://internal.test:${V()}/`, "BLOCKED_ADDRESS"],
  ["name → metadata through the lookup", () => "http://metadata.test/", "BLOCKED_ADDRESS"],
  ["name → IPv4-mapped private", () => "http://mapped.test/", "BLOCKED_ADDRESS"],
  ["name → IPv6 unique local", () => "http://v6private.test/", "BLOCKED_ADDRESS"],
  ["name → CGNAT", () => "http://cgnat.test/", "BLOCKED_ADDRESS"],
  ["name → loopback on a port not opened", () => `http://victim.test:${V()}/`, "BLOCKED_ADDRESS"],
  ["mixed records, one loopback", () => `http://mixed.test:${V()}/`, "BLOCKED_ADDRESS"],
  ["mixed IPv6 records, one loopback", () => `http://mixed6.test:${V()}/`, "BLOCKED_ADDRESS"],
  ["credentials", () => "http://user:pass@example.com/", "INVALID_URL"],
  ["credentials hiding the host", () => `http://example.com@127.0.0.1:${V()}/`, "INVALID_URL"],
  ["file scheme", () => "file:///etc/passwd", "INVALID_URL"],
  ["gopher scheme", () => `gopher://127.0.0.1:${V()}/`, "INVALID_URL"],
  [
    "redirect → loopback name",
    () =>
      `http://fixture.test:${P()}/redirect-to?url=${encodeURIComponent(`http://victim.test:${V()}/`)}`,
    "BLOCKED_ADDRESS",
  ],
  [
    "redirect → loopback literal",
    () =>
      `http://fixture.test:${P()}/redirect-to?url=${encodeURIComponent(`http://127.0.0.1:${V()}/`)}`,
    "BLOCKED_ADDRESS",
  ],
  [
    "redirect → decimal loopback",
    () =>
      `http://fixture.test:${P()}/redirect-to?url=${encodeURIComponent(`http://2130706433:${V()}/`)}`,
    "BLOCKED_ADDRESS",
  ],
  [
    "redirect → metadata",
    () =>
      `http://fixture.test:${P()}/redirect-to?url=${encodeURIComponent("http://169.254.169.254/")}`,
    "BLOCKED_ADDRESS",
  ],
  [
    "307 redirect → private",
    () =>
      `http://fixture.test:${P()}/redirect-to?status=307&url=${encodeURIComponent("http://10.1.2.3/")}`,
    "BLOCKED_ADDRESS",
  ],
  [
    "redirect → file:",
    () => `http://fixture.test:${P()}/redirect-to?url=${encodeURIComponent("file:///etc/passwd")}`,
    "INVALID_URL",
  ],
  [
    "redirect → data:",
    () =>
      `http://fixture.test:${P()}/redirect-to?url=${encodeURIComponent("data:text/html,<h1>x</h1>")}`,
    "INVALID_URL",
  ],
];

describe("SSRF table, end to end", () => {
  it("has at least 40 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)("%s", async (_name, url, expected) => {
    const before = victim.connections;
    expect(await code(url())).toBe(expected);
    expect(victim.connections).toBe(before);
    expect(t.recorder.refused).toEqual([]);
  });

  it("a blocked host is BLOCKED_ADDRESS before robots.txt is asked", async () => {
    expect(await code(`http://127.0.0.1:${V()}/private`)).toBe("BLOCKED_ADDRESS");
    expect(victim.connections).toBe(0);
  });

  it("never connected to the victim, and opened sockets only to the fixture server", () => {
    expect(victim.connections).toBe(0);
    for (const attempt of t.recorder.attempts) {
      expect(attempt).toEqual({ hostname: "127.0.0.1", port: String(P()) });
    }
  });
});

describe("DNS rebinding", () => {
  it("resolves once and connects to the checked address, whatever DNS says next", async () => {
    let calls = 0;
    const answers = ["127.0.0.1", "10.0.0.5", "169.254.169.254"];
    const rebinding = testWeb(server, {
      lookup: async () => [{ address: answers[Math.min(calls++, answers.length - 1)]!, family: 4 }],
    });
    try {
      const first = await rebinding.web.fetch(`http://rebind.test:${P()}/article`);
      const second = await rebinding.web.fetch(`http://rebind.test:${P()}/public`);
      expect(first.title).toBe("Fixture Article");
      expect(second.title).toBe("Public");
      expect(calls).toBe(1);
      expect(rebinding.recorder.refused).toEqual([]);
      for (const attempt of rebinding.recorder.attempts) expect(attempt.hostname).toBe("127.0.0.1");
    } finally {
      await rebinding.web.close();
    }
  });

  it("a name whose first answer is private is refused even if a later answer would be public", async () => {
    let calls = 0;
    const answers = ["10.0.0.5", "93.184.215.14"];
    const rebinding = testWeb(server, {
      recordOnly: true,
      lookup: async () => [{ address: answers[Math.min(calls++, 1)]!, family: 4 }],
    });
    try {
      expect(
        await rebinding.web.fetch("http://rebind2.test/").catch((e: { code: string }) => e.code),
      ).toBe("BLOCKED_ADDRESS");
      expect(rebinding.recorder.attempts).toEqual([]);
    } finally {
      await rebinding.web.close();
    }
  });
});

describe("allowPrivateNetwork and allowAddresses", () => {
  it("opens exact holes: the fixture port only", async () => {
    expect((await t.web.fetch(server.url("/article"))).title).toBe("Fixture Article");
    expect(await code(`http://fixture.test:${V()}/`)).toBe("BLOCKED_ADDRESS");
  });

  it("allowPrivateNetwork lets loopback through", async () => {
    const open = testWeb(undefined, { allowPrivateNetwork: true });
    try {
      const r = await open.web.fetch(`http://127.0.0.1:${P()}/article`);
      expect(r.title).toBe("Fixture Article");
    } finally {
      await open.web.close();
    }
  });
});
