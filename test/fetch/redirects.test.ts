import { describe, expect, it } from "vitest";
import { failure, fixtureSuite, testWeb } from "../helpers/web.js";

const suite = fixtureSuite();

describe("redirects", () => {
  it.each([301, 302, 303, 307, 308])(
    "follows %i and reports every hop and the final URL",
    async (status) => {
      const r = await suite.t.web.fetch(suite.server.url(`/redirect?n=2&status=${status}`));
      expect(r.finalUrl).toBe(suite.server.url("/article"));
      expect(r.redirects).toEqual([
        {
          from: suite.server.url(`/redirect?n=2&status=${status}`),
          to: suite.server.url(`/redirect?n=1&status=${status}`),
          status,
        },
        {
          from: suite.server.url(`/redirect?n=1&status=${status}`),
          to: suite.server.url("/article"),
          status,
        },
      ]);
      expect(r.title).toBe("Fixture Article");
    },
  );

  it("stops after 5 hops: 'Too many redirects (max 5)'", async () => {
    expect((await suite.t.web.fetch(suite.server.url("/redirect?n=5"))).finalUrl).toBe(
      suite.server.url("/article"),
    );
    const e = await failure(suite.t.web.fetch(suite.server.url("/redirect?n=6")));
    expect(e.code).toBe("TOO_MANY_REDIRECTS");
    expect(e.message).toBe("Too many redirects (max 5)");
  });

  it("honours maxRedirects per call", async () => {
    const e = await failure(
      suite.t.web.fetch(suite.server.url("/redirect?n=2"), { maxRedirects: 1 }),
    );
    expect(e.message).toBe("Too many redirects (max 1)");
  });

  it("detects loops", async () => {
    const e = await failure(suite.t.web.fetch(suite.server.url("/loop-a")));
    expect(e.code).toBe("TOO_MANY_REDIRECTS");
    expect(e.message).toContain("loop");
  });

  it("same-host: does not follow a redirect to another host, and says where it points", async () => {
    const to = suite.server.url("/article", "other.test");
    const e = await failure(
      suite.t.web.fetch(suite.server.url(`/redirect-to?url=${encodeURIComponent(to)}`), {
        redirects: "same-host",
      }),
    );
    expect(e.code).toBe("CROSS_HOST_REDIRECT");
    expect(e.location).toBe(to);
    expect(e.message).toBe(`Redirected to another host: ${to} (not followed)`);
  });

  it("same-site: follows www and subdomains of the same site, not other sites", async () => {
    const www = suite.server.url("/article", "www.site.test");
    const ok = await suite.t.web.fetch(
      suite.server.url(`/redirect-to?url=${encodeURIComponent(www)}`, "site.test"),
      {
        redirects: "same-site",
      },
    );
    expect(ok.finalUrl).toBe(www);
    const away = suite.server.url("/article", "elsewhere.test");
    const e = await failure(
      suite.t.web.fetch(
        suite.server.url(`/redirect-to?url=${encodeURIComponent(away)}`, "site.test"),
        {
          redirects: "same-site",
        },
      ),
    );
    expect(e.code).toBe("CROSS_HOST_REDIRECT");
  });

  it("drops credentials when a redirect changes origin, keeps them on the same origin", async () => {
    const headers = { authorization: "Bearer secret", cookie: "a=b", "x-custom": "kept" };
    const same = await suite.t.web.fetch(
      suite.server.url(`/redirect-to?url=${encodeURIComponent("/echo-headers")}`),
      { headers },
    );
    const sameSeen = JSON.parse(same.content) as Record<string, string>;
    expect(sameSeen.authorization).toBe("Bearer secret");
    const other = suite.server.url("/echo-headers", "other.test");
    const cross = await suite.t.web.fetch(
      suite.server.url(`/redirect-to?url=${encodeURIComponent(other)}`),
      {
        headers,
      },
    );
    const crossSeen = JSON.parse(cross.content) as Record<string, string>;
    expect(crossSeen.authorization).toBeUndefined();
    expect(crossSeen.cookie).toBeUndefined();
    expect(crossSeen["x-custom"]).toBe("kept");
  });

  it("refuses redirects to file: and data:", async () => {
    for (const to of ["file:///etc/passwd", "data:text/html,hi"]) {
      const e = await failure(
        suite.t.web.fetch(suite.server.url(`/redirect-to?url=${encodeURIComponent(to)}`), {
          cache: false,
        }),
      );
      expect(e.code).toBe("INVALID_URL");
    }
  });
});

describe("cache", () => {
  it("returns cached: true on a hit, and fresh with maxAge 0 or cache: false", async () => {
    const url = suite.server.url("/public?cache=1");
    const first = await suite.t.web.fetch(url);
    expect(first.cached).toBe(false);
    const second = await suite.t.web.fetch(url);
    expect(second.cached).toBe(true);
    expect(second.content).toBe(first.content);
    expect(second.fetchedAt).toBe(first.fetchedAt);
    expect((await suite.t.web.fetch(url, { maxAge: 0 })).cached).toBe(false);
    expect((await suite.t.web.fetch(url, { cache: false })).cached).toBe(false);
  });

  it("keys on the options that change the content", async () => {
    const url = suite.server.url("/public?cache=2");
    await suite.t.web.fetch(url);
    expect((await suite.t.web.fetch(url, { format: "text" })).cached).toBe(false);
    expect((await suite.t.web.fetch(url, { extract: "full" })).cached).toBe(false);
    // Shaping options do not change the stored page.
    expect((await suite.t.web.fetch(url, { maxLength: 100 })).cached).toBe(true);
  });

  it("does not serve a page reached by a cross-host redirect to a same-host call", async () => {
    const to = suite.server.url("/article", "other.test");
    const url = suite.server.url(`/redirect-to?url=${encodeURIComponent(to)}&cache=5`);
    expect((await suite.t.web.fetch(url)).finalUrl).toBe(to);
    expect((await suite.t.web.fetch(url)).cached).toBe(true);
    const e = await failure(suite.t.web.fetch(url, { redirects: "same-host" }));
    expect(e.code).toBe("CROSS_HOST_REDIRECT");
  });

  it("shares one request between concurrent fetches of one URL", async () => {
    const url = suite.server.url("/public?cache=3");
    const before = suite.server.hits.get("/public") ?? 0;
    const results = await Promise.all(Array.from({ length: 10 }, () => suite.t.web.fetch(url)));
    expect((suite.server.hits.get("/public") ?? 0) - before).toBe(1);
    expect(new Set(results.map((r) => r.content)).size).toBe(1);
  });

  it("expires entries after the TTL", async () => {
    const short = testWeb(suite.server, { cacheTtl: 1 });
    try {
      const url = suite.server.url("/public?cache=4");
      await short.web.fetch(url);
      expect((await short.web.fetch(url)).cached).toBe(true);
      await new Promise((r) => setTimeout(r, 1100));
      expect((await short.web.fetch(url)).cached).toBe(false);
    } finally {
      await short.web.close();
    }
  });
});

describe("shape", () => {
  it("cuts long pages and continues from nextStartIndex", async () => {
    const url = suite.server.url("/long");
    const first = await suite.t.web.fetch(url, { maxLength: 2000 });
    expect(first.truncated).toBe(true);
    expect(first.content.length).toBeLessThanOrEqual(2000);
    expect(first.nextStartIndex).toBeGreaterThan(1000);
    expect(first.content).toContain(String(first.nextStartIndex));
    expect(first.totalLength).toBeGreaterThan(20_000);
    const second = await suite.t.web.fetch(url, {
      maxLength: 2000,
      startIndex: first.nextStartIndex!,
    });
    expect(second.cached).toBe(true);
    expect(second.startIndex).toBe(first.nextStartIndex);
    expect(second.content.startsWith("Paragraph") || second.content.startsWith("\n")).toBe(true);
  });

  it("reports a start index past the end as INVALID_INPUT", async () => {
    const e = await failure(
      suite.t.web.fetch(suite.server.url("/article"), { startIndex: 10_000_000 }),
    );
    expect(e.code).toBe("INVALID_INPUT");
  });
});
