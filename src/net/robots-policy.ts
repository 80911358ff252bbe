/**
 * robots.txt enforcement (RFC 9309): one fetch per origin, cached and shared by every caller,
 * through the same guarded agent. 4xx (or a robots.txt that cannot be reached through the
 * policy) means no rules; 5xx or no answer in time means "disallow everything" for now.
 * The shared fetch runs under its own deadline, so one caller's short timeout or cancel never
 * fails another caller; each caller waits on it within its own deadline.
 */
import { LRUCache } from "lru-cache";
import { isWebFetchError, WebFetchError } from "../errors.js";
import { Deadline } from "./deadline.js";
import { crawlDelay, isAllowed, parseRobots, type RobotsRules } from "./robots.js";

/** How long rules stay cached (RFC 9309 §2.4: no more than 24 hours). */
const RULES_TTL_MS = 60 * 60 * 1000;
/** How long a 5xx or timeout verdict is kept before robots.txt is asked again. */
const OUTAGE_TTL_MS = 60 * 1000;
/** Origins whose rules are kept. */
const RULES_MAX_ORIGINS = 500;
/** The shared robots.txt fetch gives up after this long (then: disallowed for now). */
const ROBOTS_TIMEOUT_MS = 10_000;
/** Failures that mean "robots.txt is unavailable" (RFC 9309 §2.3.1.3: crawling allowed). */
const UNAVAILABLE_CODES = new Set([
  "BLOCKED_ADDRESS",
  "BLOCKED_DOMAIN",
  "INVALID_URL",
  "TOO_MANY_REDIRECTS",
]);

/** What the fetcher gives us: GET a URL, following redirects, capped, within a deadline. */
export type RobotsFetch = (
  url: URL,
  deadline: Deadline,
) => Promise<{ status: number; body: string }>;

type Verdict =
  | { kind: "rules"; rules: RobotsRules }
  | { kind: "allow-all" }
  | { kind: "disallow-all"; why: string };

/** An origin's verdict: pending while robots.txt loads, and the verdict itself once it is in. */
interface Known {
  pending: Promise<Verdict>;
  verdict?: Verdict;
}

export class RobotsPolicy {
  readonly #fetch: RobotsFetch;
  readonly #token: string;
  readonly #cache = new LRUCache<string, Known>({
    max: RULES_MAX_ORIGINS,
    ttl: RULES_TTL_MS,
    // Ages are read from the clock at each look-up: caching the time for a millisecond costs
    // a timer, made again by nearly every fetch.
    ttlResolution: 0,
  });

  constructor(fetchRobots: RobotsFetch, productToken: string) {
    this.#fetch = fetchRobots;
    this.#token = productToken;
  }

  /** Throws ROBOTS_DISALLOWED when robots.txt of `url`'s origin refuses it. */
  async check(url: URL, deadline: Deadline): Promise<void> {
    if (url.pathname === "/robots.txt") return;
    const verdict = await this.#within(url, deadline);
    if (verdict.kind === "allow-all") return;
    if (verdict.kind === "disallow-all") {
      throw new WebFetchError("ROBOTS_DISALLOWED", `robots.txt of ${url.host} ${verdict.why}`, {
        retryable: true,
      });
    }
    const result = isAllowed(verdict.rules, url.pathname + url.search, this.#token);
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

  /**
   * The parsed robots.txt of `url`'s origin (its `sitemaps` among them), or undefined when the
   * origin has none or it is unavailable.
   */
  async rules(url: URL, deadline: Deadline): Promise<RobotsRules | undefined> {
    const verdict = await this.#within(url, deadline);
    return verdict.kind === "rules" ? verdict.rules : undefined;
  }

  /**
   * A test of URLs on `url`'s origin, for checking many at once: one robots.txt fetch, then
   * pure matching. An unavailable robots.txt refuses every path, as `check` does.
   */
  async judge(url: URL, deadline: Deadline): Promise<(target: URL) => boolean> {
    const verdict = await this.#within(url, deadline);
    if (verdict.kind === "allow-all") return () => true;
    if (verdict.kind === "disallow-all") return (target) => target.pathname === "/robots.txt";
    const { rules } = verdict;
    return (target) => isAllowed(rules, target.pathname + target.search, this.#token).allowed;
  }

  /**
   * The `Crawl-delay` of `url`'s origin that applies to this crawler, seconds; undefined when
   * robots.txt sets none or is unavailable.
   */
  async crawlDelay(url: URL, deadline: Deadline): Promise<number | undefined> {
    const verdict = await this.#within(url, deadline);
    return verdict.kind === "rules" ? crawlDelay(verdict.rules, this.#token) : undefined;
  }

  /**
   * The verdict of `url`'s origin: at once when it is in, without racing the deadline, else
   * once robots.txt has loaded, within `deadline`.
   */
  #within(url: URL, deadline: Deadline): Verdict | Promise<Verdict> {
    return this.#cache.get(url.origin)?.verdict ?? deadline.race(this.#verdict(url));
  }

  #verdict(url: URL): Promise<Verdict> {
    const origin = url.origin;
    const cached = this.#cache.get(origin);
    if (cached) return cached.pending;
    const known: Known = { pending: this.#load(new URL("/robots.txt", origin)) };
    this.#cache.set(origin, known);
    known.pending.then(
      (verdict) => {
        known.verdict = verdict;
        // An outage is not a policy: look again soon rather than refusing for an hour.
        if (verdict.kind === "disallow-all" && this.#cache.get(origin) === known)
          this.#cache.set(origin, known, { ttl: OUTAGE_TTL_MS });
      },
      // Failures that are not about robots.txt itself (the host is down) are not cached.
      () => {
        if (this.#cache.get(origin) === known) this.#cache.delete(origin);
      },
    );
    return known.pending;
  }

  async #load(robotsUrl: URL): Promise<Verdict> {
    const deadline = new Deadline(ROBOTS_TIMEOUT_MS);
    try {
      const { status, body } = await this.#fetch(robotsUrl, deadline);
      if (status >= 200 && status < 300) return { kind: "rules", rules: parseRobots(body) };
      if (status >= 400 && status < 500) return { kind: "allow-all" };
      return {
        kind: "disallow-all",
        why: `is unavailable (${status}); fetching is disallowed until it answers`,
      };
    } catch (error) {
      if (isWebFetchError(error)) {
        if (error.code === "TIMEOUT") {
          return {
            kind: "disallow-all",
            why: "did not answer in time; fetching is disallowed until it answers",
          };
        }
        if (UNAVAILABLE_CODES.has(error.code)) return { kind: "allow-all" };
      }
      throw error;
    } finally {
      deadline.close();
    }
  }
}
