/**
 * One total deadline per fetch. Every stage (DNS, connect, robots.txt, each redirect, the body)
 * shares the same AbortSignal, so the time budget cannot be spent twice.
 */
import { WebFetchError } from "../errors.js";

/** How long past the deadline a waiting stage keeps the process alive for its timer to fire. */
const HOLD_SLACK_MS = 100;
/** Node's longest timer; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Deadline {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly #endsAt: number;
  readonly #timer: AbortSignal;

  constructor(timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    this.#endsAt = Date.now() + timeoutMs;
    this.#timer = AbortSignal.timeout(timeoutMs);
    this.signal = parent ? AbortSignal.any([parent, this.#timer]) : this.#timer;
  }

  /** Milliseconds left, never negative. */
  remaining(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  /** True once the time budget is spent. */
  get expired(): boolean {
    return this.#timer.aborted || this.remaining() === 0;
  }

  /** True when the caller cancelled (not the deadline). */
  get cancelled(): boolean {
    return this.signal.aborted && !this.#timer.aborted;
  }

  /** This deadline's TIMEOUT error, as agents' web tools word it: "Request timed out after 30s". */
  timeoutError(cause?: unknown): WebFetchError {
    const seconds = Math.round((this.timeoutMs / 1000) * 10) / 10;
    return new WebFetchError("TIMEOUT", `Request timed out after ${seconds}s`, { cause });
  }

  /** Throws when the deadline passed or the caller cancelled. */
  throwIfDone(): void {
    if (this.expired) throw this.timeoutError();
    if (this.signal.aborted) throw abortError(this.signal.reason);
  }

  /** Resolves with `promise`, or rejects as soon as the deadline passes or the caller cancels. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.signal.aborted) {
      promise.catch(() => {});
      return Promise.reject(this.expired ? this.timeoutError() : abortError(this.signal.reason));
    }
    return new Promise<T>((resolve, reject) => {
      // The deadline's own timer does not keep Node alive; this one does, so a stage waiting on
      // work that holds no handle of its own still ends, with TIMEOUT, instead of the process
      // exiting silently under it.
      const hold = setTimeout(() => {}, Math.min(this.remaining() + HOLD_SLACK_MS, MAX_TIMER_MS));
      const onAbort = () => {
        clearTimeout(hold);
        reject(this.expired ? this.timeoutError() : abortError(this.signal.reason));
      };
      this.signal.addEventListener("abort", onAbort, { once: true });
      promise.then(
        (value) => {
          clearTimeout(hold);
          this.signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(hold);
          this.signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  /**
   * A slot from `acquire` (a semaphore, a politeness limiter) within the deadline. A slot
   * granted after the deadline gave up on it goes straight back, so none is ever held by nobody.
   */
  slot(acquire: (signal: AbortSignal) => Promise<() => void>): Promise<() => void> {
    const acquiring = acquire(this.signal);
    return this.race(acquiring).catch((error: unknown) => {
      void acquiring.then(
        (release) => release(),
        () => {},
      );
      throw error;
    });
  }

  /**
   * Waits `ms`, or less if the deadline comes first (then rejects with TIMEOUT). race() keeps the
   * process alive while it waits: a retry's wait is often the only pending work of a CLI run or
   * a bare script.
   */
  sleep(ms: number): Promise<void> {
    return this.race(new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  }
}

/** A caller's cancellation: an AbortError DOMException, as fetch() throws. */
function abortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new DOMException("The operation was aborted", "AbortError");
}
