/** LangChain tools invoked directly, with plain arguments and with a model's tool call. */
import { ToolMessage } from "@langchain/core/messages";
import { ToolInputParsingException } from "@langchain/core/tools";
import { beforeAll, describe, expect, it } from "vitest";
import { createLangChainTools } from "../../src/adapters/langchain.js";
import { silentLogger } from "../../src/log.js";
import { fixtureSuite } from "../helpers/web.js";

// LangSmith tracing would send runs to its service: off, whatever the environment says.
beforeAll(() => {
  for (const name of [
    "LANGSMITH_TRACING",
    "LANGSMITH_TRACING_V2",
    "LANGCHAIN_TRACING",
    "LANGCHAIN_TRACING_V2",
  ]) {
    delete process.env[name];
  }
});

const suite = fixtureSuite();

const tools = () => createLangChainTools({ web: suite.t.web, logger: silentLogger });

describe("webfetch/langchain", () => {
  it("invoked with arguments, returns the tool's text", async () => {
    const [fetch] = tools();
    const url = suite.server.url("/article");
    const text = await fetch!.invoke({ url, extract_mode: "text" });
    expect(typeof text).toBe("string");
    expect(String(text).startsWith(`Title: Fixture Article\nURL: ${url}\n\nParagraph 1 of`)).toBe(
      true,
    );
  });

  it("invoked with a tool call, returns a ToolMessage with the result object as artifact", async () => {
    const [fetch] = tools();
    const url = suite.server.url("/article");
    const message = await fetch!.invoke({
      type: "tool_call",
      id: "call_1",
      name: "web_fetch",
      args: { url },
    });
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({ status: "success", tool_call_id: "call_1" });
    expect(String(message.content)).toContain("Title: Fixture Article");
    expect(message.artifact).toMatchObject({ url, finalUrl: url, title: "Fixture Article" });
  });

  it("returns a failure as a ToolMessage with status error, its code in the text, the error as artifact", async () => {
    const [fetch] = tools();
    const message = await fetch!.invoke({
      type: "tool_call",
      id: "call_2",
      name: "web_fetch",
      args: { url: "http://10.0.0.5/" },
    });
    expect(message).toBeInstanceOf(ToolMessage);
    expect(message).toMatchObject({ status: "error", tool_call_id: "call_2", name: "web_fetch" });
    expect(String(message.content)).toMatch(/\nError type: BLOCKED_ADDRESS$/);
    expect(message.artifact).toEqual({
      error: { code: "BLOCKED_ADDRESS", message: expect.any(String) },
      execution_time_ms: expect.any(Number),
    });
  });

  it("leaves input that breaks the schema to LangChain's own check, as agents expect", async () => {
    // LangChain validates against the JSON Schema first and throws; agents turn that into an
    // error ToolMessage for the model. Bounds beyond the schema are the tool's, as results.
    const [fetch] = tools();
    await expect(fetch!.invoke({ max_length: 10 })).rejects.toBeInstanceOf(
      ToolInputParsingException,
    );
  });
});
