/**
 * The OpenAI helper runs recorded tool calls (a Chat Completions message, a Responses API
 * output item) against the fixture server; strict mode's `null` arguments count as absent.
 */
import { describe, expect, it } from "vitest";
import { createOpenAITools, type OpenAIToolCall } from "../../src/adapters/openai.js";
import { silentLogger } from "../../src/log.js";
import { adapterFixture, readRecorded } from "../helpers/golden.js";
import { fixtureSuite } from "../helpers/web.js";

const suite = fixtureSuite();

interface ChatCompletion {
  choices: { message: { tool_calls: { id: string; function: OpenAIToolCall }[] } }[];
}
interface Response {
  output: (OpenAIToolCall & { type: string; call_id: string })[];
}

const recorded = <T>(name: string) => readRecorded<T>(adapterFixture(name), suite.server.port);

describe("webfetch/openai", () => {
  it("runs a recorded strict-mode Chat Completions call, null arguments as absent", async () => {
    const openai = createOpenAITools({ web: suite.t.web, logger: silentLogger, strict: true });
    const [long] = recorded<ChatCompletion>("openai-chat-completion.json").choices[0]!.message
      .tool_calls;
    const result = await openai.call(long!.function);
    expect(result.isError).toBe(false);
    expect(result.structured).toMatchObject({ format: "text", truncated: true, startIndex: 0 });
    expect(result.text).toMatch(/call again with start_index=\d+, or use web_read \/ web_grep/);
    expect(await openai.run(long!.function)).toBe(result.text);
  });

  it("answers arguments that are not JSON with INVALID_INPUT", async () => {
    const openai = createOpenAITools({ web: suite.t.web, logger: silentLogger });
    const [, cut] = recorded<ChatCompletion>("openai-chat-completion.json").choices[0]!.message
      .tool_calls;
    const text = await openai.run(cut!.function);
    expect(text).toMatch(/^The arguments are not valid JSON: .*\nError type: INVALID_INPUT$/);
  });

  it("runs a recorded Responses API function_call", async () => {
    const openai = createOpenAITools({ web: suite.t.web, logger: silentLogger, strict: true });
    const [item] = recorded<Response>("openai-response.json").output;
    const result = await openai.call(item!);
    expect(result.isError).toBe(false);
    const url = `http://fixture.test:${suite.server.port}/article`;
    expect(result.text).toContain(`### URL: ${url}`);
    expect(result.text).toContain("## Failed URLs\n- ftp://fixture.test/file:");
    expect(result.structured).toMatchObject({
      results: [{ url, title: "Fixture Article" }],
      failed: [{ url: "ftp://fixture.test/file", code: "INVALID_URL" }],
    });
  });

  it("treats an empty argument string as no arguments, and an unknown tool as an error", async () => {
    const openai = createOpenAITools({ web: suite.t.web, logger: silentLogger });
    expect(await openai.run({ name: "web_fetch", arguments: "" })).toMatch(
      /^url: .*\nError type: INVALID_INPUT$/,
    );
    expect(await openai.run({ name: "web_searcher", arguments: "{}" })).toBe(
      "No tool is named web_searcher\nError type: INVALID_INPUT",
    );
  });
});
