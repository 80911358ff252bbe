/**
 * Runs that must end with a result or a typed error, never a silent exit: the built CLI and bare
 * library scripts in child processes that have nothing else alive on their event loop, so a
 * retry's wait or a conversion thread is all that keeps them running.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { json, type ProviderServer, startProviderServer } from "../helpers/provider-server.js";

let server: FixtureServer;
let api: ProviderServer;
beforeAll(async () => {
  server = await startFixtureServer();
  api = await startProviderServer();
});
afterAll(async () => {
  await api.close();
  await server.close();
});

const BIN = join(process.cwd(), "dist/bin/webfetch.js");
const LIBRARY = pathToFileURL(join(process.cwd(), "dist/index.js")).href;
/** Child processes on a loaded 2-core machine: generous, and never a measure of speed. */
const CHILD_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = CHILD_TIMEOUT_MS + 10_000;

interface Exit {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node ...args` to its end, with `input` on stdin, and reports how it ended. */
function node(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<Exit>((resolve) => {
    const child = execFile(
      process.execPath,
      args,
      { env: options.env ?? { PATH: process.env.PATH }, timeout: CHILD_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const status = error ? ((error as { code?: unknown }).code ?? null) : 0;
        resolve({ status: typeof status === "number" ? status : null, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? "");
  });
}

const allow = () => ["--allow-address", `127.0.0.1:${server.port}`];
const page = (path: string) => `http://127.0.0.1:${server.port}${path}`;
let key = 0;
/** A fresh /flaky URL: fails `fail` times with `code` (a status, or "reset"), then answers. */
const flaky = (code: string, fail = 1) =>
  page(`/flaky?key=exit-${code}-${++key}&fail=${fail}&code=${code}`);

describe("a retried response ends the CLI with its result", { timeout: TEST_TIMEOUT_MS }, () => {
  for (const code of ["503", "502", "504", "429", "reset"]) {
    it(`webfetch fetch: ${code} once, then the page`, async () => {
      const url = flaky(code);
      const r = await node([BIN, "fetch", url, ...allow()]);
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("Recovered");
    });
  }

  it("webfetch fetch: 503 on every try ends with its typed error, exit 1", async () => {
    const r = await node([BIN, "fetch", page("/status?code=503"), ...allow()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("HTTP_ERROR");
    expect(r.stderr).toContain("503");
  });

  it("webfetch fetch --json: a connection reset on every try is CONNECT_FAILED", async () => {
    const r = await node([BIN, "fetch", flaky("reset", 10), "--json", ...allow()]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("CONNECT_FAILED");
  });

  it("webfetch extract: one URL answering 503 once", async () => {
    const r = await node([BIN, "extract", flaky("503"), "--json", ...allow()]);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.failed).toEqual([]);
    expect(out.results[0].content).toContain("Recovered");
  });

  it("webfetch search: the provider answers 429 once", async () => {
    api.reply((_req, res, n) =>
      n === 1
        ? json(res, 429, { error: "slow down" }, { "retry-after": "0" })
        : json(res, 200, { results: [{ url: "https://a.example/", title: "A", content: "a" }] }),
    );
    const r = await node([BIN, "search", "anything", "--json"], {
      env: { PATH: process.env.PATH, SEARXNG_URL: api.url },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).results[0].title).toBe("A");
    expect(api.requests).toHaveLength(2);
  });
});

describe("a bare library script", { timeout: TEST_TIMEOUT_MS }, () => {
  const script = (url: string) => `
    import { createWebFetch } from ${JSON.stringify(LIBRARY)};
    const web = createWebFetch({ allowAddresses: ["127.0.0.1:${server.port}"] });
    try {
      const page = await web.fetch(${JSON.stringify(url)});
      console.log("title:", page.title);
    } catch (error) {
      console.log("error:", error.code);
    }
    await web.close();
  `;

  it("completes a retried fetch with nothing else on its event loop", async () => {
    const r = await node(["--input-type=module", "-e", script(flaky("503"))]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("title: Recovered");
  });

  it("fails a fetch whose retries run out with the typed error", async () => {
    const r = await node(["--input-type=module", "-e", script(flaky("reset", 10))]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("error: CONNECT_FAILED");
  });

  it("ends a stage that waits on work holding nothing alive with TIMEOUT, not a silent exit", async () => {
    const deadline = pathToFileURL(join(process.cwd(), "dist/net/deadline.js")).href;
    const waits = `
      import { Deadline } from ${JSON.stringify(deadline)};
      const deadline = new Deadline(300);
      try {
        await deadline.race(new Promise(() => {}));
      } catch (error) {
        console.log("first:", error.code);
      }
      // A second wait, after the first ended, holds the process again.
      const again = new Deadline(300);
      await again.race(Promise.resolve()).then(() => again.race(new Promise(() => {}))).catch(
        (error) => console.log("second:", error.code),
      );
    `;
    const r = await node(["--input-type=module", "-e", waits]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("first: TIMEOUT");
    expect(r.stdout).toContain("second: TIMEOUT");
  });

  it("lets the process end once a caller cancels, though a stage it raced never settles", async () => {
    const deadline = pathToFileURL(join(process.cwd(), "dist/net/deadline.js")).href;
    // A deadline of ten minutes: held until its time, the child would be killed first.
    const cancelled = `
      import { Deadline } from ${JSON.stringify(deadline)};
      const caller = new AbortController();
      const deadline = new Deadline(600000, caller.signal);
      deadline.race(new Promise(() => {})).catch((error) => console.log("ended:", error.name));
      setTimeout(() => caller.abort(), 50);
    `;
    const r = await node(["--input-type=module", "-e", cancelled]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("ended: AbortError");
  });

  it("converts HTML on threads when the host was started with --input-type (stdin script)", async () => {
    const r = await node(["--input-type=module"], { input: script(page("/article")) });
    expect(r.stderr).not.toContain("PARSE_ERROR");
    expect(r.stdout).toContain("title: Fixture Article");
  });
});
