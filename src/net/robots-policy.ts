/**
 * robots.txt enforcement (RFC 9309): one fetch per origin, cached, through the same guarded
 * agent and inside the caller's deadline. 4xx means no rules; 5xx or a robots.txt that does not
 * answer in time means "disallow everything" for now.
 */
import { LRUCache } from "lru-cache";
import { isWebFetchError, WebFetchError } from "../errors.js";
import type { Deadline } from "../fetch/deadline.js";
import { isAllowed, parseRobots, type RobotsRules } from "./robots.js";

/** How long rules stay cached (RFC 9309 §2.4: no more than 24 hours). */
const RULES_TTL_MS = 60 * 60 * 1000;
/** How long a 5xx or timeout verdict is kept before robots.txt is asked again. */
const OUTAGE_TTL_MS = 60 * 1000;
/** Origins whose rules are kept. */
const RULES_MAX_ORIGINS = 500;
/** At most this long is spent on robots.txt itself, so a slow one cannot eat the page's budget. */
const ROBOTS_TIMEOUT_MS = 10_000;

/** What the fetcher gives us: GET a URL, following redirects, capped, within a deadline. */
export type RobotsFetch = (
  url: URL,
  deadline: Deadline,
  timeoutMs: number,
) => Promise<{ status: number; body: string }>;

type Verdict =
  | { kind: "rules"; rules: RobotsRules }
  | { kind: "allow-all" }
  | { kind: "disallow-all"; why: string };

export class RobotsPolicy {
  readonly #fetch: RobotsFetch;
  readonly #token: string;
  readonly #cache = new LRUCache<string, Promise<Verdict>>({
    max: RULES_MAX_ORIGINS,
    ttl: RULES_TTL_MS,
  });

  constructor(fetchRobots: RobotsFetch, productToken: string) {
    this.#fetch = fetchRobots;
    this.#token = productToken;
  }

  /** Throws ROBOTS_DISALLOWED when robots.txt of `url`'s origin refuses it. */
  async check(url: URL, deadline: Deadline): Promise<void> {
    if (url.pathname === "/robots.txt") return;
    const verdict = await this.#verdict(url, deadline);
    const path = url.pathname + url.search;
    if (verdict.kind === "allow-all") return;
    if (verdict.kind === "disallow-all") {
      throw new WebFetchError("ROBOTS_DISALLOWED", `robots.txt of ${url.host} ${verdict.why}`, {
        retryable: true,
      });
    }
    const result = isAllowed(verdict.rules, path, this.#token);
    if (!result.allowed) {
      throw new WebFetchError(
        "ROBOTS_DISALLOWED",
        `robots.txt of ${url.host} disallows ${url.pathname}`,
        {
          retryable: false,
        },
      );
    }
  }

  #verdict(url: URL, deadline: Deadline): Promise<Verdict> {
    const origin = url.origin;
    let pending = this.#cache.get(origin);
    if (!pending) {
      pending = this.#load(new URL("/robots.txt", origin), deadline);
      this.#cache.set(origin, pending);
      // Failures that are not about robots.txt itself (blocked, cancelled) are not cached.
      pending.then(
        (verdict) => {
          // An outage is not a policy: look again soon rather than refusing for an hour.
          if (verdict.kind === "disallow-all")
            this.#cache.set(origin, pending!, { ttl: OUTAGE_TTL_MS });
        },
        () => this.#cache.delete(origin),
      );
    }
    return pending;
  }

  async #load(robotsUrl: URL, deadline: Deadline): Promise<Verdict> {
    try {
      const { status, body } = await this.#fetch(robotsUrl, deadline, ROBOTS_TIMEOUT_MS);
      if (status >= 200 && status < 300) return { kind: "rules", rules: parseRobots(body) };
      if (status >= 400 && status < 500) return { kind: "allow-all" };
      return {
        kind: "disallow-all",
        why: `is unavailable (${status}); fetching is disallowed until it answers`,
      };
    } catch (error) {
      if (deadline.expired || deadline.cancelled) throw error;
      if (isWebFetchError(error)) {
        if (error.code === "TIMEOUT") {
          return {
            kind: "disallow-all",
            why: "did not answer in time; fetching is disallowed until it answers",
          };
        }
      }
      throw error;
    }
  }
}
