/**
 * `POST /md` with `f: "llm"` and a configured model: the model (a local OpenAI-compatible
 * server) keeps what `q` asks for, and the response still echoes Crawl4AI's fields.
 */
import { fetch } from "undici";
import { describe, expect, it } from "vitest";
import { createServer } from "../../src/server/serve.js";
import { modelSuite, modelWeb, openaiReply } from "../helpers/model-server.js";

const servers = modelSuite();

describe("POST /md with a model", () => {
  it("runs the llm filter and says so in X-Webfetch-Filter", async () => {
    servers.model.reply((_req, res) => openaiReply(res, "## upgrades\n\nKept by the model."));
    const { web, recorder } = modelWeb(servers.pages, {
      provider: "openai",
      baseUrl: `${servers.model.url}/v1`,
    });
    const server = createServer({ web, host: "127.0.0.1", port: 0 });
    const { url } = await server.listen();
    try {
      const res = await fetch(`${url}/md`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: servers.pages.url("/guide"), f: "llm", q: "the upgrades" }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-webfetch-filter")).toBe("llm");
      expect(await res.json()).toEqual({
        url: servers.pages.url("/guide"),
        filter: "llm",
        query: "the upgrades",
        cache: "0",
        markdown: "## upgrades\n\nKept by the model.",
        success: true,
      });
      expect(servers.model.requests).toHaveLength(1);
    } finally {
      await server.close();
      await web.close();
    }
    expect(recorder.refused).toEqual([]);
  });
});
