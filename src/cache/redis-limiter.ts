/**
 * Per-origin politeness across processes and machines: a counting semaphore per origin in
 * Redis. Each origin is a sorted set `<prefix>origin:<origin>` whose members are leases (random
 * ids) scored by their expiry on the server's clock. A Lua script grants a lease when fewer than
 * `limit` unexpired ones exist; waiters poll with a short jittered backoff (and at once when a
 * lease of this process is released).
 *
 * Leases expire after `leaseMs` so a crashed process cannot hold a slot forever; a live holder
 * renews its lease every third of that, so a slow download keeps its slot.
 */
import { randomUUID } from "node:crypto";
import type { OriginLimiter, Release } from "../net/politeness.js";
import { type RedisConnection, type RedisTarget, redisScript, redisTarget } from "./redis.js";

/** Default lease lifetime without renewal, ms. */
const DEFAULT_LEASE_MS = 60_000;
/** Default key prefix (the cache's, so one prefix names a whole deployment). */
const DEFAULT_PREFIX = "webfetch:";
/** Polling backoff bounds while waiting for a slot, ms. */
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 100;

/** Server time in ms, and a helper that keeps the set alive as long as its last lease. */
const PRELUDE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function expireWithLastLease()
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  if last[2] then redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', tonumber(last[2]))) end
end
`;

/** Grants a lease if a slot is free. KEYS: the origin's set. ARGV: lease id, limit, lease ms. */
const ACQUIRE = redisScript(`${PRELUDE}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], string.format('%.0f', now + tonumber(ARGV[3])), ARGV[1])
  expireWithLastLease()
  return 1
end
return 0
`);

/** Extends a lease still held. KEYS: the origin's set. ARGV: lease id, lease ms. */
const RENEW = redisScript(`${PRELUDE}
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], string.format('%.0f', now + tonumber(ARGV[2])), ARGV[1])
  expireWithLastLease()
  return 1
end
return 0
`);

export type RedisOriginLimiterOptions = RedisTarget & {
  /** Requests at once per origin, across everything sharing the server and prefix. */
  limit: number;
  /** Prefix of every key this limiter writes. @default "webfetch:" */
  prefix?: string;
  /** Lifetime of a lease its holder stopped renewing (crashed), ms. @default 60000 */
  leaseMs?: number;
};

/** A held lease. */
interface Lease {
  key: string;
  id: string;
  timer: NodeJS.Timeout;
}

/**
 * Counts requests per origin across every process that shares the Redis server.
 *
 * @example
 * const limiter = new RedisOriginLimiter({ url: "redis://127.0.0.1:6379", limit: 6 });
 * const release = await limiter.acquire("https://example.com:443", AbortSignal.timeout(30_000));
 * try { await download() } finally { release() }
 */
export class RedisOriginLimiter implements OriginLimiter {
  readonly #connection: RedisConnection;
  readonly #owned: boolean;
  readonly #limit: number;
  readonly #prefix: string;
  readonly #leaseMs: number;
  /** Leases held by this process, so close() can give them back. */
  readonly #leases = new Set<Lease>();
  /** Waiters of this process per origin, woken when a local lease is released. */
  readonly #waiters = new Map<string, Set<() => void>>();

  constructor(options: RedisOriginLimiterOptions) {
    if (!(Number.isInteger(options.limit) && options.limit > 0)) {
      throw new RangeError("limit must be a positive integer");
    }
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!(leaseMs > 0)) throw new RangeError("leaseMs must be positive");
    ({ connection: this.#connection, owned: this.#owned } = redisTarget(options));
    this.#limit = options.limit;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#leaseMs = Math.ceil(leaseMs);
  }

  async acquire(origin: string, signal: AbortSignal): Promise<Release> {
    signal.throwIfAborted();
    const key = `${this.#prefix}origin:${origin}`;
    const id = randomUUID();
    const args = [id, String(this.#limit), String(this.#leaseMs)];
    for (let attempt = 0; ; attempt++) {
      const granted = await this.#untilAborted(
        this.#connection.eval(ACQUIRE, [key], args),
        signal,
        // A grant that arrives after the caller gave up goes straight back.
        (late) => {
          if (late === 1) this.#remove(origin, key, id);
        },
      );
      if (granted === 1) return this.#hold(key, id, origin);
      const cap = Math.min(MAX_POLL_MS, MIN_POLL_MS * 2 ** attempt);
      await this.#pause(origin, MIN_POLL_MS + Math.random() * (cap - MIN_POLL_MS), signal);
    }
  }

  /** Gives back every lease still held and closes the connection if this limiter opened it. */
  async close(): Promise<void> {
    const held = [...this.#leases];
    this.#leases.clear();
    for (const lease of held) clearInterval(lease.timer);
    await Promise.allSettled(
      held.map((lease) => this.#connection.send(["ZREM", lease.key, lease.id])),
    );
    if (this.#owned) await this.#connection.close();
  }

  #hold(key: string, id: string, origin: string): Release {
    const renew = () => {
      this.#connection.eval(RENEW, [key], [id, String(this.#leaseMs)]).catch(() => {
        // The server is away: the lease lapses on its own, as for a crashed holder.
      });
    };
    const lease: Lease = { key, id, timer: setInterval(renew, this.#leaseMs / 3) };
    lease.timer.unref();
    this.#leases.add(lease);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(lease.timer);
      this.#leases.delete(lease);
      this.#remove(origin, key, id);
    };
  }

  /** Removes a lease (fire and forget: if it fails, the lease expires) and wakes local waiters. */
  #remove(origin: string, key: string, id: string): void {
    this.#connection
      .send(["ZREM", key, id])
      .catch(() => {})
      .finally(() => {
        for (const wake of this.#waiters.get(origin) ?? []) wake();
      });
  }

  /** Waits `ms`, or less when a local lease of `origin` is released; rejects when `signal` aborts. */
  #pause(origin: string, ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      let waiters = this.#waiters.get(origin);
      if (!waiters) {
        waiters = new Set();
        this.#waiters.set(origin, waiters);
      }
      const set = waiters;
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        set.delete(wake);
        if (set.size === 0 && this.#waiters.get(origin) === set) this.#waiters.delete(origin);
      };
      const wake = () => {
        finish();
        resolve();
      };
      const onAbort = () => {
        finish();
        reject(signal.reason);
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** `promise`, or a rejection with the signal's reason as soon as it aborts; a late value goes to `late`. */
  #untilAborted<T>(promise: Promise<T>, signal: AbortSignal, late: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        if (settled) return;
        settled = true;
        reject(signal.reason);
        promise.then(late, () => {});
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(
        (value) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }
}
