/**
 * `webfetch search` and `webfetch context`, run in-process: the provider chosen from the
 * flags, the configuration or the environment of the run, every request to a local server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import {
  html,
  json,
  type ProviderServer,
  startProviderServer,
} from "../helpers/provider-server.js";

let server: FixtureServer;
let api: ProviderServer;
beforeAll(async () => {
  server = await startFixtureServer();
  api = await startProviderServer();
});
afterAll(async () => {
  await api.close();
  await server.close();
});

const page = (path: string) => `http://127.0.0.1:${server.port}${path}`;
const env = () => ({ PATH: process.env.PATH, SEARXNG_URL: api.url });
/** The manual on the local server: the result `context` may fetch. */
const manual = () => ({
  url: page("/guide?title=Manual&topics=installation,upgrades"),
  title: "Manual",
  content: "How to install.",
  score: 2,
});
/** SearXNG answers with `results`; a second, outside result is only listed, never fetched. */
const searx = (
  results = [
    manual(),
    { url: "https://other.example/", title: "Other", content: "Other page.", score: 1 },
  ],
) => api.reply((_req, res) => json(res, 200, { results }));

describe("webfetch search", () => {
  it("prints numbered results with URL and score; the provider from the environment", async () => {
    searx();
    const r = await runCli(
      ["search", "install", "guide", "--max-results", "2", "--depth", "advanced"],
      { env: env() },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      `## Search results: install guide\n\n### 1. Manual\nURL: ${page("/guide?title=Manual&topics=installation,upgrades")}\nScore: 1.00\nHow to install.\n\n### 2. Other\nURL: https://other.example/\nScore: 0.50\nOther page.\n`,
    );
    expect(api.requests[0]!.query.get("q")).toBe("install guide");
  });

  it("--json prints the result object; --locale ja the Japanese layout", async () => {
    searx();
    const r = await runCli(["search", "install", "--json"], { env: env() });
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ query: "install", provider: "searxng" });
    expect(result.results.map((x: { title: string }) => x.title)).toEqual(["Manual", "Other"]);
    api.reply((_req, res) => json(res, 200, { results: [] }));
    const ja = await runCli(["search", "なし", "--locale", "ja"], { env: env() });
    expect(ja.stdout).toBe("## 検索結果: なし\n\n検索結果が見つかりませんでした。\n");
  });

  it("--provider and the configuration choose; a missing key is bad usage naming it", async () => {
    const missing = await runCli(["search", "x", "--provider", "tavily"], { env: env() });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      "webfetch: INVALID_INPUT: Search provider tavily needs an API key: set TAVILY_API_KEY\n",
    );
    const { dir } = configFile(["search:", "  provider: duckduckgo"]);
    api.reply((_req, res) => html(res, 200, "<html><body></body></html>"));
    const r = await runCli(["search", "x", "--json"], {
      cwd: dir,
      env: { ...env(), DUCKDUCKGO_BASE_URL: api.url },
    });
    expect(JSON.parse(r.stdout).provider).toBe("duckduckgo");
    expect(api.requests[0]).toMatchObject({ method: "POST", path: "/html/" });
    const bad = configFile(["search:", "  provider: bing"]);
    expect((await runCli(["search", "x"], { cwd: bad.dir, env: env() })).stderr).toContain(
      "search.provider",
    );
  });

  it("exit 1 for provider errors, 2 for bad flags and a query over 1000 characters", async () => {
    api.reply((_req, res) => html(res, 500, "boom"));
    const failed = await runCli(["search", "x", "--json"], { env: env() });
    expect(failed.status).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({
      error: { code: "PROVIDER_ERROR", message: "SearXNG answered 500: boom" },
    });
    expect((await runCli(["search", "x", "--max-results", "21"], { env: env() })).status).toBe(2);
    expect((await runCli(["search", "x", "--depth", "deep"], { env: env() })).status).toBe(2);
    const long = await runCli(["search", "x".repeat(1001)], { env: env() });
    expect(long.status).toBe(2);
    expect(long.stderr).toContain("INVALID_INPUT: query must be at most 1000 characters");
  });
});

describe("webfetch context", () => {
  it("prints the cited context within --max-tokens", async () => {
    searx([manual()]);
    const r = await runCli(
      ["context", "upgrades", "--max-tokens", "300", "--allow-address", `127.0.0.1:${server.port}`],
      { env: env() },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^## Search context for RAG: upgrades\n\n\[1\] Manual › upgrades\nThis section explains upgrades/,
    );
    expect(r.stdout).toContain(
      `\n\nSources:\n[1] Manual: ${page("/guide?title=Manual&topics=installation,upgrades")}`,
    );
    searx([manual()]);
    const j = await runCli(
      ["context", "upgrades", "--json", "--allow-address", `127.0.0.1:${server.port}`],
      {
        env: env(),
      },
    );
    const result = JSON.parse(j.stdout);
    expect(result.tokens).toBeLessThanOrEqual(4000);
    expect(result.sources[0]).toMatchObject({ n: 1, title: "Manual" });
  });
});

describe("webfetch fetch --query", () => {
  it("prints only the matching passages", async () => {
    const r = await runCli([
      "fetch",
      page("/guide?title=Manual&topics=installation,upgrades"),
      "--query",
      "installation",
      "--allow-address",
      `127.0.0.1:${server.port}`,
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("## installation");
    expect(r.stdout).not.toContain("## upgrades");
  });
});
