/**
 * A cache shared by every process and machine that use one Redis server (node-redis, an
 * optional dependency loaded only when a store or connection is created).
 *
 * One size bound for everyone: each value's size and last read time live in Redis itself (a
 * hash `<prefix>sizes`, sorted sets `<prefix>lru` by read time and `<prefix>exp` by expiry, a
 * counter `<prefix>total`), and Lua scripts write, account and evict atomically, expired
 * entries first, then the least recently read. Times come from the server's clock, so machines
 * with skewed clocks agree. Values live at `<prefix>page:<key>` with Redis's own expiry.
 *
 * A cache must never make a fetch slower than no cache: commands fail fast instead of queuing
 * while the server is away, every command has a deadline, and after a failed connection new
 * attempts wait a moment rather than piling on. The caller treats a failure as a miss.
 *
 * Standalone Redis (or anything that speaks its protocol); the scripts touch several keys, so
 * Redis Cluster is not supported.
 */
import { createHash } from "node:crypto";
import { decodeEntry, encodeEntry } from "./codec.js";
import { requireOptional } from "./optional.js";
import type { CacheEntry, CacheStore } from "./store.js";

/** Connection deadline: TCP connect plus the handshake, ms. */
const CONNECT_TIMEOUT_MS = 2000;
/** Deadline of one command, ms; past it the operation fails (a cache miss to the caller). */
const COMMAND_TIMEOUT_MS = 2000;
/** After a failed connection, operations fail at once for this long before the next attempt, ms. */
const RETRY_AFTER_MS = 1000;
/** Reconnection attempts after a lost connection, before the client gives up until next use. */
const MAX_RECONNECTS = 5;
/** Default key prefix. */
const DEFAULT_PREFIX = "webfetch:";

/** The part of node-redis's client used here. */
interface Client {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  sendCommand(
    args: readonly (string | Buffer)[],
    options?: { typeMapping: Record<number, unknown> },
  ): Promise<unknown>;
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "ready", listener: () => void): unknown;
  close(): Promise<void>;
  destroy(): void;
}
type CreateClient = (options: {
  url: string;
  disableOfflineQueue: boolean;
  socket: {
    connectTimeout: number;
    reconnectStrategy: (retries: number, cause: Error) => number | Error;
  };
}) => Client;

interface Driver {
  createClient: CreateClient;
  /** RESP reply types, for the mapping that returns bulk strings as bytes. */
  RESP_TYPES: { BLOB_STRING: number };
}

/** Loads node-redis, or explains how to install it. */
function loadDriver(): Driver {
  return requireOptional<Driver>("redis", "redis");
}

/** A Lua script, sent by digest (EVALSHA) once the server knows it. */
export interface RedisScript {
  readonly source: string;
  readonly sha1: string;
}

/** Wraps Lua source for {@link RedisConnection.eval}. */
export function redisScript(source: string): RedisScript {
  return { source, sha1: createHash("sha1").update(source).digest("hex") };
}

/** Rejects with `error()` when `promise` has not settled in `ms`. */
function withDeadline<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export interface RedisConnectionOptions {
  /** `redis://[[user]:password@]host[:port][/db]` or `rediss://…` for TLS. */
  url: string;
  /** Deadline to connect, ms. @default 2000 */
  connectTimeoutMs?: number;
  /** Deadline of each command, ms. @default 2000 */
  commandTimeoutMs?: number;
}

/**
 * One lazily opened Redis connection that stores and limiters can share, so a process keeps a
 * single socket to the server. Connects on first use; a lost connection is retried a few
 * times in the background, then again on the next use.
 *
 * @example
 * const redis = new RedisConnection({ url: "redis://127.0.0.1:6379" });
 * const cache = new RedisStore({ connection: redis, maxBytes: 50 << 20 });
 * const limiter = new RedisOriginLimiter({ connection: redis, limit: 6 });
 * // …
 * await redis.close();
 */
export class RedisConnection {
  readonly #url: string;
  /** host:port, for messages (the URL may hold a password). */
  readonly #where: string;
  readonly #connectTimeoutMs: number;
  readonly #commandTimeoutMs: number;
  readonly #createClient: CreateClient;
  /** Reply mapping that returns bulk strings as Buffers. */
  readonly #asBytes: { typeMapping: Record<number, unknown> };
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #failure: { at: number; error: Error } | undefined;
  #closed = false;

  constructor(options: RedisConnectionOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new TypeError(`not a Redis URL: ${JSON.stringify(options.url)}`);
    }
    if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
      throw new TypeError(`a Redis URL starts with redis:// or rediss://, not ${url.protocol}//`);
    }
    this.#url = options.url;
    this.#where = `${url.hostname}:${url.port || "6379"}`;
    this.#connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    const driver = loadDriver();
    this.#createClient = driver.createClient;
    this.#asBytes = { typeMapping: { [driver.RESP_TYPES.BLOB_STRING]: Buffer } };
  }

  /**
   * Runs one command, connecting first when needed; rejects on failure or past the deadline.
   * Bulk string replies are strings, or Buffers with `bytes`.
   */
  async send(args: readonly (string | Buffer)[], bytes = false): Promise<unknown> {
    const client = await this.#ready();
    try {
      return await withDeadline(
        client.sendCommand(args, bytes ? this.#asBytes : undefined),
        this.#commandTimeoutMs,
        () => new Error(`Redis at ${this.#where} did not answer ${args[0]} in time`),
      );
    } catch (error) {
      throw this.#explain(error);
    }
  }

  /** Runs a Lua script by digest, sending its source once if the server does not know it. */
  async eval(
    script: RedisScript,
    keys: readonly string[],
    args: readonly (string | Buffer)[],
    bytes = false,
  ): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.send(["EVALSHA", script.sha1, ...tail], bytes);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
      return await this.send(["EVAL", script.source, ...tail], bytes);
    }
  }

  /** Closes the connection; later operations reject. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    if (!client?.isOpen) return;
    try {
      await withDeadline(
        client.close(),
        this.#commandTimeoutMs,
        () => new Error("close timed out"),
      );
    } catch {
      if (client.isOpen) client.destroy();
    }
  }

  #ready(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error("the Redis connection is closed"));
    if (this.#client?.isOpen) return Promise.resolve(this.#client);
    if (this.#connecting) return this.#connecting;
    if (this.#failure && Date.now() - this.#failure.at < RETRY_AFTER_MS) {
      return Promise.reject(this.#failure.error);
    }
    this.#client = undefined;
    this.#connecting = this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    let wasReady = false;
    const client = this.#createClient({
      url: this.#url,
      // Commands fail at once while the connection is down instead of waiting for it.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: this.#connectTimeoutMs,
        // The first connection gets one try; a lost one gets a few quick retries, then the
        // client closes and the next operation starts afresh.
        reconnectStrategy: (retries, cause) =>
          wasReady && retries < MAX_RECONNECTS ? Math.min(50 * 2 ** retries, 1000) : cause,
      },
    });
    // node-redis emits every socket error; without a listener one would crash the process.
    client.on("error", () => {});
    client.once("ready", () => {
      wasReady = true;
    });
    try {
      await withDeadline(
        client.connect(),
        this.#connectTimeoutMs + 500,
        () => new Error("connection timed out"),
      );
    } catch (error) {
      if (client.isOpen) client.destroy();
      const failure = new Error(
        `Redis at ${this.#where} is unreachable: ${(error as Error).message}`,
        { cause: error },
      );
      this.#failure = { at: Date.now(), error: failure };
      throw failure;
    }
    this.#failure = undefined;
    if (this.#closed) {
      client.destroy();
      throw new Error("the Redis connection is closed");
    }
    this.#client = client;
    return client;
  }

  /** Names the server in errors that do not (node-redis's "The client is offline"). */
  #explain(error: unknown): Error {
    if (!(error instanceof Error)) return new Error(`Redis at ${this.#where}: ${String(error)}`);
    if (error.message.includes(this.#where)) return error;
    return new Error(`Redis at ${this.#where}: ${error.message}`, { cause: error });
  }
}

/** Either a server to connect to, or a connection shared with others (its owner closes it). */
export type RedisTarget =
  | { url: string; connection?: never }
  | { connection: RedisConnection; url?: never };

/** Opens the target: the shared connection, or a new one this object owns. */
export function redisTarget(target: RedisTarget): { connection: RedisConnection; owned: boolean } {
  if (target.connection) return { connection: target.connection, owned: false };
  if (typeof target.url !== "string") throw new TypeError("a Redis url or connection is required");
  return { connection: new RedisConnection({ url: target.url }), owned: true };
}

/**
 * Forgets a member's accounting: size, read time, expiry and its share of the total. The
 * callers' KEYS are: 1 the value, 2 lru, 3 exp, 4 sizes, 5 total.
 */
const FORGET = `
local function forget(member)
  local size = tonumber(redis.call('HGET', KEYS[4], member)) or 0
  redis.call('HDEL', KEYS[4], member)
  redis.call('ZREM', KEYS[2], member)
  redis.call('ZREM', KEYS[3], member)
  if size ~= 0 then redis.call('DECRBY', KEYS[5], size) end
  return size
end
`;

/** Server time: microseconds as an exact decimal string, and milliseconds as a number. */
const NOW = `
local time = redis.call('TIME')
local nowUs = time[1] .. string.format('%06d', tonumber(time[2]))
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/** GET that records the read, or cleans the accounting of a value Redis has expired. ARGV: member. */
const GET = redisScript(`${FORGET}
local value = redis.call('GET', KEYS[1])
if value then
  ${NOW}
  redis.call('ZADD', KEYS[2], 'XX', nowUs, ARGV[1])
  return value
end
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then forget(ARGV[1]) end
return false
`);

/**
 * SET with expiry, accounting, then eviction while the total is over the bound: expired
 * members first (up to 256 a call), then the least recently read, sparing the new value.
 * ARGV: member, value, ttl ms, size, max bytes, value key prefix. Returns the total.
 */
const SET = redisScript(`${FORGET}${NOW}
local member = ARGV[1]
local size = tonumber(ARGV[4])
local max = tonumber(ARGV[5])
forget(member)
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('HSET', KEYS[4], member, size)
redis.call('ZADD', KEYS[2], nowUs, member)
redis.call('ZADD', KEYS[3], string.format('%.0f', nowMs + tonumber(ARGV[3])), member)
local total = redis.call('INCRBY', KEYS[5], size)
if total <= max then return total end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', string.format('%.0f', nowMs), 'LIMIT', 0, 256)) do
  redis.call('DEL', ARGV[6] .. m)
  total = total - forget(m)
end
while total > max do
  local evicted = false
  for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, 31)) do
    if m ~= member then
      redis.call('DEL', ARGV[6] .. m)
      total = total - forget(m)
      evicted = true
      if total <= max then break end
    end
  end
  if not evicted then break end
end
return total
`);

/** DEL with accounting. ARGV: member. */
const DELETE = redisScript(`${FORGET}
redis.call('DEL', KEYS[1])
forget(ARGV[1])
return 1
`);

export type RedisStoreOptions = RedisTarget & {
  /** Bound on the total size of stored values, bytes, shared by every store on this prefix. */
  maxBytes: number;
  /** Prefix of every key this store writes. @default "webfetch:" */
  prefix?: string;
};

/**
 * A cache store in Redis, bounded in bytes across every process that shares the prefix.
 *
 * @example
 * const store = new RedisStore({ url: "redis://127.0.0.1:6379", maxBytes: 50 << 20 });
 * await store.set(key, { page, storedAt: Date.now() }, 900);
 * const entry = await store.get(key);
 * await store.close();
 */
export class RedisStore implements CacheStore {
  readonly #connection: RedisConnection;
  readonly #owned: boolean;
  readonly #maxBytes: number;
  /** Larger values would push out a quarter of the cache for one page; they are not kept. */
  readonly #maxEntryBytes: number;
  readonly #valuePrefix: string;
  /** KEYS[2..5] of every script: lru, exp, sizes, total. */
  readonly #indexKeys: readonly string[];

  constructor(options: RedisStoreOptions) {
    if (!(options.maxBytes > 0)) throw new RangeError("maxBytes must be a positive number");
    const prefix = options.prefix ?? DEFAULT_PREFIX;
    ({ connection: this.#connection, owned: this.#owned } = redisTarget(options));
    this.#maxBytes = options.maxBytes;
    this.#maxEntryBytes = Math.max(1, Math.floor(options.maxBytes / 4));
    this.#valuePrefix = `${prefix}page:`;
    this.#indexKeys = [`${prefix}lru`, `${prefix}exp`, `${prefix}sizes`, `${prefix}total`];
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const value = await this.#connection.eval(GET, this.#keys(key), [key], true);
    if (typeof value !== "string" && !(value instanceof Uint8Array)) return undefined;
    const entry = decodeEntry(value);
    if (!entry) await this.delete(key).catch(() => {});
    return entry;
  }

  /** Stores `entry` for `ttlSeconds`; a non-positive TTL, or an entry over a quarter of `maxBytes`, removes the key instead. */
  async set(key: string, entry: CacheEntry, ttlSeconds: number): Promise<void> {
    const value = encodeEntry(entry);
    const size = value.length;
    const ttlMs = Math.round(ttlSeconds * 1000);
    if (!(ttlMs > 0) || size > this.#maxEntryBytes) return this.delete(key);
    await this.#connection.eval(SET, this.#keys(key), [
      key,
      value,
      String(ttlMs),
      String(size),
      String(this.#maxBytes),
      this.#valuePrefix,
    ]);
  }

  async delete(key: string): Promise<void> {
    await this.#connection.eval(DELETE, this.#keys(key), [key]);
  }

  /** Closes the connection if this store opened it (a shared one is closed by its owner). */
  async close(): Promise<void> {
    if (this.#owned) await this.#connection.close();
  }

  #keys(key: string): string[] {
    return [this.#valuePrefix + key, ...this.#indexKeys];
  }
}
