/**
 * Many URLs at once (web.extract): duplicates merged, every URL checked by the URL
 * policy before any fetch, invalid ones reported as failed while the valid ones go on, all
 * fetched concurrently within the instance's limits, results and failures in input order.
 */
import { type ErrorCode, isWebFetchError, WebFetchError } from "../errors.js";
import { normalizeUrl, parseTargetUrl } from "../net/url.js";
import type { FetchResult } from "../result.js";

/** A URL that gave no result, and why. */
export interface ExtractFailure {
  url: string;
  code: ErrorCode;
  message: string;
}

/** The answer of `web.extract()`. */
export interface ExtractResult {
  results: FetchResult[];
  failed: ExtractFailure[];
}

/** Progress of one URL, reported as each finishes. */
export interface ExtractProgress {
  url: string;
  /** URLs finished so far, and how many there are (after merging duplicates). */
  done: number;
  total: number;
  error?: ExtractFailure;
}

export interface ExtractManyOptions {
  fetch(url: string): Promise<FetchResult>;
  /** Called for a plain http URL: allowed, but worth a warning (https is recommended). */
  onInsecure?(url: string): void;
  onProgress?(progress: ExtractProgress): void;
}

/**
 * `scheme://` and a host, or the URL is refused: the WHATWG parser would read `https:///path` as
 * the host `path` and `http:example.com` as a host too, which a list of URLs never means.
 */
const SCHEME_AND_HOST = /^\s*[a-z][a-z0-9+.-]*:\/\/[^/\\?#\s]/i;

type Entry = { failure: ExtractFailure } | { url: string };

/** Fetches `urls` and sorts the outcomes into results and failures, both in input order. */
export async function extractMany(
  urls: readonly string[],
  options: ExtractManyOptions,
): Promise<ExtractResult> {
  const seen = new Set<string>();
  const entries: Entry[] = [];
  for (const url of urls) {
    let entry: Entry;
    let identity: string;
    try {
      const target = parseTargetUrl(url);
      if (!SCHEME_AND_HOST.test(url)) {
        throw new WebFetchError("INVALID_URL", "Invalid URL: no host (expected http://host/…)", {
          retryable: false,
        });
      }
      identity = normalizeUrl(target.url);
      entry = { url };
      if (target.url.protocol === "http:") options.onInsecure?.(url);
    } catch (error) {
      if (!isWebFetchError(error)) throw error;
      identity = `invalid:${url}`;
      entry = { failure: { url, code: error.code, message: error.message } };
    }
    if (seen.has(identity)) continue;
    seen.add(identity);
    entries.push(entry);
  }

  const total = entries.length;
  let done = 0;
  const report = (url: string, error?: ExtractFailure) =>
    options.onProgress?.({ url, done: ++done, total, ...(error ? { error } : {}) });
  for (const entry of entries) if ("failure" in entry) report(entry.failure.url, entry.failure);

  const outcomes = await Promise.all(
    entries.map(async (entry): Promise<FetchResult | ExtractFailure> => {
      if ("failure" in entry) return entry.failure;
      try {
        const result = await options.fetch(entry.url);
        report(entry.url);
        return result;
      } catch (error) {
        // Anything but a WebFetchError is a bug or a bad option: it fails the whole call.
        if (!isWebFetchError(error)) throw error;
        const failure = { url: entry.url, code: error.code, message: error.message };
        report(entry.url, failure);
        return failure;
      }
    }),
  );
  const results: FetchResult[] = [];
  const failed: ExtractFailure[] = [];
  for (const outcome of outcomes) {
    if ("code" in outcome) failed.push(outcome);
    else results.push(outcome);
  }
  return { results, failed };
}
