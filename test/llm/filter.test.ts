/**
 * The `llm` filter of `/md` (a model keeps what `q` asks for) as a library function: with a model,
 * the request holds it to the page's own Markdown; without one, it falls back to bm25 with `q`.
 */
import { describe, expect, it } from "vitest";
import { FILTER_SYSTEM, llmFilter } from "../../src/llm/filter.js";
import { filterPage } from "../../src/server/md.js";
import { body, modelSuite, modelWeb, openaiReply } from "../helpers/model-server.js";
import { testWeb } from "../helpers/web.js";

const servers = modelSuite();

describe("llm filter", () => {
  it("asks the model to keep what the instruction asks for", async () => {
    servers.model.reply((_req, res) =>
      openaiReply(res, "## upgrades\n\nThe upgrades steps are short."),
    );
    const { web, recorder } = modelWeb(servers.pages, {
      provider: "openai",
      baseUrl: `${servers.model.url}/v1`,
    });
    const filtered = await filterPage(web, servers.pages.url("/guide"), "only the upgrade section");
    expect(filtered).toMatchObject({
      url: servers.pages.url("/guide"),
      filter: "llm",
      markdown: "## upgrades\n\nThe upgrades steps are short.",
      usage: { inputTokens: 100, outputTokens: 20 },
    });
    const sent = body(servers.model.requests[0]);
    expect(sent.messages[0]).toEqual({ role: "system", content: FILTER_SYSTEM });
    expect(sent.messages[1].content).toMatch(
      /^<page>\nAn introduction to Guide[\s\S]*<\/page>\n\nInstruction: only the upgrade section$/,
    );
    await web.close();
    expect(recorder.refused).toEqual([]);
  });

  it("falls back to bm25 with q when no model is configured", async () => {
    const { web } = testWeb(servers.pages);
    const filtered = await filterPage(web, servers.pages.url("/guide"), "configuration");
    expect(filtered.filter).toBe("bm25");
    expect(filtered.markdown).toContain("## configuration");
    expect(filtered.markdown).not.toContain("## installation");
    expect(filtered.usage).toBeUndefined();
    await web.close();
    const plain = await llmFilter({ markdown: "# A\n\nalpha\n\n# B\n\nbeta", instruction: "beta" });
    expect(plain).toEqual({ markdown: "# B\n\nbeta", filter: "bm25" });
  });
});
