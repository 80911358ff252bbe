/**
 * Links and images through the HTTP service and MCP: `links`/`images` on `POST /v1/fetch` and
 * web_fetch over the SDK's own client, and Jina's `X-With-Links-Summary` /
 * `X-With-Images-Summary` on the reader route.
 */
import { describe, expect, it } from "vitest";
import { mcpClientSuite, serviceSuite } from "./helpers.js";

const s = serviceSuite();
const mcp = mcpClientSuite(s);

describe("links and images over the service", () => {
  it("POST /v1/fetch lists them when asked, and only then", async () => {
    const res = await s.post("/v1/fetch", { url: s.page("/gallery"), links: true, images: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { links: unknown[]; images: unknown[] };
    expect(body.links).toContainEqual({
      url: s.page("/related"),
      text: "the related page",
      internal: true,
      inMain: true,
    });
    expect(body.images).toEqual([
      { url: s.page("/logo.png"), alt: "Site logo" },
      { url: s.page("/photos/one.jpg"), alt: "A [red] boat" },
    ]);
    const plain = (await (await s.post("/v1/fetch", { url: s.page("/gallery") })).json()) as object;
    expect(plain).not.toHaveProperty("links");
    expect(plain).not.toHaveProperty("images");
  });

  it("web_fetch over MCP takes links and images: in the text and the structured result", async () => {
    const result = await mcp.client.callTool({
      name: "web_fetch",
      arguments: { url: s.page("/gallery"), links: true, images: true },
    });
    expect(result.isError).toBeFalsy();
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(text).toContain(`- [the related page](${s.page("/related")}) (main)`);
    expect(text).toContain(`## Images\n- ![Site logo](${s.page("/logo.png")})`);
    expect(result.structuredContent).toMatchObject({
      images: [{ alt: "Site logo" }, { alt: "A [red] boat" }],
    });
  });

  it("the reader route lists them after the content under Jina's headings", async () => {
    const url = `/${s.page("/gallery")}`;
    const res = await s.get(url, {
      "x-with-links-summary": "true",
      "x-with-images-summary": "true",
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`\n\nLinks/Buttons:\n- [Home](${s.page("/")})\n`);
    expect(text).toContain(
      `\n\nImages:\n- ![Image 1: Site logo](${s.page("/logo.png")})\n- ![Image 2: A red boat](${s.page("/photos/one.jpg")})`,
    );
    const plain = await (await s.get(url)).text();
    expect(plain).not.toContain("Links/Buttons:");
    const json = await s.get(url, { accept: "application/json", "x-with-links-summary": "1" });
    const envelope = (await json.json()) as { data: { links: unknown[]; images?: unknown } };
    expect(envelope.data.links.length).toBeGreaterThan(3);
    expect(envelope.data).not.toHaveProperty("images");
  });
});
