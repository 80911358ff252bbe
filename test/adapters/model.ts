/**
 * Answers for the AI SDK's test model (`MockLanguageModelV3` from `ai/test`), which stands in
 * for a model provider: a tool call, or plain text. No provider is ever contacted.
 */
import type { MockLanguageModelV3 } from "ai/test";

/** What the model returns for one step (the type lives in @ai-sdk/provider, not a dependency). */
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** The model calls one tool with these arguments. */
export function toolCallResponse(
  toolName: string,
  input: unknown,
  toolCallId = "call-1",
): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

/** The model answers in text and stops. */
export function textResponse(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
}
