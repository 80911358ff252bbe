/**
 * A real redis-server for tests and benchmarks: a child process on 127.0.0.1 and a free port,
 * without persistence, in a temporary directory. Suites that need it run under
 * `describe.runIf(hasService("redis-server"))` (helpers/services.ts), so a machine without it
 * skips them and says what to install, and CI, which requires it, fails instead.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { redisServerPath } from "./services.js";

/** How long the server may take to answer its first PING, ms. */
const START_TIMEOUT_MS = 10_000;

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The server's process id (tests freeze it with SIGSTOP). */
  pid: number;
  /** The server's directory. */
  dir: string;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Whether a server on `port` answers PING with PONG. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let reply = "";
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.on("error", () => finish(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => {
      reply += data.toString("latin1");
      if (reply.includes("\r\n")) finish(reply.startsWith("+PONG"));
    });
  });
}

export interface StartRedisOptions {
  /** Reuses a port (a restart). */
  port?: number;
  /** Keeps every write in an append-only file, so a restart finds the data again. */
  appendOnly?: boolean;
  /** The server's directory (a restart's, to find its file); the caller removes it. */
  dir?: string;
}

/**
 * Starts a redis-server and waits until it answers; `port` reuses a port (a restart).
 *
 * @example
 * const redis = await startRedis();
 * const store = new RedisStore({ url: redis.url, maxBytes: 1 << 20 });
 * await redis.stop();
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const server = redisServerPath();
  if (server === undefined) {
    throw new Error(
      "redis-server not found: install it (apt-get install redis-server) or set REDIS_SERVER",
    );
  }
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), "webfetch-redis-")));
  const port = options.port ?? (await freePort());
  // biome-ignore format: one flag and its value per line
  const child: ChildProcess = spawn(server, [
    "--port", String(port),
    "--bind", "127.0.0.1",
    "--save", "",
    "--appendonly", options.appendOnly ? "yes" : "no",
    "--appendfsync", "always",
    "--dir", dir,
    "--protected-mode", "yes",
  ], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  const stop = async () => {
    if (exited === undefined) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([gone, sleep(3000)]);
      if (exited === undefined) child.kill("SIGKILL");
    }
    if (options.dir === undefined) await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await pings(port))) {
    if (exited !== undefined || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not start on 127.0.0.1:${port}: ${stderr.trim()}`);
    }
    await sleep(25);
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, dir, stop };
}
