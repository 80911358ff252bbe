/**
 * CSS selectors through the library, the tools and the CLI, against the fixture server: the
 * article page (nav, article, an ad aside, footer) scoped by include and exclude selectors.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { failure, fixtureSuite } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const suite = fixtureSuite();
const article = () => suite.server.url("/article");

describe("includeSelectors and excludeSelectors", () => {
  it("scope the page in the library, each set of selectors cached apart", async () => {
    const { web } = suite.t;
    const scoped = await web.fetch(article(), {
      includeSelectors: ["aside.ad", "article"],
      excludeSelectors: ["h1"],
    });
    expect(scoped.content).not.toContain("# Fixture Article");
    expect(scoped.content).toContain("Paragraph 1 of the article");
    expect(scoped.content.indexOf("Paragraph 8")).toBeLessThan(scoped.content.indexOf("Buy our"));
    const whole = await web.fetch(article());
    expect(whole.content).toContain("Paragraph 1 of the article about Fixture Article.");
    expect(whole.content).not.toContain("Buy our product");
    const again = await web.fetch(article(), {
      includeSelectors: ["aside.ad", "article"],
      excludeSelectors: ["h1"],
    });
    expect(again).toMatchObject({ cached: true, content: scoped.content, id: scoped.id });
    // read by id gives the scoped content, not the whole page.
    const read = await web.read(scoped.id, { startIndex: 0 });
    expect(read.content).toBe(scoped.content);
  });

  it("report SELECTOR_NOT_FOUND and INVALID_INPUT before or after the fetch", async () => {
    const { web } = suite.t;
    const missing = await failure(web.fetch(article(), { includeSelectors: ["#nowhere"] }));
    expect(missing.code).toBe("SELECTOR_NOT_FOUND");
    expect(missing.message).toContain('"#nowhere"');
    const hits = suite.server.hits.get("/article") ?? 0;
    const bad = await failure(web.fetch(article(), { includeSelectors: ["p[", "div"] }));
    expect(bad.code).toBe("INVALID_INPUT");
    expect(bad.message).toContain("includeSelectors");
    const many = await failure(web.fetch(article(), { excludeSelectors: Array(21).fill("p") }));
    expect(many.message).toContain("at most 20");
    // Bad selectors never reach the network.
    expect(suite.server.hits.get("/article") ?? 0).toBe(hits);
  });

  it("are include_selectors and exclude_selectors in web_fetch and web_extract", async () => {
    const box = toolBox(suite.t.web);
    const fetched = await box
      .tool("web_fetch")
      .call({ url: article(), include_selectors: ["footer"], exclude_selectors: [] });
    expect(fetched.isError).toBe(false);
    expect((fetched.structured as { content: string }).content).toBe(
      "Copyright 2026 Fixture Site. All rights reserved.",
    );
    const missing = await box
      .tool("web_fetch")
      .call({ url: article(), include_selectors: [".nothing"] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("SELECTOR_NOT_FOUND");
    const extracted = await box
      .tool("web_extract")
      .call({ urls: [article()], exclude_selectors: ["p"] });
    expect(extracted.text).not.toContain("Paragraph 1 of the article");
  });

  it("are --include-selector and --exclude-selector on the command line, repeatable", async () => {
    const allow = ["--allow-address", `127.0.0.1:${suite.server.port}`];
    const url = `http://127.0.0.1:${suite.server.port}/article`;
    const r = await runCli([
      "fetch",
      url,
      "--include-selector",
      "footer",
      "--include-selector",
      "nav",
      "--exclude-selector",
      "a[href='/contact']",
      ...allow,
    ]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Copyright 2026 Fixture Site.");
    expect(r.stdout).toContain("[About]");
    expect(r.stdout).not.toContain("Contact");
    expect(r.stdout.indexOf("[About]")).toBeLessThan(r.stdout.indexOf("Copyright"));
    const missing = await runCli(["fetch", url, "--include-selector", ".none", ...allow]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("SELECTOR_NOT_FOUND");
    const converted = await runCli(["convert", "-", "--include-selector", "p.keep"], {
      stdin: '<p>drop this</p><p class="keep">keep this one</p>',
    });
    expect(converted.stdout).toBe("keep this one\n");
  });
});
