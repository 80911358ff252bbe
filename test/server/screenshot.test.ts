/**
 * Screenshots on the service and the tool surfaces, in real Chromium: `/v1/fetch` answers the
 * result with its PNG, `/mcp` (the SDK's own client) an image block beside the text, the reader
 * route the PNG itself (`X-Return-Format: screenshot`), and the adapters the image where their
 * framework takes one, a line saying it was taken everywhere. One service, so one browser, for
 * the file; most calls repeat one page and size, so they are answered from the cache.
 */
import type { ToolExecutionOptions } from "ai";
import { describe, expect, it } from "vitest";
import { createAiSdkTools } from "../../src/adapters/ai-sdk.js";
import { createAnthropicTools } from "../../src/adapters/anthropic.js";
import { createOpenAITools } from "../../src/adapters/openai.js";
import { pngSize } from "../../src/render/screenshot.js";
import type { ToolResult } from "../../src/tools/types.js";
import { chromiumPath, hasService } from "../helpers/services.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const withChromium = hasService("chromium");

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The size every call of the file asks for, so the first render answers the rest. */
const SIZE = { width: 640, height: 400 };

// Starting Chromium and rendering take many times longer on a busy machine.
describe.runIf(withChromium)("screenshots on the service and tools", { timeout: 120_000 }, () => {
  const s = serviceSuite({ web: { browserPath: chromiumPath(), timeout: 60_000 } });
  const mcp = mcpClientSuite(s);

  it("/v1/fetch: the result carries the PNG, base64, with its size", async () => {
    const res = await s.post("/v1/fetch", { url: s.page("/styled"), screenshot: SIZE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      rendered: boolean;
      screenshot: { mimeType: string; data: string; width: number; height: number };
    };
    expect(body.rendered).toBe(true);
    expect(body.screenshot).toMatchObject({ mimeType: "image/png", ...SIZE });
    const png = Buffer.from(body.screenshot.data, "base64");
    expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(pngSize(png)).toEqual(SIZE);
  });

  it("/mcp: web_fetch answers the text, then the screenshot as an image block", async () => {
    const result = await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/styled"), screenshot: SIZE },
    });
    expect(result.isError).toBeFalsy();
    const content = result.content as { type: string; text?: string; data?: string }[];
    expect(content.map((block) => block.type)).toEqual(["text", "image"]);
    expect(content[0]!.text).toMatch(/^Screenshot: PNG, 640 × 400 px, [\d,]+ bytes$/m);
    expect(content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(pngSize(Buffer.from(content[1]!.data!, "base64"))).toEqual(SIZE);
    expect(result.structuredContent).toMatchObject({ screenshot: { ...SIZE } });
  });

  it("the reader route answers X-Return-Format: screenshot with the PNG itself", async () => {
    const res = await s.get(`/${s.page("/styled")}`, { "X-Return-Format": "screenshot" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    // The default viewport.
    expect(pngSize(png)).toEqual({ width: 1280, height: 800 });
  });

  it("the reader route: a page that is not HTML is 422 with the reason; X-Engine: direct conflicts", async () => {
    const json = await s.get(`/${s.page("/json")}`, { "X-Return-Format": "screenshot" });
    expect(json.status).toBe(422);
    expect(await json.json()).toEqual({
      error: {
        code: "UNSUPPORTED_CONTENT_TYPE",
        message: "No screenshot: only HTML pages are rendered, and this one is application/json",
      },
    });
    const direct = await s.get(`/${s.page("/styled")}`, {
      "X-Return-Format": "screenshot",
      "X-Engine": "direct",
    });
    expect(direct.status).toBe(400);
    expect(await direct.json()).toEqual({
      error: {
        code: "INVALID_INPUT",
        message:
          "X-Return-Format: screenshot renders the page in a browser: it cannot be combined with X-Engine: direct",
      },
    });
  });

  it("the adapters: an image block for Anthropic and the AI SDK, the text line for OpenAI", async () => {
    const web = s.t.web;
    const input = { url: s.page("/styled"), screenshot: SIZE };

    const anthropic = createAnthropicTools({ web });
    const block = await anthropic.run({
      type: "tool_use",
      id: "toolu_1",
      name: "web_fetch",
      input,
    });
    expect(Array.isArray(block.content)).toBe(true);
    const [text, image] = block.content as [
      { type: string; text: string },
      { type: string; source: { type: string; media_type: string; data: string } },
    ];
    expect(text.text).toContain("Screenshot: PNG, 640 × 400 px");
    expect(image).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png" },
    });

    const fetchTool = createAiSdkTools({ web }).web_fetch!;
    const options = { toolCallId: "call_1", messages: [] } as ToolExecutionOptions;
    const output = (await fetchTool.execute!(input, options)) as ToolResult;
    const modelOutput = await fetchTool.toModelOutput!({ toolCallId: "call_1", input, output });
    expect(modelOutput).toMatchObject({
      type: "content",
      value: [
        { type: "text", text: expect.stringContaining("Screenshot: PNG, 640 × 400 px") },
        { type: "image-data", mediaType: "image/png", data: image.source.data },
      ],
    });

    const openai = createOpenAITools({ web });
    const line = await openai.run({ name: "web_fetch", arguments: JSON.stringify(input) });
    expect(line).toContain("Screenshot: PNG, 640 × 400 px");
    expect(line).not.toContain(image.source.data.slice(0, 100));
  });
});
