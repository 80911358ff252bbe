/**
 * One HTTP hop over the shared undici agent (a GET, or a rendered page's own request): headers,
 * the deadline's signal, bounded retries of transient failures. It never follows redirects (the
 * caller checks each hop) and never decompresses (body.ts does, with a cap).
 */
import type { Readable } from "node:stream";
import type { Deadline } from "../net/deadline.js";
import { type Dispatcher, request } from "../net/undici.js";
import { discardBody } from "./body.js";
import { mapRequestError } from "./failure.js";
import { PAGE_RETRY, withRetries } from "./retry.js";
import { type NetworkTimings, timedDispatcher } from "./timings.js";

/** Preferred types first: Markdown as the site's author wrote it, then HTML, JSON, text. */
export const ACCEPT =
  "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, application/json;q=0.8, text/plain;q=0.8, */*;q=0.5";
export const ACCEPT_ENCODING = "gzip, deflate, br";

export interface HopResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface HopOptions {
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  deadline: Deadline;
  retries: number;
  /** @default "GET" (a rendered page's own requests may use any method) */
  method?: string;
  /** Request body, for methods that carry one. */
  body?: Buffer | undefined;
  /** Where the connection and first-byte phases of every attempt are added, when measured. */
  timings?: NetworkTimings | undefined;
}

/** Requests `url` once (GET unless told), retrying transient failures while the deadline allows. */
export function requestOnce(url: URL, options: HopOptions): Promise<HopResponse> {
  const method = options.method ?? "GET";
  const body = options.body && method !== "GET" && method !== "HEAD" ? { body: options.body } : {};
  const { deadline } = options;
  const dispatcher = options.timings
    ? timedDispatcher(options.dispatcher, options.timings)
    : options.dispatcher;
  return withRetries<HopResponse>({
    policy: PAGE_RETRY,
    retries: options.retries,
    deadline,
    async attempt() {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        ...body,
        dispatcher,
        headers: options.headers,
        ...withinDeadline(deadline),
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    },
    fail: (error) => mapRequestError(error, deadline),
    drop: (response) => discardBody(response.body),
  });
}

/** The request options that hold undici to the deadline. */
export function withinDeadline(deadline: Deadline) {
  return {
    // The deadline's events abort a request as its signal would, at less cost.
    signal: deadline.events,
    // The deadline covers these; undici's own 300 s defaults must not outlive it.
    headersTimeout: Math.max(1, deadline.remaining()),
    bodyTimeout: Math.max(1, deadline.remaining()),
  };
}
