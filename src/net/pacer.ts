/**
 * Spacing between requests to one origin, for a robots.txt `Crawl-delay`: one request to the
 * origin at a time, each starting at least `intervalMs` after the previous one ended, however
 * many crawls share the pacer. Counting from the end (not the start) of the previous request
 * keeps the spacing as the server sees it, whatever the request took or however late a timer
 * fired. The local pacer spaces this process's requests; the Redis one (cache/redis-pacer.ts)
 * spaces every process's that share the server.
 */
import { Semaphore } from "./semaphore.js";

/** Ends a paced request: the next one to the origin may start `intervalMs` after this. */
export type PaceRelease = () => void;

export interface OriginPacer {
  /**
   * Waits until a request to `origin` may start: no other paced request to it is in flight,
   * and the last one ended at least `intervalMs` ago. Resolves with the release to call once
   * the request has ended; rejects with `signal.reason` when the signal aborts first.
   */
  acquire(origin: string, intervalMs: number, signal: AbortSignal): Promise<PaceRelease>;
}

/** Origins remembered, idle ones forgotten first once there are more. */
const MAX_ORIGINS = 1_000;

interface OriginTurn {
  turn: Semaphore;
  /** When the last request to the origin ended (Date.now()). */
  lastEnd: number;
}

export class LocalOriginPacer implements OriginPacer {
  readonly #origins = new Map<string, OriginTurn>();

  async acquire(origin: string, intervalMs: number, signal: AbortSignal): Promise<PaceRelease> {
    signal.throwIfAborted();
    const entry = this.#entry(origin);
    const release = await entry.turn.acquire(signal);
    try {
      await sleep(entry.lastEnd + intervalMs - Date.now(), signal);
    } catch (error) {
      release();
      throw error;
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.lastEnd = Date.now();
      release();
    };
  }

  #entry(origin: string): OriginTurn {
    let entry = this.#origins.get(origin);
    if (!entry) {
      if (this.#origins.size >= MAX_ORIGINS) this.#forgetIdle();
      entry = { turn: new Semaphore(1), lastEnd: 0 };
      this.#origins.set(origin, entry);
    }
    return entry;
  }

  /** Forgets the origins nobody waits for whose last request is long over. */
  #forgetIdle(): void {
    const now = Date.now();
    for (const [origin, entry] of this.#origins) {
      if (entry.turn.idle && now - entry.lastEnd > 60_000) this.#origins.delete(origin);
    }
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
