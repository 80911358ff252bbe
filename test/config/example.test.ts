/**
 * The example configuration `webfetch config init` writes: it loads as it is (every key commented
 * out), every key of the schema is in it, and uncommented it is valid and states the defaults.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig, optionsFromConfig, parseConfig } from "../../src/config/load.js";
import { configSchema } from "../../src/config/schema.js";
import { DEFAULTS, LLM_DEFAULTS } from "../../src/options.js";
import { SERVER_DEFAULTS } from "../../src/server/options.js";
import { runCli } from "../helpers/cli.js";

const EXAMPLE = new URL("../../webfetch.config.example.yaml", import.meta.url);
const text = readFileSync(EXAMPLE, "utf8");
/** The example with every `# key: value` line uncommented. */
const uncommented = text.replace(/^(\s*)# ([a-z_]+:( |$))/gm, "$1$2");
const env = { WEB_FETCH_API_ENDPOINT: "http://127.0.0.1:1" };

/** Every key path of a zod object schema, its sections' keys included (`fetch.timeout_seconds`). */
function schemaKeys(schema: unknown, prefix = ""): string[] {
  let s = schema as { unwrap?: () => unknown; shape?: Record<string, unknown> };
  while (!s.shape && s.unwrap) s = s.unwrap() as typeof s;
  if (!s.shape) return [];
  return Object.entries(s.shape).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    const inner = schemaKeys(value, path);
    return inner.length > 0 ? inner : [path];
  });
}

/** Every key path of a parsed YAML document. */
function documentKeys(value: unknown, prefix = ""): string[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([key, v]) =>
    documentKeys(v, prefix ? `${prefix}.${key}` : key),
  );
}

describe("the example configuration", () => {
  it("loads as it is: sections with every key commented out set nothing", () => {
    expect(parseConfig(parse(text), {})).toEqual({ tools: {} });
  });

  it("names every key of the schema (each tool's keys under web_fetch, `enabled` under the others)", () => {
    const documented = new Set(documentKeys(parse(uncommented)));
    const expected = schemaKeys(configSchema).filter((key) => {
      const [section, tool, field] = key.split(".");
      return section !== "tools" || !field || tool === "web_fetch" || field === "enabled";
    });
    expect(expected.filter((key) => !documented.has(key))).toEqual([]);
    expect(expected.length).toBeGreaterThan(50);
  });

  it("uncommented, is valid and states the defaults", () => {
    const config = parseConfig(parse(uncommented), env);
    const options = optionsFromConfig(config);
    expect(options).toMatchObject({
      timeout: DEFAULTS.timeout,
      maxBytes: DEFAULTS.maxBytes,
      maxRedirects: DEFAULTS.maxRedirects,
      redirects: DEFAULTS.redirects,
      userAgent: DEFAULTS.userAgent,
      robots: DEFAULTS.robots,
      render: DEFAULTS.render,
      browserPath: DEFAULTS.browserPath,
      network: DEFAULTS.network,
      allowPrivateNetwork: DEFAULTS.allowPrivateNetwork,
      maxLength: DEFAULTS.maxLength,
      cacheStore: DEFAULTS.cacheStore,
      cacheTtl: DEFAULTS.cacheTtl,
      cacheMaxBytes: DEFAULTS.cacheMaxBytes,
      cacheUrl: DEFAULTS.cacheUrl,
      screenshotMaxBytes: DEFAULTS.screenshotMaxBytes,
      locale: DEFAULTS.locale,
    });
    expect(config.llm).toMatchObject({
      max_input_tokens: LLM_DEFAULTS.maxInputTokens,
      max_output_tokens: LLM_DEFAULTS.maxOutputTokens,
      timeout_seconds: LLM_DEFAULTS.timeout / 1000,
      agent_max_steps: LLM_DEFAULTS.agentMaxSteps,
      agent_max_tokens: LLM_DEFAULTS.agentMaxTokens,
      agent_timeout_seconds: LLM_DEFAULTS.agentTimeout / 1000,
    });
    expect(config.server).toMatchObject({
      host: SERVER_DEFAULTS.host,
      port: SERVER_DEFAULTS.port,
      rate_limit: SERVER_DEFAULTS.rateLimit,
      trust_proxy: SERVER_DEFAULTS.trustProxy,
    });
  });

  it("is what `webfetch config init` writes, never over a file without --force", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "webfetch-init-"));
    const first = await runCli(["config", "init"], { cwd });
    expect(first.status).toBe(0);
    const written = join(cwd, "webfetch.config.yaml");
    expect(readFileSync(written, "utf8")).toBe(text);
    expect(loadConfig({ cwd, env: {} })).toEqual({ tools: {} });
    const again = await runCli(["config", "init"], { cwd });
    expect(again.status).toBe(2);
    expect(again.stderr).toContain("--force");
    expect((await runCli(["config", "init", "--force"], { cwd })).status).toBe(0);
    expect((await runCli(["config", "init", "other.yaml"], { cwd })).status).toBe(0);
    expect(readFileSync(join(cwd, "other.yaml"), "utf8")).toBe(text);
  });
});
