/**
 * web_search through the tool layer: a heading, then numbered results with URL, score and snippet,
 * in English and Japanese (the no-results text included), provider failures as message and error
 * type, and the call's timing in the log line and the result. The provider is Tavily's real client
 * against a local server.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { WebFetchOptions } from "../../src/options.js";
import { json, type ProviderServer, startProviderServer } from "../helpers/provider-server.js";
import { testWeb } from "../helpers/web.js";
import { toolBox } from "./helpers.js";

let api: ProviderServer | undefined;
const webs: ReturnType<typeof testWeb>[] = [];
afterAll(async () => {
  for (const t of webs) await t.web.close();
  await api?.close();
  for (const t of webs) expect(t.recorder.refused).toEqual([]);
});

async function box(options: WebFetchOptions = {}) {
  api ??= await startProviderServer();
  const t = testWeb(undefined, {
    search: { provider: "tavily", tavilyApiKey: "tvly-k", tavilyBaseUrl: api.url, env: {} },
    ...options,
  });
  webs.push(t);
  return toolBox(t.web);
}

const RESULTS = {
  query: "typescript",
  results: [
    {
      title: "TypeScript",
      url: "https://www.typescriptlang.org/",
      content: "Typed JavaScript at any scale.",
      score: 0.98765,
    },
    {
      title: "TS on Wikipedia",
      url: "https://en.wikipedia.org/wiki/TypeScript",
      content: "A language by Microsoft.",
      score: 0.5,
    },
  ],
};

describe("web_search tool", () => {
  it("prints numbered results with URL, score (2 decimals) and snippet", async () => {
    const b = await box();
    api!.reply((_req, res) => json(res, 200, RESULTS));
    const r = await b
      .tool("web_search")
      .call({ query: "typescript", max_results: 2, search_depth: "advanced" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      [
        "## Search results: typescript",
        "",
        "### 1. TypeScript",
        "URL: https://www.typescriptlang.org/",
        "Score: 0.99",
        "Typed JavaScript at any scale.",
        "",
        "### 2. TS on Wikipedia",
        "URL: https://en.wikipedia.org/wiki/TypeScript",
        "Score: 0.50",
        "A language by Microsoft.",
      ].join("\n"),
    );
    expect(JSON.parse(api!.requests[0]!.body)).toMatchObject({
      max_results: 2,
      search_depth: "advanced",
    });
    expect(r.structured).toMatchObject({
      query: "typescript",
      provider: "tavily",
      results: [{ title: "TypeScript", score: 0.9877 }, { title: "TS on Wikipedia" }],
      execution_time_ms: expect.any(Number),
    });
    expect(b.logs.at(-1)).toMatchObject({
      tool: "web_search",
      outcome: "success",
      execution_time_ms: expect.any(Number),
    });
  });

  it("defaults to 5 results, basic depth; says when nothing was found", async () => {
    const b = await box();
    api!.reply((_req, res) => json(res, 200, { query: "zzz", results: [] }));
    const r = await b.tool("web_search").call({ query: "zzz" });
    expect(r.text).toBe("## Search results: zzz\n\nNo search results found.");
    expect(JSON.parse(api!.requests[0]!.body)).toMatchObject({
      max_results: 5,
      search_depth: "basic",
    });
  });

  it("speaks Japanese word for word", async () => {
    const b = await box({ locale: "ja" });
    api!.reply((_req, res) => json(res, 200, RESULTS));
    const r = await b.tool("web_search").call({ query: "typescript", max_results: 1 });
    expect(r.text).toBe(
      "## 検索結果: typescript\n\n### 1. TypeScript\nURL: https://www.typescriptlang.org/\nスコア: 0.99\nTyped JavaScript at any scale.",
    );
    api!.reply((_req, res) => json(res, 200, { results: [] }));
    const none = await b.tool("web_search").call({ query: "なし" });
    expect(none.text).toBe("## 検索結果: なし\n\n検索結果が見つかりませんでした。");
  });

  it("shows provider failures as message and error type, in both languages", async () => {
    const en = await box();
    api!.reply((_req, res) =>
      json(res, 401, { detail: { error: "Unauthorized: missing or invalid API key." } }),
    );
    const r = await en.tool("web_search").call({ query: "x" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      "Search provider error: Tavily refused the credentials (401): Unauthorized: missing or invalid API key.\nError type: AUTH_ERROR",
    );
    expect(r.structured).toMatchObject({
      error: { code: "AUTH_ERROR" },
      execution_time_ms: expect.any(Number),
    });
    expect(en.logs.at(-1)).toMatchObject({
      tool: "web_search",
      outcome: "failed",
      code: "AUTH_ERROR",
    });
    const ja = await box({ locale: "ja" });
    const jr = await ja.tool("web_search").call({ query: "x" });
    expect(jr.text).toBe("Tavily API エラー: 認証に失敗しました\nエラータイプ: AUTH_ERROR");
    api!.reply((_req, res) => json(res, 429, { detail: "slow" }, { "retry-after": "120" }));
    const limited = await ja.tool("web_search").call({ query: "x" });
    expect(limited.text).toBe(
      "Tavily API エラー: リクエストが多すぎます。しばらくしてから再度お試しください\nエラータイプ: RATE_LIMITED",
    );
  });

  it("refuses bad input naming the field, before any request", async () => {
    const b = await box();
    api!.reply((_req, res) => json(res, 200, RESULTS));
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ query: "" }, /^query: /],
      [{ query: "x".repeat(1001) }, /^query: /],
      [{ query: "q", max_results: 21 }, /^max_results: must be between 1 and 20\n/],
      [{ query: "q", max_results: 0 }, /^max_results: must be between 1 and 20\n/],
      [{ query: "q", search_depth: "deep" }, /^search_depth: /],
      [{ query: "q", time_range: "hour" }, /^time_range: /],
      [
        { query: "q", include_domains: ["not a domain"] },
        /^include_domains: "not a domain" is not a domain\n/,
      ],
    ];
    for (const [args, message] of bad) {
      const r = await b.tool("web_search").call(args);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(message);
      expect(r.text).toMatch(/Error type: INVALID_INPUT$/);
    }
    expect(api!.requests).toHaveLength(0);
  });

  it("a provider without its key is an error naming the variable", async () => {
    const t = testWeb(undefined, { search: { provider: "brave", env: {} } });
    webs.push(t);
    const r = await toolBox(t.web).tool("web_search").call({ query: "x" });
    expect(r.text).toBe(
      "Search provider brave needs an API key: set BRAVE_API_KEY\nError type: INVALID_INPUT",
    );
  });
});
