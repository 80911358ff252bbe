/**
 * A counting semaphore: the global concurrency limit of an instance, its renders, and each
 * origin's politeness limit (politeness.ts). A waiter whose signal aborts leaves the queue.
 */
export class Semaphore {
  readonly #size: number;
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#size = size;
    this.#free = size;
  }

  /** True when no slot is held and nobody waits. */
  get idle(): boolean {
    return this.#free === this.#size && this.#waiting.length === 0;
  }

  /** A slot's release function at once when one is free (and nobody waits), else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.#free === 0) return undefined;
    this.#free--;
    return this.#release();
  }

  /**
   * Resolves with a release function once a slot is free; rejects with `signal.reason` if the
   * signal aborts first (no slot is then held).
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // A free slot is granted at once: nothing waits, so nothing listens to the signal.
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve(this.#release());
      };
      const onAbort = () => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      this.#waiting.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The release of a slot just granted: the slot goes to the next waiter, else back (once). */
  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
