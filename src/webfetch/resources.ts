/**
 * What one instance holds for its lifetime: the logger, the cache, the guarded fetcher, the
 * concurrency limits and the conversion threads, and what is made only on first use (the
 * browser, the connections to operator-configured endpoints, the model). close() lets go of all.
 */
import type { Agent } from "undici";
import { openCache } from "../cache/open.js";
import type { CacheStore } from "../cache/store.js";
import { ConvertPool } from "../convert/pool.js";
import { WebFetchError } from "../errors.js";
import { Fetcher } from "../fetch/fetcher.js";
import { LIMITS } from "../limits.js";
import { type ChatModel, loadModel } from "../llm/model.js";
import { createLogger, type Logger, silentLogger } from "../log.js";
import { createAgent } from "../net/agent.js";
import { LocalOriginPacer, type OriginPacer } from "../net/pacer.js";
import type { OriginLimiter } from "../net/politeness.js";
import { Semaphore } from "../net/semaphore.js";
import { type ResolvedOptions, resolveOptions, type WebFetchOptions } from "../options.js";
import { BrowserPool } from "../render/browser.js";
import { PageCache } from "./page-cache.js";

/**
 * Counters an instance shares with other processes instead of keeping its own (a crawl worker's,
 * in Redis). Whoever gives them closes them.
 */
export interface SharedCounters {
  /** Crawl-delay spacing. */
  pacer?: OriginPacer;
  /** The per-origin politeness limit. */
  limiter?: OriginLimiter;
}

/** How often the shared per-origin limit's failure is logged at most, ms. */
const LIMITER_WARNING_INTERVAL = 60_000;

export class Resources {
  readonly resolved: ResolvedOptions;
  readonly logger: Logger;
  readonly cache: PageCache;
  readonly fetcher: Fetcher;
  /** Fetches in flight across all origins. */
  readonly fetches: Semaphore;
  /** Pages in the browser at once. */
  readonly renders = new Semaphore(LIMITS.maxRenders);
  readonly converter = new ConvertPool();
  /** Spacing of requests to origins whose robots.txt sets a `Crawl-delay`. */
  readonly pacer: OriginPacer;
  readonly #options: WebFetchOptions;
  readonly #opened: ReturnType<typeof openCache> | undefined;
  readonly #store: CacheStore | undefined;
  #browsers: BrowserPool | undefined;
  #endpointAgent: Agent | undefined;
  #model: Promise<ChatModel> | undefined;

  constructor(options: WebFetchOptions, shared: SharedCounters = {}) {
    const resolved = resolveOptions(options);
    this.pacer = shared.pacer ?? new LocalOriginPacer();
    const logger = options.logger === false ? silentLogger : (options.logger ?? createLogger());
    this.resolved = resolved;
    this.logger = logger;
    this.#options = options;
    // The built-in store the options name, unless the caller gave one (or none).
    this.#opened =
      options.cache === undefined
        ? openCache({
            store: resolved.cacheStore,
            maxBytes: resolved.cacheMaxBytes,
            ...(resolved.cachePath ? { path: resolved.cachePath } : {}),
            url: resolved.cacheUrl,
            originLimit: resolved.maxConnectionsPerOrigin,
            onLimiterError: throttled(LIMITER_WARNING_INTERVAL, (error) =>
              logger.warn(
                { error: (error as Error).message },
                "politeness: the shared per-origin limit is unavailable; counting in this process",
              ),
            ),
          })
        : undefined;
    this.#store = options.cache === false ? undefined : (options.cache ?? this.#opened?.store);
    this.cache = new PageCache(this.#store, resolved.cacheTtl, logger);
    this.fetcher = new Fetcher(resolved, {
      lookup: options.lookup,
      connect: options.connect,
      limiter: shared.limiter ?? this.#opened?.limiter,
    });
    this.fetches = new Semaphore(resolved.maxConcurrency);
  }

  /** The instance's search settings, as given (providers read their keys from them). */
  get searchSettings(): WebFetchOptions["search"] {
    return this.#options.search;
  }

  /** The browser for rendering, launched on the first page that needs it. */
  browsers(): BrowserPool {
    this.#browsers ??= new BrowserPool({ executablePath: this.resolved.browserPath });
    return this.#browsers;
  }

  /**
   * Connections to the endpoints the operator configures (search providers, Tavily extract,
   * remote mode): outside the address guard, but through the injected socket opener when there
   * is one.
   */
  endpointDispatcher(): Agent {
    this.#endpointAgent ??= createAgent({
      connections: this.resolved.maxConnectionsPerOrigin,
      connect: this.#options.connect,
    });
    return this.#endpointAgent;
  }

  /** The configured model, made on first use (its SDK is loaded then, not at import). */
  model(): Promise<ChatModel | undefined> {
    const { llm } = this.resolved;
    if (!llm) return Promise.resolve(undefined);
    this.#model ??= loadModel(llm).catch((error: unknown) => {
      // A key set later (or a fixed config) gets another chance.
      this.#model = undefined;
      throw error;
    });
    return this.#model;
  }

  async close(): Promise<void> {
    await this.fetcher.close();
    await this.#endpointAgent?.close();
    await this.converter.close();
    await this.#browsers?.close();
    if (this.#opened) await this.#opened.close();
    else await this.#store?.close?.();
  }
}

/** `fn`, called at most once per `ms`: for warnings that would otherwise repeat per request. */
function throttled<A extends unknown[]>(
  ms: number,
  fn: (...args: A) => void,
): (...args: A) => void {
  let last = -Infinity;
  return (...args) => {
    const now = Date.now();
    if (now - last < ms) return;
    last = now;
    fn(...args);
  };
}

/** An instance with `network: "none"` reaches nothing: NETWORK_DISABLED before any lookup. */
export function refuseOffline(resolved: Pick<ResolvedOptions, "network">): void {
  if (resolved.network === "none") {
    throw new WebFetchError(
      "NETWORK_DISABLED",
      'Web fetch requires network access (network is "none")',
      { retryable: false },
    );
  }
}
