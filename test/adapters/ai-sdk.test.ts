/**
 * An AI SDK `generateText` loop driven by the SDK's test model (it stands in for a provider):
 * the model calls `web_fetch` on the fixture server, the SDK runs our tool, and the next model
 * call receives our text.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createAiSdkTools } from "../../src/adapters/ai-sdk.js";
import { silentLogger } from "../../src/log.js";
import type { ToolResult } from "../../src/tools/types.js";
import { fixtureSuite } from "../helpers/web.js";
import { textResponse, toolCallResponse } from "./model.js";

const suite = fixtureSuite();

/** The tool message the model was sent in its second call. */
function toolMessage(model: MockLanguageModelV3) {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  return prompt.find((message) => message.role === "tool");
}

describe("webfetch/ai-sdk", () => {
  it("runs web_fetch inside generateText and hands the model our text", async () => {
    const url = suite.server.url("/article");
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallResponse("web_fetch", { url }), textResponse("It is about fixtures.")],
    });
    const result = await generateText({
      model,
      tools: createAiSdkTools({ web: suite.t.web, logger: silentLogger }),
      stopWhen: stepCountIs(3),
      prompt: `What does ${url} say?`,
    });

    expect(result.text).toBe("It is about fixtures.");
    const [call] = result.steps[0]!.toolResults;
    const output = call!.output as ToolResult;
    expect(output.isError).toBe(false);
    expect(output.structured).toMatchObject({ url, title: "Fixture Article" });
    expect(output.text.startsWith(`Title: Fixture Article\nURL: ${url}\n\nParagraph 1 of`)).toBe(
      true,
    );
    expect(toolMessage(model)?.content).toEqual([
      expect.objectContaining({
        type: "tool-result",
        toolName: "web_fetch",
        output: { type: "text", value: output.text },
      }),
    ]);
  });

  it("hands a failure to the model as error text with its code, without throwing", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResponse("wf_web_fetch", { url: "http://10.0.0.5/" }),
        textResponse("That address is blocked."),
      ],
    });
    const result = await generateText({
      model,
      tools: createAiSdkTools({ web: suite.t.web, logger: silentLogger, prefix: "wf_" }),
      stopWhen: stepCountIs(3),
      prompt: "Read the router page.",
    });
    expect(result.text).toBe("That address is blocked.");
    expect(toolMessage(model)?.content).toEqual([
      expect.objectContaining({
        type: "tool-result",
        output: {
          type: "error-text",
          value: expect.stringMatching(/Error type: BLOCKED_ADDRESS$/),
        },
      }),
    ]);
  });

  it("lets the tool check the input: a bad argument is INVALID_INPUT naming it", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallResponse("web_grep", { id: "p_000000000000" }),
        textResponse("I need a pattern."),
      ],
    });
    await generateText({
      model,
      tools: createAiSdkTools({ web: suite.t.web, logger: silentLogger }),
      stopWhen: stepCountIs(3),
      prompt: "Search the page.",
    });
    expect(toolMessage(model)?.content).toEqual([
      expect.objectContaining({
        output: { type: "error-text", value: expect.stringMatching(/^pattern: .*INVALID_INPUT$/s) },
      }),
    ]);
  });
});
