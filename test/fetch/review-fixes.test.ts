// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
/** Cases found in review: shared robots.txt deadlines, codings, policy edges. */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.js";
import { isWebFetchError } from "../../src/errors.js";
import { fixtureSuite, testWeb } from "../helpers/web.js";

const suite = fixtureSuite();

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    if (isWebFetchError(error)) return error.code;
    return `THROWN ${(error as Error).name}`;
  }
}

describe("robots.txt shared between callers", () => {
  it("one caller's short deadline does not fail another caller", async () => {
    const url = (q: string) => suite.server.url(`/public?${q}`, "robots-slow.test");
    const [short, long] = await Promise.all([
      code(suite.t.web.fetch(url("a"), { timeout: 300 })),
      code(suite.t.web.fetch(url("b"), { timeout: 30_000 })),
    ]);
    expect(short).toBe("TIMEOUT");
    expect(long).toBe("OK");
  });

  it("one caller's cancel does not fail another caller", async () => {
    const web = testWeb(suite.server).web;
    try {
      const controller = new AbortController();
      const url = (q: string) => suite.server.url(`/public?${q}`, "robots-slow.test");
      const a = web.fetch(url("c"), { signal: controller.signal });
      const b = web.fetch(url("d"));
      setTimeout(() => controller.abort(), 100);
      expect(await code(a)).toMatch(/THROWN|TIMEOUT/);
      expect(await code(b)).toBe("OK");
    } finally {
      await web.close();
    }
  });

  it("a robots.txt redirect the policy refuses counts as unavailable (allowed)", async () => {
    const web = testWeb(suite.server, { blockedDomains: ["blocked.test"] }).web;
    try {
      const before = suite.server.hits.get("/robots.txt") ?? 0;
      expect(await code(web.fetch(suite.server.url("/public", "robots-to-blocked.test")))).toBe(
        "OK",
      );
      // Only the first robots.txt was asked; the blocked host never was.
      expect((suite.server.hits.get("/robots.txt") ?? 0) - before).toBe(1);
    } finally {
      await web.close();
    }
  });
});

describe("content codings", () => {
  it("refuses more than three stacked codings", async () => {
    expect(await code(suite.t.web.fetch(suite.server.url("/many-codings")))).toBe("PARSE_ERROR");
  });
  it("decodes a raw deflate layer inside gzip", async () => {
    expect((await suite.t.web.fetch(suite.server.url("/raw-deflate-in-gzip"))).title).toBe(
      "Two Layers",
    );
  });
  it("a corrupt body is PARSE_ERROR, not a connection failure", async () => {
    const e = await suite.t.web.fetch(suite.server.url("/corrupt-gzip")).catch((x: unknown) => x);
    expect(isWebFetchError(e) && e.code).toBe("PARSE_ERROR");
    expect(isWebFetchError(e) && e.retryable).toBe(false);
  });
});

describe("policy edges", () => {
  it("allowPrivateNetwork does not open metadata addresses or names", async () => {
    const open = testWeb(undefined, { allowPrivateNetwork: true, recordOnly: true });
    try {
      for (const url of [
        "http://169.254.169.254/latest/meta-data/",
        "http://metadata.google.internal/",
        "http://[fd00:ec2::254]/",
        "http://224.0.0.1/",
        "http://0.0.0.0/",
      ]) {
        expect(await code(open.web.fetch(url))).toBe("BLOCKED_ADDRESS");
      }
      expect(open.recorder.attempts).toEqual([]);
    } finally {
      await open.web.close();
    }
  });

  it("domain lists compare IDN names in their ASCII form", async () => {
    const web = testWeb(suite.server, { blockedDomains: ["bücher.test"] }).web;
    try {
      expect(await code(web.fetch(suite.server.url("/article", "bücher.test")))).toBe(
        "BLOCKED_DOMAIN",
      );
      expect(await code(web.fetch(suite.server.url("/article", "www.bücher.test")))).toBe(
        "BLOCKED_DOMAIN",
      );
    } finally {
      await web.close();
    }
  });

  it("a trailing dot does not make every host of a TLD the same site", async () => {
    const to = suite.server.url("/article", "evil.test.");
    const from = suite.server.url(`/redirect-to?url=${encodeURIComponent(to)}`, "victim.test.");
    expect(await code(suite.t.web.fetch(from, { redirects: "same-site" }))).toBe(
      "CROSS_HOST_REDIRECT",
    );
  });

  it("per-call options are checked before any network work", async () => {
    await expect(suite.t.web.fetch("http://never.test/", { maxLength: 0 })).rejects.toThrow(
      RangeError,
    );
    await expect(suite.t.web.fetch("http://never.test/", { maxRedirects: 99 })).rejects.toThrow(
      RangeError,
    );
    expect(suite.t.lookup.calls).not.toContain("never.test");
  });

  it("a cached page fetched while ignoring robots.txt is not served to a caller who respects it", async () => {
    const url = suite.server.url("/private?robots-cache", "robots-disallow.test");
    expect(await code(suite.t.web.fetch(url, { robots: "ignore" }))).toBe("OK");
    expect(await code(suite.t.web.fetch(url))).toBe("ROBOTS_DISALLOWED");
  });
});

describe("config values from the environment", () => {
  it("reads numbers and booleans that ${VAR} expands to", () => {
    const config = parseConfig(
      { fetch: { timeout_seconds: "${T:-30}", allow_private_network: "${P}", max_length: "${L}" } },
      { P: "true", L: "500" },
    );
    expect(config.fetch).toEqual({
      timeout_seconds: 30,
      allow_private_network: true,
      max_length: 500,
    });
    expect(() => parseConfig({ fetch: { timeout_seconds: "${T:-soon}" } }, {})).toThrow(
      /fetch.timeout_seconds/,
    );
  });
});
