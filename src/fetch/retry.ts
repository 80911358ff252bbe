/**
 * Retries of transient failures inside a deadline: one loop for a page's hops and for calls to
 * the endpoints the operator configured, each with its policy below. A retry waits for the
 * Retry-After a response names, or backs off, and happens only while the wait is short and the
 * retry can still finish before the deadline; otherwise the response or the failure stands.
 */
import { LIMITS } from "../limits.js";
import type { Deadline } from "../net/deadline.js";
import { isTransientError } from "./failure.js";

/** Which failures are worth another try, and how long to wait first. */
export interface RetryPolicy {
  /** Statuses retried after a backoff (or after their Retry-After, when `retryAfter` has them). */
  backoff: ReadonlySet<number>;
  /** Statuses whose Retry-After sets the wait; one not in `backoff` is retried only with one. */
  retryAfter: ReadonlySet<number>;
  /** The first backoff, ms; doubled on each retry. */
  backoffMs: number;
  /** Whether a connection that failed before any answer (reset, refused, closed) is retried. */
  reconnect: boolean;
}

/**
 * A page's site: a gateway that says "not now" (502, 503, 504) is asked again after a backoff,
 * or after a 503's Retry-After; a rate limit (429) only when its Retry-After says when, as a
 * site that has not said when it is willing is not pressed; a dropped connection is retried.
 */
export const PAGE_RETRY: RetryPolicy = {
  backoff: new Set([502, 503, 504]),
  retryAfter: new Set([429, 503]),
  backoffMs: 200,
  reconnect: true,
};

/**
 * An operator's endpoint (a search provider, Tavily, a fetch service): rate limits and gateway
 * failures are retried after the Retry-After they name, else with backoff, as the providers
 * ask; an endpoint that cannot be reached is reported at once, as the operator's to fix.
 */
export const ENDPOINT_RETRY: RetryPolicy = {
  backoff: new Set([429, 502, 503, 504]),
  retryAfter: new Set([429, 502, 503, 504]),
  backoffMs: 250,
  reconnect: false,
};

/** What a retry reads of a response. */
export interface Answered {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface RetryCall<R extends Answered> {
  policy: RetryPolicy;
  /** Retries after the first try. */
  retries: number;
  deadline: Deadline;
  /** One try: the response, whatever its status; throws when there is none. */
  attempt(): Promise<R>;
  /** What a failed try is reported as when no retry follows it. */
  fail(error: unknown): unknown;
  /** Lets go of a response that is about to be retried. */
  drop?(response: R): void;
}

/**
 * Tries until a response is kept or a failure is final, within the deadline.
 *
 * @example
 * const send = () => request(url, { dispatcher, ...withinDeadline(deadline) });
 * const res = await withRetries({ policy: PAGE_RETRY, retries: 2, deadline, attempt: send, fail });
 */
export async function withRetries<R extends Answered>(call: RetryCall<R>): Promise<R> {
  const { policy, deadline } = call;
  for (let attempt = 0; ; attempt++) {
    deadline.throwIfDone();
    let response: R;
    try {
      response = await call.attempt();
    } catch (error) {
      const again =
        attempt < call.retries &&
        policy.reconnect &&
        isTransientError(error) &&
        deadline.remaining() > policy.backoffMs;
      if (!again) throw call.fail(error);
      await deadline.sleep(policy.backoffMs * 2 ** attempt);
      continue;
    }
    const wait =
      attempt < call.retries ? retryWait(policy, response, attempt, deadline) : undefined;
    if (wait === undefined) return response;
    call.drop?.(response);
    await deadline.sleep(wait);
  }
}

/** Milliseconds to wait before trying again, or undefined to keep this response. */
function retryWait(
  policy: RetryPolicy,
  res: Answered,
  attempt: number,
  deadline: Deadline,
): number | undefined {
  let wait = policy.backoff.has(res.status) ? policy.backoffMs * 2 ** attempt : undefined;
  if (policy.retryAfter.has(res.status)) {
    wait = parseRetryAfter(res.headers["retry-after"]) ?? wait;
  }
  if (wait === undefined || wait > LIMITS.maxRetryAfter) return undefined;
  // Only when the retry can still finish inside the deadline; otherwise report at once.
  return wait < deadline.remaining() - 50 ? wait : undefined;
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
