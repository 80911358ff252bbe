/**
 * web.context() and the web_context tool end to end: a local provider answers with pages of
 * the fixture server, which are fetched through the guard, chunked, ranked and packed. The
 * token budget is verified by counting with o200k, the order is deterministic, and every
 * citation matches a listed source.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextResult } from "../../src/context/build.js";
import { createBraveProvider } from "../../src/search/brave.js";
import { createDuckDuckGoProvider } from "../../src/search/duckduckgo.js";
import { createSearxngProvider } from "../../src/search/searxng.js";
import { createTavilyProvider } from "../../src/search/tavily.js";
import type { SearchProvider } from "../../src/search/types.js";
import type { WebFetch } from "../../src/webfetch/index.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import {
  html,
  json,
  type ProviderServer,
  startProviderServer,
} from "../helpers/provider-server.js";
import { type TestWeb, testWeb } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

let server: FixtureServer;
let api: ProviderServer;
const made: TestWeb[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
  api = await startProviderServer();
});
afterAll(async () => {
  for (const t of made) await t.web.close();
  await api.close();
  await server.close();
  for (const t of made) expect(t.recorder.refused).toEqual([]);
});

/**
 * The provider the shared instances search with: a real client, swapped per test. (A new
 * instance per provider would start a conversion thread pool each time.)
 */
let inner: SearchProvider;
const switching: SearchProvider = {
  id: "switching",
  name: "SearXNG",
  search: (request, context) => inner.search(request, context),
};
const instances = new Map<string, WebFetch>();

function web(locale: "en" | "ja" = "en"): WebFetch {
  inner = createSearxngProvider({ baseUrl: api.url });
  let w = instances.get(locale);
  if (!w) {
    const t = testWeb(server, { search: { provider: switching }, locale });
    made.push(t);
    w = t.web;
    instances.set(locale, w);
  }
  return w;
}

const guideA = () =>
  server.url("/guide?title=Widget%20Manual&topics=installation,configuration,upgrades");
const guideB = () =>
  server.url("/guide?title=Admin%20Notes&topics=configuration,backups,monitoring");
const missing = () => server.url("/status?code=404");

/** SearXNG answering with the two guides and a page that will 404 (its snippet still counts). */
function searxngResults(): void {
  api.reply((_req, res) =>
    json(res, 200, {
      results: [
        { url: guideA(), title: "Widget Manual (search title)", content: "Manual.", score: 3 },
        {
          url: missing(),
          title: "Gone page",
          content: "A configuration snippet kept by the provider.",
          score: 2,
        },
        { url: guideB(), title: "Admin Notes", content: "Notes.", score: 1 },
      ],
    }),
  );
}

/** Checks the invariants every context must keep, whatever the budget. */
function checkContext(result: ContextResult, maxTokens: number): void {
  expect(countTokens(result.context)).toBe(result.tokens);
  expect(result.tokens).toBeLessThanOrEqual(maxTokens);
  if (result.context === "") {
    expect(result.sources).toEqual([]);
    return;
  }
  const [body, list] = result.context.split("\n\nSources:\n");
  const cited = new Set([...body!.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1])));
  expect([...cited].sort()).toEqual(result.sources.map((s) => s.n));
  expect(result.sources.map((s) => s.n)).toEqual(result.sources.map((_, i) => i + 1));
  expect(list!.split("\n")).toEqual(result.sources.map((s) => `[${s.n}] ${s.title}: ${s.url}`));
}

describe("web.context", () => {
  it("packs the passages matching the query, cited, within the budget, with a source list", async () => {
    searxngResults();
    const w = web();
    const result = await w.context("configuration", { maxTokens: 4000 });
    checkContext(result, 4000);
    expect(result).toMatchObject({ query: "configuration", provider: "switching" });
    expect(result.sources).toEqual([
      { n: 1, url: guideA(), title: "Widget Manual" },
      { n: 2, url: missing(), title: "Gone page" },
      { n: 3, url: guideB(), title: "Admin Notes" },
    ]);
    expect(result.context).toContain(
      "[1] Widget Manual › configuration\nThis section explains configuration",
    );
    expect(result.context).toContain(
      "[2] Gone page\nA configuration snippet kept by the provider.",
    );
    expect(result.context).toContain("[3] Admin Notes › configuration\n");
    // Only matching passages: the other topics are left out (the URLs in the list name them).
    const body = result.context.split("\n\nSources:\n")[0];
    expect(body).not.toContain("backups");
    expect(body).not.toContain("installation");
    expect(result.timings.totalMs).toBeGreaterThan(0);
  });

  it("fits every budget by count, keeps the best passages first, and is deterministic", async () => {
    searxngResults();
    const w = web();
    let previous = 0;
    for (const maxTokens of [1, 40, 90, 150, 300, 4000]) {
      const result = await w.context("configuration backups", { maxTokens });
      checkContext(result, maxTokens);
      expect(result.tokens).toBeGreaterThanOrEqual(previous);
      previous = result.tokens;
      const again = await w.context("configuration backups", { maxTokens });
      expect(again.context).toBe(result.context);
      expect(again.sources).toEqual(result.sources);
    }
    // A small budget keeps the best passage: Admin Notes matches both words.
    const small = await w.context("configuration backups", { maxTokens: 90 });
    expect(small.sources.map((s) => s.title)).toEqual(["Admin Notes"]);
  });

  it("says when nothing was found, and validates its input", async () => {
    api.reply((_req, res) => json(res, 200, { results: [] }));
    const w = web();
    const empty = await w.context("nothing at all");
    expect(empty).toMatchObject({ context: "", sources: [], tokens: 0 });
    await expect(w.context("")).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(w.context("q", { maxTokens: 0 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: "maxTokens must be a positive integer",
    });
  });

  it("works with every provider", async () => {
    const page = guideA();
    const providers: [() => SearchProvider, () => void][] = [
      [
        () => createTavilyProvider({ apiKey: "k", baseUrl: api.url }),
        () =>
          api.reply((_r, res) =>
            json(res, 200, { results: [{ title: "T", url: page, content: "c", score: 0.9 }] }),
          ),
      ],
      [
        () => createBraveProvider({ apiKey: "k", baseUrl: api.url }),
        () =>
          api.reply((_r, res) =>
            json(res, 200, { web: { results: [{ title: "T", url: page, description: "c" }] } }),
          ),
      ],
      [
        () => createSearxngProvider({ baseUrl: api.url }),
        () =>
          api.reply((_r, res) =>
            json(res, 200, { results: [{ title: "T", url: page, content: "c" }] }),
          ),
      ],
      [
        () => createDuckDuckGoProvider({ baseUrl: api.url }),
        () =>
          api.reply((_r, res) =>
            html(
              res,
              200,
              `<div class="result"><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(page)}">T</a><a class="result__snippet">c</a></div>`,
            ),
          ),
      ],
    ];
    const w = web();
    for (const [make, serve] of providers) {
      serve();
      inner = make();
      const result = await w.context("upgrades", { maxTokens: 500 });
      checkContext(result, 500);
      expect(api.requests).toHaveLength(1);
      expect(result.context).toContain(
        "[1] Widget Manual › upgrades\nThis section explains upgrades",
      );
    }
  });
});

describe("web_context tool", () => {
  it("prints a heading, then the context; the whole text fits max_tokens", async () => {
    searxngResults();
    const box = toolBox(web());
    const r = await box.tool("web_context").call({ query: "configuration", max_tokens: 200 });
    expect(r.isError).toBe(false);
    expect(r.text.startsWith("## Search context for RAG: configuration\n\n[1] ")).toBe(true);
    expect(countTokens(r.text)).toBeLessThanOrEqual(200);
    expect(r.structured).toMatchObject({
      query: "configuration",
      execution_time_ms: expect.any(Number),
    });
    expect(box.logs.at(-1)).toMatchObject({ tool: "web_context", outcome: "success" });
  });

  it("speaks Japanese: heading and source list", async () => {
    searxngResults();
    const r = await toolBox(web("ja")).tool("web_context").call({ query: "configuration" });
    expect(r.text.startsWith("## RAG用検索コンテキスト: configuration\n\n[1] ")).toBe(true);
    expect(r.text).toContain("\n\n出典:\n[1] Widget Manual: ");
  });

  it("reports a provider failure as message and error type", async () => {
    api.reply((_req, res) => html(res, 429, "Too Many Requests", { "retry-after": "60" }));
    const r = await toolBox(web()).tool("web_context").call({ query: "x" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "Search provider error: SearXNG rate limit reached (429): Too Many Requests; retry after 60s\nError type: RATE_LIMITED",
    );
  });
});
