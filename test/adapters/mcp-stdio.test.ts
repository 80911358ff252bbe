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
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenCounter } from "../../src/shape/tokens.js";
import { configFile } from "../helpers/config.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { chromiumPath, hasService } from "../helpers/services.js";
import { ALL_TOOLS } from "../tools/helpers.js";

const BIN = join(process.cwd(), "dist/bin/webfetch.js");

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
      "include_selectors",
      "exclude_selectors",
      "links",
      "images",
      "screenshot",
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

  it("calls a malformed page id unknown in web_read and web_grep (INVALID_INPUT, not a URL error)", async () => {
    for (const id of ["abc", "../x", "p_XYZ"]) {
      for (const [name, args] of [
        ["web_read", { id }],
        ["web_grep", { id, pattern: "x" }],
      ] as const) {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(result._meta).toMatchObject({ "webfetch/error": { code: "INVALID_INPUT" } });
        expect((result.content[0] as { text: string }).text).toBe(
          `Unknown page id ${JSON.stringify(id)}: fetch the page again and use the id of that result\nError type: INVALID_INPUT`,
        );
      }
    }
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
  it("prefixes names, leaves a disabled tool out and applies tools.web_fetch's keys", async () => {
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
      "wf_web_map",
      "wf_web_crawl",
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

describe("webfetch mcp with a token budget (tools.max_result_tokens)", () => {
  const BUDGET = 1_500;
  let client: Client;
  beforeAll(async () => {
    const { file: config } = configFile([
      "fetch:",
      '  allow_addresses: ["127.0.0.1:${FIXTURE_PORT}"]',
      "tools:",
      "  max_result_tokens: ${BUDGET}",
    ]);
    client = await connect(["--config", config], {
      FIXTURE_PORT: String(server.port),
      BUDGET: String(BUDGET),
    });
  });

  /** Tokens of a result as the server counts them: every block but images, and the object. */
  async function tokensOf(result: CallToolResult): Promise<number> {
    const count = await tokenCounter();
    const blocks = result.content.filter((block) => block.type !== "image");
    return (
      blocks.reduce(
        (sum, block) => sum + count(block.type === "text" ? block.text : JSON.stringify(block)),
        0,
      ) + count(JSON.stringify(result.structuredContent ?? {}))
    );
  }

  it("cuts a long page under the budget and links the rest, which readResource continues", async () => {
    const result = (await client.callTool({
      name: "web_fetch",
      arguments: { url: page("/long"), max_length: 100_000 },
    })) as CallToolResult;
    expect(await tokensOf(result)).toBeLessThanOrEqual(BUDGET);
    const { id, nextStartIndex } = result.structuredContent as {
      id: string;
      nextStartIndex: number;
    };
    const link = result.content.find((block) => block.type === "resource_link");
    expect(link).toMatchObject({
      uri: `webfetch://page/${id}?start=${nextStartIndex}`,
      name: id,
      mimeType: "text/markdown",
    });
    const read = await client.readResource({ uri: link!.uri });
    const text = (read.contents[0] as { text: string }).text;
    expect((await tokenCounter())(text)).toBeLessThanOrEqual(BUDGET);
    expect(text).toMatch(/^Paragraph \d+ of the article about Long Page/);
    expect(text).toMatch(/To read more, read webfetch:\/\/page\/p_[0-9a-f]{12}\?start=\d+\.\]$/);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`webfetch://page/${id}`);
    const unknown = await client
      .readResource({ uri: "webfetch://page/p_ffffffffffff" })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
  });

  it("sends web_extract's progress, one notification per URL, when the call asks for it", async () => {
    const urls = [page("/article"), page("/long"), "http://10.0.0.5/"];
    const seen: number[] = [];
    const messages: string[] = [];
    // The notifications as they come off the wire: the SDK's client hands a notification to its
    // handler a microtask after reading it, and stops listening at the result, so one that
    // arrives in the same chunk as the result never reaches `onprogress`, however the server
    // orders them.
    const transport = client.transport!;
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ("method" in message && message.method === "notifications/progress") {
        const p = message.params as { progress: number; total?: number; message?: string };
        seen.push(p.progress);
        expect(p.total).toBe(3);
        messages.push(p.message ?? "");
      }
      deliver?.(message, extra);
    };
    const result = (await client
      .callTool({ name: "web_extract", arguments: { urls } }, undefined, { onprogress: () => {} })
      .finally(() => {
        transport.onmessage = deliver;
      })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await tokensOf(result)).toBeLessThanOrEqual(BUDGET);
    expect(seen).toEqual([1, 2, 3]);
    expect(messages).toContain("http://10.0.0.5/: BLOCKED_ADDRESS");
    expect(messages).toContain(`${page("/article")}: ok`);
  });
});

describe.runIf(hasService("chromium"))(
  "webfetch mcp: a screenshot over the budget",
  { timeout: 120_000 },
  () => {
    it("leaves the base64 out of structuredContent (the image block keeps it) and says so", async () => {
      const { file: config } = configFile([
        "fetch:",
        '  allow_addresses: ["127.0.0.1:${FIXTURE_PORT}"]',
        "  browser_path: ${CHROMIUM}",
        "  timeout_seconds: 60",
      ]);
      const client = await connect(["--config", config], {
        FIXTURE_PORT: String(server.port),
        CHROMIUM: chromiumPath(),
      });
      // The client checks structuredContent against the output schema: data is optional there.
      const result = (await client.callTool({
        name: "web_fetch",
        arguments: { url: page("/styled"), screenshot: { width: 1280, height: 800 } },
      })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content[0])).toBeFalsy();
      const structured = result.structuredContent as {
        screenshot: Record<string, unknown>;
        warnings: string[];
      };
      expect(structured.screenshot).toEqual({ mimeType: "image/png", width: 1280, height: 800 });
      expect(structured.warnings).toContain(
        "The screenshot's base64 is left out of the result object to fit the client's limit of 20000 tokens per result; the image block carries it",
      );
      const image = result.content.find((block) => block.type === "image");
      expect(image && "data" in image && image.data.length).toBeGreaterThan(20_000);
    });
  },
);

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

describe("webfetch mcp: a configuration it cannot read", () => {
  it("is an error on stderr naming the file, before any protocol message", async () => {
    const missing = join(tmpdir(), "webfetch-no-such-dir", "webfetch.config.yaml");
    const child = spawn(process.execPath, [BIN, "mcp"], {
      env: { PATH: process.env.PATH ?? "", WEBFETCH_CONFIG: missing },
      cwd: tmpdir(),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`Configuration file not found: ${missing}`);
  });
});

/** A line longer than the 10 MiB `webfetch mcp` reads: a web_fetch whose url is 11 MiB. */
const HUGE_URL = `http://127.0.0.1/${"a".repeat(11 * 1024 * 1024)}`;

interface Answer {
  id: string | number | null;
  result?: { tools?: unknown[] };
  error?: { code: number; message: string };
}

/** `webfetch mcp` as a child spoken to line by line, its answers collected as they come. */
function rawMcp() {
  const child = spawn(process.execPath, [BIN, "mcp"], {
    env: { PATH: process.env.PATH ?? "", WEBFETCH_LOG_LEVEL: "warn" },
    cwd: tmpdir(),
  });
  const answers: Answer[] = [];
  let pending = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) answers.push(JSON.parse(line) as Answer);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // A server that died is reported by answerTo; writing to it must not crash the test run.
  child.stdin.on("error", () => {});
  const exited = once(child, "exit");
  const send = (line: string) => child.stdin.write(`${line}\n`);
  return {
    child,
    answers,
    stderr: () => stderr,
    send,
    /** Initializes the session, as every client does first. */
    async initialize() {
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        }),
      );
      send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      await this.answerTo(0);
    },
    /** Waits for the answer to `id`; fails if the server exits first. */
    async answerTo(id: string | number): Promise<Answer> {
      for (;;) {
        const found = answers.find((a) => a.id === id);
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`mcp exited (${child.exitCode}) before ${id}`);
        await Promise.race([once(child.stdout, "data"), exited]);
      }
    },
    /** Closes stdin and returns the exit status. */
    async end(): Promise<number | null> {
      child.stdin.end();
      const [code] = await exited;
      return code as number | null;
    },
  };
}

describe("webfetch mcp: a line it cannot serve", () => {
  it("answers a line over 10 MiB with Invalid Request to its id (first or last member) and serves the next requests", async () => {
    const mcp = rawMcp();
    await mcp.initialize();
    const args = { name: "web_fetch", arguments: { url: HUGE_URL } };
    // The MCP SDK's client writes the id last; others write it first.
    mcp.send(JSON.stringify({ method: "tools/call", params: args, jsonrpc: "2.0", id: 1 }));
    mcp.send(JSON.stringify({ jsonrpc: "2.0", id: "first", method: "tools/call", params: args }));
    mcp.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    for (const id of [1, "first"]) {
      const refused = await mcp.answerTo(id);
      expect(refused.error?.code).toBe(ErrorCode.InvalidRequest);
      expect(refused.error?.message).toMatch(
        /^Invalid Request: the message is \d+ bytes, over the limit of 10485760 bytes/,
      );
    }
    const list = await mcp.answerTo(2);
    expect(list.result?.tools).toHaveLength(ALL_TOOLS.length);
    expect(mcp.stderr()).toContain("over the limit of 10485760 bytes");
    expect(await mcp.end()).toBe(0);
  }, 120_000);

  it("answers a line that is not JSON with Parse error and one that is not JSON-RPC with Invalid Request, then serves the next request", async () => {
    const mcp = rawMcp();
    await mcp.initialize();
    mcp.send("{not json");
    mcp.send(JSON.stringify({ id: 5, method: "tools/list" }));
    mcp.send("");
    mcp.send(JSON.stringify({ jsonrpc: "2.0", id: 6, method: "tools/list" }));
    const list = await mcp.answerTo(6);
    expect(list.result?.tools).toHaveLength(ALL_TOOLS.length);
    // The lines before were answered before it, in the order they came.
    const noVersion = mcp.answers.find((a) => a.id === 5);
    expect(noVersion?.error?.code).toBe(ErrorCode.InvalidRequest);
    // JSON-RPC answers a request whose id cannot be read with a null id.
    const unreadable = mcp.answers.filter((a) => a.id === null);
    expect(unreadable.map((a) => a.error?.code)).toEqual([ErrorCode.ParseError]);
    expect(mcp.stderr()).toContain("Parse error");
    expect(await mcp.end()).toBe(0);
  }, 60_000);

  it("rejects an SDK client's call over 10 MiB with an McpError, and answers the same client after", async () => {
    const client = await connect([]);
    const call = client.callTool({ name: "web_fetch", arguments: { url: HUGE_URL } });
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidRequest);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(ALL_TOOLS.length);
  }, 120_000);
});
