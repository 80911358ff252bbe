/**
 * `/mcp` for clients with an output limit: with a small `maxResultTokens` every tool result
 * (text and structuredContent counted together) stays under it, a cut page is linked as a
 * `webfetch://page/` resource that `resources/read` continues within the same budget,
 * `resources/list` names the pages fetched, and a web_extract call that carries a progress
 * token gets one notification per URL, streamed before the result. The SDK's own client, so
 * every structuredContent is also checked against the tool's output schema.
 */
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { tokenCounter } from "../../src/shape/tokens.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const BUDGET = 2_000;

const s = serviceSuite({ server: { maxResultTokens: BUDGET } });
const mcp = mcpClientSuite(s);

type Block = { type: string; text?: string; uri?: string; name?: string; mimeType?: string };

/** Tokens of a result as the server counts them: every block but images, and the object. */
async function tokensOf(result: CallToolResult): Promise<number> {
  const count = await tokenCounter();
  const blocks = (result.content as Block[]).filter((block) => block.type !== "image");
  return (
    blocks.reduce((sum, block) => sum + count(block.text ?? JSON.stringify(block)), 0) +
    count(JSON.stringify(result.structuredContent ?? {}))
  );
}

const links = (result: CallToolResult) =>
  (result.content as Block[]).filter((block) => block.type === "resource_link");

describe("/mcp with a token budget per result", () => {
  it("cuts a long page to the budget, keeps the continuation line and links the rest", async () => {
    const result = (await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/long"), max_length: 100_000 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await tokensOf(result)).toBeLessThanOrEqual(BUDGET);
    const page = result.structuredContent as {
      id: string;
      truncated: boolean;
      nextStartIndex: number;
      totalLength: number;
      warnings: string[];
    };
    expect(page.truncated).toBe(true);
    expect(page.warnings).toContain(
      `Cut to fit the client's limit of ${BUDGET} tokens per result; the rest is linked as a resource`,
    );
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(`start_index=${page.nextStartIndex}`);
    expect(text).toContain(`id "${page.id}"`);
    expect(links(result)).toEqual([
      {
        type: "resource_link",
        uri: `webfetch://page/${page.id}?start=${page.nextStartIndex}`,
        name: page.id,
        title: "Long Page",
        mimeType: "text/markdown",
        description: `${s.page("/long")}: the page's content from character ${page.nextStartIndex} of ${page.totalLength}`,
      },
    ]);

    // The link reads on from where the result stopped, within the same budget.
    const read = await mcp.client.readResource({ uri: links(result)[0]!.uri! });
    const [window] = read.contents as { uri: string; mimeType: string; text: string }[];
    expect(window?.mimeType).toBe("text/markdown");
    expect((await tokenCounter())(window!.text)).toBeLessThanOrEqual(BUDGET);
    const first = /Paragraph (\d+) of/.exec(window!.text)?.[1];
    const last = [...text.matchAll(/Paragraph (\d+) of/g)].at(-1)?.[1];
    expect(Number(first)).toBe(Number(last) + 1);
    const onward = /read (webfetch:\/\/page\/p_[0-9a-f]{12}\?start=(\d+))\.\]$/.exec(window!.text);
    expect(Number(onward?.[2])).toBeGreaterThan(page.nextStartIndex);

    // The whole page from its start, by the id alone.
    const whole = await mcp.client.readResource({ uri: `webfetch://page/${page.id}` });
    expect((whole.contents[0] as { text: string }).text).toMatch(
      /^(# Long Page\n\n)?Paragraph 1 of/,
    );
  });

  it("lists the pages fetched as resources, and calls an unknown id an error", async () => {
    const fetched = (await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/article") },
    })) as CallToolResult;
    const { id } = fetched.structuredContent as { id: string };
    const { resources } = await mcp.client.listResources();
    expect(resources[0]).toEqual({
      uri: `webfetch://page/${id}`,
      name: id,
      title: "Fixture Article",
      mimeType: "text/markdown",
      description: s.page("/article"),
    });
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["webfetch://page/{id}"]);

    for (const uri of [
      "webfetch://page/p_000000000000",
      "webfetch://page/https%3A%2F%2Fexample.com",
    ]) {
      const error = await mcp.client.readResource({ uri }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((error as McpError).message).toContain("Unknown page id");
    }
  });

  it("web_extract shares the budget among its pages and links the rest of each one cut", async () => {
    const urls = [s.page("/big?kb=30&n=1"), s.page("/big?kb=30&n=2"), s.page("/article")];
    const result = (await mcp.client.callTool({
      name: "web_extract",
      arguments: { urls },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await tokensOf(result)).toBeLessThanOrEqual(BUDGET);
    const { results } = result.structuredContent as {
      results: { id: string; content: string; nextStartIndex?: number; warnings?: string[] }[];
    };
    expect(results).toHaveLength(3);
    // The longest pages are cut first, down to a common level; each page cut is linked where it
    // goes on, and says it was cut.
    const cut = results.filter((r) => r.warnings?.some((w) => w.startsWith("Cut to fit")));
    expect(cut.map((r) => r.id)).toEqual(expect.arrayContaining([results[0]!.id, results[1]!.id]));
    expect(links(result).map((link) => link.uri)).toEqual(
      cut.map((r) => `webfetch://page/${r.id}?start=${r.nextStartIndex}`),
    );
    const lengths = results.map((r) => r.content.length);
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThan(lengths[0]! / 2);
  });

  it("web_grep (no page to cut) has its lists and text shortened under the budget", async () => {
    const fetched = (await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/long") },
    })) as CallToolResult;
    const { id } = fetched.structuredContent as { id: string };
    const result = (await mcp.client.callTool({
      name: "web_grep",
      arguments: { id, pattern: "Paragraph", context_lines: 3 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(await tokensOf(result)).toBeLessThanOrEqual(BUDGET);
    expect((result.content[0] as { text: string }).text).toMatch(
      new RegExp(`\\[Cut to fit the client's limit of ${BUDGET} tokens per result\\.\\]$`),
    );
    expect(links(result)).toEqual([]);
  });

  it("streams one progress notification per URL of web_extract before the result", async () => {
    const urls = [s.page("/article"), "http://10.0.0.5/", s.page("/long")];
    const seen: { progress: number; total?: number | undefined; message?: string | undefined }[] =
      [];
    const result = (await mcp.client.callTool(
      { name: "web_extract", arguments: { urls } },
      undefined,
      { onprogress: (p) => seen.push(p) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(seen.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(seen.map((p) => p.message).sort()).toEqual(
      [
        `${s.page("/article")}: ok`,
        "http://10.0.0.5/: BLOCKED_ADDRESS",
        `${s.page("/long")}: ok`,
      ].sort(),
    );
  });

  it("keeps a short result as it was: no warning, no link", async () => {
    const result = (await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/article") },
    })) as CallToolResult;
    expect(links(result)).toEqual([]);
    expect(result.structuredContent).not.toHaveProperty("warnings");
  });
});
