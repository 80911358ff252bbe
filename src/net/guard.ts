/**
 * The address guard (SSRF defence). A host is resolved once; every address it resolves to must
 * be public unicast (or opened by `allowAddresses` / `allowPrivateNetwork`); the socket is then
 * opened to exactly that checked address, so a second DNS answer (rebinding) can never switch
 * it. The same guard sits inside the connector, so no connection (page, redirect hop, robots.txt)
 * can bypass it, whatever the caller does.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { LRUCache } from "lru-cache";
import type { buildConnector } from "undici";
import { WebFetchError } from "../errors.js";
import { classifyAddress } from "./address.js";
import { type AddressRule, matchesAddressRule, parseAddressRules } from "./allowlist.js";
import { blockedHostnameReason } from "./hostname.js";

/** Resolves a host name to every address it has. */
export type LookupFn = (
  hostname: string,
) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export interface AddressGuardOptions {
  allowPrivateNetwork: boolean;
  allowAddresses: readonly string[];
  lookup?: LookupFn | undefined;
}

/** How long a checked resolution is reused: long enough to pin one fetch, short like DNS TTLs. */
const PIN_TTL_MS = 30_000;
/** Host names whose checked resolution is kept. */
const PIN_MAX_HOSTS = 1_000;
/** Address and port pairs whose verdict is kept; past this many, the kept ones are dropped. */
const VERDICTS_MAX = 4_096;

const defaultLookup: LookupFn = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * What `allowPrivateNetwork` opens: the networks an intranet lives on. Metadata, multicast,
 * broadcast, unspecified and reserved addresses stay refused (open them one by one with
 * `allowAddresses` if you must).
 */
const PRIVATE_NETWORK_REASONS = new Set([
  "a private address",
  "a loopback address",
  "a link-local address",
  "a carrier-grade NAT address",
  "a site-local address",
  "a local host name",
  "a private network host name",
]);

/** DNS error codes that mean "no such host" rather than a broken resolver. */
const NOT_FOUND = new Set(["ENOTFOUND", "ENODATA", "EAI_NONAME", "EAI_NODATA"]);

/** A host name's pinned resolution: its pending answer, and the answer once it has come. */
interface Pin {
  pending: Promise<ReadonlyArray<{ address: string; family: number }>>;
  answer?: ReadonlyArray<{ address: string; family: number }>;
}

export class AddressGuard {
  readonly #allowPrivate: boolean;
  readonly #rules: AddressRule[];
  readonly #lookup: LookupFn;
  /** hostname → its resolution; every connection reads the same answer. */
  readonly #pins = new LRUCache<string, Pin>({
    max: PIN_MAX_HOSTS,
    ttl: PIN_TTL_MS,
    // Ages are read from the clock at each look-up: caching the time for a millisecond costs
    // a timer, made again by nearly every fetch.
    ttlResolution: 0,
  });

  /**
   * "port address" → the reason it is refused, null when allowed: a verdict depends on nothing
   * else, and each fetch would parse the same address twice to reach it again.
   */
  readonly #verdicts = new Map<string, string | null>();

  constructor(options: AddressGuardOptions) {
    this.#allowPrivate = options.allowPrivateNetwork;
    this.#rules = parseAddressRules(options.allowAddresses);
    this.#lookup = options.lookup ?? defaultLookup;
  }

  /**
   * Checks one address for a port: undefined when it may be connected to, else the reason.
   * Pure apart from the configured holes.
   */
  refusal(ip: string, port: number): string | undefined {
    const key = `${port} ${ip}`;
    let reason = this.#verdicts.get(key);
    if (reason === undefined) {
      reason = this.#judge(ip, port) ?? null;
      if (this.#verdicts.size >= VERDICTS_MAX) this.#verdicts.clear();
      this.#verdicts.set(key, reason);
    }
    return reason ?? undefined;
  }

  #judge(ip: string, port: number): string | undefined {
    if (matchesAddressRule(this.#rules, ip, port)) return undefined;
    const verdict = classifyAddress(ip);
    if (verdict.allowed) return undefined;
    if (this.#allowPrivate && PRIVATE_NETWORK_REASONS.has(verdict.reason)) return undefined;
    return verdict.reason;
  }

  /**
   * Resolves `hostname` (an IP literal passes through), checks every address, and returns the
   * one to connect to. Throws BLOCKED_ADDRESS or CONNECT_FAILED.
   */
  async resolve(hostname: string, port: number): Promise<string> {
    const known = this.resolvedNow(hostname, port);
    if (known !== undefined) return known;
    const host = bareHost(hostname);
    return this.#checked(host, await this.#resolveOnce(host), port);
  }

  /**
   * What resolve gives when it needs no wait: the checked address of an IP literal, or of a
   * name whose pinned answer has come. Undefined when the name must be resolved first; throws
   * BLOCKED_ADDRESS as resolve does.
   */
  resolvedNow(hostname: string, port: number): string | undefined {
    const host = bareHost(hostname);
    if (isIP(host)) {
      const reason = this.refusal(host, port);
      if (reason) throw blocked(`Blocked: ${host} is ${reason}`);
      return host;
    }
    const nameReason = blockedHostnameReason(host);
    if (nameReason && !(this.#allowPrivate && PRIVATE_NETWORK_REASONS.has(nameReason))) {
      throw blocked(`Blocked: ${host} is ${nameReason}`);
    }
    const answer = this.#pins.get(host)?.answer;
    return answer && this.#checked(host, answer, port);
  }

  /** The address to connect to of `host`'s answer, once every address in it passes. */
  #checked(
    host: string,
    addresses: ReadonlyArray<{ address: string; family: number }>,
    port: number,
  ): string {
    if (addresses.length === 0) {
      throw new WebFetchError("CONNECT_FAILED", `Failed to connect: no address for ${host}`);
    }
    // Every address must pass: a mixed answer is how rebinding and split-horizon attacks hide.
    for (const { address } of addresses) {
      const reason = this.refusal(address, port);
      if (reason) throw blocked(`Blocked: ${host} resolves to ${address}, ${reason}`);
    }
    return addresses[0]!.address;
  }

  #resolveOnce(host: string): Promise<ReadonlyArray<{ address: string; family: number }>> {
    const pinned = this.#pins.get(host);
    if (pinned) return pinned.pending;
    // Called inside a promise so a lookup that throws, or returns no promise, fails the same way.
    const pending = Promise.resolve()
      .then(() => this.#lookup(host))
      .then(
        (list) => checkedAnswer(host, list),
        (error: unknown) => {
          const code = (error as { code?: unknown } | null | undefined)?.code;
          const reason =
            typeof code === "string" && NOT_FOUND.has(code)
              ? `getaddrinfo ${code} ${host}`
              : error instanceof Error
                ? error.message
                : String(error);
          throw new WebFetchError("CONNECT_FAILED", `Failed to connect: ${reason}`, {
            cause: error,
          });
        },
      );
    const pin: Pin = { pending };
    pending.then(
      (answer) => {
        pin.answer = answer;
      },
      // A failed answer is not pinned: the next connection asks again.
      () => {
        if (this.#pins.get(host) === pin) this.#pins.delete(host);
      },
    );
    this.#pins.set(host, pin);
    return pending;
  }

  /**
   * Wraps a socket connector so it only ever connects to a checked address. TLS keeps the
   * original host name for SNI and certificate checks (undici derives it from `host`).
   */
  connector(base: buildConnector.connector): buildConnector.connector {
    return (options, callback) => {
      const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80);
      this.resolve(options.hostname, port).then(
        (address) => base({ ...options, hostname: address }, callback),
        (error: unknown) => callback(error as Error, null),
      );
    };
  }
}

/**
 * The addresses of a lookup's answer, each an IP literal of the family it claims. An injected
 * lookup is code of the caller's: an answer that is not a list of addresses is a failed DNS
 * answer (CONNECT_FAILED, not retried), never a TypeError from deep inside the guard.
 */
function checkedAnswer(
  host: string,
  list: unknown,
): ReadonlyArray<{ address: string; family: number }> {
  const bad = (why: string) =>
    new WebFetchError("CONNECT_FAILED", `Failed to connect: the lookup of ${host} ${why}`, {
      retryable: false,
    });
  if (!Array.isArray(list)) throw bad("did not return a list of addresses");
  return list.map((entry: unknown) => {
    const { address, family } = (entry ?? {}) as { address?: unknown; family?: unknown };
    const actual = typeof address === "string" ? isIP(address) : 0;
    if (actual === 0) throw bad(`returned ${describe(entry)}, not an IP address`);
    if (family !== actual) {
      throw bad(`returned ${address} as IPv${String(family)}, but it is an IPv${actual} address`);
    }
    return { address: address as string, family: actual };
  });
}

/** A short, printable description of a value a lookup returned. */
function describe(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : safeJson(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A host as the guard looks it up: no IPv6 brackets, no trailing dots. */
function bareHost(hostname: string): string {
  const host =
    hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return host.replace(/\.+$/, "");
}

function blocked(message: string): WebFetchError {
  return new WebFetchError("BLOCKED_ADDRESS", message, { retryable: false });
}
