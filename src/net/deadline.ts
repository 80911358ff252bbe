/**
 * One total deadline per fetch. Every stage (DNS, connect, robots.txt, each redirect, the body)
 * shares the same AbortSignal, so the time budget cannot be spent twice.
 */
import { EventEmitter, setMaxListeners } from "node:events";
import { WebFetchError } from "../errors.js";

/** Node's longest timer; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A deadline's abort as an EventEmitter: an "abort" event; `aborted`, `reason` as a signal's. */
class AbortEvents extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  constructor() {
    super();
    // Any number of requests may listen to one deadline (a map's sitemaps): none is a leak.
    this.setMaxListeners(0);
  }
}

export class Deadline {
  readonly timeoutMs: number;
  readonly #endsAt: number;
  /**
   * Made when `signal` is first read: an AbortSignal costs a fetch about 3 µs to make and to
   * listen to, and a fetch that finds its slots free hands undici `events` instead.
   */
  #controller: AbortController | undefined;
  readonly #events = new AbortEvents();
  readonly #timer: NodeJS.Timeout;
  #timedOut = false;
  /** Stops following the caller's signal, until close(). */
  #unfollow: (() => void) | undefined;
  /** Stages racing the deadline: each is told when it passes. */
  readonly #waiting = new Set<() => void>();

  /**
   * A deadline `timeoutMs` from now, cancelled early when `parent` aborts. Its own timer and a
   * listener on `parent` (one for all the deadlines it bounds) replace AbortSignal.timeout() and
   * AbortSignal.any(), which cost about 20 µs and 50 µs per fetch; close() stops following
   * `parent` once the work is done.
   */
  constructor(timeoutMs: number, parent?: AbortSignal) {
    this.timeoutMs = timeoutMs;
    this.#endsAt = Date.now() + timeoutMs;
    // Like AbortSignal.timeout(), the timer does not keep Node alive, except while a stage
    // waits (see race).
    this.#timer = setTimeout(
      () => {
        this.#timedOut = true;
        this.#detach();
        this.#abort(new DOMException("The operation timed out.", "TimeoutError"));
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    ).unref();
    if (parent?.aborted) {
      this.#fromParent(parent.reason);
    } else if (parent) {
      this.#unfollow = follow(parent, () => {
        this.#unfollow = undefined;
        this.#fromParent(parent.reason);
      });
    }
  }

  /** The deadline as an AbortSignal: it aborts when the time is spent or the caller cancels. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      // As many stages may wait on it at once as on `events`: a rendered page's subresources
      // queue for their origin's politeness slot, each listening, and each stops listening
      // once served. Node would warn of a leak past ten.
      setMaxListeners(0, this.#controller.signal);
      if (this.#events.aborted) this.#controller.abort(this.#events.reason);
    }
    return this.#controller.signal;
  }

  /**
   * The same abort as an EventEmitter with `aborted` and `reason`, which undici also takes as a
   * request's signal, at a fraction of an AbortSignal's cost.
   */
  get events(): EventEmitter & { readonly aborted: boolean; readonly reason: unknown } {
    return this.#events;
  }

  /**
   * Ends the deadline's hold on time and on the caller's signal: the timer is cleared and the
   * listener on the parent removed, so a long-lived parent (a crawl's) does not collect one per
   * page. Call it once the work is done; the deadline is not to be raced after.
   */
  close(): void {
    clearTimeout(this.#timer);
    this.#detach();
  }

  /** Milliseconds left, never negative. */
  remaining(): number {
    return Math.max(0, this.#endsAt - Date.now());
  }

  /** True once the time budget is spent. */
  get expired(): boolean {
    return this.#timedOut || this.remaining() === 0;
  }

  /** True when the caller cancelled (not the deadline). */
  get cancelled(): boolean {
    return this.#events.aborted && !this.#timedOut;
  }

  /** This deadline's TIMEOUT error, as agents' web tools word it: "Request timed out after 30s". */
  timeoutError(cause?: unknown): WebFetchError {
    const seconds = Math.round((this.timeoutMs / 1000) * 10) / 10;
    return new WebFetchError("TIMEOUT", `Request timed out after ${seconds}s`, { cause });
  }

  /** Throws when the deadline passed or the caller cancelled. */
  throwIfDone(): void {
    if (this.expired) throw this.timeoutError();
    if (this.#events.aborted) throw abortError(this.#events.reason);
  }

  /** Resolves with `promise`, or rejects as soon as the deadline passes or the caller cancels. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#events.aborted) {
      promise.catch(() => {});
      return Promise.reject(this.#abortError());
    }
    return new Promise<T>((resolve, reject) => {
      const onPassed = () => reject(this.#abortError());
      // The deadline's timer keeps Node alive while any stage waits, so a stage waiting on work
      // that holds no handle of its own still ends, with TIMEOUT, instead of the process exiting
      // silently under it.
      if (this.#waiting.size === 0) this.#timer.ref();
      this.#waiting.add(onPassed);
      const settled = () => {
        this.#waiting.delete(onPassed);
        if (this.#waiting.size === 0) this.#timer.unref();
      };
      promise.then(
        (value) => {
          settled();
          resolve(value);
        },
        (error: unknown) => {
          settled();
          reject(error);
        },
      );
    });
  }

  /**
   * A slot from `acquire` (a semaphore, a politeness limiter) within the deadline. A slot
   * granted after the deadline gave up on it goes straight back, so none is ever held by nobody.
   * `free`, when given, hands a slot over at once if one is free, sparing the wait its cost.
   */
  slot(
    acquire: (signal: AbortSignal) => Promise<() => void>,
    free?: () => (() => void) | undefined,
  ): Promise<() => void> {
    const now = free && !this.#events.aborted ? free() : undefined;
    if (now) return Promise.resolve(now);
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

  /**
   * Passes the caller's abort on. A caller whose own time ran out (an enclosing deadline, an
   * AbortSignal.timeout()) left this one no time either: that is a TIMEOUT here too, not a cancel,
   * whichever of the two timers fired first.
   */
  #fromParent(reason: unknown): void {
    if (reason instanceof DOMException && reason.name === "TimeoutError") this.#timedOut = true;
    this.#abort(reason);
  }

  /** The error a stage gets once the deadline passed or the caller cancelled. */
  #abortError(): Error {
    return this.expired ? this.timeoutError() : abortError(this.#events.reason);
  }

  /**
   * Aborts the deadline (its signal if made, and its events), then tells every waiting stage. The
   * controller is this deadline's own, so this is the only way its signal aborts.
   */
  #abort(reason: unknown): void {
    if (this.#events.aborted) return;
    this.#events.aborted = true;
    this.#events.reason = reason;
    this.#controller?.abort(reason);
    this.#events.emit("abort");
    // No stage waits any more: a cancelled deadline must not hold the process until its time.
    this.#timer.unref();
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const onPassed of waiting) onPassed();
  }

  #detach(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
  }
}

/** The deadlines following one caller's signal, and the one listener on it that tells them. */
interface Followers {
  told: Set<() => void>;
  listener: () => void;
}

const followed = new WeakMap<AbortSignal, Followers>();

/**
 * Calls `onAbort` once when `parent` aborts, until the function returned is called. However many
 * deadlines follow one signal (a crawl's pages in flight, a caller's batch of fetches sharing
 * one), the signal has one listener: one each would make Node warn of a leak past ten. The
 * listener goes when the last follower lets go, so a long-lived signal keeps nothing.
 */
function follow(parent: AbortSignal, onAbort: () => void): () => void {
  let followers = followed.get(parent);
  if (followers === undefined) {
    const told = new Set<() => void>();
    const tell = () => {
      followed.delete(parent);
      for (const each of told) {
        // Each deadline is told, as each listener of an event is: one that throws is reported
        // as uncaught, the way an event listener's error is, and the rest still hear.
        try {
          each();
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    };
    followers = { told, listener: tell };
    followed.set(parent, followers);
    parent.addEventListener("abort", tell, { once: true });
  }
  const { told } = followers;
  told.add(onAbort);
  return () => {
    told.delete(onAbort);
    if (told.size === 0 && followed.get(parent) === followers) {
      followed.delete(parent);
      parent.removeEventListener("abort", followers.listener);
    }
  };
}

/** A caller's cancellation: an AbortError DOMException, as fetch() throws. */
function abortError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  return new DOMException("The operation was aborted", "AbortError");
}
