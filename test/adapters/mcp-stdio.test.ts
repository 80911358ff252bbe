// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is configuration syntax under test
/**
 * `webfetch mcp` as a child process (the built bin), driven by the MCP SDK's Client over stdio.
 * The child reaches only the fixture server on 127.0.0.1, through the guard with one hole
 * (--allow-address); the private address is a literal the guard refuses before any socket.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFile } from "../helpers/config.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { ALL_TOOLS } from "../tools/helpers.js";

const BIN = join(process.cwd(), "dist/cli/bin.js");

let server: FixtureServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await server.close();
});

/** Starts `webfetch mcp <args>` and connects a client to it. */
async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...args],
    env: { PATH: process.env.PATH ?? "", WEBFETCH_LOG_LEVEL: "warn", ...env },
    cwd: tmpdir(),
    stderr: "pipe",
  });
  const client = new Client({ name: "webfetch-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const page = (path: string) => `http://127.0.0.1:${server.port}${path}`;

describe("webfetch mcp (stdio)", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(["--allow-address", `127.0.0.1:${server.port}`]);
  });

  it("lists the tools with input and output schemas and annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...ALL_TOOLS]);
    const fetch = tools[0]!;
    expect(fetch.title).toBe("Fetch web page");
    expect(fetch.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(fetch.inputSchema.required).toEqual(["url"]);
    expect(Object.keys(fetch.inputSchema.properties ?? {})).toEqual([
      "url",
      "prompt",
      "query",
      "extract_mode",
      "max_length",
      "start_index",
    ]);
    expect(fetch.outputSchema?.properties).toHaveProperty("finalUrl");
  });

  it("calls web_fetch on the fixture server: text for the model, the result in structuredContent", async () => {
    const url = page("/article");
    const result = (await client.callTool({
      name: "web_fetch",
      arguments: { url },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      url,
      finalUrl: url,
      status: 200,
      title: "Fixture Article",
      format: "markdown",
      truncated: false,
      cached: false,
    });
    const [first] = result.content;
    expect(first?.type).toBe("text");
    expect((first as { text: string }).text).toMatch(/^Title: Fixture Article\nURL: /);
  });

  it("returns isError with BLOCKED_ADDRESS for a private address", async () => {
    const result = (await client.callTool({
      name: "web_fetch",
      arguments: { url: "http://10.0.0.5/" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toBe(
      "Blocked: 10.0.0.5 is a private address\nError type: BLOCKED_ADDRESS",
    );
    expect(result._meta).toEqual({
      "webfetch/error": {
        code: "BLOCKED_ADDRESS",
        message: "Blocked: 10.0.0.5 is a private address",
      },
    });
  });

  it("continues a cut page with web_read and searches it with web_grep, by id", async () => {
    const cut = (await client.callTool({
      name: "web_fetch",
      arguments: { url: page("/long"), max_length: 2000 },
    })) as CallToolResult;
    const { id, nextStartIndex } = cut.structuredContent as { id: string; nextStartIndex: number };
    const read = (await client.callTool({
      name: "web_read",
      arguments: { id, start_index: nextStartIndex, length: 1000 },
    })) as CallToolResult;
    expect(read.structuredContent).toMatchObject({ id, startIndex: nextStartIndex });
    const grep = (await client.callTool({
      name: "web_grep",
      arguments: { id, pattern: "Paragraph 400 of" },
    })) as CallToolResult;
    expect(grep.structuredContent).toMatchObject({ id, matchCount: 1 });
  });

  it("extracts several URLs, failures listed", async () => {
    const result = (await client.callTool({
      name: "web_extract",
      arguments: { urls: [page("/json"), page("/status?code=404"), "ftp://x/"] },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const { results, failed } = result.structuredContent as {
      results: unknown[];
      failed: { code: string }[];
    };
    expect(results).toHaveLength(1);
    expect(failed.map((f) => f.code)).toEqual(["HTTP_ERROR", "INVALID_URL"]);
  });

  it("refuses arguments that break the input schema as an error result", async () => {
    const result = (await client.callTool({
      name: "web_fetch",
      arguments: { url: page("/article"), max_length: 0 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain("max_length");
  });
});

describe("webfetch mcp with a configuration file", () => {
  it("prefixes names, leaves a disabled tool out and applies seed 000's keys", async () => {
    const { file: config } = configFile([
      "locale: ja",
      "fetch:",
      '  allow_addresses: ["127.0.0.1:${FIXTURE_PORT}"]',
      "tools:",
      "  prefix: wf_",
      "  web_fetch:",
      "    enabled: true",
      "    api_endpoint: ${WEB_FETCH_API_ENDPOINT}",
      "    timeout_seconds: 60",
      "    max_content_length: ${MAX_CONTENT:-700}",
      "  web_grep:",
      "    enabled: false",
    ]);
    const client = await connect(["--config", config], { FIXTURE_PORT: String(server.port) });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "wf_web_fetch",
      "wf_web_extract",
      "wf_web_search",
      "wf_web_context",
      "wf_web_read",
    ]);
    const result = (await client.callTool({
      name: "wf_web_fetch",
      arguments: { url: page("/long") },
    })) as CallToolResult;
    const { content, truncated } = result.structuredContent as {
      content: string;
      truncated: boolean;
    };
    expect(truncated).toBe(true);
    expect(content.length).toBeLessThanOrEqual(700);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/^タイトル: Long Page/);
    // web_grep is disabled: the continuation line names only the read tool.
    expect(text).toContain("wf_web_read に id");
    expect(text).not.toContain("web_grep");
  });
});

describe("webfetch mcp: stdout", () => {
  it("carries nothing but protocol messages, logs go to stderr, and it exits when stdin closes", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], {
      env: { PATH: process.env.PATH ?? "", WEBFETCH_LOG_LEVEL: "info" },
      cwd: tmpdir(),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "web_fetch", arguments: { url: "ftp://x/" } },
      },
    ];
    for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    // Wait for both answers before closing input.
    while ((stdout.match(/\n/g) ?? []).length < 2) await once(child.stdout, "data");
    child.stdin.end();
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
    expect(JSON.parse(lines[1]!).result.isError).toBe(true);
    expect(stderr).toContain('"execution_time_ms"');
  });
});
