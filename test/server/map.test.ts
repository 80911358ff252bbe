/**
 * Mapping through the service: POST /v1/map answers web_map's result object (400 for bad input),
 * and a real MCP SDK client lists and calls web_map, getting the list as text and the object
 * as structuredContent. The site is the local test site, its port opened in the guard.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { WebFetchOptions } from "../../src/options.js";
import { SITE_DOCS, type SiteServer, startSiteServer } from "../helpers/site-server.js";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

let site: SiteServer;
const web: WebFetchOptions = {};
beforeAll(async () => {
  site = await startSiteServer();
  web.allowAddresses = [`127.0.0.1:${site.port}`];
  return () => site.close();
});
const s = serviceSuite({ web });
const mcp = mcpClientSuite(s);

describe("POST /v1/map", () => {
  it("answers the map's result object, ranked by search", async () => {
    const ranked = await s.post("/v1/map", { url: site.url("/"), search: "installation guide" });
    const { links } = (await ranked.json()) as { links: { url: string }[] };
    expect(links[0]?.url).toBe(site.url("/docs/install"));
    const res = await s.post("/v1/map", {
      url: site.url("/"),
      include_paths: ["^/docs/"],
      limit: 2,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      url: string;
      links: { url: string }[];
      truncated: boolean;
    };
    expect(body.url).toBe(site.url("/"));
    expect(body.links.map((l) => l.url)).toEqual(
      SITE_DOCS.slice(0, 2).map((n) => site.url(`/docs/${n}`)),
    );
    expect(body.truncated).toBe(true);
  });

  it("refuses bad input with 400 INVALID_INPUT", async () => {
    for (const body of [
      { url: site.url("/"), limit: 0 },
      { url: site.url("/"), sitemap: "maybe" },
      { url: site.url("/"), include_paths: ["("] },
    ]) {
      const res = await s.post("/v1/map", body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    }
  });
});

describe("web_map over MCP", () => {
  it("is listed with its parameters", async () => {
    const { tools } = await mcp.client.listTools();
    const map = tools.find((t) => t.name === "web_map");
    expect(map?.title).toBe("Map a site's URLs");
    expect(Object.keys(map?.inputSchema.properties ?? {})).toEqual([
      "url",
      "limit",
      "search",
      "sitemap",
      "include_subdomains",
      "include_paths",
      "exclude_paths",
    ]);
    expect(map?.outputSchema?.properties).toHaveProperty("links");
  });

  it("returns the list as text and the result as structuredContent", async () => {
    const result = (await mcp.client.callTool({
      name: "web_map",
      arguments: { url: site.url("/"), include_paths: ["^/docs/"], limit: 1 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    const lines = text.split("\n");
    expect(lines[0]).toBe(`## Site map: ${site.url("/")} (1 URL)`);
    expect(lines).toContain(`${site.url("/docs/install")} — Installation guide`);
    expect(lines.at(-1)).toMatch(/^\[More URLs were found than the limit of 1/);
    expect(result.structuredContent).toMatchObject({
      url: site.url("/"),
      links: [{ url: site.url("/docs/install"), title: "Installation guide" }],
      truncated: true,
    });
  });

  it("answers a blocked start URL as an error result", async () => {
    const result = (await mcp.client.callTool({
      name: "web_map",
      arguments: { url: "http://10.0.0.9/", sitemap: "skip" },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ "webfetch/error": { code: "BLOCKED_ADDRESS" } });
  });
});
