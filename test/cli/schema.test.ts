/**
 * `webfetch fetch <url> --schema FILE.json`, as a child process: the model from the
 * configuration's `llm` section fills the schema, the data is printed as JSON instead of the
 * content (--json carries it as `data`), --prompt instructs it; a missing file or one that is
 * not JSON is a usage error naming the path, and so is a schema without a model.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { body, modelSuite, openaiReply } from "../helpers/model-server.js";

const servers = modelSuite((_req, res) => openaiReply(res, '{"title":"Fixture Article"}'));

const allow = () => ["--allow-address", `127.0.0.1:${servers.pages.port}`];
const page = (path: string) => `http://127.0.0.1:${servers.pages.port}${path}`;

const SCHEMA = {
  type: "object",
  properties: { title: { type: "string" } },
  required: ["title"],
};

/** A configuration with a model, and a schema file beside it. */
function setup(schema: string = JSON.stringify(SCHEMA)) {
  const { dir } = configFile([
    "llm:",
    "  provider: openai-compatible",
    `  base_url: ${servers.model.url}/v1`,
    "  model: qwen2.5:3b",
  ]);
  const file = join(dir, "schema.json");
  writeFileSync(file, schema);
  return { dir, file };
}

describe("webfetch fetch --schema", () => {
  it("prints the data as JSON, and --json carries it beside the content", async () => {
    const { dir, file } = setup();
    const env = { PATH: process.env.PATH };
    const r = await runCli(
      ["fetch", page("/article"), "--schema", file, "--prompt", "The title", ...allow()],
      { cwd: dir, env },
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('{\n  "title": "Fixture Article"\n}\n');
    const user = body(servers.model.requests[0]).messages[1].content as string;
    expect(user).toContain(JSON.stringify(SCHEMA));
    expect(user).toContain("Task: The title");

    const json = await runCli(["fetch", page("/article"), "--schema", file, "--json", ...allow()], {
      cwd: dir,
      env,
    });
    expect(json.status).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({
      data: { title: "Fixture Article" },
      model: "qwen2.5:3b",
      title: "Fixture Article",
    });
    // The content leaves out the <h1> that only repeats the title.
    expect(result.content).toMatch(/^Paragraph 1 of the article about Fixture Article/);
  });

  it("refuses a missing file or one that is not JSON, naming the path: usage error", async () => {
    const { dir, file } = setup("{not json");
    const missing = join(dir, "nowhere.json");
    const gone = await runCli(["fetch", page("/article"), "--schema", missing, ...allow()], {
      cwd: dir,
    });
    expect(gone.status).toBe(2);
    expect(gone.stderr).toContain(missing);
    expect(gone.stderr).toContain("INVALID_INPUT");
    const bad = await runCli(["fetch", page("/article"), "--schema", file, ...allow()], {
      cwd: dir,
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${file} is not valid JSON`);
  });

  it("webfetch tools lists web_fetch_structured only when a model is configured", async () => {
    const { dir } = setup();
    const names = (stdout: string) => JSON.parse(stdout).map((t: { name: string }) => t.name);
    expect(names((await runCli(["tools"], { cwd: dir })).stdout)).toContain("web_fetch_structured");
    expect(names((await runCli(["tools"])).stdout)).not.toContain("web_fetch_structured");
  });

  it("without a model: a usage error naming the llm settings", async () => {
    const { file } = setup();
    const r = await runCli(["fetch", page("/article"), "--schema", file, ...allow()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("llm.provider");
    expect(r.stdout).toBe("");
  });
});
