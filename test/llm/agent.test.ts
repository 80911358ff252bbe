/**
 * web_fetch_agent, a sub-agent reading the page for the caller, against local servers speaking the
 * OpenAI chat-completions and Anthropic messages protocols, tool calls included: the exact requests
 * (model, messages, tools), the tool loop over the fixture servers.pages, provider errors, the step
 * limit, the token budget and the deadline. The calling agent gets the answer, never the page.
 */
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import type { LlmSettings } from "../../src/options.js";
import {
  anthropicReply,
  body,
  type Call,
  modelSuite,
  modelWeb,
  openaiError,
  openaiReply,
} from "../helpers/model-server.js";
import type { RecordedRequest } from "../helpers/provider-server.js";
import type { TestWeb } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const SYSTEM = readFileSync(
  new URL("../../src/llm/prompts/web-fetch-agent.md", import.meta.url),
  "utf8",
);

const servers = modelSuite();
const webs: TestWeb[] = [];

afterAll(async () => {
  for (const t of webs) {
    await t.web.close();
    expect(t.recorder.refused).toEqual([]);
  }
});

/** The web_fetch_agent tool of an instance whose model is the local server. */
function agentTool(llm: Partial<LlmSettings> & { provider: LlmSettings["provider"] }) {
  const t = modelWeb(servers.pages, { baseUrl: `${servers.model.url}/v1`, ...llm });
  webs.push(t);
  const box = toolBox(t.web);
  expect(box.names).toContain("web_fetch_agent");
  return box.tool("web_fetch_agent");
}

/** Replies in turn; a reply is text or tool calls, or a function of the request. */
function script(
  reply: (res: ServerResponse, answer: string | Call[]) => void,
  turns: (string | Call[] | ((req: RecordedRequest, res: ServerResponse) => void))[],
) {
  servers.model.reply((req, res, n) => {
    const turn = turns[Math.min(n, turns.length) - 1]!;
    if (typeof turn === "function") turn(req, res);
    else reply(res, turn);
  });
}

/** A model that calls a tool whenever it is offered one, and answers when it is not. */
function keepCallingTools(url: string, answer: string) {
  servers.model.reply((req, res) => {
    const sent = body(req);
    if (sent.tools && sent.tool_choice !== "none")
      openaiReply(res, [{ name: "web_grep", input: { url, pattern: "x" } }]);
    else openaiReply(res, answer);
  });
}

describe("web_fetch_agent over the OpenAI chat-completions protocol", () => {
  it("fetches the page with its tool and returns only the answer", async () => {
    const tool = agentTool({ provider: "openai" });
    const url = servers.pages.url("/article");
    script(openaiReply, [
      [{ name: "web_fetch", input: { url } }],
      `The author is "Ada Lovelace".\n\nSource: ${url}`,
    ]);
    const r = await tool.call({
      url,
      prompt: "Who is the author?",
      description: "find the author",
    });

    expect(r.isError).toBe(false);
    expect(r.text).toBe(`The author is "Ada Lovelace".\n\nSource: ${url}`);
    expect(r.text).not.toContain("Paragraph 1 of the article");
    expect(r.structured).toMatchObject({
      url,
      prompt: "Who is the author?",
      description: "find the author",
      model: "test-model",
      steps: 2,
      toolCalls: ["web_fetch"],
      usage: { inputTokens: 200, outputTokens: 40 },
    });
    expect(r.structured.limit).toBeUndefined();

    expect(servers.model.requests).toHaveLength(2);
    const first = body(servers.model.requests[0]);
    expect(servers.model.requests[0]!.path).toBe("/v1/chat/completions");
    expect(first.model).toBe("test-model");
    expect(first.messages).toEqual([
      { role: "system", content: SYSTEM },
      { role: "user", content: `URL to fetch: ${url}\n\nTask: Who is the author?` },
    ]);
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "web_fetch",
      "web_read",
      "web_grep",
    ]);
    const fetchTool = first.tools[0].function;
    expect(first.tools[0].type).toBe("function");
    expect(Object.keys(fetchTool.parameters.properties)).not.toContain("prompt");
    expect(fetchTool.parameters.required).toEqual(["url"]);

    const second = body(servers.model.requests[1]).messages;
    expect(second).toHaveLength(4);
    expect(second[2]).toMatchObject({
      role: "assistant",
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "web_fetch", arguments: JSON.stringify({ url }) },
        },
      ],
    });
    expect(second[3].role).toBe("tool");
    expect(second[3].tool_call_id).toBe("call_1");
    expect(second[3].content).toContain("Title: Fixture Article");
    expect(second[3].content).toContain("Paragraph 1 of the article");
  });

  it("reads a long page with web_grep and web_read, and a failing tool call is reported to the model", async () => {
    const tool = agentTool({ provider: "openai" });
    const url = servers.pages.url("/long");
    script(openaiReply, [
      [{ name: "web_fetch", input: { url, max_length: 2000 } }],
      [{ name: "web_grep", input: { url, pattern: "Paragraph 399 of" } }],
      [
        { name: "web_read", input: { url, start_index: 50_000, length: 500 } },
        { name: "web_grep", input: { id: "nope", pattern: "x" } },
      ],
      "Paragraph 399 exists.",
    ]);
    const r = await tool.call({ url, prompt: "Is there a paragraph 399?", description: "check" });
    expect(r.isError).toBe(false);
    expect(r.structured.toolCalls).toEqual(["web_fetch", "web_grep", "web_read", "web_grep"]);
    const fetched = body(servers.model.requests[1]).messages.at(-1).content as string;
    expect(fetched).toContain("[Content truncated");
    const grepped = body(servers.model.requests[2]).messages.at(-1).content as string;
    expect(grepped).toMatch(/1 matching line for "Paragraph 399 of"/);
    const last = body(servers.model.requests[3]).messages;
    const results = last.filter((m: { role: string }) => m.role === "tool");
    expect(results.at(-2).content).toContain("Long Page");
    expect(results.at(-1).content).toBe(
      'Unknown page id "nope": fetch the page again and use the id of that result\nError type: INVALID_INPUT',
    );
  });

  it("makes the step at the step limit answer without tools", async () => {
    const tool = agentTool({ provider: "openai", agentMaxSteps: 3 });
    const url = servers.pages.url("/article");
    keepCallingTools(url, "Best answer from what I read.");
    const r = await tool.call({ url, prompt: "Anything?", description: "loop" });
    expect(r.isError).toBe(false);
    expect(servers.model.requests).toHaveLength(3);
    const last = body(servers.model.requests[2]);
    expect(last.tool_choice === "none" || last.tools === undefined).toBe(true);
    expect(r.structured).toMatchObject({ steps: 3, limit: "steps" });
    expect(r.text).toContain("Best answer from what I read.");
  });

  it("makes the model answer once the token budget is spent", async () => {
    const tool = agentTool({ provider: "openai", agentMaxTokens: 150 });
    const url = servers.pages.url("/article");
    keepCallingTools(url, "Answer within budget.");
    const r = await tool.call({ url, prompt: "Anything?", description: "budget" });
    // 120 tokens after one step (< 150), 240 after two: the third must answer.
    expect(servers.model.requests).toHaveLength(3);
    expect(r.structured).toMatchObject({ steps: 3, limit: "tokens" });
  });

  it("puts URLs the model supplies through the guard, and returns a provider failure as a typed error", async () => {
    const tool = agentTool({ provider: "openai" });
    const url = servers.pages.url("/article");
    script(openaiReply, [
      [{ name: "web_fetch", input: { url: "http://10.0.0.5/secret" } }],
      (_req, res) => {
        res.setHeader("retry-after-ms", "1");
        openaiError(res, 503, "overloaded");
      },
    ]);
    const r = await tool.call({ url, prompt: "Who?", description: "error" });
    const blocked = body(servers.model.requests[1]).messages.at(-1);
    expect(blocked.role).toBe("tool");
    expect(blocked.content).toContain("Error type: BLOCKED_ADDRESS");
    expect(r.isError).toBe(true);
    expect(r.structured.error).toMatchObject({ code: "PROVIDER_ERROR" });
    expect(r.text).toContain("PROVIDER_ERROR");
  });
});

describe("web_fetch_agent over the Anthropic messages protocol", () => {
  it("runs the tool loop with tool_use and tool_result blocks", async () => {
    const tool = agentTool({ provider: "anthropic" });
    const url = servers.pages.url("/article");
    script(anthropicReply, [[{ name: "web_fetch", input: { url } }], "Written by Ada Lovelace."]);
    const r = await tool.call({ url, prompt: "Who wrote it?", description: "author" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(`Written by Ada Lovelace.\n\nSource: ${url}`);

    const first = body(servers.model.requests[0]);
    expect(servers.model.requests[0]!.path).toBe("/v1/messages");
    expect(first.model).toBe("test-model");
    expect(first.system).toEqual([{ type: "text", text: SYSTEM }]);
    expect(first.messages).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: `URL to fetch: ${url}\n\nTask: Who wrote it?` }],
      },
    ]);
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual([
      "web_fetch",
      "web_read",
      "web_grep",
    ]);
    expect(first.tools[0].input_schema.required).toEqual(["url"]);

    const second = body(servers.model.requests[1]).messages;
    expect(second[1]).toMatchObject({
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_1", name: "web_fetch", input: { url } }],
    });
    expect(second[2].role).toBe("user");
    expect(second[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(JSON.stringify(second[2].content[0].content)).toContain("Title: Fixture Article");
  });
});

// Last in the file: a model request in flight when the deadline passes can reach the model
// server after the call has returned (on a busy machine, the server reads it later), and it
// would be counted as the next test's first request.
describe("web_fetch_agent at its deadline", () => {
  it("stops at the deadline: TIMEOUT", async () => {
    const tool = agentTool({ provider: "openai", agentTimeout: 400 });
    const url = servers.pages.url("/article");
    script(openaiReply, [[{ name: "web_fetch", input: { url } }], () => {}]);
    const r = await tool.call({ url, prompt: "Who?", description: "slow" });
    expect(r.isError).toBe(true);
    expect(r.structured.error).toMatchObject({ code: "TIMEOUT" });
  });
});
