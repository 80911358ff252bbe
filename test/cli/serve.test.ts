/**
 * `webfetch serve` as a child process (the built bin): it binds loopback on the port asked for,
 * reads its token from WEBFETCH_API_TOKEN, serves /md from the fixture server through the
 * guard's one opened address, and exits 0 after SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";

const BIN = join(process.cwd(), "dist/cli/bin.js");

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
