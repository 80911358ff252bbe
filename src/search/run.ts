/**
 * One search, end to end: the provider called inside one deadline (retries included), its hits
 * turned into results (http(s) only, domain lists enforced, capped, scored), timed.
 */
import type { Dispatcher } from "undici";
import { providerFetch } from "../endpoint/client.js";
import { isWebFetchError, PROVIDER_CODES, WebFetchError } from "../errors.js";
import { Deadline } from "../net/deadline.js";
import { toResults } from "./results.js";
import type { SearchProvider, SearchRequest, SearchResponse } from "./types.js";

export interface SearchCall {
  /** Total deadline, ms. */
  timeout: number;
  signal?: AbortSignal | undefined;
}

export interface SearchDeps {
  dispatcher: Dispatcher;
  userAgent: string;
  retries: number;
}

/** Runs `request` on `provider`. Throws WebFetchError (AUTH_ERROR, RATE_LIMITED, PROVIDER_ERROR, TIMEOUT). */
export async function runSearch(
  provider: SearchProvider,
  request: SearchRequest,
  call: SearchCall,
  deps: SearchDeps,
): Promise<SearchResponse> {
  const started = performance.now();
  const deadline = new Deadline(call.timeout, call.signal);
  const fetch = providerFetch({ ...deps, deadline, name: provider.name });
  const hits = await deadline
    .race(provider.search(request, { fetch, signal: deadline.signal }))
    .catch((error: unknown) => {
      throw named(error, provider.name);
    })
    .finally(() => deadline.close());
  return {
    query: request.query,
    provider: provider.id,
    results: toResults(hits, request),
    timings: { totalMs: Math.round((performance.now() - started) * 100) / 100 },
  };
}

/** A provider's failure, marked with the provider's name for the texts that show it. */
function named(error: unknown, name: string): unknown {
  if (!isWebFetchError(error) || !PROVIDER_CODES.has(error.code) || error.provider) return error;
  return new WebFetchError(error.code, error.message, {
    cause: error,
    retryable: error.retryable,
    provider: name,
    ...(error.status === undefined ? {} : { status: error.status }),
  });
}
