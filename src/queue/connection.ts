/**
 * The crawl queue's connections to Redis. BullMQ gets connection options (not a client), so it
 * opens and closes its own sockets; the crawl's own keys go through an ioredis client opened
 * here. Both wait through a Redis restart (commands queue until the server is back) and
 * reconnect within a second of it. bullmq and ioredis are optional packages, loaded on first
 * use with an error that says what to install; only the few members used here are typed, so the
 * library builds without them.
 */
import { createHash } from "node:crypto";
import { requirePackage } from "../cache/optional.js";

/** What needs the packages, as the user asked for it. */
const PURPOSE = "the crawl queue (webfetch worker, queue.url)";

/** Longest pause between reconnection attempts, ms. */
const MAX_RECONNECT_MS = 1000;

/** The reconnection delay after `attempt` failed attempts, ms: 200, 400, … then every second. */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 200, MAX_RECONNECT_MS);
}

/** BullMQ's connection options: it opens its clients with `new IORedis(url, rest)`. */
export interface QueueConnection {
  url: string;
  retryStrategy: (attempt: number) => number;
}

/** Connection options for BullMQ from a `redis://` (or `rediss://`) URL. */
export function queueConnection(url: string): QueueConnection {
  checkRedisUrl(url);
  return { url, retryStrategy: reconnectDelay };
}

/** Throws a TypeError unless `url` is a Redis URL. */
export function checkRedisUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`not a Redis URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new TypeError(`a Redis URL starts with redis:// or rediss://, not ${parsed.protocol}//`);
  }
}

/** The part of an ioredis client used here. */
export interface RedisClient {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: "error", listener: (error: Error) => void): unknown;
}

type RedisConstructor = new (
  url: string,
  options: { maxRetriesPerRequest: null; retryStrategy: (attempt: number) => number },
) => RedisClient;

/** Opens an ioredis client whose commands wait while the server is away. */
export function openRedis(url: string, onError: (error: Error) => void): RedisClient {
  checkRedisUrl(url);
  const { Redis } = requirePackage<{ Redis: RedisConstructor }>("ioredis", PURPOSE);
  const client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: reconnectDelay });
  // ioredis emits every failed reconnection; without a listener each would be printed.
  client.on("error", onError);
  return client;
}

/** Closes a client, or drops its socket when the server does not answer. */
export async function closeRedis(client: RedisClient): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), 2000);
  });
  try {
    if ((await Promise.race([client.quit().catch(() => "late" as const), late])) === "late") {
      client.disconnect();
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A Lua script run by digest, its source sent once when the server does not know it. */
export interface LuaScript {
  source: string;
  sha1: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha1: createHash("sha1").update(source).digest("hex") };
}

/** Runs `script` with `keys` and `args`. */
export async function runScript(
  client: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await client.call("EVALSHA", script.sha1, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
    return await client.call("EVAL", script.source, keys.length, ...keys, ...args);
  }
}

/** A job as the crawl's processor sees it. */
export interface QueueJob<D> {
  id?: string | undefined;
  data: D;
  /** Runs begun, this one included: more than 1 after a worker died or a lock was lost. */
  attemptsStarted: number;
  getState(): Promise<string>;
}

export interface JobOptions {
  jobId: string;
  priority: number;
  attempts: number;
  backoff: { type: "exponential"; delay: number };
  removeOnComplete: boolean;
  removeOnFail: { age: number };
}

export interface BullQueue<D> {
  add(name: string, data: D, options: JobOptions): Promise<unknown>;
  getJobState(jobId: string): Promise<string>;
  on(event: "error", listener: (error: Error) => void): unknown;
  close(): Promise<void>;
}

export interface BullWorker<D> {
  on(event: "error", listener: (error: Error) => void): unknown;
  on(
    event: "failed",
    listener: (job: QueueJob<D> | undefined, error: Error) => void | Promise<void>,
  ): unknown;
  close(force?: boolean): Promise<void>;
  waitUntilReady(): Promise<unknown>;
}

export interface WorkerOptions {
  connection: QueueConnection;
  concurrency: number;
  lockDuration: number;
  stalledInterval: number;
  maxStalledCount: number;
}

export interface Bullmq {
  Queue: new <D>(name: string, options: { connection: QueueConnection }) => BullQueue<D>;
  Worker: new <D>(
    name: string,
    processor: (job: QueueJob<D>) => Promise<unknown>,
    options: WorkerOptions,
  ) => BullWorker<D>;
}

/** Loads bullmq (and checks ioredis, which it needs), or explains how to install them. */
export function loadBullmq(): Bullmq {
  requirePackage<unknown>("ioredis", PURPOSE);
  return requirePackage<Bullmq>("bullmq", PURPOSE);
}
