/**
 * Local model providers for tests: the provider server (real HTTP on 127.0.0.1, every request
 * recorded) answering in the OpenAI chat-completions and the Anthropic messages protocols, text
 * or tool calls, as their API references document the responses. No test talks to a real model.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll } from "vitest";
import { silentLogger } from "../../src/log.js";
import type { LlmSettings, WebFetchOptions } from "../../src/options.js";
import { type FixtureServer, startFixtureServer } from "./fixture-server.js";
import {
  json,
  type ProviderHandler,
  type ProviderServer,
  type RecordedRequest,
  startProviderServer,
} from "./provider-server.js";
import { testWeb } from "./web.js";

/** A tool call the model makes: tool name and arguments. */
export interface Call {
  name: string;
  input: Record<string, unknown>;
}

/** An OpenAI chat completion: text, or tool calls. */
export function openaiReply(res: ServerResponse, answer: string | Call[], usage = [100, 20]): void {
  const message =
    typeof answer === "string"
      ? { role: "assistant", content: answer }
      : {
          role: "assistant",
          content: null,
          tool_calls: answer.map((c, i) => ({
            id: `call_${i + 1}`,
            type: "function",
            function: { name: c.name, arguments: JSON.stringify(c.input) },
          })),
        };
  json(res, 200, {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1_763_900_000,
    model: "test-model",
    choices: [
      { index: 0, message, finish_reason: typeof answer === "string" ? "stop" : "tool_calls" },
    ],
    usage: {
      prompt_tokens: usage[0],
      completion_tokens: usage[1],
      total_tokens: usage[0]! + usage[1]!,
    },
  });
}

/** An Anthropic message: text, or tool_use blocks. */
export function anthropicReply(
  res: ServerResponse,
  answer: string | Call[],
  usage = [100, 20],
): void {
  const content =
    typeof answer === "string"
      ? [{ type: "text", text: answer }]
      : answer.map((c, i) => ({
          type: "tool_use",
          id: `toolu_${i + 1}`,
          name: c.name,
          input: c.input,
        }));
  json(res, 200, {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "test-model",
    content,
    stop_reason: typeof answer === "string" ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: usage[0], output_tokens: usage[1] },
  });
}

/** An OpenAI-style error body with a status. */
export function openaiError(res: ServerResponse, status: number, message: string): void {
  json(res, status, { error: { message, type: "invalid_request_error", code: null } });
}

/**
 * The JSON body of a recorded request, untyped on purpose: tests assert the provider's wire
 * format field by field, as the API reference writes it.
 */
// biome-ignore lint/suspicious/noExplicitAny: a provider's request body, asserted field by field
export function body(request: RecordedRequest | undefined): Record<string, any> {
  if (!request) throw new Error("no request recorded");
  return JSON.parse(request.body);
}

/** A test instance wired to the fixture server, with a model at `modelUrl`. */
export function modelWeb(
  server: FixtureServer,
  llm: Partial<LlmSettings> & { provider: LlmSettings["provider"] },
  options: WebFetchOptions = {},
) {
  return testWeb(server, {
    logger: silentLogger,
    llm: { apiKey: "test-key", model: "test-model", env: {}, ...llm },
    ...options,
  });
}

/** The fixture server (pages) and a local model server, filled in before the file's tests. */
export interface ModelSuite {
  pages: FixtureServer;
  model: ProviderServer;
}

/** Starts both servers for the enclosing test file and closes them after it. */
export function modelSuite(handler?: ProviderHandler): ModelSuite {
  const suite = {} as ModelSuite;
  beforeAll(async () => {
    suite.pages = await startFixtureServer();
    suite.model = await startProviderServer(handler);
  });
  afterAll(async () => {
    await suite.model.close();
    await suite.pages.close();
  });
  return suite;
}
