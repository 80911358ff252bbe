/**
 * Phase timings of the network half of a fetch: the guard's lookup, opening the connection, and
 * waiting for the response's headers. They are read off undici's request lifecycle with
 * performance.now(), so measuring costs a few clock reads per request and changes nothing else.
 */
import type { Duplex } from "node:stream";
import type { Dispatcher } from "undici";

/** Time spent in each network phase, ms, summed over the hops and attempts of one fetch. */
export interface NetworkTimings {
  dnsMs: number;
  connectMs: number;
  firstByteMs: number;
}

/** An empty tally. */
export function networkTimings(): NetworkTimings {
  return { dnsMs: 0, connectMs: 0, firstByteMs: 0 };
}

/**
 * `dispatcher`, with each request's phases added to `tally`. undici starts a request on its
 * connection (onConnect) once the socket is open, TCP and TLS done, and just before the request
 * is written; until then the time is the connection's; from then to the response's own headers
 * (onHeaders with a final status, after any 103 Early Hints) it is the first byte's. On a
 * kept-alive connection the first phase is about 0.
 *
 * The handler speaks the callbacks undici's connection and its `request` speak to each other, and
 * passes each one on as it came. Composing an interceptor instead (`dispatcher.compose`) put a
 * proxy in front of the pool and turned every response's headers into an object and back into
 * raw bytes between the two: about 8 µs of a 100 KB fetch over loopback.
 */
export function timedDispatcher(dispatcher: Dispatcher, tally: NetworkTimings): Dispatcher {
  const timed = Object.create(dispatcher) as Dispatcher;
  timed.dispatch = (options, handler) =>
    // undici's `request` speaks the callbacks below; a handler of undici's newer kind (none here
    // today) goes through untimed rather than unheard.
    handler.onRequestStart
      ? dispatcher.dispatch(options, handler)
      : dispatcher.dispatch(options, new TimedHandler(handler, tally));
  return timed;
}

/** undici's request callbacks, the ones its connection calls, passed on as they come. */
type Callbacks = Pick<
  Dispatcher.DispatchHandler,
  | "onConnect"
  | "onError"
  | "onUpgrade"
  | "onResponseStarted"
  | "onHeaders"
  | "onData"
  | "onComplete"
  | "onBodySent"
>;

/** Times one request's phases on the way through to its own handler. */
class TimedHandler implements Callbacks {
  readonly #handler: Callbacks & { onRequestSent?(): void };
  readonly #tally: NetworkTimings;
  readonly #dispatched = performance.now();
  #sent: number | undefined;
  #answered = false;

  constructor(handler: Dispatcher.DispatchHandler, tally: NetworkTimings) {
    this.#handler = handler;
    this.#tally = tally;
  }

  onConnect(abort: (err?: Error) => void, context?: unknown): void {
    this.#sent = performance.now();
    this.#tally.connectMs += this.#sent - this.#dispatched;
    (this.#handler.onConnect as (abort: (err?: Error) => void, context?: unknown) => void)?.(
      abort,
      context,
    );
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, text: string): boolean {
    if (this.#sent !== undefined && !this.#answered && statusCode >= 200) {
      this.#answered = true;
      this.#tally.firstByteMs += performance.now() - this.#sent;
    }
    return this.#handler.onHeaders?.(statusCode, headers, resume, text) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.#handler.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    this.#handler.onComplete?.(trailers);
  }

  onError(error: Error): void {
    if (!this.#handler.onError) throw error;
    this.#handler.onError(error);
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: Duplex): void {
    this.#handler.onUpgrade?.(statusCode, headers, socket);
  }

  onResponseStarted(): void {
    this.#handler.onResponseStarted?.();
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.#handler.onBodySent?.(chunkSize, totalBytesSent);
  }

  onRequestSent(): void {
    this.#handler.onRequestSent?.();
  }
}
