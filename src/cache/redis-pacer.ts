/**
 * Crawl-delay spacing across processes and machines: each origin's next free moment lives in
 * Redis at `<prefix>pace:<origin>`, and a Lua script reads the server's clock, hands the caller
 * the later of now and that moment, and moves the moment on by the interval, all at once. So
 * requests to one origin start at least the interval apart whichever worker sends them. While
 * the server fails, the spacing holds per process (a local pacer) until it is back.
 */
import { LocalOriginPacer, type OriginPacer, sleep } from "../net/pacer.js";
import { type RedisConnection, type RedisTarget, redisScript, redisTarget } from "./redis.js";

/** Default key prefix (the cache's, so one prefix names a whole deployment). */
const DEFAULT_PREFIX = "webfetch:";

/**
 * Takes the origin's next moment. KEYS: the origin's key. ARGV: interval ms. Returns how long
 * the caller waits, ms. The key lives until its moment has passed, plus a second.
 */
const TAKE = redisScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local interval = tonumber(ARGV[1])
local at = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], string.format('%.0f', at + interval), 'PX', string.format('%.0f', at + interval - now + 1000))
return at - now
`);

export type RedisOriginPacerOptions = RedisTarget & {
  /** Prefix of every key this pacer writes. @default "webfetch:" */
  prefix?: string;
  /** Hears of a failure of the server (the spacing is then counted in this process). */
  onError?: (error: unknown) => void;
};

/**
 * Spaces requests to an origin across every process that shares the Redis server.
 *
 * @example
 * const pacer = new RedisOriginPacer({ url: "redis://127.0.0.1:6379" });
 * await pacer.wait("https://example.com:443", 2000, signal);
 */
export class RedisOriginPacer implements OriginPacer {
  readonly #connection: RedisConnection;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #local = new LocalOriginPacer();
  readonly #onError: (error: unknown) => void;

  constructor(options: RedisOriginPacerOptions) {
    ({ connection: this.#connection, owned: this.#owned } = redisTarget(options));
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#onError = options.onError ?? (() => {});
  }

  async wait(origin: string, intervalMs: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    let waitMs: number;
    try {
      const reply = await this.#connection.eval(
        TAKE,
        [`${this.#prefix}pace:${origin}`],
        [String(Math.max(0, Math.round(intervalMs)))],
      );
      waitMs = Number(reply);
    } catch (error) {
      signal.throwIfAborted();
      this.#onError(error);
      return this.#local.wait(origin, intervalMs, signal);
    }
    await sleep(waitMs, signal);
  }

  /** Closes the connection if this pacer opened it. */
  async close(): Promise<void> {
    if (this.#owned) await this.#connection.close();
  }
}
