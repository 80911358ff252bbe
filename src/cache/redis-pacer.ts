/**
 * Crawl-delay spacing across processes and machines: one request to an origin at a time, each
 * starting at least the interval after the previous one ended, whichever worker sends them. The
 * turn is a lock at `<prefix>pace:<origin>:turn` (its owner's token, with a lease so a dead
 * worker's turn lapses) and the last end is at `<prefix>pace:<origin>:end`, both read and written
 * by Lua scripts on the server's clock. While the server fails, the spacing holds per process (a
 * local pacer) until it is back.
 */
import { randomUUID } from "node:crypto";
import { LocalOriginPacer, type OriginPacer, type PaceRelease, sleep } from "../net/pacer.js";
import { type RedisConnection, type RedisTarget, redisScript, redisTarget } from "./redis.js";

/** Default key prefix (the cache's, so one prefix names a whole deployment). */
const DEFAULT_PREFIX = "webfetch:";

/** How often a caller asks again while another holds the origin's turn, ms. */
const BUSY_POLL_MS = 50;

/**
 * Takes the origin's turn. KEYS: turn, end. ARGV: token, interval ms, lease ms. Returns 0 when
 * taken, -1 while another holds it, else how long until the interval has passed, ms.
 */
const TAKE = redisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ready = tonumber(redis.call('GET', KEYS[2]) or '0') + tonumber(ARGV[2])
if now < ready then return ready - now end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 0
`);

/** Gives the turn back and records the end. KEYS: turn, end. ARGV: token, interval ms. */
const GIVE = redisScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('SET', KEYS[2], string.format('%.0f', now), 'PX', string.format('%.0f', tonumber(ARGV[2]) + 1000))
return 1
`);

/** How long a turn is held at most, ms: a worker that died holding one frees it by then. */
const DEFAULT_LEASE_MS = 120_000;

export type RedisOriginPacerOptions = RedisTarget & {
  /** Prefix of every key this pacer writes. @default "webfetch:" */
  prefix?: string;
  /** How long a turn is held at most, ms (longer than any one request). @default 120000 */
  leaseMs?: number;
  /** Hears of a failure of the server (the spacing is then counted in this process). */
  onError?: (error: unknown) => void;
};

/**
 * Spaces requests to an origin across every process that shares the Redis server.
 *
 * @example
 * const pacer = new RedisOriginPacer({ url: "redis://127.0.0.1:6379" });
 * const done = await pacer.acquire("https://example.com:443", 2000, signal);
 * try { await fetchIt(); } finally { done(); }
 */
export class RedisOriginPacer implements OriginPacer {
  readonly #connection: RedisConnection;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #local = new LocalOriginPacer();
  readonly #onError: (error: unknown) => void;

  constructor(options: RedisOriginPacerOptions) {
    ({ connection: this.#connection, owned: this.#owned } = redisTarget(options));
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#onError = options.onError ?? (() => {});
  }

  async acquire(origin: string, intervalMs: number, signal: AbortSignal): Promise<PaceRelease> {
    const keys = [`${this.#prefix}pace:${origin}:turn`, `${this.#prefix}pace:${origin}:end`];
    const interval = String(Math.max(0, Math.round(intervalMs)));
    const token = randomUUID();
    for (;;) {
      signal.throwIfAborted();
      let reply: number;
      try {
        reply = Number(
          await this.#connection.eval(TAKE, keys, [token, interval, String(this.#leaseMs)]),
        );
      } catch (error) {
        signal.throwIfAborted();
        this.#onError(error);
        return this.#local.acquire(origin, intervalMs, signal);
      }
      if (reply === 0) break;
      await sleep(reply < 0 ? BUSY_POLL_MS : reply, signal);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#connection.eval(GIVE, keys, [token, interval]).catch((error: unknown) => {
        // The lease frees the turn in the end; the next request waits until then.
        this.#onError(error);
      });
    };
  }

  /** Closes the connection if this pacer opened it. */
  async close(): Promise<void> {
    if (this.#owned) await this.#connection.close();
  }
}
