/**
 * `webfetch fetch --screenshot FILE`: the built executable in a child process writes the
 * rendered page's PNG to FILE and prints the content as usual; with --json the result names the
 * file instead of carrying the base64. Usage mistakes exit 2 before anything is fetched, and a
 * missing Chromium says how to install it. Chromium's path comes from a config file
 * (`fetch.browser_path`), as a user would set it.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { pngSize } from "../../src/render/screenshot.js";
import { cliFixture, runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { chromiumPath, hasService } from "../helpers/services.js";

const withChromium = hasService("chromium");
const fixture = cliFixture();

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A config naming the browser, and the directory it lies in (where the PNGs go too). */
function browserConfig(path: string): { dir: string; args: string[] } {
  const { dir, file } = configFile(["fetch:", `  browser_path: ${JSON.stringify(path)}`]);
  return { dir, args: ["--config", file, ...fixture.allow()] };
}

describe.runIf(withChromium)("webfetch fetch --screenshot", { timeout: 120_000 }, () => {
  it("writes the PNG and prints the content, in a child process", async () => {
    const { dir, args } = browserConfig(chromiumPath());
    const file = join(dir, "page.png");
    const bin = join(process.cwd(), "dist/bin/webfetch.js");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [bin, "fetch", fixture.page("/styled"), "--screenshot", file, ...args],
      { env: { PATH: process.env.PATH }, cwd: dir, timeout: 110_000 },
    );
    expect(stdout).toContain("Paragraph 6 of the article about Styled Page");
    const png = readFileSync(file);
    expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(pngSize(png)).toEqual({ width: 1280, height: 800 });
  });

  it("--json names the file in place of the base64", async () => {
    const { dir, args } = browserConfig(chromiumPath());
    const file = join(dir, "full.png");
    const r = await runCli([
      "fetch",
      fixture.page("/styled"),
      "--screenshot",
      file,
      "--full-page",
      "--json",
      ...args,
    ]);
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { screenshot: Record<string, unknown> };
    const png = readFileSync(file);
    expect(result.screenshot).toEqual({ mimeType: "image/png", ...pngSize(png), path: file });
  });
});

describe("webfetch fetch --screenshot: usage and a missing browser", () => {
  it("exits 2 for two URLs, --render never, or --full-page alone, before fetching", async () => {
    const before = fixture.server.connections.total;
    const cases: [string[], string][] = [
      [
        [fixture.page("/a"), fixture.page("/b"), "--screenshot", "x.png"],
        "--screenshot takes one URL",
      ],
      [
        [fixture.page("/a"), "--screenshot", "x.png", "--render", "never"],
        "--screenshot renders the page in a browser: it cannot be combined with --render never",
      ],
      [[fixture.page("/a"), "--full-page"], "--full-page needs --screenshot <file>"],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(["fetch", ...argv, ...fixture.allow()]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(fixture.server.connections.total).toBe(before);
  });

  it("without Chromium: RENDER_FAILED with the install hint, and no file", async () => {
    const { dir, args } = browserConfig("/nonexistent/chromium");
    const file = join(dir, "none.png");
    const r = await runCli(["fetch", fixture.page("/styled"), "--screenshot", file, ...args]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("RENDER_FAILED");
    expect(r.stderr).toContain("apt-get install chromium");
    expect(existsSync(file)).toBe(false);
  });
});
