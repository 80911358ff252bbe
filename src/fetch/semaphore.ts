/**
 * A counting semaphore: the global concurrency limit across origins (undici's pool already
 * limits connections per origin).
 */
export class Semaphore {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          const next = this.#waiting.shift();
          if (next) next();
          else this.#free++;
        });
      };
      if (this.#free > 0) {
        this.#free--;
        grant();
      } else {
        this.#waiting.push(grant);
      }
    });
  }
}
