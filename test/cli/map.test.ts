/**
 * `webfetch map` in-process against the local test site, reached by IP with its port opened in
 * the guard: one URL a line with its title after a tab, --json, the filters and search, warnings
 * and the cut note on stderr, usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { SITE_DOCS, type SiteServer, startSiteServer } from "../helpers/site-server.js";

let site: SiteServer;
const allow = () => ["--allow-address", `127.0.0.1:${site.port}`];
const at = (path: string) => site.url(path, "127.0.0.1");

beforeAll(async () => {
  site = await startSiteServer();
});
afterAll(async () => {
  await site.close();
});

describe("webfetch map", () => {
  it("prints one URL a line, its title after a tab, and says on stderr that the list was cut", async () => {
    const { status, stdout, stderr } = await runCli(["map", at("/"), "--limit", "3", ...allow()]);
    expect(status).toBe(0);
    expect(stdout).toBe(
      [`${at("/page/1")}\tFirst page`, `${at("/page/2")}`, `${at("/page/3")}\tThird page`, ""].join(
        "\n",
      ),
    );
    expect(stderr).toContain("note: more URLs were found than the limit of 3");
    expect(stderr).toContain("warning: The sitemap");
  });

  it("prints the result object with --json", async () => {
    const { status, stdout } = await runCli([
      "map",
      at("/"),
      "--json",
      "--include-path",
      "^/docs/",
      ...allow(),
    ]);
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.url).toBe(at("/"));
    expect(result.truncated).toBe(false);
    expect(result.links.map((l: { url: string }) => l.url)).toEqual(
      SITE_DOCS.map((n) => at(`/docs/${n}`)),
    );
  });

  it("ranks with --search, filters with --exclude-path, reads the page alone with --sitemap skip", async () => {
    const search = await runCli(["map", at("/"), "--search", "pricing", ...allow()]);
    expect(search.stdout).toBe(`${at("/docs/pricing-faq")}\n`);
    const skip = await runCli([
      "map",
      at("/"),
      "--sitemap",
      "skip",
      "--exclude-path",
      "^/page/",
      "--exclude-path",
      "^/(docs|archive)/",
      ...allow(),
    ]);
    expect(skip.stdout).toBe(
      [`${at("/")}\tSite Home`, `${at("/about")}\tAbout us`, `${at("/contact")}\tContact`, ""].join(
        "\n",
      ),
    );
  });

  it("refuses bad flags as usage errors (exit 2)", async () => {
    const mode = await runCli(["map", at("/"), "--sitemap", "maybe", ...allow()]);
    expect(mode.status).toBe(2);
    expect(mode.stderr).toContain("Allowed choices are include, only, skip");
    const limit = await runCli(["map", at("/"), "--limit", "5001", ...allow()]);
    expect(limit.status).toBe(2);
    const pattern = await runCli(["map", at("/"), "--include-path", "(", "--json", ...allow()]);
    expect(pattern.status).toBe(2);
    expect(JSON.parse(pattern.stdout).error.code).toBe("INVALID_INPUT");
  });

  it("fails with the start page's error when nothing could be read (exit 1)", async () => {
    const { status, stderr } = await runCli(["map", "http://10.0.0.9/", "--sitemap", "skip"]);
    expect(status).toBe(1);
    expect(stderr).toContain("BLOCKED_ADDRESS");
  });
});
