/**
 * Spacing between requests to one origin, for a robots.txt `Crawl-delay`: each caller gets the
 * next free moment for the origin and waits for it, so requests start at least `intervalMs`
 * apart however many crawls share the pacer. The local pacer spaces this process's requests;
 * the Redis one (cache/redis-pacer.ts) spaces every process's that share the server.
 */

export interface OriginPacer {
  /**
   * Waits until a request to `origin` may start, `intervalMs` after the previous one given the
   * same origin. Rejects with `signal.reason` when the signal aborts first.
   */
  wait(origin: string, intervalMs: number, signal: AbortSignal): Promise<void>;
}

/** Origins remembered before the ones whose moment has passed are forgotten. */
const MAX_ORIGINS = 1_000;

export class LocalOriginPacer implements OriginPacer {
  readonly #next = new Map<string, number>();

  async wait(origin: string, intervalMs: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const now = Date.now();
    if (this.#next.size >= MAX_ORIGINS) {
      for (const [key, at] of this.#next) if (at <= now) this.#next.delete(key);
    }
    const at = Math.max(now, this.#next.get(origin) ?? 0);
    this.#next.set(origin, at + intervalMs);
    await sleep(at - now, signal);
  }
}

/** Resolves after `ms`, or rejects with `signal.reason` when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
