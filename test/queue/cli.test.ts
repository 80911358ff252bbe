/**
 * `webfetch worker` on the command line: it needs a Redis server (flag or `queue.url`), refuses
 * a URL that is not one, logs to stderr, and on SIGTERM stops and exits by itself with status 0.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { type RedisServer, startRedis } from "../helpers/redis.js";
import { hasService } from "../helpers/services.js";
import { CLI } from "./helpers.js";

describe("webfetch worker", () => {
  it("without a Redis server is a usage error that says how to give one", async () => {
    const { status, stderr } = await runCli(["worker"]);
    expect(status).toBe(2);
    expect(stderr).toContain("INVALID_INPUT");
    expect(stderr).toContain("--redis");
    expect(stderr).toContain("queue.url");
  });

  it("refuses a URL that is not Redis's, and a concurrency below 1", async () => {
    const bad = await runCli(["worker", "--redis", "http://127.0.0.1:1"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("redis://");
    const zero = await runCli(["worker", "--redis", "redis://127.0.0.1:1", "--concurrency", "0"]);
    expect(zero.status).toBe(2);
  });

  it("--help names its flags", async () => {
    const { status, stdout } = await runCli(["worker", "--help"]);
    expect(status).toBe(0);
    expect(stdout).toContain("--redis <url>");
    expect(stdout).toContain("--concurrency <n>");
  });
});

describe.runIf(hasService("redis-server"))("webfetch worker with queue.url", () => {
  let redis: RedisServer;
  let dir: string;

  beforeAll(async () => {
    redis = await startRedis();
    dir = await mkdtemp(join(tmpdir(), "webfetch-worker-cli-"));
  });

  afterAll(async () => {
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reads the server from the configuration, logs to stderr, and exits 0 on SIGTERM", async () => {
    if (!existsSync(CLI)) throw new Error("dist/bin/webfetch.js is missing: run npm run build");
    const config = join(dir, "webfetch.config.yaml");
    await writeFile(config, `queue:\n  url: ${redis.url}\n`);
    const child = spawn(process.execPath, [CLI, "worker", "--config", config], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => {
      stdout += data.toString();
    });
    const exited = once(child, "exit");
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (data: Buffer) => {
          stderr += data.toString();
          if (stderr.includes("crawl worker ready")) resolve();
        });
        child.once("exit", () => reject(new Error(`the worker exited: ${stderr}`)));
      });
      child.kill("SIGTERM");
      const [code, signal] = await exited;
      const seen = `exit ${code} ${signal}; stderr: ${stderr}; stdout: ${stdout}`;
      expect(code, seen).toBe(0);
      expect(stderr, seen).toContain("crawl worker stopped");
      expect(stdout, seen).toBe("");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 60_000);
});
