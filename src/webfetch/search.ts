/**
 * Search through the configured provider, and the cited context built on it: the top results'
 * pages fetched through the whole pipeline, their passages most relevant to the query packed
 * within a token budget.
 */

import { checkTimeout } from "../checks.js";
import { type ContextPage, type ContextResult, packContext } from "../context/build.js";
import { isWebFetchError, WebFetchError } from "../errors.js";
import { Deadline } from "../net/deadline.js";
import { type ContextOptions, SEARCH_DEFAULTS, type SearchOptions } from "../options.js";
import { chooseProvider } from "../search/choose.js";
import { runSearch } from "../search/run.js";
import type { SearchProvider, SearchResponse } from "../search/types.js";
import { checkQuery, checkSearch } from "../search/validate.js";
import { tokenCounter } from "../shape/tokens.js";
import { proseFormat, resolveCall } from "./call.js";
import type { PageLoader } from "./loader.js";
import { logOutcome } from "./outcome.js";
import type { Resources } from "./resources.js";
import { roundMs } from "./to-result.js";

/** Words of the context's source list, by locale. */
const SOURCES_LABEL = { en: "Sources:", ja: "出典:" } as const;

export class Search {
  readonly #resources: Resources;
  readonly #loader: PageLoader;
  /** The provider, chosen on first use from the settings and the environment. */
  #provider: SearchProvider | undefined;

  constructor(resources: Resources, loader: PageLoader) {
    this.#resources = resources;
    this.#loader = loader;
  }

  search(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const { resolved, logger } = this.#resources;
    let response: SearchResponse | undefined;
    return logOutcome(
      logger,
      "search",
      async () => {
        const request = checkSearch(query, options);
        if (options.timeout !== undefined) checkTimeout(options.timeout);
        this.#provider ??= chooseProvider(this.#resources.searchSettings);
        response = await runSearch(
          this.#provider,
          request,
          { timeout: options.timeout ?? resolved.timeout, signal: options.signal },
          {
            dispatcher: this.#resources.endpointDispatcher(),
            userAgent: resolved.userAgent,
            retries: resolved.retries,
          },
        );
        return response;
      },
      () => ({ provider: this.#provider?.id, results: response?.results.length }),
    );
  }

  async context(query: string, options: ContextOptions = {}): Promise<ContextResult> {
    const { resolved, logger } = this.#resources;
    const started = performance.now();
    const text = checkQuery(query);
    const maxTokens = options.maxTokens ?? SEARCH_DEFAULTS.maxTokens;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new WebFetchError("INVALID_INPUT", "maxTokens must be a positive integer", {
        retryable: false,
      });
    }
    if (options.timeout !== undefined) checkTimeout(options.timeout);
    const deadline = new Deadline(options.timeout ?? resolved.timeout, options.signal);
    try {
      const { maxTokens: _budget, ...searchOptions } = options;
      const search = await this.search(text, {
        ...searchOptions,
        timeout: Math.max(1, deadline.remaining()),
        signal: deadline.signal,
      });
      // The pages come through the whole pipeline, concurrently; one that fails leaves its snippet.
      const pages = await Promise.all(
        search.results.map((result) => {
          // Passages are packed from Markdown or text, whatever the instance's own format.
          const call = {
            format: proseFormat(resolved.format),
            timeout: Math.max(1, deadline.remaining()),
            signal: deadline.signal,
          };
          return this.#loader
            .withPage(
              result.url,
              resolveCall(resolved, call),
              ({ page }): ContextPage => ({ content: page.content, title: page.title }),
            )
            .catch((error: unknown) => {
              if (!isWebFetchError(error) && !deadline.signal.aborted) throw error;
              return undefined;
            });
        }),
      );
      const packed = packContext({
        query: text,
        search,
        pages,
        maxTokens,
        count: await tokenCounter(),
        labels: { sources: SOURCES_LABEL[resolved.locale] },
      });
      const totalMs = roundMs(performance.now() - started);
      logger.info(
        {
          provider: search.provider,
          results: search.results.length,
          pages: pages.filter(Boolean).length,
          sources: packed.sources.length,
          tokens: packed.tokens,
          ms: Math.round(totalMs),
        },
        "context",
      );
      return { ...packed, provider: search.provider, timings: { totalMs } };
    } finally {
      deadline.close();
    }
  }
}
