import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { runCli } from "../helpers/cli.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

/** Runs the CLI in-process. Loopback is reached by IP with --allow-address for the fixture port. */
const cli = (args: string[], stdin?: string) => runCli(args, stdin === undefined ? {} : { stdin });

const allow = () => ["--allow-address", `127.0.0.1:${server.port}`];
const page = (path: string) => `http://127.0.0.1:${server.port}${path}`;

describe("webfetch CLI (run)", () => {
  it("prints Markdown for `webfetch <url>`, under the page's title", async () => {
    const r = await cli([page("/article"), ...allow()]);
    expect(r.status).toBe(0);
    // The content leaves out the <h1> that repeats the title; the CLI prints the title once.
    expect(r.stdout).toMatch(/^# Fixture Article\n\nParagraph 1 of the article/);
    expect(r.stdout.split("Fixture Article").length - 1).toBe(9); // the title, 8 paragraphs
    expect(r.stderr).toBe("");
    const text = await cli([page("/article"), "--extract-mode", "text", ...allow()]);
    expect(text.stdout).toMatch(/^Fixture Article\n\nParagraph 1 of the article/);
    const sliced = await cli([page("/article"), "--start-index", "10", ...allow()]);
    expect(sliced.stdout).not.toContain("# Fixture Article");
  });

  it("`fetch --json` prints the result object", async () => {
    const r = await cli(["fetch", page("/article"), "--json", ...allow()]);
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.title).toBe("Fixture Article");
    expect(result.cached).toBe(false);
    expect(result.truncated).toBe(false);
  });

  it("honours --extract-mode, --max-length and --start-index", async () => {
    const r = await cli([
      "fetch",
      page("/long"),
      "--extract-mode",
      "text",
      "--max-length",
      "1000",
      "--json",
      ...allow(),
    ]);
    const result = JSON.parse(r.stdout);
    expect(result.format).toBe("text");
    expect(result.truncated).toBe(true);
    const next = await cli([
      "fetch",
      page("/long"),
      "--start-index",
      String(result.nextStartIndex),
      "--max-length",
      "1000",
      "--json",
      ...allow(),
    ]);
    expect(JSON.parse(next.stdout).startIndex).toBe(result.nextStartIndex);
  });

  it("reads --allow-address from WEBFETCH_ALLOW_ADDRESSES too", async () => {
    let stdout = "";
    const status = await run([page("/article")], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => true },
      env: { WEBFETCH_ALLOW_ADDRESSES: `10.0.0.0/8, 127.0.0.1:${server.port}` },
      cwd: tmpdir(),
    });
    expect(status).toBe(0);
    expect(stdout).toContain("Fixture Article");
  });

  it("exits 1 with the code on stderr for a fetch error", async () => {
    const r = await cli([page("/status?code=404"), ...allow()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("webfetch: HTTP_ERROR: Page not found (404)\n");
    expect(r.stdout).toBe("");
  });

  it("exits 1 with {error} on stdout under --json", async () => {
    const r = await cli([`http://127.0.0.1:1/`, "--json"]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: "BLOCKED_ADDRESS", message: "Blocked: 127.0.0.1 is a loopback address" },
    });
  });

  it("prints an array in input order for several URLs, exit 1 if any failed", async () => {
    const r = await cli([
      "fetch",
      page("/article"),
      page("/status?code=403"),
      page("/json"),
      "--json",
      ...allow(),
    ]);
    expect(r.status).toBe(1);
    const entries = JSON.parse(r.stdout);
    expect(entries).toHaveLength(3);
    expect(entries[0].title).toBe("Fixture Article");
    expect(entries[1]).toEqual({
      url: page("/status?code=403"),
      error: { code: "HTTP_ERROR", message: "Access forbidden (403)" },
    });
    expect(entries[2].content).toContain('"a": 1');
  });

  it("exits 2 on bad usage", async () => {
    expect((await cli(["fetch", page("/article"), "--max-length", "abc"])).status).toBe(2);
    expect((await cli(["fetch", page("/article"), "--redirects", "sometimes"])).status).toBe(2);
    expect((await cli(["fetch"])).status).toBe(2);
    expect((await cli(["fetch", page("/article"), "--allow-address", "not-an-ip"])).status).toBe(2);
    const q = await cli(["fetch", page("/article"), "--prompt", "x", "--query", "y"]);
    expect(q.status).toBe(2);
    expect(q.stderr).toContain("INVALID_INPUT: --prompt and --query cannot be combined");
    const long = await cli(["fetch", page("/article"), "--query", "x".repeat(1001)]);
    expect(long.status).toBe(2);
    expect(long.stderr).toContain("INVALID_INPUT: query must be at most 1000 characters");
  });

  it("bad usage under --json prints an INVALID_INPUT error object", async () => {
    const r = await cli(["fetch", page("/article"), "--max-length", "abc", "--json"]);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe("INVALID_INPUT");
    const missing = await cli(["convert", "/nonexistent/page.html"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      "INVALID_INPUT: Cannot read /nonexistent/page.html: no such file",
    );
  });

  it("--help lists every fetch flag", async () => {
    const r = await cli(["fetch", "--help"]);
    expect(r.status).toBe(0);
    for (const flag of [
      "--extract-mode",
      "--full",
      "--max-length",
      "--start-index",
      "--query",
      "--prompt",
      "--timeout",
      "--no-cache",
      "--redirects",
      "--max-redirects",
      "--ignore-robots",
      "--user-agent",
      "--allow-address",
      "--verbose",
      "--max-age",
      "--render",
      "--screenshot",
      "--full-page",
      "--json",
      "--config",
      "--locale",
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it("--verbose logs one line per fetch to stderr, never stdout", async () => {
    const r = await cli([page("/article"), "--verbose", ...allow()]);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('"msg"');
  });

  it("--ignore-robots and --timeout apply to the call", async () => {
    const robotsUrl = `http://127.0.0.1:${server.port}/hang`;
    const r = await cli(["fetch", robotsUrl, "--timeout", "0.5", "--ignore-robots", ...allow()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("TIMEOUT");
  });

  it("reads a config file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-cli-"));
    const file = join(dir, "webfetch.config.yaml");
    writeFileSync(
      file,
      `fetch:\n  allow_addresses: ["127.0.0.1:\${FIXTURE_PORT}"]\n  max_length: 300\n`,
    );
    let stdout = "";
    const status = await run([page("/long"), "--config", file, "--json"], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: () => true },
      env: { FIXTURE_PORT: String(server.port) },
      cwd: dir,
    });
    expect(status).toBe(0);
    expect(JSON.parse(stdout).content.length).toBeLessThanOrEqual(300);
    writeFileSync(file, "fetch:\n  timeout_secs: 3\n");
    const bad = await cli([page("/long"), "--config", file]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("timeout_secs");
  });

  it("convert reads a file or stdin", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-cli-"));
    const file = join(dir, "page.html");
    writeFileSync(
      file,
      '<html><body><main><h1>Hi</h1><p>A <a href="/x">link</a>.</p></main></body></html>',
    );
    const r = await cli(["convert", file, "--url", "https://example.com/a/"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("# Hi");
    expect(r.stdout).toContain("[link](https://example.com/x)");
    const s = await cli(
      ["convert", "-", "--json"],
      "<html><head><title>T</title></head><body><p>From stdin.</p></body></html>",
    );
    expect(s.status).toBe(0);
    expect(JSON.parse(s.stdout).content).toContain("From stdin.");
    // The title prints once, over the content that leaves its <h1> out.
    const titled = await cli(
      ["convert", "-"],
      "<html><head><title>Notes</title></head><body><main><h1>Notes</h1><p>Body text.</p></main></body></html>",
    );
    expect(titled.stdout).toBe("# Notes\n\nBody text.\n");
    const full = await cli(
      ["convert", "-", "--full"],
      "<html><head><title>Notes</title></head><body><main><h1>Notes</h1><p>Body text.</p></main></body></html>",
    );
    expect(full.stdout).toBe("# Notes\n\nBody text.\n");
  });
});

describe("webfetch bin", () => {
  it("runs the built executable in a child process", async () => {
    const bin = join(process.cwd(), "dist/bin/webfetch.js");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [bin, page("/article"), "--allow-address", `127.0.0.1:${server.port}`],
      {
        env: { PATH: process.env.PATH },
        timeout: 50_000,
      },
    );
    expect(stdout).toContain("# Fixture Article");
  });

  it("exits 2 for bad usage in a child process", async () => {
    const bin = join(process.cwd(), "dist/bin/webfetch.js");
    const result = await promisify(execFile)(process.execPath, [
      bin,
      "fetch",
      "--max-length",
      "x",
      "http://a.example/",
    ]).catch((e: { code: number }) => e);
    expect((result as { code: number }).code).toBe(2);
  });
});
