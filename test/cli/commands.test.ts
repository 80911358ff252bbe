/** `webfetch extract` and `webfetch tools`, run in-process. */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRunOptions, runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { ALL_TOOLS } from "../tools/helpers.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

const cli = (args: string[], options: CliRunOptions = {}) => runCli(args, options);

const allow = () => ["--allow-address", `127.0.0.1:${server.port}`];
const page = (path: string) => `http://127.0.0.1:${server.port}${path}`;

describe("webfetch extract", () => {
  it("prints sections, then the failed URLs, and exits 1 when a URL failed", async () => {
    const r = await cli(["extract", page("/json"), page("/status?code=404"), ...allow()]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`## Extracted content\n\n### URL: ${page("/json")}\n{`);
    expect(r.stdout).toContain(
      `## Failed URLs\n- ${page("/status?code=404")}: Page not found (404)`,
    );
    // Not a terminal: no progress lines.
    expect(r.stderr).toBe("");
  });

  it("--json prints {results, failed} in input order; exit 0 when all succeed", async () => {
    const urls = [page("/text"), page("/json"), page("/text")];
    const r = await cli(["extract", ...urls, "--json", ...allow()]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.results.map((x: { url: string }) => x.url)).toEqual([page("/text"), page("/json")]);
    expect(out.failed).toEqual([]);
  });

  it("shows progress on stderr when it is a terminal", async () => {
    const r = await cli(["extract", page("/json"), "ftp://x/", ...allow()], { tty: true });
    expect(r.stderr.split("\n").filter(Boolean).sort()).toEqual([
      `[1/2] INVALID_URL ftp://x/`,
      `[2/2] ok ${page("/json")}`,
    ]);
  });

  it("--locale ja prints the Japanese layout", async () => {
    const r = await cli(["extract", "ftp://x/", "--locale", "ja", ...allow()]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(
      "## コンテンツ抽出結果\n\nすべてのURLからコンテンツを抽出できませんでした。\n\n## 失敗したURL\n- ftp://x/: 無効なURLです。http:// または https:// で始まるURLを指定してください\n",
    );
  });

  it("--query keeps the passages of each page that match", async () => {
    const r = await cli([
      "extract",
      page("/article"),
      "--query",
      "paragraph 3",
      "--json",
      ...allow(),
    ]);
    expect(r.status).toBe(0);
    const { results } = JSON.parse(r.stdout);
    expect(results[0]).toMatchObject({ query: "paragraph 3", truncated: false });
    expect(results[0].content).toContain("Paragraph 3 of the article");
  });
});

describe("webfetch tools", () => {
  it("--format mcp prints the tool schemas as a JSON array", async () => {
    const r = await cli(["tools", "--format", "mcp"]);
    expect(r.status).toBe(0);
    const tools = JSON.parse(r.stdout);
    expect(tools.map((t: { name: string }) => t.name)).toEqual([...ALL_TOOLS]);
    const extract = tools[1];
    expect(extract.inputSchema.properties.urls).toMatchObject({
      type: "array",
      minItems: 1,
      maxItems: 20,
    });
    expect(extract.annotations.readOnlyHint).toBe(true);
    expect(extract.outputSchema.properties).toHaveProperty("failed");
  });

  it("follows the configuration: prefix, names, disabled tools", async () => {
    const { dir } = configFile([
      "tools:",
      "  prefix: wf_",
      "  web_extract:",
      "    enabled: false",
      "  web_fetch:",
      "    name: fetch_page",
    ]);
    const r = await cli(["tools"], { cwd: dir });
    expect(JSON.parse(r.stdout).map((t: { name: string }) => t.name)).toEqual([
      "wf_fetch_page",
      "wf_web_search",
      "wf_web_context",
      "wf_web_read",
      "wf_web_grep",
      "wf_web_map",
      "wf_web_crawl",
    ]);
  });

  it("exits 2 naming the bad key or the clash", async () => {
    const { dir, file } = configFile(["tools:", "  web_fetch:", "    max_content_length: lots"]);
    const bad = await cli(["tools"], { cwd: dir });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("tools.web_fetch.max_content_length");
    writeFileSync(file, "tools:\n  web_read:\n    name: web_grep\n");
    const clash = await cli(["tools"], { cwd: dir });
    expect(clash.status).toBe(2);
    expect(clash.stderr).toContain("both named web_grep");
  });

  it("--format openai and anthropic print the adapters' definitions", async () => {
    const openai = JSON.parse((await cli(["tools", "--format", "openai"])).stdout);
    expect(openai[0]).toMatchObject({
      type: "function",
      function: { name: "web_fetch", strict: false, parameters: { required: ["url"] } },
    });
    const strict = JSON.parse((await cli(["tools", "--format", "openai", "--strict"])).stdout);
    expect(strict[0].function).toMatchObject({
      strict: true,
      parameters: { additionalProperties: false },
    });
    expect(strict[0].function.parameters.required).toHaveLength(11);
    const anthropic = JSON.parse((await cli(["tools", "--format", "anthropic"])).stdout);
    expect(anthropic.map((t: { name: string }) => t.name)).toEqual([...ALL_TOOLS]);
    expect(Object.keys(anthropic[0])).toEqual(["name", "description", "input_schema"]);
  });

  it("refuses an unknown format with a usage error", async () => {
    const r = await cli(["tools", "--format", "gemini"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("gemini");
  });
});
