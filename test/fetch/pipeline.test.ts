import { describe, expect, it } from "vitest";
import { ENCODED_TEXT } from "../helpers/fixture-server.js";
import { failure, fixtureSuite, testWeb } from "../helpers/web.js";

const suite = fixtureSuite();

describe("fetch: result object", () => {
  it("returns the main content as Markdown with metadata", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/article"));
    expect(r.url).toBe(suite.server.url("/article"));
    expect(r.finalUrl).toBe(suite.server.url("/article"));
    expect(r.status).toBe(200);
    expect(r.contentType).toBe("text/html");
    expect(r.charset).toBe("utf-8");
    expect(r.title).toBe("Fixture Article");
    expect(r.description).toBe("A test article about Fixture Article.");
    expect(r.author).toBe("Ada Lovelace");
    expect(r.siteName).toBe("Fixture Site");
    expect(r.publishedAt).toBe("2026-01-02T00:00:00Z");
    expect(r.lang).toBe("en");
    expect(r.canonicalUrl).toBe(suite.server.url("/canonical/Fixture%20Article"));
    expect(r.format).toBe("markdown");
    // The <h1> repeats the title, which the result carries: the content leaves it out.
    expect(r.content).not.toContain("# Fixture Article");
    expect(r.content).toMatch(/^Paragraph 1 of the article/);
    expect(r.content).toContain("Paragraph 8 of the article");
    expect(r.content).toContain(`[the related page](${suite.server.url("/related")})`);
    expect(r.content).not.toContain("Buy our product");
    expect(r.content).not.toContain("We use cookies");
    expect(r.content).not.toContain("Copyright 2026");
    expect(r.truncated).toBe(false);
    expect(r.cached).toBe(false);
    expect(r).not.toHaveProperty("nextStartIndex");
    expect(r).not.toHaveProperty("savedPath");
    expect(r.redirects).toEqual([]);
    expect(r.totalLength).toBe(r.content.length);
    expect(typeof r.timings.totalMs).toBe("number");
    expect(Date.parse(r.fetchedAt)).not.toBeNaN();
  });

  it("returns plain text with format: text", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/article"), {
      format: "text",
      cache: false,
    });
    expect(r.format).toBe("text");
    expect(r.content).toContain("Fixture Article");
    expect(r.content).not.toContain("# ");
    expect(r.content).not.toContain("](");
  });

  it("sends the User-Agent, Accept and Accept-Encoding headers", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/echo-headers"));
    const headers = JSON.parse(r.content) as Record<string, string>;
    expect(headers["user-agent"]).toMatch(/^webfetch\/\d+\.\d+\.\d+/);
    expect(headers.accept).toMatch(/^text\/markdown/);
    expect(headers["accept-encoding"]).toBe("gzip, deflate, br");
  });
});

describe("fetch: content types", () => {
  it("pretty-prints JSON", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/json"));
    expect(r.content).toBe(
      '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {\n    "d": "e"\n  }\n}',
    );
  });
  it("returns text and CSV as they are", async () => {
    expect((await suite.t.web.fetch(suite.server.url("/text"))).content).toBe(
      "line one\nline two\n",
    );
    expect((await suite.t.web.fetch(suite.server.url("/csv"))).content).toBe("a,b\n1,2\n");
  });
  it("returns Markdown as it is", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/markdown"));
    expect(r.content).toBe("# Hello\n\nAlready *Markdown*.\n");
    expect(r.contentType).toBe("text/markdown");
  });
  it("turns RSS into a Markdown list", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/rss"));
    expect(r.content).toContain("[First post](http://fixture.test/p/1)");
    expect(r.content).toContain("2026-01-02");
  });
  it("sniffs HTML served as octet-stream", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/octet-html"));
    expect(r.content).toContain("# Sniffed");
  });
  it("refuses binary content, even when it is labelled HTML", async () => {
    expect((await failure(suite.t.web.fetch(suite.server.url("/binary-as-html")))).code).toBe(
      "UNSUPPORTED_CONTENT_TYPE",
    );
    const e = await failure(suite.t.web.fetch(suite.server.url("/image")));
    expect(e.code).toBe("UNSUPPORTED_CONTENT_TYPE");
    expect(e.message).toBe("Unsupported content type: image/png");
  });
});

describe("fetch: decoding", () => {
  for (const route of ["/gzip", "/br", "/deflate", "/deflate-raw"]) {
    it(`decodes ${route.slice(1)} bodies`, async () => {
      const r = await suite.t.web.fetch(suite.server.url(route));
      expect(r.content).toContain("Paragraph 5 of the article");
    });
  }
  for (const charset of Object.keys(ENCODED_TEXT)) {
    for (const via of ["header", "meta"]) {
      it(`decodes ${charset} declared by ${via}`, async () => {
        const r = await suite.t.web.fetch(suite.server.url(`/enc/${charset}?via=${via}`));
        expect(r.content).toContain(ENCODED_TEXT[charset]);
        expect(r.charset).toBe(charset);
      });
    }
  }
});

describe("fetch: HTTP errors and retries", () => {
  it.each([
    [404, "Page not found (404)"],
    [403, "Access forbidden (403)"],
    [500, "Server error (500)"],
  ])("maps %i to HTTP_ERROR", async (code, message) => {
    const e = await failure(suite.t.web.fetch(suite.server.url(`/status?code=${code}`)));
    expect(e.code).toBe("HTTP_ERROR");
    expect(e.message).toBe(message);
    expect(e.status).toBe(code);
  });
  it("retries a 503 and succeeds", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/flaky?key=a503&fail=1&code=503"));
    expect(r.title).toBe("Recovered a503");
  });
  it("retries a connection reset and succeeds", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/flaky?key=reset&fail=1&code=reset"));
    expect(r.title).toBe("Recovered reset");
  });
  it("retries a 429 with a short Retry-After", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/flaky?key=r429&fail=1&code=429"));
    expect(r.title).toBe("Recovered r429");
  });
  it("gives up after the bounded number of retries", async () => {
    const e = await failure(suite.t.web.fetch(suite.server.url("/flaky?key=many&fail=5&code=502")));
    expect(e.code).toBe("HTTP_ERROR");
    expect(suite.server.hits.get("/flaky")).toBeGreaterThan(0);
  });
  it("reports 429 with a long Retry-After without waiting", async () => {
    const e = await failure(suite.t.web.fetch(suite.server.url("/rate-limited?after=3600")));
    expect(e.code).toBe("HTTP_ERROR");
    expect(e.status).toBe(429);
    expect(e.retryable).toBe(true);
  });
  it("maps an unknown host to CONNECT_FAILED", async () => {
    const e = await failure(suite.t.web.fetch("http://nohost.example/"));
    expect(e.code).toBe("CONNECT_FAILED");
    expect(e.message).toBe("Failed to connect: getaddrinfo ENOTFOUND nohost.example");
  });
});

describe("fetch: policy", () => {
  it("refuses non-http schemes: 'Invalid URL: must be http or https'", async () => {
    const e = await failure(suite.t.web.fetch("ftp://example.com/file"));
    expect(e.code).toBe("INVALID_URL");
    expect(e.message).toBe("Invalid URL: must be http or https");
  });
  it("refuses credentials and over-long URLs", async () => {
    expect((await failure(suite.t.web.fetch("http://user:pw@fixture.test/"))).code).toBe(
      "INVALID_URL",
    );
    expect((await failure(suite.t.web.fetch(`http://fixture.test/${"a".repeat(2100)}`))).code).toBe(
      "INVALID_URL",
    );
  });
  it("applies allowed and blocked domain lists, subdomains included", async () => {
    const only = testWeb(suite.server, { allowedDomains: ["allowed.test"] });
    try {
      expect((await only.web.fetch(suite.server.url("/article", "www.allowed.test"))).title).toBe(
        "Fixture Article",
      );
      const e = await failure(only.web.fetch(suite.server.url("/article", "other.test")));
      expect(e.code).toBe("BLOCKED_DOMAIN");
      expect(e.message).toBe("Blocked: other.test is not an allowed domain");
    } finally {
      await only.web.close();
    }
    const blocked = testWeb(suite.server, { blockedDomains: ["bad.test"] });
    try {
      expect(
        (await failure(blocked.web.fetch(suite.server.url("/article", "sub.bad.test")))).code,
      ).toBe("BLOCKED_DOMAIN");
    } finally {
      await blocked.web.close();
    }
  });
  it("turns every fetch off with network: none", async () => {
    const off = testWeb(suite.server, { network: "none" });
    const e = await failure(off.web.fetch(suite.server.url("/article")));
    expect(e.code).toBe("NETWORK_DISABLED");
    expect(off.lookup.calls).toEqual([]);
    await off.web.close();
  });
});

describe("fetch: robots.txt", () => {
  it("obeys a Disallow rule", async () => {
    const e = await failure(
      suite.t.web.fetch(suite.server.url("/private", "robots-disallow.test")),
    );
    expect(e.code).toBe("ROBOTS_DISALLOWED");
    expect(e.message).toBe(
      `robots.txt of robots-disallow.test:${suite.server.port} disallows /private`,
    );
    expect(
      (await suite.t.web.fetch(suite.server.url("/public", "robots-disallow.test"))).title,
    ).toBe("Public");
    // The rules in hand judge the next fetch at once, and refuse it as the first.
    const again = await failure(
      suite.t.web.fetch(suite.server.url("/private?again=1", "robots-disallow.test")),
    );
    expect(again.code).toBe("ROBOTS_DISALLOWED");
  });
  it("matches the group of our product token", async () => {
    expect(
      (await failure(suite.t.web.fetch(suite.server.url("/public", "robots-agent.test")))).code,
    ).toBe("ROBOTS_DISALLOWED");
  });
  it("treats a 5xx robots.txt as disallow-all, and a 404 as allow-all", async () => {
    expect(
      (await failure(suite.t.web.fetch(suite.server.url("/public", "robots-500.test")))).code,
    ).toBe("ROBOTS_DISALLOWED");
    expect((await suite.t.web.fetch(suite.server.url("/public", "robots-404.test"))).title).toBe(
      "Public",
    );
  });
  it("follows robots.txt redirects through the guard", async () => {
    expect(
      (await failure(suite.t.web.fetch(suite.server.url("/private", "robots-redirect.test")))).code,
    ).toBe("ROBOTS_DISALLOWED");
  });
  it("can be ignored per call", async () => {
    const r = await suite.t.web.fetch(suite.server.url("/private", "robots-disallow.test"), {
      robots: "ignore",
    });
    expect(r.title).toBe("Private");
  });
  it("caches robots.txt per origin", async () => {
    const before = suite.server.hits.get("/robots.txt") ?? 0;
    await suite.t.web.fetch(suite.server.url("/public?x=1", "robots-cache.test"));
    await suite.t.web.fetch(suite.server.url("/public?x=2", "robots-cache.test"));
    expect((suite.server.hits.get("/robots.txt") ?? 0) - before).toBe(1);
  });
  it("a robots.txt that hangs counts as disallowed, within the deadline", async () => {
    const e = await failure(
      suite.t.web.fetch(suite.server.url("/public", "robots-hang.test"), { timeout: 1500 }),
    );
    expect(["ROBOTS_DISALLOWED", "TIMEOUT"]).toContain(e.code);
  });
});
