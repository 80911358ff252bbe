/**
 * Phase timings of the network half of a fetch: the guard's lookup, opening the connection, and
 * waiting for the response's headers. They are read off undici's request lifecycle with
 * performance.now(), so measuring costs a few clock reads per request and changes nothing else.
 */
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

/** Runs `work` and adds the time it took to `tally[phase]`, whether it succeeds or throws. */
export async function timed<T>(
  tally: NetworkTimings,
  phase: keyof NetworkTimings,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    tally[phase] += performance.now() - started;
  }
}

/**
 * `dispatcher`, with each request's phases added to `tally`. undici starts a request on its
 * connection (onRequestStart) once the socket is open, TCP and TLS done, and just before the
 * request is written; until then the time is the connection's; from then to the response's
 * headers (onResponseStart) it is the first byte's. On a kept-alive connection the first phase
 * is about 0.
 */
export function timedDispatcher(dispatcher: Dispatcher, tally: NetworkTimings): Dispatcher {
  return dispatcher.compose((dispatch) => (options, handler) => {
    const dispatched = performance.now();
    let sent: number | undefined;
    return dispatch(options, {
      onRequestStart(controller, context) {
        sent = performance.now();
        tally.connectMs += sent - dispatched;
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (controller, statusCode, headers, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart(controller, statusCode, headers, statusMessage) {
        if (sent !== undefined) tally.firstByteMs += performance.now() - sent;
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });
  });
}
