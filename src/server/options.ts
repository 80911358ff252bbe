/**
 * Options of the HTTP service and their defaults.
 */
/** Limits of the HTTP service; every one can be set per server. */
export interface ServerLimits {
  /** Largest request body, bytes; a larger one is answered 413. @default 1048576 */
  maxBodyBytes?: number;
  /**
   * Calls one client (by address; IPv6 by /64) may make per window, each message of a JSON-RPC
   * batch one call; more get 429. @default 120
   */
  rateLimit?: number;
  /** The rate limit's window, ms. @default 60000 */
  rateWindowMs?: number;
  /** How long shutdown waits for in-flight requests before cutting them off, ms. @default 10000 */
  shutdownGraceMs?: number;
}

/** Defaults of the HTTP service. */
export const SERVER_DEFAULTS = {
  /** Loopback only: exposing a fetcher to a network is a decision, never a default. */
  host: "127.0.0.1",
  port: 8787,
  maxBodyBytes: 1024 * 1024,
  rateLimit: 120,
  rateWindowMs: 60_000,
  shutdownGraceMs: 10_000,
  /** X-Forwarded-For is anyone's to write: read only when the operator says a proxy sets it. */
  trustProxy: false,
} as const;
