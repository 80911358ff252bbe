/**
 * One logger per instance: `logger: false` turns logging off (and fetching still works), and the
 * tools every adapter makes from an instance log their calls through that instance's logger.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ToolExecutionOptions } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAiSdkTools } from "../../src/adapters/ai-sdk.js";
import { createAnthropicTools } from "../../src/adapters/anthropic.js";
import { createLangChainTools } from "../../src/adapters/langchain.js";
import { createMcpServer } from "../../src/adapters/mcp.js";
import { createOpenAITools } from "../../src/adapters/openai.js";
import { silentLogger } from "../../src/index.js";
import type { Logger } from "../../src/log.js";
import { createTools } from "../../src/tools/registry.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { testWeb } from "../helpers/web.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

/** A logger that keeps every line, with its level, in an array. */
function arrayLogger(): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const at =
    (level: string) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, ...obj, ...(msg === undefined ? {} : { msg }) });
    };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** The tool-call lines a logger saw. */
const toolLines = (logger: { lines: Record<string, unknown>[] }) =>
  logger.lines.filter((line) => line.msg === "tool");

describe("logger: false", () => {
  /** A script that fetches one page through the built package, as a user's program would. */
  function script(): string {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-logger-"));
    const file = join(dir, "fetch.mjs");
    const entry = pathToFileURL(join(process.cwd(), "dist/index.js")).href;
    writeFileSync(
      file,
      `import { createWebFetch } from ${JSON.stringify(entry)};
const [port, logger] = process.argv.slice(2);
const web = createWebFetch({
  allowAddresses: ["127.0.0.1:" + port],
  ...(logger === "false" ? { logger: false } : {}),
});
try {
  const page = await web.fetch("http://127.0.0.1:" + port + "/article");
  process.stdout.write(page.title);
} finally {
  await web.close();
}
`,
    );
    return file;
  }

  it("fetches and writes nothing on stderr, in a child process", async () => {
    const file = script();
    const run = (logger: string) =>
      promisify(execFile)(process.execPath, [file, String(server.port), logger], {
        env: { PATH: process.env.PATH, WEBFETCH_LOG_LEVEL: "info" },
        timeout: 30_000,
      });
    const quiet = await run("false");
    expect(quiet.stdout).toBe("Fixture Article");
    expect(quiet.stderr).toBe("");
    // The same script with the default logger does write its fetch line there.
    const loud = await run("default");
    expect(loud.stdout).toBe("Fixture Article");
    expect(loud.stderr).toContain('"msg":"fetch"');
  }, 60_000);

  it("gives the instance the silent logger, which the package exports", async () => {
    const t = testWeb(server, { logger: false });
    try {
      expect(t.web.logger).toBe(silentLogger);
      const page = await t.web.fetch(server.url("/article"));
      expect(page.title).toBe("Fixture Article");
    } finally {
      await t.web.close();
    }
  });
});

describe("tool calls log through the instance's logger", () => {
  const cases: [
    string,
    (web: ReturnType<typeof testWeb>["web"], url: string) => Promise<unknown>,
  ][] = [
    ["createTools", (web, url) => createTools({ web })[0]!.call({ url })],
    [
      "openai",
      (web, url) =>
        createOpenAITools({ web }).run({ name: "web_fetch", arguments: JSON.stringify({ url }) }),
    ],
    [
      "anthropic",
      (web, url) =>
        createAnthropicTools({ web }).run({
          type: "tool_use",
          id: "toolu_1",
          name: "web_fetch",
          input: { url },
        }),
    ],
    [
      "ai-sdk",
      (web, url) =>
        createAiSdkTools({ web }).web_fetch!.execute!({ url }, {
          toolCallId: "call_1",
          messages: [],
        } as ToolExecutionOptions),
    ],
    [
      "langchain",
      (web, url) =>
        createLangChainTools({ web })
          .find((t) => t.name === "web_fetch")!
          .invoke({ url }),
    ],
    [
      "mcp",
      async (web, url) => {
        const mcp = createMcpServer({ web });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const client = new Client({ name: "test", version: "1.0.0" });
        try {
          await mcp.connect(serverSide);
          await client.connect(clientSide);
          return await client.callTool({ name: "web_fetch", arguments: { url } });
        } finally {
          await client.close();
          await mcp.close();
        }
      },
    ],
  ];

  const logger = arrayLogger();
  let t: ReturnType<typeof testWeb>;
  beforeAll(() => {
    t = testWeb(server, { logger });
  });
  afterAll(async () => {
    await t.web.close();
  });

  it.each(cases)("%s", async (_name, call) => {
    logger.lines.length = 0;
    await call(t.web, server.url("/article"));
    expect(toolLines(logger)).toEqual([
      expect.objectContaining({ level: "info", tool: "web_fetch", outcome: "success" }),
    ]);
    // The fetch itself logs there too: one logger for everything the instance does.
    expect(logger.lines).toContainEqual(expect.objectContaining({ msg: "fetch", outcome: "ok" }));
  });

  it("a logger given to the tools still wins over the instance's", async () => {
    logger.lines.length = 0;
    const own = arrayLogger();
    await createTools({ web: t.web, logger: own })[0]!.call({ url: server.url("/article") });
    expect(toolLines(own)).toHaveLength(1);
    expect(toolLines(logger)).toEqual([]);
  });
});
