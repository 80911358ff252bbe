/**
 * The Anthropic helper runs the `tool_use` blocks of a recorded assistant message against the
 * fixture server and answers each with its `tool_result` block.
 */
import { describe, expect, it } from "vitest";
import { type AnthropicToolUseBlock, createAnthropicTools } from "../../src/adapters/anthropic.js";
import { silentLogger } from "../../src/log.js";
import { adapterFixture, readRecorded } from "../helpers/golden.js";
import { fixtureSuite } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const suite = fixtureSuite();

interface RecordedMessage {
  content: ({ type: "text"; text: string } | AnthropicToolUseBlock)[];
}

const toolUses = () =>
  readRecorded<RecordedMessage>(
    adapterFixture("anthropic-message.json"),
    suite.server.port,
  ).content.filter((block): block is AnthropicToolUseBlock => block.type === "tool_use");

describe("webfetch/anthropic", () => {
  it("runs recorded tool_use blocks and returns their tool_result blocks", async () => {
    const anthropic = createAnthropicTools({ web: suite.t.web, logger: silentLogger });
    const [article, blocked] = toolUses();
    const ok = await anthropic.run(article!);
    expect(ok).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_01A09q90qw90lq917835lq9",
      is_error: false,
    });
    const url = `http://fixture.test:${suite.server.port}/article`;
    // Text alone: only a screenshot makes the content a list of blocks.
    const text = typeof ok.content === "string" ? ok.content : "";
    expect(text.startsWith(`Title: Fixture Article\nURL: ${url}\n\nParagraph 1 of`)).toBe(true);
    // The same text the tool itself gives: the adapter only translates.
    const direct = await toolBox(suite.t.web).tool("web_fetch").call(article!.input);
    expect(ok.content).toBe(direct.text);

    expect(await anthropic.run(blocked!)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01BkQe8sWmT2fYz6nJp4vXr7",
      content: expect.stringMatching(/\nError type: BLOCKED_ADDRESS$/),
      is_error: true,
    });
  });

  it("answers a tool it does not offer with an error result, in the tool's language", async () => {
    const anthropic = createAnthropicTools({
      web: suite.t.web,
      logger: silentLogger,
      tools: { web_fetch: { enabled: false } },
    });
    const [article] = toolUses();
    expect(await anthropic.run(article!)).toEqual({
      type: "tool_result",
      tool_use_id: article!.id,
      content: "No tool is named web_fetch\nError type: INVALID_INPUT",
      is_error: true,
    });
  });

  it("answers bad input as INVALID_INPUT naming the parameter", async () => {
    const anthropic = createAnthropicTools({
      web: suite.t.web,
      logger: silentLogger,
      prefix: "wf_",
    });
    const r = await anthropic.run({
      type: "tool_use",
      id: "toolu_x",
      name: "wf_web_fetch",
      input: { url: suite.server.url("/article"), max_length: 0 },
    });
    expect(r.is_error).toBe(true);
    expect(r.content).toMatch(/^max_length: .*\nError type: INVALID_INPUT$/);
  });
});
