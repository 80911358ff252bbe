/**
 * Each provider's real client against a local server that speaks that provider's documented
 * API: the request we send (method, path, auth header, parameters) is asserted, and responses
 * are served as the provider documents them, auth errors and rate limits included. Nothing
 * leaves 127.0.0.1: providers are pointed at the local server through their base URL settings,
 * and every socket goes through the tests' loopback-only connector.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchSettings, WebFetchOptions } from "../../src/options.js";
import type { SearchProviderId } from "../../src/search/types.js";
import type { WebFetch } from "../../src/webfetch/index.js";
import {
  html,
  json,
  type ProviderServer,
  startProviderServer,
} from "../helpers/provider-server.js";
import { failure, newRecorder, type Recorder, testWeb } from "../helpers/web.js";

let api: ProviderServer;
const instances: { web: WebFetch; recorder: Recorder }[] = [];

beforeAll(async () => {
  api = await startProviderServer();
});
afterAll(async () => {
  for (const { web } of instances) await web.close();
  await api.close();
  for (const { recorder } of instances) {
    expect(recorder.refused).toEqual([]);
    expect(recorder.attempts.every((a) => a.hostname === "127.0.0.1")).toBe(true);
  }
});

/** An instance whose only provider is the one given, at the local server; no environment. */
function webWith(search: SearchSettings, options: WebFetchOptions = {}): WebFetch {
  const t = testWeb(undefined, { search: { env: {}, ...search }, timeout: 3_000, ...options });
  instances.push(t);
  return t.web;
}

describe("tavily", () => {
  const web = () =>
    webWith({ provider: "tavily", tavilyApiKey: "tvly-test", tavilyBaseUrl: api.url });

  it("POSTs /search with a Bearer key and Tavily's parameters; maps results and scores", async () => {
    api.reply((_req, res) =>
      json(res, 200, {
        query: "rust async",
        answer: null,
        images: [],
        results: [
          {
            title: "Async in Rust",
            url: "https://docs.example/async",
            content: "Futures and  executors.",
            score: 0.91234,
            raw_content: null,
            published_date: "Tue, 02 Jan 2026 10:00:00 GMT",
          },
          { title: "Other", url: "https://blog.example/post", content: "More.", score: 0.5 },
          { title: "Not a web page", url: "ftp://files.example/x", content: "", score: 0.4 },
        ],
        response_time: 1.2,
      }),
    );
    const result = await web().search("  rust async ", {
      searchDepth: "advanced",
      maxResults: 3,
      includeDomains: ["docs.example", "blog.example"],
      excludeDomains: ["spam.example"],
      timeRange: "week",
    });
    const [req] = api.requests;
    expect(req).toMatchObject({ method: "POST", path: "/search" });
    expect(req!.headers.authorization).toBe("Bearer tvly-test");
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req!.body)).toEqual({
      query: "rust async",
      search_depth: "advanced",
      max_results: 3,
      topic: "general",
      include_domains: ["docs.example", "blog.example"],
      exclude_domains: ["spam.example"],
      time_range: "week",
    });
    expect(result).toMatchObject({ query: "rust async", provider: "tavily" });
    expect(result.results).toEqual([
      {
        title: "Async in Rust",
        url: "https://docs.example/async",
        snippet: "Futures and executors.",
        score: 0.9123,
        publishedAt: "2026-01-02T10:00:00.000Z",
      },
      { title: "Other", url: "https://blog.example/post", snippet: "More.", score: 0.5 },
    ]);
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(0);
  });

  it("401 is AUTH_ERROR with Tavily's own words", async () => {
    api.reply((_req, res) =>
      json(res, 401, { detail: { error: "Unauthorized: missing or invalid API key." } }),
    );
    const error = await failure(web().search("x"));
    expect(error.code).toBe("AUTH_ERROR");
    expect(error.message).toBe(
      "Tavily refused the credentials (401): Unauthorized: missing or invalid API key.",
    );
    expect(error.provider).toBe("Tavily");
    expect(api.requests).toHaveLength(1);
  });

  it("a rate limit is retried after the Retry-After it names, then succeeds", async () => {
    api.reply((_req, res, n) =>
      n === 1
        ? json(res, 429, { detail: { error: "Rate limit exceeded" } }, { "retry-after": "1" })
        : json(res, 200, {
            results: [{ title: "A", url: "https://a.example/", content: "a", score: 1 }],
          }),
    );
    const started = Date.now();
    const result = await web().search("x");
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(api.requests).toHaveLength(2);
    expect(result.results).toHaveLength(1);
  });

  it("a rate limit that outlasts the deadline is reported at once, with when to retry", async () => {
    api.reply((_req, res) =>
      json(res, 429, { detail: { error: "Rate limit exceeded" } }, { "retry-after": "30" }),
    );
    // RATE_LIMITED, not TIMEOUT: the search did not sit out the 30 s it was told to wait.
    const error = await failure(web().search("x"));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      "Tavily rate limit reached (429): Rate limit exceeded; retry after 30s",
    );
    expect(api.requests).toHaveLength(1);
  });

  it("retries are bounded: a provider that keeps refusing is reported", async () => {
    api.reply((_req, res) => json(res, 429, { detail: "slow down" }, { "retry-after": "0" }));
    const error = await failure(web().search("x"));
    expect(error.code).toBe("RATE_LIMITED");
    // testWeb allows one retry.
    expect(api.requests).toHaveLength(2);
  });

  it("plan limits (432) are RATE_LIMITED without a retry; 500 is PROVIDER_ERROR", async () => {
    api.reply((_req, res) => json(res, 432, { detail: { error: "Plan limit exceeded" } }));
    const quota = await failure(web().search("x"));
    expect(quota).toMatchObject({ code: "RATE_LIMITED", retryable: false });
    expect(api.requests).toHaveLength(1);
    api.reply((_req, res) => json(res, 500, { detail: { error: "Internal error" } }));
    const broken = await failure(web().search("x"));
    expect(broken.code).toBe("PROVIDER_ERROR");
    expect(broken.message).toBe("Tavily answered 500: Internal error");
  });

  it("a body that is not JSON is a PROVIDER_ERROR, and a hung provider a TIMEOUT", async () => {
    api.reply((_req, res) => html(res, 200, "<html>maintenance</html>"));
    expect((await failure(web().search("x"))).code).toBe("PROVIDER_ERROR");
    api.reply(() => {
      // Never answers.
    });
    const error = await failure(web().search("x", { timeout: 300 }));
    expect(error.code).toBe("TIMEOUT");
  });
});

describe("brave", () => {
  const web = () => webWith({ provider: "brave", braveApiKey: "BSA-test", braveBaseUrl: api.url });

  it("GETs /res/v1/web/search with X-Subscription-Token, count, freshness and site: operators", async () => {
    api.reply((_req, res) =>
      json(res, 200, {
        type: "search",
        query: { original: "rust async" },
        web: {
          type: "search",
          results: [
            {
              title: "Async <strong>Rust</strong>",
              url: "https://docs.example/async",
              description: "All about <strong>async</strong> &amp; await.",
              page_age: "2026-01-15T00:00:00",
              age: "2 days ago",
            },
            { title: "Two", url: "https://sub.docs.example/two", description: "Second." },
            { title: "Excluded", url: "https://spam.example/", description: "No." },
          ],
        },
      }),
    );
    const result = await web().search("rust async", {
      maxResults: 7,
      includeDomains: ["docs.example"],
      excludeDomains: ["spam.example"],
      timeRange: "month",
    });
    const [req] = api.requests;
    expect(req).toMatchObject({ method: "GET", path: "/res/v1/web/search" });
    expect(req!.headers["x-subscription-token"]).toBe("BSA-test");
    expect(req!.headers.accept).toBe("application/json");
    expect(req!.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(req!.query)).toEqual({
      q: "rust async site:docs.example -site:spam.example",
      count: "7",
      result_filter: "web",
      freshness: "pm",
    });
    // No score from Brave: the rank gives one; the excluded domain is filtered out regardless.
    expect(result.results).toEqual([
      {
        title: "Async Rust",
        url: "https://docs.example/async",
        snippet: "All about async & await.",
        score: 1,
        publishedAt: new Date("2026-01-15T00:00:00").toISOString(),
      },
      { title: "Two", url: "https://sub.docs.example/two", snippet: "Second.", score: 0.5 },
    ]);
  });

  it("several included domains become (site:a OR site:b)", async () => {
    api.reply((_req, res) => json(res, 200, { type: "search", web: { results: [] } }));
    const result = await web().search("q", { includeDomains: ["a.example", "b.example"] });
    expect(api.requests[0]!.query.get("q")).toBe("q (site:a.example OR site:b.example)");
    expect(result.results).toEqual([]);
  });

  it("an invalid token (422 SUBSCRIPTION_TOKEN_INVALID) is AUTH_ERROR", async () => {
    api.reply((_req, res) =>
      json(res, 422, {
        type: "ErrorResponse",
        error: {
          id: "c1",
          status: 422,
          code: "SUBSCRIPTION_TOKEN_INVALID",
          detail: "The provided subscription token is invalid.",
          meta: { component: "authentication" },
        },
        time: 1700000000,
      }),
    );
    const error = await failure(web().search("x"));
    expect(error.code).toBe("AUTH_ERROR");
    expect(error.message).toContain("The provided subscription token is invalid.");
  });

  it("429 RATE_LIMITED: retried once, then reported with its Retry-After", async () => {
    api.reply((_req, res) =>
      json(
        res,
        429,
        {
          type: "ErrorResponse",
          error: {
            status: 429,
            code: "RATE_LIMITED",
            detail: "Request rate limit exceeded for plan.",
          },
        },
        { "retry-after": "0", "x-ratelimit-reset": "1, 1419704" },
      ),
    );
    const error = await failure(web().search("x"));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.message).toContain("Request rate limit exceeded for plan.");
    expect(api.requests).toHaveLength(2);
  });
});

describe("searxng", () => {
  const web = () => webWith({ provider: "searxng", searxngUrl: `${api.url}/searx/` });

  it("GETs {SEARXNG_URL}/search with format=json and time_range; scales scores to the best", async () => {
    api.reply((_req, res) =>
      json(res, 200, {
        query: "rust async",
        number_of_results: 0,
        results: [
          {
            url: "https://docs.example/async",
            title: "Async Rust",
            content: "Futures.",
            engine: "duckduckgo",
            engines: ["duckduckgo", "brave"],
            score: 4,
            category: "general",
            publishedDate: "2026-01-03T00:00:00",
          },
          {
            url: "https://b.example/",
            title: "B",
            content: "b",
            engine: "bing",
            score: 1,
            publishedDate: null,
          },
        ],
        answers: [],
        suggestions: [],
        unresponsive_engines: [],
      }),
    );
    const result = await web().search("rust async", {
      timeRange: "year",
      excludeDomains: ["x.example"],
    });
    const [req] = api.requests;
    expect(req).toMatchObject({ method: "GET", path: "/searx/search" });
    expect(Object.fromEntries(req!.query)).toEqual({
      q: "rust async -site:x.example",
      format: "json",
      pageno: "1",
      time_range: "year",
    });
    expect(req!.headers.authorization).toBeUndefined();
    expect(result.results).toEqual([
      {
        title: "Async Rust",
        url: "https://docs.example/async",
        snippet: "Futures.",
        score: 1,
        publishedAt: new Date("2026-01-03T00:00:00").toISOString(),
      },
      { title: "B", url: "https://b.example/", snippet: "b", score: 0.25 },
    ]);
  });

  it("403 (JSON output not enabled) says how to fix it; 401 from a proxy is AUTH_ERROR", async () => {
    api.reply((_req, res) => html(res, 403, "<h1>Forbidden</h1>"));
    const forbidden = await failure(web().search("x"));
    expect(forbidden.code).toBe("PROVIDER_ERROR");
    expect(forbidden.message).toContain("enable json in search.formats");
    api.reply((_req, res) => html(res, 401, "Unauthorized"));
    expect((await failure(web().search("x"))).code).toBe("AUTH_ERROR");
  });

  it("429 from the instance's limiter is RATE_LIMITED after a retry", async () => {
    api.reply((_req, res) => html(res, 429, "Too Many Requests"));
    const error = await failure(web().search("x"));
    expect(error.code).toBe("RATE_LIMITED");
    expect(api.requests).toHaveLength(2);
  });
});

/** DuckDuckGo's HTML results page, as html.duckduckgo.com serves it (trimmed). */
function duckPage(
  results: { title: string; url: string; snippet: string; ad?: boolean }[],
): string {
  const blocks = results
    .map(
      (
        r,
      ) => `<div class="result results_links results_links_deep web-result ${r.ad ? "result--ad" : ""}">
  <div class="links_main links_deep result__body">
    <h2 class="result__title">
      <a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}&amp;rut=abc">${r.title}</a>
    </h2>
    <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="#">${r.url}</a></div></div>
    <a class="result__snippet" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}">${r.snippet}</a>
  </div>
</div>`,
    )
    .join("\n");
  return `<!DOCTYPE html><html><head><title>q at DuckDuckGo</title></head><body>
<div id="links" class="results">${blocks}</div></body></html>`;
}

describe("duckduckgo", () => {
  const web = () => webWith({ provider: "duckduckgo", duckduckgoBaseUrl: api.url });

  it("POSTs the form to /html/ and reads the results page, adverts left out", async () => {
    api.reply((_req, res) =>
      html(
        res,
        200,
        duckPage([
          { title: "Buy now", url: "https://ads.example/", snippet: "Ad.", ad: true },
          {
            title: "Async <b>Rust</b>",
            url: "https://docs.example/async?a=1&b=2",
            snippet: "About <b>async</b>.",
          },
          { title: "Second", url: "https://two.example/", snippet: "Two." },
        ]),
      ),
    );
    const result = await web().search("rust async", {
      timeRange: "day",
      includeDomains: ["docs.example"],
    });
    const [req] = api.requests;
    expect(req).toMatchObject({ method: "POST", path: "/html/" });
    expect(req!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(req!.body);
    expect(form.get("q")).toBe("rust async site:docs.example");
    expect(form.get("df")).toBe("d");
    expect(result.results).toEqual([
      {
        title: "Async Rust",
        url: "https://docs.example/async?a=1&b=2",
        snippet: "About async.",
        score: 1,
      },
    ]);
  });

  it("a page without results is an empty list; the bot check (202) is RATE_LIMITED", async () => {
    api.reply((_req, res) =>
      html(res, 200, '<html><body><div class="no-results">No results.</div></body></html>'),
    );
    expect((await web().search("zzzz")).results).toEqual([]);
    api.reply((_req, res) =>
      html(
        res,
        202,
        '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>',
      ),
    );
    const error = await failure(web().search("x"));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.message).toContain("DuckDuckGo asked for a bot check (202)");
  });

  it("caps the results at max_results and ranks them 1 down", async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      title: `R${i}`,
      url: `https://r${i}.example/`,
      snippet: `s${i}`,
    }));
    api.reply((_req, res) => html(res, 200, duckPage(many)));
    const result = await web().search("x", { maxResults: 4 });
    expect(result.results.map((r) => [r.title, r.score])).toEqual([
      ["R0", 1],
      ["R1", 0.75],
      ["R2", 0.5],
      ["R3", 0.25],
    ]);
  });
});

describe("choosing a provider", () => {
  const search = (settings: SearchSettings) => webWith(settings).search("probe");

  it("takes the first of tavily, brave, searxng whose variable is set, else duckduckgo", async () => {
    api.reply((req, res) => {
      if (req.path === "/search" && req.method === "POST") json(res, 200, { results: [] });
      else if (req.path === "/res/v1/web/search") json(res, 200, { web: { results: [] } });
      else if (req.path === "/search") json(res, 200, { results: [] });
      else html(res, 200, "<html><body></body></html>");
    });
    const env = {
      TAVILY_API_KEY: "t",
      TAVILY_BASE_URL: api.url,
      BRAVE_API_KEY: "b",
      BRAVE_BASE_URL: api.url,
      SEARXNG_URL: api.url,
      DUCKDUCKGO_BASE_URL: api.url,
    };
    expect((await search({ env })).provider).toBe("tavily");
    expect((await search({ env: { ...env, TAVILY_API_KEY: "" } })).provider).toBe("brave");
    expect(
      (await search({ env: { ...env, TAVILY_API_KEY: "", BRAVE_API_KEY: undefined } })).provider,
    ).toBe("searxng");
    expect((await search({ env: { DUCKDUCKGO_BASE_URL: api.url } })).provider).toBe("duckduckgo");
    // A named provider wins over the order.
    expect((await search({ env, provider: "searxng" })).provider).toBe("searxng");
  });

  it("a named provider without its key or URL is an error naming the variable", async () => {
    const cases: [SearchProviderId, string][] = [
      ["tavily", "TAVILY_API_KEY"],
      ["brave", "BRAVE_API_KEY"],
      ["searxng", "SEARXNG_URL"],
    ];
    for (const [provider, variable] of cases) {
      const error = await failure(search({ provider, env: {} }));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(variable);
    }
    const bad = await failure(search({ provider: "searxng", env: { SEARXNG_URL: "searx.local" } }));
    expect(bad.message).toBe('SEARXNG_URL must be an http or https URL, got "searx.local"');
  });
});

describe("validation: query ≤1000 chars, depth basic|advanced, 1–20 results", () => {
  const web = () => webWith({ provider: "duckduckgo", duckduckgoBaseUrl: api.url });
  const cases: [string, Parameters<WebFetch["search"]>, string][] = [
    ["empty query", ["   "], "query must not be empty"],
    ["long query", ["x".repeat(1001)], "query must be at most 1000 characters (got 1001)"],
    ["max_results 0", ["q", { maxResults: 0 }], "max_results must be between 1 and 20"],
    ["max_results 21", ["q", { maxResults: 21 }], "max_results must be between 1 and 20"],
    ["max_results 2.5", ["q", { maxResults: 2.5 }], "max_results must be between 1 and 20"],
    ["depth", ["q", { searchDepth: "deep" as "basic" }], "search_depth must be basic or advanced"],
    [
      "time_range",
      ["q", { timeRange: "hour" as "day" }],
      "time_range must be day, week, month or year",
    ],
    [
      "domain",
      ["q", { includeDomains: ["not a domain"] }],
      'include_domains: "not a domain" is not a domain',
    ],
    ["domain", ["q", { excludeDomains: ["https://x.example/"] }], "exclude_domains:"],
  ];
  it.each(cases)(
    "%s is INVALID_INPUT naming the field, and nothing is sent",
    async (_name, args, message) => {
      api.reply((_req, res) => html(res, 200, ""));
      const error = await failure(web().search(...args));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toContain(message);
      expect(api.requests).toHaveLength(0);
    },
  );

  it("a query of exactly 1000 characters is fine", async () => {
    api.reply((_req, res) => html(res, 200, duckPage([])));
    await expect(web().search("x".repeat(1000))).resolves.toMatchObject({ results: [] });
  });
});

describe("sockets", () => {
  it("providers connect through the injected socket opener, never around it", async () => {
    const recorder = newRecorder();
    const t = testWeb(undefined, {
      search: {
        provider: "tavily",
        tavilyApiKey: "k",
        tavilyBaseUrl: "http://203.0.113.9:9",
        env: {},
      },
      recordOnly: true,
      timeout: 2_000,
    });
    instances.push({ web: t.web, recorder });
    const error = await failure(t.web.search("x"));
    expect(error.code).toBe("PROVIDER_ERROR");
    expect(error.message).toContain("Could not reach Tavily at http://203.0.113.9:9");
    expect(t.recorder.refused).toEqual([{ hostname: "203.0.113.9", port: "9" }]);
  });
});
