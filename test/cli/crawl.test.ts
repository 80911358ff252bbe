/**
 * `webfetch crawl` against the local crawl site, reached by IP with its port opened in the
 * guard: Markdown sections then the summary, JSON lines then `{"summary"}`, the progress line on
 * a terminal, usage errors, a start page that fails; and, in a child process, Ctrl-C printing
 * what it has with status 130.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { type CrawlSite, startCrawlSite } from "../helpers/crawl-site.js";

const BIN = join(process.cwd(), "dist/bin/webfetch.js");

let site: CrawlSite;
const allow = () => ["--allow-address", `127.0.0.1:${site.port}`];
const at = (path: string) => site.url(path, "127.0.0.1");

beforeAll(async () => {
  site = await startCrawlSite({ slowMs: 100 });
});
afterAll(async () => {
  await site.close();
});

describe("webfetch crawl", () => {
  it("prints a section per page, then the summary", async () => {
    const { status, stdout } = await runCli(["crawl", at("/s/b/"), "--limit", "4", ...allow()]);
    expect(status).toBe(0);
    expect(stdout.startsWith(`## Crawl: ${at("/s/b/")}\n`)).toBe(true);
    expect(stdout).toContain(`### 1. ${at("/s/b/")} (depth 0)`);
    expect(stdout.match(/^### \d+\. /gm)).toHaveLength(4);
    expect(stdout).toContain("## Crawl summary");
    expect(stdout).toMatch(/4 pages, 0 failed, in \d+\.\d s\./);
  });

  it("prints one JSON object a line with --json, the summary last", async () => {
    const { status, stdout } = await runCli([
      "crawl",
      at("/"),
      "--json",
      "--max-depth",
      "1",
      "--include-path",
      "^/s/",
      ...allow(),
    ]);
    expect(status).toBe(0);
    const lines = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const summary = lines.pop().summary;
    expect(lines.map((page) => page.url).sort()).toEqual(
      [at("/"), ...["a", "b", "c", "d", "e"].map((l) => at(`/s/${l}/`))].sort(),
    );
    for (const page of lines) expect(typeof page.id).toBe("string");
    expect(summary.pages).toBe(6);
    expect(summary.cancelled).toBe(false);
  });

  it("draws a progress line on a terminal and clears it", async () => {
    const { status, stderr } = await runCli(["crawl", at("/s/c/"), "--limit", "5", ...allow()], {
      tty: true,
    });
    expect(status).toBe(0);
    expect(stderr).toMatch(/crawling: \d+ pages · \d+ failed · \d+ queued · [\d.]+ pages\/s/);
    expect(stderr.endsWith("\r\x1b[K")).toBe(true);
  });

  it("fails with the start page's error", async () => {
    const { status, stderr } = await runCli(["crawl", at("/fail/500"), ...allow()]);
    expect(status).toBe(1);
    expect(stderr).toContain("HTTP_ERROR");
  });

  it("refuses bad flags as usage errors", async () => {
    expect((await runCli(["crawl", at("/"), "--limit", "0"])).status).toBe(2);
    expect((await runCli(["crawl", at("/"), "--max-depth", "x"])).status).toBe(2);
    const bad = await runCli(["crawl", at("/"), "--include-path", "(", ...allow()]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("INVALID_INPUT");
  });
});

describe("webfetch crawl and Ctrl-C", () => {
  it("stops, prints the pages so far and the summary, and exits 130", async () => {
    const slow = await startCrawlSite({ crawlDelaySeconds: 0.5 });
    try {
      const child = spawn(
        process.execPath,
        [
          BIN,
          "crawl",
          slow.url("/", "127.0.0.1"),
          "--json",
          "--limit",
          "100",
          "--allow-address",
          `127.0.0.1:${slow.port}`,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stdout = "";
      let interrupted = false;
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        // Once two pages are out, press Ctrl-C.
        if (!interrupted && stdout.split("\n").length > 2) {
          interrupted = true;
          child.kill("SIGINT");
        }
      });
      const status = await new Promise<number | null>((resolve) =>
        child.on("exit", (code) => resolve(code)),
      );
      expect(status).toBe(130);
      const lines = stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      const { summary } = lines.pop();
      expect(summary.cancelled).toBe(true);
      expect(summary.pages).toBe(lines.length);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.length).toBeLessThan(100);
    } finally {
      await slow.close();
    }
  }, 60_000);
});
