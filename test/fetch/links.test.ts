/**
 * `links` and `images` through the library, web_fetch and the CLI, against the fixture server's
 * article page (nav links outside the main content, one related link inside it).
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { fixtureSuite } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const suite = fixtureSuite();

describe("links and images", () => {
  it("come with the result when asked, and are cached apart", async () => {
    const { web } = suite.t;
    const url = suite.server.url("/article");
    const listed = await web.fetch(url, { links: true, images: true });
    expect(listed.links).toContainEqual({
      url: suite.server.url("/related"),
      text: "the related page",
      internal: true,
      inMain: true,
    });
    expect(listed.links).toContainEqual({
      url: suite.server.url("/about"),
      text: "About",
      internal: true,
      inMain: false,
    });
    expect(listed.images).toEqual([]);
    const plain = await web.fetch(url);
    expect(plain).not.toHaveProperty("links");
    expect(plain.content).toBe(listed.content);
    const json = await web.fetch(suite.server.url("/json"), { links: true });
    expect(json.links).toEqual([]);
    await expect(web.fetch(url, { links: "yes" as never })).rejects.toThrow(RangeError);
  });

  it("follow the content of web_fetch under their own heading", async () => {
    const box = toolBox(suite.t.web);
    const r = await box.tool("web_fetch").call({ url: suite.server.url("/article"), links: true });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`\n\n## Links\n- [Home](${suite.server.url("/")})\n`);
    expect(r.text).toContain(`- [the related page](${suite.server.url("/related")}) (main)`);
  });

  it("follow each page's section of web_extract", async () => {
    const box = toolBox(suite.t.web);
    const r = await box.tool("web_extract").call({
      urls: [suite.server.url("/article"), suite.server.url("/json")],
      links: true,
    });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(`- [the related page](${suite.server.url("/related")}) (main)`);
    expect(r.structured).toMatchObject({ results: [{ links: expect.any(Array) }, { links: [] }] });
  });

  it("are --links and --images on the command line", async () => {
    const url = `http://127.0.0.1:${suite.server.port}/article`;
    const allow = ["--allow-address", `127.0.0.1:${suite.server.port}`];
    const r = await runCli(["fetch", url, "--links", "--images", ...allow]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("## Links\n- [Home](");
    expect(r.stdout).toContain("## Images\n");
    const many = await runCli(["extract", url, `${url}?again`, "--links", ...allow]);
    expect(many.status).toBe(0);
    expect(many.stdout.split("## Links\n- [Home](").length).toBe(3);
  });
});
