/**
 * `schema`: the model fills a JSON Schema (or a zod schema) from the page, against a local
 * OpenAI chat-completions server scripted reply by reply: a reply that matches, a repair that
 * carries the validator's message, two bad replies (MODEL_OUTPUT_INVALID), a reply that is not
 * JSON, fenced JSON, a zod schema, no model, a cut page, bounds on the schema and the cache.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { LIMITS } from "../../src/limits.js";
import { STRUCTURED_SYSTEM } from "../../src/llm/structured.js";
import { body, modelSuite, modelWeb, openaiReply } from "../helpers/model-server.js";
import { json } from "../helpers/provider-server.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";

const servers = modelSuite();
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

/** The model answers the n-th request with the n-th reply (the last one after that). */
function replies(...texts: string[]) {
  servers.model.reply((_req, res, n) => openaiReply(res, texts[Math.min(n, texts.length) - 1]!));
}

/** The user messages of the n-th request (1-based). */
function messages(n: number): { role: string; content: string }[] {
  return body(servers.model.requests[n - 1]).messages;
}

const TOPICS = {
  type: "object",
  properties: {
    title: { type: "string" },
    topics: { type: "array", items: { type: "string" } },
  },
  required: ["title", "topics"],
  additionalProperties: false,
};

describe("schema with a JSON Schema", () => {
  it("sends the page and the schema, and returns the data beside the page's content", async () => {
    replies('{"title":"Guide","topics":["installation","configuration","upgrades"]}');
    const url = servers.pages.url("/guide?title=Guide&v=match");
    const result = await shared.web.fetch(url, { schema: TOPICS, maxLength: 50 });

    expect(servers.model.requests).toHaveLength(1);
    const sent = messages(1);
    expect(sent[0]).toEqual({ role: "system", content: STRUCTURED_SYSTEM });
    expect(sent[1]!.content).toMatch(/^URL: http:\/\/fixture\.test:\d+\/guide.*\nTitle: Guide\n/);
    expect(sent[1]!.content).toContain(`JSON Schema:\n${JSON.stringify(TOPICS)}`);
    expect(sent[1]!.content).toContain("## upgrades");
    expect(result.data).toEqual({
      title: "Guide",
      topics: ["installation", "configuration", "upgrades"],
    });
    expect(result).toMatchObject({
      model: "test-model",
      usage: { inputTokens: 100, outputTokens: 20 },
      inputTruncated: false,
      truncated: true,
      startIndex: 0,
    });
    // The content is the page's, paged as usual, not the model's reply.
    expect(result.content.startsWith("An introduction to Guide")).toBe(true);
    expect(result.prompt).toBeUndefined();
    expect(result.warnings).toBeUndefined();
  });

  it("passes the prompt as an instruction, and pages the content with startIndex", async () => {
    replies('{"title":"Guide","topics":["upgrades"]}');
    const url = servers.pages.url("/guide?v=prompt");
    const result = await shared.web.fetch(url, {
      schema: TOPICS,
      prompt: "Only the topics about upgrading",
      startIndex: 5,
      maxLength: 40,
    });
    expect(messages(1)[1]!.content).toContain("Task: Only the topics about upgrading");
    expect(result.data).toEqual({ title: "Guide", topics: ["upgrades"] });
    expect(result.startIndex).toBe(5);
  });

  it("repairs a reply that does not match: the second request carries the validator's message", async () => {
    replies('{"title":"Guide","topics":"upgrades"}', '{"title":"Guide","topics":["upgrades"]}');
    const result = await shared.web.fetch(servers.pages.url("/guide?v=repair"), {
      schema: TOPICS,
    });
    expect(servers.model.requests).toHaveLength(2);
    const second = messages(2);
    expect(second).toHaveLength(4);
    expect(second[2]).toEqual({
      role: "assistant",
      content: '{"title":"Guide","topics":"upgrades"}',
    });
    expect(second[3]!.role).toBe("user");
    expect(second[3]!.content).toContain("data/topics must be array");
    expect(result.data).toEqual({ title: "Guide", topics: ["upgrades"] });
    // Both calls are counted.
    expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 40 });
  });

  it("fails with MODEL_OUTPUT_INVALID and the validator's message after a failed repair", async () => {
    replies('{"title":1,"topics":[]}', '{"title":2,"topics":[]}');
    const error = await failure(
      shared.web.fetch(servers.pages.url("/guide?v=bad"), { schema: TOPICS }),
    );
    expect(servers.model.requests).toHaveLength(2);
    expect(error.code).toBe("MODEL_OUTPUT_INVALID");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("data/title must be string");
  });

  it("counts a reply that is not JSON as a failed check, and reads JSON inside a code fence", async () => {
    replies("The title is Guide.", '```json\n{"title":"Guide","topics":[]}\n```');
    const result = await shared.web.fetch(servers.pages.url("/guide?v=prose"), {
      schema: TOPICS,
    });
    expect(messages(2)[3]!.content).toContain("the reply is not JSON");
    expect(result.data).toEqual({ title: "Guide", topics: [] });

    replies("no JSON here", "still none");
    const error = await failure(
      shared.web.fetch(servers.pages.url("/guide?v=prose2"), { schema: TOPICS }),
    );
    expect(error.code).toBe("MODEL_OUTPUT_INVALID");
    expect(error.message).toContain("not JSON");
  });

  it("keeps the data for the same copy of the page: a second call spends no tokens", async () => {
    replies('{"title":"Guide","topics":["x"]}');
    const url = servers.pages.url("/guide?v=cache");
    const first = await shared.web.fetch(url, { schema: TOPICS });
    const again = await shared.web.fetch(url, { schema: TOPICS, maxLength: 30 });
    expect(servers.model.requests).toHaveLength(1);
    expect(again.data).toEqual(first.data);
    expect(again.cached).toBe(true);
    // Another schema, or another prompt, is another question.
    await shared.web.fetch(url, { schema: { ...TOPICS, description: "other" } });
    await shared.web.fetch(url, { schema: TOPICS, prompt: "other" });
    expect(servers.model.requests).toHaveLength(3);
  });

  it("cuts a page over the input budget, and says so with inputTruncated and a warning", async () => {
    replies('{"title":"Guide","topics":["kubernetes"]}');
    const topics = Array.from({ length: 30 }, (_, i) => `topic${i}`).concat("kubernetes");
    const { web } = modelWeb(servers.pages, { ...openai(), maxInputTokens: 150 });
    const result = await web.fetch(servers.pages.url(`/guide?topics=${topics.join(",")}`), {
      schema: TOPICS,
      prompt: "kubernetes",
    });
    const user = messages(1)[1]!.content;
    expect(user).toContain("(The page was shortened to its parts most relevant to the task.)");
    expect(user).toContain("## kubernetes");
    expect(result.inputTruncated).toBe(true);
    expect(result.warnings?.[0]).toContain("llm.max_input_tokens");
    await web.close();
  });
});

describe("schema with a page from Tavily", () => {
  it("fills the schema here from the page Tavily extracted", async () => {
    // One local server speaks both: Tavily's /extract and the model's chat completions.
    servers.model.reply((req, res) => {
      if (req.path === "/extract") {
        const url = (JSON.parse(req.body) as { urls: string[] }).urls[0];
        json(res, 200, { results: [{ url, raw_content: "# Tavily page\n\nPrice: 12" }] });
      } else {
        openaiReply(res, '{"title":"Tavily page","topics":[]}');
      }
    });
    const { web, recorder } = modelWeb(servers.pages, openai(), {
      search: { env: {}, tavilyApiKey: "tvly-test", tavilyBaseUrl: servers.model.url },
    });
    const result = await web.fetch("https://docs.example/a", { via: "tavily", schema: TOPICS });
    expect(result.data).toEqual({ title: "Tavily page", topics: [] });
    expect(result.content).toBe("# Tavily page\n\nPrice: 12");
    expect(servers.model.requests.map((r) => r.path)).toEqual(["/extract", "/v1/chat/completions"]);
    expect(body(servers.model.requests[1]).messages[1].content).toContain("Price: 12");
    expect(recorder.attempts.every((a) => a.hostname === "127.0.0.1")).toBe(true);
    await web.close();
  });
});

describe("schema with a zod schema", () => {
  it("sends its JSON Schema, validates with zod and returns zod's output", async () => {
    const schema = z.object({
      title: z.string(),
      count: z.number().transform((n) => n * 2),
    });
    replies('{"title":"Guide","count":"3"}', '{"title":"Guide","count":3}');
    const result = await shared.web.fetch(servers.pages.url("/guide?v=zod"), { schema });
    expect(messages(1)[1]!.content).toContain('"count":{"type":"number"}');
    expect(messages(2)[3]!.content).toContain("expected number");
    expect(result.data).toEqual({ title: "Guide", count: 6 });
  });
});

describe("schema's bounds and preconditions", () => {
  it("without a model: INVALID_INPUT naming the settings to give, before any fetch", async () => {
    const { web, recorder } = testWeb(servers.pages);
    const error = await failure(web.fetch(servers.pages.url("/guide"), { schema: TOPICS }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("llm.provider");
    expect(error.message).toContain("llm.model");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(recorder.attempts).toEqual([]);
    await web.close();
  });

  it("refuses a schema too large, not an object, or not valid JSON Schema: INVALID_INPUT", async () => {
    servers.model.reply((_req, res) => openaiReply(res, "{}"));
    const url = servers.pages.url("/guide");
    const big = { type: "object", description: "x".repeat(LIMITS.schemaMaxLength) };
    const large = await failure(shared.web.fetch(url, { schema: big }));
    expect(large.code).toBe("INVALID_INPUT");
    expect(large.message).toContain(`at most ${LIMITS.schemaMaxLength}`);
    const notObject = await failure(
      shared.web.fetch(url, { schema: "{}" as unknown as Record<string, unknown> }),
    );
    expect(notObject.code).toBe("INVALID_INPUT");
    const bad = await failure(shared.web.fetch(url, { schema: { type: "nonsense" } }));
    expect(bad.code).toBe("INVALID_INPUT");
    expect(bad.message).toContain("not a valid JSON Schema");
    expect(servers.model.requests).toEqual([]);
  });
});
