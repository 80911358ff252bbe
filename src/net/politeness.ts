/**
 * Per-origin politeness: at most `limit` requests to one origin at a time, across everything
 * that shares the limiter. The local limiter counts in this process; the Redis one
 * (cache/redis.ts) counts across every process and machine that share the server.
 */

/** A slot for one request to an origin; calling it gives the slot back (twice is harmless). */
export type Release = () => void;

export interface OriginLimiter {
  /**
   * Waits for a free slot for `origin` (scheme://host:port). Rejects with `signal.reason` when
   * the signal aborts first; a slot is never held by a caller that gave up.
   */
  acquire(origin: string, signal: AbortSignal): Promise<Release>;
  /** Releases connections. */
  close?(): Promise<void>;
}

/** Counts requests per origin in this process. */
export class LocalOriginLimiter implements OriginLimiter {
  readonly #limit: number;
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, Array<() => void>>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  acquire(origin: string, signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener("abort", onAbort);
        this.#active.set(origin, (this.#active.get(origin) ?? 0) + 1);
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#release(origin);
        });
      };
      const onAbort = () => {
        const queue = this.#waiting.get(origin);
        const at = queue?.indexOf(grant) ?? -1;
        if (queue && at >= 0) queue.splice(at, 1);
        if (queue?.length === 0) this.#waiting.delete(origin);
        reject(signal.reason);
      };
      if ((this.#active.get(origin) ?? 0) < this.#limit) {
        grant();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      const queue = this.#waiting.get(origin) ?? [];
      queue.push(grant);
      this.#waiting.set(origin, queue);
    });
  }

  #release(origin: string): void {
    const count = (this.#active.get(origin) ?? 1) - 1;
    if (count === 0) this.#active.delete(origin);
    else this.#active.set(origin, count);
    const queue = this.#waiting.get(origin);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(origin);
    next?.();
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
