// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is configuration syntax under test
/**
 * `webfetch fetch <url> --prompt P`: the model from the configuration's `llm` section
 * (a local server speaking the OpenAI protocol, key from the environment), and the passages with
 * a note on stderr when no model is configured. `webfetch tools` lists web_fetch_agent only then.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { body, modelSuite, openaiReply } from "../helpers/model-server.js";

const servers = modelSuite((_req, res) => openaiReply(res, "It is about the fixture."));

const allow = () => ["--allow-address", `127.0.0.1:${servers.pages.port}`];
const page = (path: string) => `http://127.0.0.1:${servers.pages.port}${path}`;

function llmConfig() {
  return configFile([
    "llm:",
    "  provider: openai-compatible",
    `  base_url: ${servers.model.url}/v1`,
    "  model: qwen2.5:3b",
    "  api_key: ${LOCAL_KEY:-}",
  ]);
}

describe("webfetch fetch --prompt", () => {
  it("answers with the configured model", async () => {
    const { dir } = llmConfig();
    const env = { PATH: process.env.PATH, LOCAL_KEY: "local-secret" };
    const r = await runCli(
      ["fetch", page("/article"), "--prompt", "What is it about?", ...allow()],
      {
        cwd: dir,
        env,
      },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`It is about the fixture.\n\nSource: ${page("/article")}\n`);
    expect(servers.model.requests[0]!.headers.authorization).toBe("Bearer local-secret");
    expect(body(servers.model.requests[0]).model).toBe("qwen2.5:3b");

    const json = await runCli(
      ["fetch", page("/article"), "--prompt", "What is it about?", "--json", ...allow()],
      { cwd: dir, env },
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      model: "qwen2.5:3b",
      usage: { inputTokens: 100, outputTokens: 20 },
      inputTruncated: false,
      title: "Fixture Article",
    });
  });

  it("lists web_fetch_agent only when a model is configured", async () => {
    const { dir } = llmConfig();
    const withModel = await runCli(["tools"], { cwd: dir });
    expect(JSON.parse(withModel.stdout).map((t: { name: string }) => t.name)).toContain(
      "web_fetch_agent",
    );
    const without = await runCli(["tools"]);
    expect(JSON.parse(without.stdout).map((t: { name: string }) => t.name)).not.toContain(
      "web_fetch_agent",
    );
  });

  it("prints the passages and a note on stderr without a model", async () => {
    const r = await runCli(["fetch", page("/guide"), "--prompt", "configuration", ...allow()]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("note: No model is configured");
    expect(r.stdout).toContain("## configuration");
  });

  it("exits 2 for an llm section it cannot use", async () => {
    const { dir } = configFile(["llm:", "  provider: openai-compatible", "  model: m"]);
    const r = await runCli(["fetch", page("/article"), "--prompt", "x", ...allow()], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("llm.base_url is required");
    const bad = configFile(["llm:", "  provider: gemini"]);
    const r2 = await runCli(["fetch", page("/article"), ...allow()], { cwd: bad.dir });
    expect(r2.status).toBe(2);
    expect(r2.stderr).toContain("llm.provider");
  });
});
