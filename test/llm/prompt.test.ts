/**
 * `prompt`, a small model answering from the page, against local servers speaking the OpenAI
 * chat-completions and the Anthropic messages protocols: the exact requests we send, the answer and
 * its usage, the cut input, the answer cache, provider errors and the deadline; and the fallback
 * with no model.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_SYSTEM, NO_MODEL_NOTE } from "../../src/llm/answer.js";
import {
  anthropicReply,
  body,
  modelSuite,
  modelWeb,
  openaiError,
  openaiReply,
} from "../helpers/model-server.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const servers = modelSuite();
/** One instance for the OpenAI cases that need no settings of their own (conversion threads start once). */
let shared: TestWeb;

beforeAll(async () => {
  shared = modelWeb(servers.pages, openai());
});
afterAll(async () => {
  await shared.web.close();
  expect(shared.recorder.refused).toEqual([]);
});

function openai() {
  return { provider: "openai" as const, baseUrl: `${servers.model.url}/v1` };
}

describe("prompt with an OpenAI chat-completions model", () => {
  it("sends the page and the prompt, held to the page, and returns the answer with its source", async () => {
    servers.model.reply((_req, res) =>
      openaiReply(res, 'The page says: "The upgrades steps are short".'),
    );
    const { web } = shared;
    const url = servers.pages.url("/guide");
    const result = await web.fetch(url, { prompt: "How long are the upgrade steps?" });

    expect(servers.model.requests).toHaveLength(1);
    const request = servers.model.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer test-key");
    const sent = body(request);
    expect(sent.model).toBe("test-model");
    expect(sent.tools).toBeUndefined();
    expect(sent.max_tokens).toBe(1024);
    expect(sent.messages).toHaveLength(2);
    expect(sent.messages[0]).toEqual({ role: "system", content: ANSWER_SYSTEM });
    expect(sent.messages[1].role).toBe("user");
    const user = sent.messages[1].content as string;
    expect(user).toMatch(
      /^URL: http:\/\/fixture\.test:\d+\/guide\nTitle: Guide\n\n<page>\nAn introduction to Guide/,
    );
    expect(user).toContain("## upgrades");
    expect(user.endsWith("</page>\n\nTask: How long are the upgrade steps?")).toBe(true);

    expect(result).toMatchObject({
      url,
      finalUrl: url,
      title: "Guide",
      content: `The page says: "The upgrades steps are short".\n\nSource: ${url}`,
      prompt: "How long are the upgrade steps?",
      model: "test-model",
      usage: { inputTokens: 100, outputTokens: 20 },
      inputTruncated: false,
      truncated: false,
      cached: false,
    });
    expect(result.note).toBeUndefined();
  });

  it("caches answers by (URL, prompt, model)", async () => {
    servers.model.reply((_req, res, n) => openaiReply(res, `answer ${n}`));
    const { web } = shared;
    const url = servers.pages.url("/article");
    const first = await web.fetch(url, { prompt: "What is it about?" });
    const again = await web.fetch(url, { prompt: "What is it about?" });
    expect(again.content).toBe(first.content);
    expect(again.cached).toBe(true);
    expect(servers.model.requests).toHaveLength(1);
    const other = await web.fetch(url, { prompt: "Who wrote it?" });
    expect(other.content.startsWith("answer 2")).toBe(true);
    const fresh = await web.fetch(url, { prompt: "What is it about?", cache: false });
    expect(fresh.cached).toBe(false);
    expect(servers.model.requests).toHaveLength(3);
  });

  it("keeps answers in the cache store: a second instance on the same SQLite file spends no tokens", async () => {
    servers.model.reply((_req, res, n) => openaiReply(res, `stored answer ${n}`));
    const dir = mkdtempSync(join(tmpdir(), "webfetch-answers-"));
    const options = { cacheStore: "sqlite" as const, cachePath: join(dir, "cache.sqlite") };
    const first = modelWeb(servers.pages, openai(), options);
    const second = modelWeb(servers.pages, openai(), options);
    try {
      const url = servers.pages.url("/article?answers=shared");
      const before = servers.model.requests.length;
      const asked = await first.web.fetch(url, { prompt: "Summarize it." });
      const again = await second.web.fetch(url, { prompt: "Summarize it." });
      expect(again.cached).toBe(true);
      expect(again.content).toBe(asked.content);
      expect(again.usage).toEqual(asked.usage);
      expect(servers.model.requests.length - before).toBe(1);
    } finally {
      await first.web.close();
      await second.web.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("cuts a page over the input budget to the chunks most relevant to the prompt", async () => {
    servers.model.reply((_req, res) => openaiReply(res, "ok"));
    const topics = Array.from({ length: 30 }, (_, i) => `topic${i}`).concat("kubernetes");
    const { web } = modelWeb(servers.pages, { ...openai(), maxInputTokens: 150 });
    const result = await web.fetch(servers.pages.url(`/guide?topics=${topics.join(",")}`), {
      prompt: "kubernetes",
    });
    const user = body(servers.model.requests[0]).messages[1].content as string;
    expect(user).toContain("(The page was shortened to its parts most relevant to the task.)");
    expect(user).toContain("## kubernetes");
    expect(user).not.toContain("## topic3");
    expect(result.inputTruncated).toBe(true);
    await web.close();
  });

  it("reports provider failures with typed codes", async () => {
    const cases: [number, string][] = [
      [401, "AUTH_ERROR"],
      [429, "RATE_LIMITED"],
      [500, "PROVIDER_ERROR"],
    ];
    for (const [status, code] of cases) {
      // retry-after-ms keeps the SDK's one retry instant.
      servers.model.reply((_req, res) => {
        res.setHeader("retry-after-ms", "1");
        openaiError(res, status, `failure ${status}`);
      });
      const error = await failure(
        shared.web.fetch(servers.pages.url("/article"), { prompt: `status ${status}` }),
      );
      expect(error.code).toBe(code);
      expect(error.provider).toBe("openai");
    }
  });

  it("stops a model that does not answer at its deadline: TIMEOUT", async () => {
    servers.model.reply(() => {}); // never answers
    const { web } = modelWeb(servers.pages, { ...openai(), timeout: 300 });
    // The model never answers, so only the deadline can end the call: TIMEOUT proves it fired
    // (no wall-clock bound, which a busy machine would break).
    const error = await failure(web.fetch(servers.pages.url("/article"), { prompt: "anything?" }));
    expect(error.code).toBe("TIMEOUT");
    await web.close();
  });

  it("needs an API key for a hosted provider: AUTH_ERROR before any request", async () => {
    servers.model.reply((_req, res) => openaiReply(res, "never"));
    const { web } = testWeb(servers.pages, {
      llm: { provider: "openai", baseUrl: `${servers.model.url}/v1`, env: {} },
    });
    const error = await failure(web.fetch(servers.pages.url("/article"), { prompt: "x" }));
    expect(error.code).toBe("AUTH_ERROR");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(servers.model.requests).toHaveLength(0);
    await web.close();
  });

  it("works with an openai-compatible server (Ollama, vLLM, …) without a key", async () => {
    servers.model.reply((_req, res) => openaiReply(res, "compatible answer"));
    const { web } = testWeb(servers.pages, {
      llm: {
        provider: "openai-compatible",
        baseUrl: `${servers.model.url}/v1`,
        model: "qwen2.5:3b",
        env: {},
      },
    });
    const result = await web.fetch(servers.pages.url("/article"), { prompt: "Summarize" });
    expect(servers.model.requests[0]!.path).toBe("/v1/chat/completions");
    expect(servers.model.requests[0]!.headers.authorization).toBeUndefined();
    expect(body(servers.model.requests[0]).model).toBe("qwen2.5:3b");
    expect(result.model).toBe("qwen2.5:3b");
    expect(result.content.startsWith("compatible answer")).toBe(true);
    await web.close();
  });
});

describe("prompt with an Anthropic messages model", () => {
  it("sends the messages request and returns the answer", async () => {
    servers.model.reply((_req, res) => anthropicReply(res, "Ada Lovelace wrote it.", [80, 7]));
    const { web } = modelWeb(servers.pages, {
      provider: "anthropic",
      baseUrl: `${servers.model.url}/v1`,
    });
    const url = servers.pages.url("/article");
    const result = await web.fetch(url, { prompt: "Who wrote it?" });
    const request = servers.model.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers["x-api-key"]).toBe("test-key");
    expect(request.headers["anthropic-version"]).toBeDefined();
    const sent = body(request);
    expect(sent.model).toBe("test-model");
    expect(sent.max_tokens).toBe(1024);
    expect(sent.system).toEqual([{ type: "text", text: ANSWER_SYSTEM }]);
    expect(sent.messages).toHaveLength(1);
    expect(sent.messages[0].role).toBe("user");
    expect(sent.messages[0].content[0].text).toContain("Task: Who wrote it?");
    expect(sent.tools).toBeUndefined();
    expect(result).toMatchObject({
      content: `Ada Lovelace wrote it.\n\nSource: ${url}`,
      model: "test-model",
      usage: { inputTokens: 80, outputTokens: 7 },
    });
    await web.close();
  });
});

describe("prompt with no model configured", () => {
  it("returns the passages most relevant to the prompt, and a note saying so", async () => {
    const { web } = testWeb(servers.pages);
    const result = await web.fetch(servers.pages.url("/guide"), {
      prompt: "How do configuration steps work?",
    });
    expect(result.note).toBe(NO_MODEL_NOTE.en);
    expect(result.prompt).toBe("How do configuration steps work?");
    expect(result.query).toBe("How do configuration steps work?");
    expect(result.content).toContain("## configuration");
    expect(result.model).toBeUndefined();
    expect(result.usage).toBeUndefined();
    expect(await web.model()).toBeUndefined();

    const box = toolBox(web);
    expect(box.names).not.toContain("web_fetch_agent");
    const r = await box
      .tool("web_fetch")
      .call({ url: servers.pages.url("/guide"), prompt: "configuration" });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ note: NO_MODEL_NOTE.en, prompt: "configuration" });
    expect(r.text).toContain("## configuration");
    await web.close();
  });

  it("refuses prompt with query or start_index", async () => {
    const { web } = testWeb(servers.pages);
    await expect(
      web.fetch(servers.pages.url("/guide"), { prompt: "a", query: "b" }),
    ).rejects.toThrow(RangeError);
    const box = toolBox(web);
    const r = await box
      .tool("web_fetch")
      .call({ url: servers.pages.url("/guide"), prompt: "a", start_index: 5 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("INVALID_INPUT");
    await web.close();
  });
});
