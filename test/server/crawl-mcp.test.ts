/**
 * web_crawl through a real MCP SDK client over the service's `/mcp`: listed with its
 * parameters, ten pages by default each with its id (web_read reaches it), the summary after
 * them, a progress notification per page, and, for a client with an output limit, the whole
 * result within the budget with the cut pages linked. The site is the local crawl site, its
 * port opened in the guard.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { WebFetchOptions } from "../../src/options.js";
import { tokenCounter } from "../../src/shape/tokens.js";
import { TOOL_DEFAULTS } from "../../src/tools/options.js";
import { type CrawlSite, startCrawlSite } from "../helpers/crawl-site.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

let site: CrawlSite;
const web: WebFetchOptions = {};
beforeAll(async () => {
  site = await startCrawlSite();
  web.allowAddresses = [`127.0.0.1:${site.port}`];
  return () => site.close();
});
const s = serviceSuite({ web });
const mcp = mcpClientSuite(s);

const BUDGET = 2_000;
const small = serviceSuite({ web, server: { maxResultTokens: BUDGET } });
const smallMcp = mcpClientSuite(small);

interface CrawlStructured {
  results: { url: string; id: string; depth: number }[];
  summary: { pages: number; cancelled: boolean };
}

describe("web_crawl over MCP", () => {
  it("is listed with its parameters", async () => {
    const { tools } = await mcp.client.listTools();
    const crawl = tools.find((t) => t.name === "web_crawl");
    expect(Object.keys(crawl?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["url", "limit", "max_depth", "query", "include_paths"]),
    );
    expect(crawl?.inputSchema.required).toEqual(["url"]);
  });

  it("returns ten pages by default, each with its id, then the summary, with progress per page", async () => {
    const seen: { progress: number; total?: number | undefined }[] = [];
    const result = (await mcp.client.callTool(
      { name: "web_crawl", arguments: { url: site.url("/s/a/") } },
      undefined,
      { onprogress: (p) => seen.push(p) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const { results, summary } = result.structuredContent as unknown as CrawlStructured;
    expect(results).toHaveLength(TOOL_DEFAULTS.crawlLimit);
    expect(summary.pages).toBe(TOOL_DEFAULTS.crawlLimit);
    const text = (result.content[0] as { text: string }).text;
    expect(text.startsWith(`## Crawl: ${site.url("/s/a/")}`)).toBe(true);
    expect(text).toContain(`### 1. ${site.url("/s/a/")} (depth 0, id ${results[0]!.id})`);
    expect(text.trimEnd()).toMatch(/## Crawl summary\n\n10 pages, 0 failed, in [\d.]+ s\./);
    // One notification per page, counting up to the limit.
    expect(seen.length).toBeGreaterThanOrEqual(TOOL_DEFAULTS.crawlLimit);
    expect(seen.at(-1)).toMatchObject({ progress: TOOL_DEFAULTS.crawlLimit, total: 10 });
    // Each page is reachable by its id.
    const read = (await mcp.client.callTool({
      name: "web_read",
      arguments: { id: results[3]!.id },
    })) as CallToolResult;
    expect(read.isError).toBeFalsy();
    expect((read.structuredContent as { url: string }).url).toBe(results[3]!.url);
  });

  it("refuses a limit over the tool's maximum", async () => {
    const result = (await mcp.client.callTool({
      name: "web_crawl",
      arguments: { url: site.url("/"), limit: 101 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
  });

  it("fits a client's output limit, naming by id the pages it leaves out", async () => {
    const result = (await smallMcp.client.callTool({
      name: "web_crawl",
      arguments: { url: site.url("/s/a/"), limit: 20, max_depth: 2 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const count = await tokenCounter();
    const blocks = result.content as { type: string; text?: string }[];
    const tokens =
      blocks.reduce((sum, b) => sum + count(b.text ?? JSON.stringify(b)), 0) +
      count(JSON.stringify(result.structuredContent ?? {}));
    expect(tokens).toBeLessThanOrEqual(BUDGET);
    // Pages shown are cut and linked; the rest are named by id, none lost.
    const { results, more, summary } = result.structuredContent as unknown as CrawlStructured & {
      more?: { id: string }[];
    };
    expect(results.length + (more?.length ?? 0)).toBe(summary.pages);
    expect(more?.length).toBeGreaterThan(0);
    expect(blocks[0]?.text).toContain("more pages, left out to fit the result's size");
  });
});
