/**
 * What a caller hands the library is checked before any connection: headers and the User-Agent
 * that HTTP cannot carry are INVALID_INPUT, option values outside their type are RangeErrors, a
 * deadline past Node's timer ceiling is refused (it would fire at once), and an injected lookup
 * that answers garbage or throws a non-Error gives a typed error, never a raw TypeError.
 */
import { describe, expect, it } from "vitest";
import { WebFetchError } from "../../src/errors.js";
import type { LookupFn } from "../../src/net/guard.js";
import type { FetchOptions, WebFetchOptions } from "../../src/options.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { failure, fixtureSuite, testWeb } from "../helpers/web.js";

const suite = fixtureSuite();

describe("request headers a caller supplies", () => {
  it.each([
    ["CR/LF in a value", { "x-note": "a\r\nX-Injected: 1" }, 'header "x-note" may hold only'],
    ["a lone LF", { "x-note": "a\nb" }, 'header "x-note" may hold only'],
    ["DEL", { "x-note": "a\x7fb" }, 'header "x-note" may hold only'],
    ["a NUL", { "x-note": "a\x00b" }, 'header "x-note" may hold only'],
    ["non-ASCII", { "x-note": "café" }, 'header "x-note" may hold only'],
    ["a name with a space", { "x note": "a" }, 'header "x note" is not a valid header name'],
    ["a name with a colon", { "x-a:b": "a" }, 'header "x-a:b" is not a valid header name'],
    ["Host", { Host: "other.example" }, 'header "Host" is set by the transport'],
    ["Content-Length", { "content-length": "5" }, "is set by the transport"],
    ["Transfer-Encoding", { "transfer-encoding": "chunked" }, "is set by the transport"],
    ["Connection", { connection: "close" }, "is set by the transport"],
    ["Expect", { expect: "100-continue" }, "is set by the transport"],
    ["a number value", { "x-n": 5 as unknown as string }, 'header "x-n" must be a string'],
  ])("%s is INVALID_INPUT before any connection", async (_label, headers, message) => {
    const t = testWeb(suite.server, { cache: false });
    try {
      const e = await failure(t.web.fetch(suite.server.url("/echo-headers"), { headers }));
      expect(e.code).toBe("INVALID_INPUT");
      expect(e.retryable).toBe(false);
      expect(e.message).toContain(message);
      expect(t.recorder.attempts).toEqual([]);
      await expect(
        t.web.extract([suite.server.url("/article")], { headers }),
      ).rejects.toMatchObject({ code: "INVALID_INPUT" });
      expect(t.recorder.attempts).toEqual([]);
    } finally {
      await t.web.close();
    }
  });

  it("ordinary headers are sent as given", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/echo-headers"), {
      headers: { "X-Note": "plain text, tab\tand ~symbols!", Authorization: "Bearer abc" },
      cache: false,
    });
    expect(JSON.parse(page.content)).toMatchObject({
      "x-note": "plain text, tab\tand ~symbols!",
      authorization: "Bearer abc",
    });
  });

  it("a userAgent HTTP cannot carry is INVALID_INPUT from createWebFetch", () => {
    for (const userAgent of ["bot\r\nX: 1", "bot\x7f", "ボット/1.0"]) {
      let thrown: unknown;
      try {
        createWebFetch({ userAgent, logger: false });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WebFetchError);
      expect(thrown).toMatchObject({
        code: "INVALID_INPUT",
        message:
          "userAgent may hold only printable ASCII characters (no CR, LF or other control characters)",
      });
    }
  });
});

describe("option values outside their type", () => {
  it.each<[string, FetchOptions]>([
    ["format", { format: "xml" as "text" }],
    ["extract", { extract: "article" as "main" }],
    ["redirects", { redirects: "sometimes" as "follow" }],
    ["robots", { robots: "maybe" as "ignore" }],
    ["render", { render: "sometimes" as "auto" }],
    ["timeout", { timeout: 3_000_000_000 }],
  ])("a per-call %s is a RangeError before any connection", async (name, call) => {
    const t = testWeb(suite.server, { cache: false });
    try {
      const fetched = t.web.fetch(suite.server.url("/article"), call);
      await expect(fetched).rejects.toThrow(RangeError);
      await expect(fetched).rejects.toThrow(new RegExp(`^${name} must be`));
      expect(t.recorder.attempts).toEqual([]);
    } finally {
      await t.web.close();
    }
  });

  it.each<[string, WebFetchOptions]>([
    ["format", { format: "xml" as "text" }],
    ["extract", { extract: "article" as "main" }],
    ["redirects", { redirects: "sometimes" as "follow" }],
    ["robots", { robots: "maybe" as "ignore" }],
    ["network", { network: "off" as "none" }],
    ["locale", { locale: "fr" as "en" }],
    ["timeout", { timeout: 2_147_483_648 }],
    ["llm.timeout", { llm: { provider: "openai", apiKey: "k", timeout: 5_000_000_000 } }],
    ["endpointTimeout", { endpoint: "http://127.0.0.1:1/", endpointTimeout: 2_147_483_648 }],
  ])("an instance %s is a RangeError from createWebFetch", (name, options) => {
    expect(() => createWebFetch({ ...options, logger: false })).toThrow(RangeError);
    expect(() => createWebFetch({ ...options, logger: false })).toThrow(
      new RegExp(`^${name.replace(".", "\\.")} must be`),
    );
  });
});

describe("an injected lookup that misbehaves", () => {
  const lookups: [string, unknown, RegExp][] = [
    ["a string", async () => "127.0.0.1", /did not return a list of addresses/],
    ["undefined", async () => undefined, /did not return a list of addresses/],
    ["a list of strings", async () => ["127.0.0.1"], /returned "127\.0\.0\.1", not an IP address/],
    ["a list with null", async () => [null], /returned null, not an IP address/],
    ["a name, not an address", async () => [{ address: "example.com", family: 4 }], /not an IP/],
    ["the wrong family", async () => [{ address: "127.0.0.1", family: 6 }], /as IPv6, but it is/],
    ["an empty list", async () => [], /no address for fixture\.test/],
    ["throw a string", async () => Promise.reject("boom"), /^Failed to connect: boom$/],
    ["throw a number", async () => Promise.reject(42), /^Failed to connect: 42$/],
    ["throw null", async () => Promise.reject(null), /^Failed to connect: null$/],
    [
      "throw synchronously",
      () => {
        throw new Error("resolver down");
      },
      /^Failed to connect: resolver down$/,
    ],
  ];

  it.each(lookups)(
    "answering %s gives CONNECT_FAILED, no connection",
    async (_l, lookup, message) => {
      const t = testWeb(suite.server, { lookup: lookup as LookupFn, cache: false });
      try {
        const e = await failure(t.web.fetch(suite.server.url("/article")));
        expect(e.code).toBe("CONNECT_FAILED");
        expect(e.message).toMatch(message);
        expect(t.recorder.attempts).toEqual([]);
      } finally {
        await t.web.close();
      }
    },
  );

  it("a lookup that answers synchronously with addresses works", async () => {
    const lookup = (() => [{ address: "127.0.0.1", family: 4 }]) as unknown as LookupFn;
    const t = testWeb(suite.server, { lookup, cache: false });
    try {
      const page = await t.web.fetch(suite.server.url("/article"));
      expect(page.title).toBe("Fixture Article");
    } finally {
      await t.web.close();
    }
  });
});

describe("a saveDir that cannot be written", () => {
  it("costs the saved file, never the page: a warning, no savedPath", async () => {
    const warnings: object[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (o: object) => warnings.push(o) };
    // /dev/null is a file, so no directory can be made under it.
    const t = testWeb(suite.server, { saveDir: "/dev/null/webfetch", logger });
    try {
      const page = await t.web.fetch(suite.server.url("/long"), { maxLength: 500 });
      expect(page.truncated).toBe(true);
      expect(page.savedPath).toBeUndefined();
      expect(warnings).toEqual([
        expect.objectContaining({ dir: "/dev/null/webfetch", error: expect.any(String) }),
      ]);
      // The rest is still reachable by id, from the cache.
      const rest = await t.web.read(page.id, { startIndex: page.nextStartIndex! });
      expect(rest.startIndex).toBe(page.nextStartIndex);
    } finally {
      await t.web.close();
    }
  });
});
