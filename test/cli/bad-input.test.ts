/**
 * Bad caller input on the command line is a usage error (exit 2, INVALID_INPUT), found before any
 * connection: header values HTTP cannot carry, numbers out of their range, values a flag does not
 * take, on every subcommand.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { errorJson } from "../../src/cli/io.js";
import { cliFixture, runCli } from "../helpers/cli.js";

const fixture = cliFixture();
const { allow, page } = fixture;

describe("webfetch CLI: bad input is INVALID_INPUT, exit 2", () => {
  it.each([
    ["CR/LF", "webfetch\r\nX-Injected: 1"],
    ["a lone LF", "webfetch\nX: 1"],
    ["DEL", "webfetch\x7f"],
    ["another control character", "web\x01fetch"],
    ["non-ASCII", "webfetch/1.0 (ウェブ)"],
  ])("--user-agent with %s exits 2 before any connection", async (_label, agent) => {
    const before = fixture.server.connections.total;
    const r = await runCli(["fetch", page("/article"), "--user-agent", agent, ...allow()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "webfetch: INVALID_INPUT: --user-agent may hold only printable ASCII characters (no CR, LF or other control characters)\n",
    );
    expect(r.stdout).toBe("");
    expect(fixture.server.connections.total).toBe(before);
  });

  it("a user_agent with CR/LF in the configuration file exits 2 naming the option", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webfetch-cli-"));
    writeFileSync(join(dir, "webfetch.config.yaml"), 'fetch:\n  user_agent: "a\\r\\nb"\n');
    const before = fixture.server.connections.total;
    const r = await runCli([page("/article"), "--json", ...allow()], { cwd: dir });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error).toEqual({
      code: "INVALID_INPUT",
      message:
        "userAgent may hold only printable ASCII characters (no CR, LF or other control characters)",
    });
    expect(fixture.server.connections.total).toBe(before);
  });

  it("--max-redirects outside 0 to 20 exits 2 naming the range", async () => {
    const r = await runCli(["fetch", page("/article"), "--max-redirects", "1000", ...allow()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "option '--max-redirects <n>' argument '1000' is invalid. must be an integer from 0 to 20",
    );
    const json = await runCli(["fetch", page("/article"), "--max-redirects", "21", "--json"]);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe("INVALID_INPUT");
    const ok = await runCli(["fetch", page("/article"), "--max-redirects", "20", ...allow()]);
    expect(ok.status).toBe(0);
  });

  it.each([
    ["fetch", "--extract-mode", "xml"],
    ["fetch", "--redirects", "foo"],
    ["fetch", "--render", "sometimes"],
    ["fetch", "--locale", "fr"],
    ["fetch", "--timeout", "abc"],
    ["fetch", "--timeout", "1e9"],
    ["fetch", "--timeout", "0"],
    ["fetch", "--max-length", "-5"],
    ["fetch", "--max-length", "1.5"],
    ["fetch", "--start-index", ""],
    ["fetch", "--max-age", ""],
    ["fetch", "--max-age", "-1"],
    ["fetch", "--max-redirects", "-1"],
    ["fetch", "--endpoint-kind", "other"],
    ["extract", "--extract-mode", "xml"],
    ["extract", "--max-length", "0"],
    ["extract", "--timeout", "1e9"],
  ])("%s %s %j exits 2", async (command, flag, value) => {
    const before = fixture.server.connections.total;
    const r = await runCli([command, page("/article"), flag, value, "--json", ...allow()]);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe("INVALID_INPUT");
    expect(fixture.server.connections.total).toBe(before);
  });

  it.each([
    [["search", "x", "--provider", "nope"]],
    [["search", "x", "--max-results", "0"]],
    [["search", "x", "--max-results", "21"]],
    [["search", "x", "--depth", "deep"]],
    [["search", "x", "--time-range", "decade"]],
    [["search", "x", "--timeout", "abc"]],
    [["context", "x", "--max-tokens", "0"]],
    [["context", "x", "--timeout", "1e9"]],
    [["serve", "--port", "70000"]],
    [["tools", "--format", "xml"]],
    [["convert", "-", "--extract-mode", "xml"]],
    [["convert", "-", "--url", "not a url"]],
    [["convert", "-", "--url", "ftp://example.com/"]],
  ])("%j exits 2", async (args) => {
    // A provider that a broken check would reach is a closed loopback port, never the web.
    const env = { PATH: process.env.PATH, DUCKDUCKGO_BASE_URL: "http://127.0.0.1:1" };
    const r = await runCli([...args, "--json"], { stdin: "<p>Hello.</p>", env });
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe("INVALID_INPUT");
  });

  it("a RangeError the library throws for an option is INVALID_INPUT, not ERROR", () => {
    expect(errorJson(new RangeError("maxLength must be a positive integer, got 0"))).toEqual({
      code: "INVALID_INPUT",
      message: "maxLength must be a positive integer, got 0",
    });
    expect(errorJson(new TypeError("boom")).code).toBe("ERROR");
  });
});

describe("webfetch bin: bad input", () => {
  it("a --user-agent with CR/LF exits 2 with INVALID_INPUT in a child process", async () => {
    const bin = join(process.cwd(), "dist/bin/webfetch.js");
    const before = fixture.server.connections.total;
    const result = await promisify(execFile)(
      process.execPath,
      [bin, page("/article"), "--user-agent", "a\r\nb", ...allow()],
      { env: { PATH: process.env.PATH }, cwd: tmpdir(), timeout: 15_000 },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((result as { code: number }).code).toBe(2);
    expect((result as { stderr: string }).stderr).toContain(
      "webfetch: INVALID_INPUT: --user-agent",
    );
    expect(fixture.server.connections.total).toBe(before);
  }, 60_000);
});
