/**
 * The network half of the pipeline: policy → robots.txt → GET, hop by hop, until a final
 * response whose decoded body is in memory. Every hop is checked as the first request was.
 */

import type { Agent, buildConnector } from "undici";
import { httpErrorMessage, WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { createAgent } from "../net/agent.js";
import type { Deadline } from "../net/deadline.js";
import { checkDomainLists, redirectAllowed } from "../net/domains.js";
import { AddressGuard, type LookupFn } from "../net/guard.js";
import { LocalOriginLimiter, type OriginLimiter } from "../net/politeness.js";
import type { RobotsRules } from "../net/robots.js";
import { RobotsPolicy } from "../net/robots-policy.js";
import { normalizeUrl, type ParsedTarget, parseTargetUrl } from "../net/url.js";
import type { ResolvedOptions } from "../options.js";
import type { Redirect } from "../result.js";
import type { RedirectPolicy, RobotsPolicy as RobotsMode } from "../values.js";
import { discardBody, parseContentEncoding, readBody } from "./body.js";
import { mapBodyError } from "./failure.js";
import { ACCEPT, ACCEPT_ENCODING, type HopResponse, requestOnce } from "./http.js";
import { type NetworkTimings, networkTimings } from "./timings.js";

/** Statuses that redirect; 303 turns into GET, which every request here already is. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Request headers that carry credentials: dropped when a redirect changes origin. */
const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

export interface RawResponse {
  url: string;
  finalUrl: string;
  redirects: Redirect[];
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The network phases of this fetch, over every hop. */
  timings: NetworkTimings;
}

export interface HopPolicy {
  redirects: RedirectPolicy;
  maxRedirects: number;
  robots: RobotsMode;
  headers: Record<string, string>;
  /**
   * Validators of a cached copy: the request becomes conditional, and a 304 comes back as a
   * response with status 304 and no body instead of an error.
   */
  validators?: Validators | undefined;
  /** Cap on the decoded body of the final response. @default the instance's maxBytes */
  maxBytes?: number | undefined;
}

/** What a cached copy is revalidated with. */
export interface Validators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** A request a rendered page makes (its subresources, its own XHR and fetch calls). */
export interface ResourceRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
}

/** One hop's answer to a resource request; redirects are handed back, not followed. */
export interface ResourceResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Request headers a browser sends that this client sets itself or that describe one hop. */
const BROWSER_OWN_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "accept-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-authorization",
  "proxy-connection",
]);

/** Response headers that no longer hold once the body is decoded and whole. */
const DECODED_DROP = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
]);

export interface FetcherDeps {
  lookup?: LookupFn | undefined;
  connect?: buildConnector.connector | undefined;
  /** Per-origin politeness. @default requests per origin counted in this process */
  limiter?: OriginLimiter | undefined;
}

/** Owns the guarded undici agent and the robots.txt cache of one webfetch instance. */
export class Fetcher {
  readonly #options: ResolvedOptions;
  readonly #guard: AddressGuard;
  readonly #agent: Agent;
  readonly #robots: RobotsPolicy;
  readonly #limiter: OriginLimiter;
  /** Whether the limiter is this fetcher's own (an injected one is closed by its owner). */
  readonly #ownsLimiter: boolean;

  constructor(options: ResolvedOptions, deps: FetcherDeps = {}) {
    this.#options = options;
    this.#limiter = deps.limiter ?? new LocalOriginLimiter(options.maxConnectionsPerOrigin);
    this.#ownsLimiter = deps.limiter === undefined;
    this.#guard = new AddressGuard({
      allowPrivateNetwork: options.allowPrivateNetwork,
      allowAddresses: options.allowAddresses,
      lookup: deps.lookup,
    });
    this.#agent = createAgent({
      connections: options.maxConnectionsPerOrigin,
      connect: deps.connect,
      guard: this.#guard,
    });
    this.#robots = new RobotsPolicy(
      (url, deadline) => this.#fetchRobots(url, deadline),
      options.productToken,
    );
  }

  /** Closes pooled connections. */
  async close(): Promise<void> {
    await this.#agent.close();
    if (this.#ownsLimiter) await this.#limiter.close?.();
  }

  /** Checks a target against the pure policy (scheme, names, domain lists). */
  checkTarget(target: ParsedTarget): void {
    checkDomainLists(target.hostname, this.#options.allowedDomains, this.#options.blockedDomains);
  }

  /** Follows `target` to its final response and reads the body, all within `deadline`. */
  fetch(target: ParsedTarget, policy: HopPolicy, deadline: Deadline): Promise<RawResponse> {
    const start = target.url;
    const timings = networkTimings();
    return followRedirects(target, {
      redirects: policy.redirects,
      maxRedirects: policy.maxRedirects,
      // The origin's politeness slot covers the hop and, for the final one, reading its body.
      hold: (current) =>
        deadline.slot(
          (signal) => this.#limiter.acquire(current.url.origin, signal),
          () => this.#limiter.tryAcquire?.(current.url.origin),
        ),
      hop: (current) => this.#hop(current, policy, start, deadline, timings),
      finish: async (current, response, redirects) => ({
        ...(await this.#finish(start, current.url, redirects, response, deadline, policy)),
        timings,
      }),
    });
  }

  /**
   * The robots.txt rules of `url`'s origin (its `Sitemap:` lines among them), fetched once and
   * cached like every robots.txt check; undefined when it has none or is unavailable.
   */
  robotsRules(url: URL, deadline: Deadline): Promise<RobotsRules | undefined> {
    return this.#robots.rules(url, deadline);
  }

  /** A test of many URLs of `url`'s origin against its robots.txt, fetched once. */
  robotsJudge(url: URL, deadline: Deadline): Promise<(target: URL) => boolean> {
    return this.#robots.judge(url, deadline);
  }

  /** The `Crawl-delay` of `url`'s origin for this crawler, seconds, when robots.txt sets one. */
  robotsCrawlDelay(url: URL, deadline: Deadline): Promise<number | undefined> {
    return this.#robots.crawlDelay(url, deadline);
  }

  /**
   * One request of a rendered page, one hop: the domain lists and the address guard as for any
   * page (robots.txt is for crawlers' page fetches, not a page's own subresources), the body
   * decoded and capped at `maxBytes`. Redirects come back as they are, so the browser asks
   * again and that hop is checked again.
   */
  async resource(
    req: ResourceRequest,
    deadline: Deadline,
    maxBytes: number,
  ): Promise<ResourceResponse> {
    const target = parseTargetUrl(req.url);
    this.checkTarget(target);
    await deadline.race(this.#guard.resolve(target.hostname, target.port));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      const lower = name.toLowerCase();
      if (!BROWSER_OWN_HEADERS.has(lower)) headers[lower] = value;
    }
    headers["accept-encoding"] = ACCEPT_ENCODING;
    headers["user-agent"] = this.#options.userAgent;
    const release = await deadline.slot(
      (signal) => this.#limiter.acquire(target.url.origin, signal),
      () => this.#limiter.tryAcquire?.(target.url.origin),
    );
    try {
      const response = await requestOnce(target.url, {
        dispatcher: this.#agent,
        headers,
        deadline,
        retries: 0,
        method: req.method,
        body: req.body,
      });
      const body = await this.#read(response, maxBytes, deadline, "throw");
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined || DECODED_DROP.has(name)) continue;
        out[name] = Array.isArray(value) ? value.join(name === "set-cookie" ? "\n" : ", ") : value;
      }
      return { status: response.status, headers: out, body };
    } finally {
      release();
    }
  }

  /** One hop: policy, robots.txt, GET. */
  async #hop(
    target: ParsedTarget,
    policy: HopPolicy,
    start: URL,
    deadline: Deadline,
    timings: NetworkTimings,
  ): Promise<HopResponse> {
    this.checkTarget(target);
    // The guard resolves and checks before anything else touches the network, robots.txt
    // included; the connector then reuses this exact, pinned resolution.
    // A literal or a name already pinned is checked at once, without a turn of waiting.
    const resolving = performance.now();
    try {
      if (this.#guard.resolvedNow(target.hostname, target.port) === undefined) {
        await deadline.race(this.#guard.resolve(target.hostname, target.port));
      }
    } finally {
      timings.dnsMs += performance.now() - resolving;
    }
    if (policy.robots === "respect") await this.#robots.check(target.url, deadline);
    const headers = this.#headers(policy.headers, target.url.origin !== start.origin);
    const { etag, lastModified } = policy.validators ?? {};
    if (etag) headers["if-none-match"] = etag;
    if (lastModified) headers["if-modified-since"] = lastModified;
    return requestOnce(target.url, {
      dispatcher: this.#agent,
      headers,
      deadline,
      retries: this.#options.retries,
      timings,
    });
  }

  #headers(extra: Record<string, string>, crossOrigin: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      "user-agent": this.#options.userAgent,
      accept: ACCEPT,
      "accept-encoding": ACCEPT_ENCODING,
      "accept-language": "en;q=0.9, *;q=0.5",
    };
    for (const [name, value] of Object.entries(extra)) {
      const lower = name.toLowerCase();
      if (crossOrigin && CREDENTIAL_HEADERS.has(lower)) continue;
      // The body cap depends on decoding what we asked for.
      if (lower === "accept-encoding") continue;
      headers[lower] = value;
    }
    return headers;
  }

  async #finish(
    start: URL,
    finalUrl: URL,
    redirects: Redirect[],
    response: HopResponse,
    deadline: Deadline,
    policy: HopPolicy,
  ): Promise<Omit<RawResponse, "timings">> {
    if (response.status === 304 && policy.validators) {
      discardBody(response.body);
      return {
        url: start.href,
        finalUrl: finalUrl.href,
        redirects,
        status: 304,
        headers: response.headers,
        body: Buffer.alloc(0),
      };
    }
    if (response.status < 200 || response.status >= 300) {
      discardBody(response.body);
      throw new WebFetchError("HTTP_ERROR", httpErrorMessage(response.status), {
        status: response.status,
        retryable: response.status === 429 || response.status >= 500,
      });
    }
    const cap = policy.maxBytes ?? this.#options.maxBytes;
    const body = await this.#read(response, cap, deadline, "throw");
    return {
      url: start.href,
      finalUrl: finalUrl.href,
      redirects,
      status: response.status,
      headers: response.headers,
      body,
    };
  }

  async #read(
    response: HopResponse,
    cap: number,
    deadline: Deadline,
    overflow: "throw" | "truncate",
  ): Promise<Buffer> {
    const length = Number(firstHeader(response.headers["content-length"]));
    try {
      return await readBody(
        response.body,
        parseContentEncoding(response.headers["content-encoding"]),
        cap,
        Number.isFinite(length) ? length : undefined,
        overflow,
      );
    } catch (error) {
      if (error instanceof WebFetchError) throw error;
      throw mapBodyError(error, deadline);
    }
  }

  /**
   * GET robots.txt: redirects followed (RFC 9309 asks crawlers to follow at least five) to any
   * host, each hop checked as a page's is; body capped at 500 KiB.
   */
  #fetchRobots(url: URL, deadline: Deadline): Promise<{ status: number; body: string }> {
    return followRedirects(parseTargetUrl(url.href), {
      redirects: "follow",
      maxRedirects: LIMITS.robotsMaxRedirects,
      hop: async (current) => {
        this.checkTarget(current);
        await deadline.race(this.#guard.resolve(current.hostname, current.port));
        return requestOnce(current.url, {
          dispatcher: this.#agent,
          headers: this.#headers({}, false),
          deadline,
          retries: 0,
        });
      },
      finish: async (_current, response) => {
        if (response.status < 200 || response.status >= 300) {
          discardBody(response.body);
          return { status: response.status, body: "" };
        }
        const body = await this.#read(response, LIMITS.maxRobotsBytes, deadline, "truncate");
        return { status: response.status, body: body.toString("utf8") };
      },
    });
  }
}

/** The first value of a header undici may give as a list. */
export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A Location header as a checked target: relative to the current URL, http(s) only. */
function resolveRedirect(location: string, base: URL): ParsedTarget {
  let absolute: string;
  try {
    absolute = new URL(location, base).href;
  } catch {
    throw new WebFetchError("INVALID_URL", `Invalid URL: redirect to ${location.slice(0, 200)}`, {
      retryable: false,
    });
  }
  return parseTargetUrl(absolute);
}

/** How one chain of redirects is followed. */
interface Chain<T> {
  /** Which hosts a redirect may lead to, from the first URL. */
  redirects: RedirectPolicy;
  /** Redirects followed at most; one more is TOO_MANY_REDIRECTS. */
  maxRedirects: number;
  /** One request to `target`, its redirect not followed. */
  hop(target: ParsedTarget): Promise<HopResponse>;
  /** What the final (not redirecting) response becomes; it reads or discards the body. */
  finish(target: ParsedTarget, response: HopResponse, redirects: Redirect[]): Promise<T>;
  /** A slot held across each hop, and across the final one's finish. */
  hold?(target: ParsedTarget): Promise<() => void>;
}

/**
 * Follows redirects by hand from `start`: each Location resolved against its hop and checked as
 * a target, the redirect policy applied, loops and overlong chains refused.
 */
async function followRedirects<T>(start: ParsedTarget, chain: Chain<T>): Promise<T> {
  const redirects: Redirect[] = [];
  // The URLs a chain has been at, kept once it redirects: most fetches never do.
  let visited: Set<string> | undefined;
  let current = start;
  for (;;) {
    const release = await chain.hold?.(current);
    let response: HopResponse;
    let location: string | undefined;
    try {
      response = await chain.hop(current);
      location = firstHeader(response.headers.location);
      if (!REDIRECT_STATUSES.has(response.status) || !location) {
        return await chain.finish(current, response, redirects);
      }
      discardBody(response.body);
    } finally {
      release?.();
    }
    const next = resolveRedirect(location, current.url);
    if (!redirectAllowed(chain.redirects, start.url, next.url)) {
      throw new WebFetchError(
        "CROSS_HOST_REDIRECT",
        `Redirected to another host: ${next.url.href} (not followed)`,
        { location: next.url.href, status: response.status, retryable: false },
      );
    }
    redirects.push({ from: current.url.href, to: next.url.href, status: response.status });
    const key = normalizeUrl(next.url);
    visited ??= new Set([normalizeUrl(start.url)]);
    if (visited.has(key)) {
      throw new WebFetchError("TOO_MANY_REDIRECTS", `Redirect loop detected at ${next.url.href}`, {
        retryable: false,
      });
    }
    if (redirects.length > chain.maxRedirects) {
      throw new WebFetchError(
        "TOO_MANY_REDIRECTS",
        `Too many redirects (max ${chain.maxRedirects})`,
        { retryable: false },
      );
    }
    visited.add(key);
    current = next;
  }
}
