/**
 * Per-client rate limit: a fixed window of `limit` calls per `windowMs`, keyed by the client's
 * address. A call is one HTTP request, or one message of a JSON-RPC batch: a batch must not buy
 * many calls for the price of one. Memory stays bounded: a window's counters are dropped whole
 * when it ends.
 */
import type { Context, MiddlewareHandler } from "hono";
import ipaddr from "ipaddr.js";
import { parseIpLiteral } from "../net/address.js";
import { errorResponse } from "./errors.js";

export interface RateLimitOptions {
  /** Calls per client per window. */
  limit: number;
  windowMs: number;
  /** The address a request comes from. */
  clientOf(c: Context): string;
  /** The clock, ms. @default Date.now */
  now?: () => number;
}

export interface RateLimiter {
  /** Middleware that counts each request as one call. */
  middleware: MiddlewareHandler;
  /** Counts `calls` more calls of the request's client: a 429 response once it is over. */
  charge(c: Context, calls: number): Response | undefined;
}

/**
 * The bucket of an address: an IPv6 client holds a whole /64 as a rule, so one bucket per /64;
 * an IPv4-mapped address is its IPv4 address. Anything else (no address) is its own bucket.
 */
export function rateKey(address: string): string {
  const ip = parseIpLiteral(address);
  if (!(ip instanceof ipaddr.IPv6)) return ip?.toString() ?? address;
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
  return `${ip.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(":")}::/64`;
}

/**
 * A limiter whose middleware answers 429 with Retry-After (seconds) once a client used up its
 * window, and whose `charge` counts the further calls a request turns out to carry.
 *
 * @example
 * const limiter = createRateLimiter({ limit: 120, windowMs: 60_000, clientOf: (c) => ip(c) });
 * app.use("*", limiter.middleware);
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const now = options.now ?? Date.now;
  let windowStart = now();
  let counts = new Map<string, number>();
  const charge = (c: Context, calls: number): Response | undefined => {
    const t = now();
    if (t - windowStart >= options.windowMs) {
      windowStart = t - ((t - windowStart) % options.windowMs);
      counts = new Map();
    }
    const client = rateKey(options.clientOf(c));
    const used = (counts.get(client) ?? 0) + calls;
    counts.set(client, used);
    if (used <= options.limit) return undefined;
    const retryAfter = Math.max(1, Math.ceil((windowStart + options.windowMs - t) / 1000));
    return errorResponse(
      c,
      "RATE_LIMITED",
      `Too many requests: at most ${options.limit} calls per ${options.windowMs / 1000}s; retry in ${retryAfter}s`,
      // The service's own limit; a search provider's RATE_LIMITED is an upstream failure (502).
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  };
  return {
    charge,
    middleware: async (c, next) => {
      const refused = charge(c, 1);
      if (refused) return refused;
      await next();
    },
  };
}
