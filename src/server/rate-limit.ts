/**
 * Per-client rate limit: a fixed window of `limit` requests per `windowMs`, keyed by the remote
 * address. Memory stays bounded: a window's counters are dropped whole when it ends.
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./errors.js";

export interface RateLimitOptions {
  /** Requests per client per window. */
  limit: number;
  windowMs: number;
  /** The client a request comes from. */
  clientOf(c: Parameters<MiddlewareHandler>[0]): string;
  /** The clock, ms. @default Date.now */
  now?: () => number;
}

/**
 * Middleware that answers 429 with Retry-After (seconds) once a client used up its window.
 *
 * @example
 * app.use("/v1/*", rateLimit({ limit: 120, windowMs: 60_000, clientOf: (c) => ip(c) }));
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const now = options.now ?? Date.now;
  let windowStart = now();
  let counts = new Map<string, number>();
  return async (c, next) => {
    const t = now();
    if (t - windowStart >= options.windowMs) {
      windowStart = t - ((t - windowStart) % options.windowMs);
      counts = new Map();
    }
    const client = options.clientOf(c);
    const used = (counts.get(client) ?? 0) + 1;
    counts.set(client, used);
    if (used > options.limit) {
      const retryAfter = Math.max(1, Math.ceil((windowStart + options.windowMs - t) / 1000));
      return errorResponse(
        c,
        "RATE_LIMITED",
        `Too many requests: at most ${options.limit} per ${options.windowMs / 1000}s; retry in ${retryAfter}s`,
        // The service's own limit; a search provider's RATE_LIMITED is an upstream failure (502).
        { status: 429, headers: { "Retry-After": String(retryAfter) } },
      );
    }
    await next();
  };
}
