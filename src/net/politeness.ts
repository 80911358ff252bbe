/**
 * Per-origin politeness: at most `limit` requests to one origin at a time, across everything
 * that shares the limiter. The local limiter counts in this process; the Redis one
 * (cache/redis.ts) counts across every process and machine that share the server.
 */
import { Semaphore } from "./semaphore.js";

/** A slot for one request to an origin; calling it gives the slot back (twice is harmless). */
export type Release = () => void;

export interface OriginLimiter {
  /**
   * Waits for a free slot for `origin` (scheme://host:port). Rejects with `signal.reason` when
   * the signal aborts first; a slot is never held by a caller that gave up.
   */
  acquire(origin: string, signal: AbortSignal): Promise<Release>;
  /**
   * A slot for `origin` at once when one is free, without waiting; undefined when none is, or
   * when the limiter cannot tell without waiting (a shared one asks its server).
   */
  tryAcquire?(origin: string): Release | undefined;
  /** Releases connections. */
  close?(): Promise<void>;
}

/** Counts requests per origin in this process: one semaphore per origin while it is in use. */
export class LocalOriginLimiter implements OriginLimiter {
  readonly #limit: number;
  readonly #origins = new Map<string, Semaphore>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  async acquire(origin: string, signal: AbortSignal): Promise<Release> {
    const slots = this.#slots(origin);
    try {
      return this.#releasing(origin, slots, await slots.acquire(signal));
    } catch (error) {
      this.#forget(origin, slots);
      throw error;
    }
  }

  tryAcquire(origin: string): Release | undefined {
    const slots = this.#slots(origin);
    const release = slots.tryAcquire();
    return release && this.#releasing(origin, slots, release);
  }

  /** The origin's semaphore, made when the origin has none in use. */
  #slots(origin: string): Semaphore {
    let slots = this.#origins.get(origin);
    if (!slots) {
      slots = new Semaphore(this.#limit);
      this.#origins.set(origin, slots);
    }
    return slots;
  }

  /** `release`, which also forgets the origin's semaphore once nothing holds or waits on it. */
  #releasing(origin: string, slots: Semaphore, release: Release): Release {
    return () => {
      release();
      this.#forget(origin, slots);
    };
  }

  #forget(origin: string, slots: Semaphore): void {
    if (slots.idle && this.#origins.get(origin) === slots) this.#origins.delete(origin);
  }
}

/**
 * A shared limiter that falls back to a local one while the shared one fails (a Redis server
 * down): politeness then holds per process until the shared count is back, and a fetch never
 * fails for want of a counter.
 */
export class FallbackOriginLimiter implements OriginLimiter {
  readonly #shared: OriginLimiter;
  readonly #local: OriginLimiter;
  readonly #onError: (error: unknown) => void;

  constructor(shared: OriginLimiter, local: OriginLimiter, onError: (error: unknown) => void) {
    this.#shared = shared;
    this.#local = local;
    this.#onError = onError;
  }

  async acquire(origin: string, signal: AbortSignal): Promise<Release> {
    try {
      return await this.#shared.acquire(origin, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      this.#onError(error);
      return this.#local.acquire(origin, signal);
    }
  }

  async close(): Promise<void> {
    await this.#shared.close?.();
    await this.#local.close?.();
  }
}
