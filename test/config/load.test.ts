// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is configuration syntax under test
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/adapters/mcp.js";
import {
  loadConfig,
  optionsFromConfig,
  parseConfig,
  toolsOptionsFromConfig,
} from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import { createTools } from "../../src/tools/registry.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { configFile } from "../helpers/config.js";
import { ALL_TOOLS } from "../tools/helpers.js";

/** The message of the configuration error `fn` throws. */
function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect((error as { code?: string }).code).toBe("INVALID_INPUT");
    return (error as Error).message;
  }
  throw new Error("expected a configuration error");
}

describe("configuration: tools section", () => {
  it("expands ${VAR} and ${VAR:-default} in tools.web_fetch's keys", () => {
    const config = parseConfig(
      {
        locale: "${LOCALE:-ja}",
        tools: {
          prefix: "${PREFIX}",
          web_fetch: {
            enabled: "${FETCH_ON:-true}",
            api_endpoint: "${WEB_FETCH_API_ENDPOINT}",
            timeout_seconds: "${TIMEOUT:-60}",
            max_content_length: "${MAX}",
          },
        },
      },
      { PREFIX: "wf_", MAX: "12000" },
    );
    expect(config.locale).toBe("ja");
    expect(optionsFromConfig(config).locale).toBe("ja");
    // An endpoint variable left unset means no endpoint, so
    // `api_endpoint: ${WEB_FETCH_API_ENDPOINT}` loads as written.
    expect(toolsOptionsFromConfig(config)).toEqual({
      prefix: "wf_",
      tools: { web_fetch: { enabled: true, timeout: 60_000, maxLength: 12_000 } },
    });
  });

  it("enables every tool with its defaults when tools is absent", async () => {
    expect(toolsOptionsFromConfig(parseConfig({}))).toEqual({});
    const web = createWebFetch({ logger: silentLogger });
    try {
      const tools = createTools({ web, logger: silentLogger, ...toolsOptionsFromConfig({}) });
      expect(tools.map((t) => t.name)).toEqual([...ALL_TOOLS]);
    } finally {
      await web.close();
    }
  });

  it("names the bad key", () => {
    expect(configError(() => parseConfig({ tools: { web_fecth: { enabled: false } } }))).toContain(
      "unknown key tools.web_fecth",
    );
    expect(
      configError(() => parseConfig({ tools: { web_fetch: { timeout_seconds: "soon" } } })),
    ).toContain("tools.web_fetch.timeout_seconds");
    expect(configError(() => parseConfig({ tools: { web_grep: { enabled: "maybe" } } }))).toContain(
      "tools.web_grep.enabled",
    );
    expect(
      configError(() => parseConfig({ tools: { web_read: { name: "read page" } } })),
    ).toContain("tools.web_read.name");
    expect(configError(() => parseConfig({ locale: "fr" }))).toContain("locale");
  });

  it("sets remote mode from tools.web_fetch.api_endpoint, with its kind and token", () => {
    const config = parseConfig(
      {
        tools: {
          web_fetch: {
            api_endpoint: "${WEB_FETCH_API_ENDPOINT}",
            api_endpoint_kind: "webfetch",
            api_token: "${WEBFETCH_API_TOKEN:-}",
          },
        },
      },
      { WEB_FETCH_API_ENDPOINT: "http://127.0.0.1:11235", WEBFETCH_API_TOKEN: "t0k" },
    );
    expect(optionsFromConfig(config)).toEqual({
      endpoint: "http://127.0.0.1:11235",
      endpointKind: "webfetch",
      endpointToken: "t0k",
    });
    expect(toolsOptionsFromConfig(config)).toEqual({ tools: { web_fetch: {} } });
  });

  it("refuses remote keys outside tools.web_fetch, or a kind without an endpoint", () => {
    const elsewhere = parseConfig({ tools: { web_read: { api_endpoint: "http://127.0.0.1:1" } } });
    expect(configError(() => toolsOptionsFromConfig(elsewhere))).toContain("tools.web_read");
    const kindOnly = parseConfig({ tools: { web_fetch: { api_endpoint_kind: "webfetch" } } });
    expect(configError(() => optionsFromConfig(kindOnly))).toContain(
      "tools.web_fetch.api_endpoint",
    );
    expect(
      configError(() => parseConfig({ tools: { web_fetch: { api_endpoint_kind: "v2" } } })),
    ).toContain("tools.web_fetch.api_endpoint_kind");
  });

  it("reads tools.web_fetch.filter and timeout_seconds as the endpoint's, refusing a bad or stray filter", async () => {
    const config = parseConfig({
      tools: {
        web_fetch: { api_endpoint: "http://127.0.0.1:11235", filter: "bm25", timeout_seconds: 45 },
      },
    });
    expect(optionsFromConfig(config)).toEqual({
      endpoint: "http://127.0.0.1:11235",
      endpointFilter: "bm25",
      endpointTimeout: 45_000,
    });
    const web = createWebFetch({ logger: silentLogger, ...optionsFromConfig(config) });
    expect(web.options.endpoint).toMatchObject({ filter: "bm25", timeout: 45_000 });
    await web.close();
    // Without an endpoint, timeout_seconds is only the tool's deadline.
    const direct = parseConfig({ tools: { web_fetch: { timeout_seconds: 45 } } });
    expect(optionsFromConfig(direct)).toEqual({});
    expect(
      configError(() => parseConfig({ tools: { web_fetch: { filter: "summary" } } })),
    ).toContain("tools.web_fetch.filter");
    const orphan = parseConfig({ tools: { web_fetch: { filter: "llm" } } });
    expect(configError(() => optionsFromConfig(orphan))).toContain("tools.web_fetch.api_endpoint");
    const elsewhere = parseConfig({ tools: { web_read: { filter: "llm" } } });
    expect(configError(() => toolsOptionsFromConfig(elsewhere))).toContain("tools.web_read");
  });

  it("accepts sections of the tools still to come", () => {
    const config = parseConfig({ tools: { web_search: { enabled: false }, web_fetch_agent: {} } });
    expect(toolsOptionsFromConfig(config).tools?.web_search).toEqual({ enabled: false });
  });

  it("reads search.extract: who fetches web_extract's pages", () => {
    const options = optionsFromConfig(parseConfig({ search: { extract: "tavily" } }));
    expect(options.search).toEqual({ extract: "tavily" });
    expect(configError(() => parseConfig({ search: { extract: "bing" } }))).toContain(
      "search.extract",
    );
  });

  it("reads fetch.save_dir", () => {
    expect(optionsFromConfig(parseConfig({ fetch: { save_dir: "/tmp/pages" } })).saveDir).toBe(
      "/tmp/pages",
    );
  });

  it("leaves a disabled tool out of the MCP tool list (file → loader → server)", async () => {
    const { dir } = configFile([
      "tools:",
      "  web_grep:",
      "    enabled: false",
      "  web_read:",
      "    name: read_page",
    ]);
    const config = loadConfig({ cwd: dir, env: {} });
    const web = createWebFetch({ ...optionsFromConfig(config), logger: silentLogger });
    const server = createMcpServer({
      web,
      logger: silentLogger,
      ...toolsOptionsFromConfig(config),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "test", version: "1.0.0" });
    try {
      await server.connect(serverSide);
      await client.connect(clientSide);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "web_fetch",
        "web_extract",
        "web_search",
        "web_context",
        "read_page",
        "web_map",
        "web_crawl",
      ]);
    } finally {
      await client.close();
      await server.close();
      await web.close();
    }
  });
});

describe("configuration: llm section", () => {
  it("maps provider, model, base_url and api_key (expanded) and the limits", () => {
    const config = parseConfig(
      {
        llm: {
          provider: "${LLM_PROVIDER:-openai-compatible}",
          base_url: "http://127.0.0.1:11434/v1",
          model: "qwen2.5:3b",
          api_key: "${OPENAI_API_KEY:-}",
          max_input_tokens: "8000",
          timeout_seconds: 20,
          agent_max_steps: 5,
          agent_timeout_seconds: 90,
        },
      },
      { OPENAI_API_KEY: "sk-local" },
    );
    expect(optionsFromConfig(config).llm).toEqual({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434/v1",
      model: "qwen2.5:3b",
      apiKey: "sk-local",
      maxInputTokens: 8000,
      timeout: 20_000,
      agentMaxSteps: 5,
      agentTimeout: 90_000,
    });
  });

  it("means no model when the provider expands to nothing, and names bad keys", () => {
    expect(optionsFromConfig(parseConfig({ llm: { provider: "${NONE:-}" } }, {})).llm).toBe(
      undefined,
    );
    expect(configError(() => parseConfig({ llm: { provider: "gemini" } }))).toContain(
      "llm.provider",
    );
    expect(configError(() => parseConfig({ llm: { temperature: 1 } }))).toContain(
      "unknown key llm.temperature",
    );
    expect(configError(() => optionsFromConfig(parseConfig({ llm: { model: "m" } })))).toContain(
      "llm.provider is required when llm.model is set",
    );
  });

  it("defaults the model and the key of a hosted provider", () => {
    const web = createWebFetch({
      logger: silentLogger,
      llm: { provider: "anthropic", env: { ANTHROPIC_API_KEY: "sk-ant" } },
    });
    expect(web.options.llm).toMatchObject({
      provider: "anthropic",
      model: "claude-haiku-4-5",
      // The key was found; the options an instance shows never carry it.
      apiKey: "[redacted]",
      maxInputTokens: 12_000,
    });
    expect(JSON.stringify(web.options)).not.toContain("sk-ant");
    void web.close();
  });
});

describe("render and cache store keys", () => {
  it("map to the library options", () => {
    const options = optionsFromConfig(
      parseConfig({
        fetch: { render: "always", browser_path: "/opt/chromium/chrome" },
        cache: { store: "sqlite", path: "/tmp/wf.sqlite", url: "redis://127.0.0.1:6390" },
      }),
    );
    expect(options).toMatchObject({
      render: "always",
      browserPath: "/opt/chromium/chrome",
      cacheStore: "sqlite",
      cachePath: "/tmp/wf.sqlite",
      cacheUrl: "redis://127.0.0.1:6390",
    });
    expect(configError(() => parseConfig({ cache: { store: "disk" } }))).toContain("cache.store");
  });

  it("never shows the cache server's password", async () => {
    const web = createWebFetch({
      logger: silentLogger,
      cacheStore: "redis",
      cacheUrl: "redis://:s3cret-pass@127.0.0.1:6390/2",
    });
    expect(web.options.cacheUrl).toBe("redis://:%5Bredacted%5D@127.0.0.1:6390/2");
    expect(JSON.stringify(web.options)).not.toContain("s3cret-pass");
    await web.close();
  });
});
