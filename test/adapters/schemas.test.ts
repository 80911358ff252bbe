/**
 * Golden tests of every adapter's emitted schemas: what each one hands a model API or framework,
 * written under test/fixtures/adapters/ for a reviewer to read. Regenerate with
 * UPDATE_FIXTURES=1 (`npm run fixtures:update`), then review the diff.
 */
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { generateText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, describe, expect, it } from "vitest";
import { createAiSdkTools } from "../../src/adapters/ai-sdk.js";
import { anthropicTool, createAnthropicTools } from "../../src/adapters/anthropic.js";
import { createLangChainTools } from "../../src/adapters/langchain.js";
import { createOpenAITools } from "../../src/adapters/openai.js";
import { silentLogger } from "../../src/log.js";
import { mcpToolSchema } from "../../src/tools/json-schema.js";
import { createTools } from "../../src/tools/registry.js";
import { adapterFixture, expectGoldenJson } from "../helpers/golden.js";
import { testWeb } from "../helpers/web.js";
import { textResponse } from "./model.js";

/**
 * No fixture server: building schemas sends nothing. A model is configured (never called), so
 * web_fetch_agent is among the tools.
 */
const { web, recorder } = testWeb(undefined, {
  llm: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "m", env: {} },
});
const options = { web, logger: silentLogger };
afterAll(async () => {
  await web.close();
  expect(recorder.attempts).toEqual([]);
});

const golden = (name: string, value: unknown) =>
  expectGoldenJson(adapterFixture(`${name}.json`), value);

describe("adapter schemas (golden)", () => {
  it("mcp", () => {
    golden("mcp", createTools(options).map(mcpToolSchema));
  });

  it("openai: Chat Completions and Responses, plain and strict", () => {
    const plain = createOpenAITools(options);
    const strict = createOpenAITools({ ...options, strict: true });
    golden("openai-chat", plain.chat);
    golden("openai-chat-strict", strict.chat);
    golden("openai-responses-strict", strict.responses);
    // The Responses form is the Chat Completions one without the `function` wrapper.
    expect(plain.responses).toEqual(plain.chat.map((t) => ({ type: t.type, ...t.function })));
  });

  it("anthropic", () => {
    golden("anthropic", createAnthropicTools(options).tools);
  });

  it("ai-sdk: the tools as the SDK hands them to the model", async () => {
    const model = new MockLanguageModelV3({ doGenerate: textResponse("ok") });
    await generateText({ model, tools: createAiSdkTools(options), prompt: "hi" });
    golden("ai-sdk", model.doGenerateCalls[0]?.tools);
  });

  it("langchain: the tools as LangChain binds them to a chat model", () => {
    golden(
      "langchain",
      createLangChainTools(options).map((t) => convertToOpenAITool(t)),
    );
  });
});

describe("adapter options", () => {
  it("every adapter follows prefix, names and disabled tools", async () => {
    const tools = {
      prefix: "wf_",
      tools: { web_extract: { enabled: false }, web_fetch: { name: "fetch_page" } },
    };
    const expected = [
      "wf_fetch_page",
      "wf_web_search",
      "wf_web_context",
      "wf_web_read",
      "wf_web_grep",
      "wf_web_map",
      "wf_web_crawl",
      "wf_web_fetch_agent",
      "wf_web_fetch_structured",
    ];
    const all = { ...options, ...tools };
    expect(Object.keys(createAiSdkTools(all))).toEqual(expected);
    expect(createLangChainTools(all).map((t) => t.name)).toEqual(expected);
    expect(createOpenAITools(all).chat.map((t) => t.function.name)).toEqual(expected);
    expect(createOpenAITools(all).responses.map((t) => t.name)).toEqual(expected);
    expect(createAnthropicTools(all).tools.map((t) => t.name)).toEqual(expected);
  });

  it("speaks the instance's language", () => {
    const ja = testWeb(undefined, { locale: "ja" });
    const [fetch] = createTools({ web: ja.web, logger: silentLogger });
    expect(anthropicTool(fetch!).description).toContain("Webページの内容を取得し");
    return ja.web.close();
  });

  it("strict mode: every property required, optional ones nullable, no extra properties", () => {
    const [fetch] = createOpenAITools({ ...options, strict: true }).chat;
    const { parameters, strict } = fetch!.function;
    expect(strict).toBe(true);
    const properties = parameters.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toHaveLength(11);
    expect(parameters.required).toEqual(Object.keys(properties));
    expect(parameters.additionalProperties).toBe(false);
    expect(properties.url).toEqual({ type: "string", description: expect.any(String) });
    expect(properties.extract_mode).toMatchObject({
      type: ["string", "null"],
      enum: ["markdown", "text", "html", "raw", null],
    });
    expect(properties.max_length).toMatchObject({
      type: ["integer", "null"],
      minimum: 1,
      maximum: 100000,
    });
    // web_fetch_structured takes its schema as JSON text: strict mode has no free-form object.
    const structured = createOpenAITools({ ...options, strict: true }).chat.find(
      (tool) => tool.function.name === "web_fetch_structured",
    );
    const params = structured!.function.parameters.properties as Record<string, unknown>;
    expect(params.schema).toEqual({ type: "string", description: expect.any(String) });
  });
});
