/**
 * A result thinner than its page says why, on every surface: a page that needed a browser it
 * did not get, a document cut at a parser, feed or PDF limit, a query or prompt that matched
 * nothing, a page with no text. Empty content never comes without a warning.
 */
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory.js";
import { convertHtml } from "../../src/convert/html.js";
import { MAX_NODES } from "../../src/extract/parse.js";
import { runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { fixtureSuite, testWeb } from "../helpers/web.js";
import { toolBox } from "../tools/helpers.js";

const NO_BROWSER = "/nonexistent/chromium";
const suite = fixtureSuite({ browserPath: NO_BROWSER });

describe("a page that needs JavaScript, with no browser", () => {
  it("names the missing render in warnings", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/app-shell"));
    expect(page.rendered).toBeUndefined();
    expect(page.content.trim()).toBe("");
    expect(page.warnings).toHaveLength(1);
    expect(page.warnings?.[0]).toMatch(/needs? JavaScript, but it could not be rendered/);
    expect(page.warnings?.[0]).toContain("Install Chromium");
  });

  it('says so with render "never" too', async () => {
    const page = await suite.t.web.fetch(suite.server.url("/app-shell"), {
      render: "never",
      cache: false,
    });
    expect(page.warnings?.[0]).toContain('render is "never", so its scripts did not run');
    expect(page.warnings?.[0]).not.toContain("Install Chromium");
  });

  it("an instance rendering by default is not served another's unrendered copy from a shared store", async () => {
    const store = new MemoryStore({ maxBytes: 8 * 1024 * 1024 });
    const never = testWeb(suite.server, { browserPath: NO_BROWSER, render: "never", cache: store });
    const auto = testWeb(suite.server, { browserPath: NO_BROWSER, cache: store });
    try {
      const first = await never.web.fetch(suite.server.url("/app-shell"));
      expect(first.warnings?.[0]).toContain('render is "never"');
      const second = await auto.web.fetch(suite.server.url("/app-shell"));
      expect(second.cached).toBe(false);
      expect(second.warnings?.[0]).toContain("could not be rendered");
    } finally {
      await never.web.close();
      await auto.web.close();
    }
  });

  it("shows the warning in the tool's text (MCP, adapters) and in Japanese", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_fetch")
      .call({ url: suite.server.url("/app-shell") });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^Warning: The page seems to need JavaScript/m);
    expect((r.structured as { warnings?: string[] }).warnings).toHaveLength(1);
    const ja = testWeb(suite.server, { browserPath: NO_BROWSER, locale: "ja" });
    try {
      const page = await ja.web.fetch(suite.server.url("/app-shell"));
      expect(page.warnings?.[0]).toContain("ブラウザで表示できませんでした");
    } finally {
      await ja.web.close();
    }
  });

  it("prints the warning on stderr in the CLI, the content alone on stdout", async () => {
    const { dir } = configFile(["fetch:", `  browser_path: ${NO_BROWSER}`]);
    const url = `http://127.0.0.1:${suite.server.port}/app-shell`;
    const r = await runCli(["fetch", url, "--allow-address", `127.0.0.1:${suite.server.port}`], {
      cwd: dir,
    });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^warning: The page seems to need JavaScript/m);
    expect(r.stdout).not.toContain("warning");
    const json = await runCli(
      ["fetch", url, "--json", "--allow-address", `127.0.0.1:${suite.server.port}`],
      { cwd: dir },
    );
    expect(JSON.parse(json.stdout).warnings).toHaveLength(1);
  });
});

describe("content cut at a limit", () => {
  it("a page of 300,000 list items: cut at the parser's element limit, truncated and named", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/many-items"), {
      maxLength: 10_000_000,
    });
    expect(page.truncated).toBe(true);
    expect(page.nextStartIndex).toBeUndefined();
    expect(page.warnings).toEqual([
      `The page has more than ${MAX_NODES.toLocaleString("en-US")} elements; only the first ${MAX_NODES.toLocaleString("en-US")} were read, so the content ends early`,
    ]);
    expect(page.content).not.toContain("- 250000");
  }, 60_000);

  it("convertHtml reports the limit it stopped at", { timeout: 60_000 }, () => {
    const html = `<ul>${"<li>x</li>".repeat(MAX_NODES + 10)}</ul>`;
    expect(convertHtml(html).limits).toEqual([{ limit: "html-elements", max: MAX_NODES }]);
    expect(convertHtml("<p>short</p>").limits).toBeUndefined();
  });

  it("a feed of more items than are listed", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/big-feed"));
    expect(page.truncated).toBe(true);
    expect(page.warnings?.[0]).toContain("only the first 200 are listed");
  });

  it("a page within every limit has no warnings field", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/article"));
    expect(page).not.toHaveProperty("warnings");
    expect(page.truncated).toBe(false);
  });
});

describe("nothing matched, or nothing there", () => {
  it("a page with no text says so", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/empty-page"));
    expect(page.content).toBe("");
    expect(page.warnings).toEqual(["The page has no text that could be extracted"]);
  });

  it("a query that matches nothing says so", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/article"), {
      query: "zyzzyva quokka",
    });
    expect(page.content).toBe("");
    expect(page.warnings?.[0]).toContain(
      'No passage of the page matches the query "zyzzyva quokka"',
    );
  });

  it("passages that match but do not fit max_length say so", async () => {
    const page = await suite.t.web.fetch(
      suite.server.url("/guide?title=Widget%20Manual&topics=installation,upgrades"),
      { query: "upgrades", maxLength: 3 },
    );
    expect(page.content).toBe("");
    expect(page.chunks?.matched).toBeGreaterThan(0);
    expect(page.warnings).toEqual([
      "Passages match the query, but none fits in max_length (3 characters); ask for more",
    ]);
  });

  it("a prompt with no model falls back to the start of the page without fetching it again", async () => {
    const before = suite.server.hits.get("/long") ?? 0;
    const page = await suite.t.web.fetch(suite.server.url("/long"), {
      prompt: "zyzzyva quokka?",
      cache: false,
    });
    expect(page.warnings?.[0]).toBe(
      "No passage matched the prompt; returning the start of the page",
    );
    expect(page.content.length).toBeGreaterThan(0);
    expect((suite.server.hits.get("/long") ?? 0) - before).toBe(1);
  });

  it("a prompt with no model and no matching passage returns the start of the page", async () => {
    const page = await suite.t.web.fetch(suite.server.url("/article"), {
      prompt: "zyzzyva quokka?",
    });
    expect(page.content).toContain("Fixture Article");
    expect(page.note).toBeDefined();
    expect(page.warnings).toEqual([
      "No passage matched the prompt; returning the start of the page",
    ]);
  });
});
