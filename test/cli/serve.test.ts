/**
 * `webfetch serve` as a child process (the built bin): it binds loopback on the port asked for,
 * reads its token from WEBFETCH_API_TOKEN, serves /md from the fixture server through the
 * guard's one opened address, and exits 0 after SIGTERM; the rate limit, proxy and allowed
 * host settings from flags and file, and their bad values as usage errors.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { configFile } from "../helpers/config.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { rawRequest } from "../server/helpers.js";

const BIN = join(process.cwd(), "dist/bin/webfetch.js");

let fixture: FixtureServer;
let child: ChildProcess;
let stderr = "";
let url: string;

beforeAll(async () => {
  fixture = await startFixtureServer();
  child = spawn(
    process.execPath,
    [BIN, "serve", "--port", "0", "--allow-address", `127.0.0.1:${fixture.port}`],
    { cwd: tmpdir(), env: { PATH: process.env.PATH, WEBFETCH_API_TOKEN: "tok" } },
  );
  url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk;
      const ready = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(stderr);
      if (ready?.[1]) resolve(ready[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
});
afterAll(async () => {
  if (child.exitCode === null) child.kill("SIGKILL");
  await fixture.close();
});

describe("webfetch serve", () => {
  it("serves with the token from the environment, then drains and exits on SIGTERM", async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const page = `http://127.0.0.1:${fixture.port}/article`;
    const body = JSON.stringify({ url: page, f: "llm", q: null, c: "0" });
    const headers = { "content-type": "application/json" };
    expect((await fetch(`${url}/md`, { method: "POST", headers, body })).status).toBe(401);
    const res = await fetch(`${url}/md`, {
      method: "POST",
      headers: { ...headers, authorization: "Bearer tok" },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ url: page, success: true });
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    expect(stderr).toContain('"auth":"bearer"');
    expect(stderr).toContain("shutting down");
    expect(stderr).toContain('"path":"/md","status":200');
  });
});

describe("webfetch serve with an endpoint", () => {
  it("refuses to hand its fetches to itself", async () => {
    const r = await runCli(["serve", "--port", "18799", "--endpoint", "http://localhost:18799/"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("is this service itself");
  });
});

/** Starts `webfetch serve` on a free port of loopback; resolves once it is ready. */
async function startServe(
  args: string[],
  cwd = tmpdir(),
): Promise<{ url: string; port: string; child: ChildProcess; stop(): Promise<number | null> }> {
  const serve = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], {
    cwd,
    env: { PATH: process.env.PATH },
  });
  let output = "";
  const ready = await new Promise<string>((resolve, reject) => {
    serve.stderr?.on("data", (chunk: Buffer) => {
      output += chunk;
      const found = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    serve.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return {
    url: ready,
    port: new URL(ready).port,
    child: serve,
    async stop() {
      const exited = once(serve, "exit");
      serve.kill("SIGTERM");
      return (await exited)[0] as number | null;
    },
  };
}

describe("webfetch serve: rate limit, proxy and allowed hosts", () => {
  it("applies --rate-limit, --trust-proxy and --allowed-host over the file's server keys", async () => {
    const { dir } = configFile(["server:", "  rate_limit: 50", "  allowed_hosts: [fetcher.test]"]);
    const serve = await startServe(
      ["--rate-limit", "2", "--trust-proxy", "--allowed-host", "webfetch.test"],
      dir,
    );
    try {
      const get = (headers: Record<string, string>) =>
        rawRequest(serve.url, "/nothing", { headers });
      // Both lists count: the file's name and the flag's; any other name is refused.
      expect((await get({ host: `fetcher.test:${serve.port}` })).status).toBe(404);
      expect((await get({ host: `webfetch.test:${serve.port}` })).status).toBe(404);
      expect((await get({ host: `evil.test:${serve.port}` })).status).toBe(403);
      // The flag's limit of 2, per address the proxy appended.
      const viaProxy = { "x-forwarded-for": "198.51.100.1" };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(viaProxy)).status);
      expect(statuses).toEqual([404, 404, 429]);
      expect((await get({ "x-forwarded-for": "198.51.100.2" })).status).toBe(404);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it("applies server.rate_limit and server.trust_proxy from the file", async () => {
    const { dir } = configFile(["server:", "  rate_limit: 1", "  trust_proxy: true"]);
    const serve = await startServe([], dir);
    try {
      const get = (forwardedFor: string) =>
        rawRequest(serve.url, "/nothing", { headers: { "x-forwarded-for": forwardedFor } });
      expect((await get("198.51.100.1")).status).toBe(404);
      expect((await get("198.51.100.1")).status).toBe(429);
      expect((await get("198.51.100.2")).status).toBe(404);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it.each([
    [["--rate-limit", "0"], "'--rate-limit <n>' argument '0' is invalid. must be an integer >= 1"],
    [["--rate-limit", "1.5"], "must be an integer >= 1"],
    [["--rate-limit", "many"], "must be an integer >= 1"],
    [["--allowed-host", "http://webfetch.test:8787"], "is not a host name or IP address"],
  ])("refuses serve %j with a usage error (exit 2)", async (args, message) => {
    const r = await runCli(["serve", "--port", "0", ...args]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it.each([
    ["rate_limit: 0", "server.rate_limit: Too small"],
    ["rate_limit: ten", "server.rate_limit: Invalid input"],
    ["trust_proxy: sometimes", "server.trust_proxy: Invalid input"],
    ["allowed_hosts: webfetch.test", "server.allowed_hosts: Invalid input"],
    ['allowed_hosts: ["webfetch.test:8787"]', '"webfetch.test:8787" is not a host name'],
  ])("refuses a file with server.%s (exit 2, naming the key)", async (line, message) => {
    const { dir } = configFile(["server:", `  ${line}`]);
    const r = await runCli(["serve", "--port", "0"], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
