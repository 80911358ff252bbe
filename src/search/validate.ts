/**
 * Validation of a search: the query non-empty and at most 1,000 characters,
 * search_depth basic|advanced, max_results 1–20 (default 5), the domain lists, time_range
 * day|week|month|year. A search's input comes from agents and users, so a bad value is an
 * INVALID_INPUT naming the field, not a programmer's RangeError.
 */
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { SEARCH_DEFAULTS, type SearchOptions } from "../options.js";
import { SEARCH_DEPTHS, TIME_RANGES } from "../values.js";
import { normalizeDomain } from "./results.js";
import type { SearchRequest } from "./types.js";

const DEPTHS: ReadonlySet<string> = new Set(SEARCH_DEPTHS);
const RANGES: ReadonlySet<string> = new Set(TIME_RANGES);
/** A domain name as the lists take it: labels of letters, digits and hyphens. */
const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The query trimmed, or INVALID_INPUT when it is empty or over 1,000 characters. */
export function checkQuery(query: unknown, field = "query"): string {
  const text = typeof query === "string" ? query.trim() : "";
  if (text === "") throw invalid(`${field} must not be empty`);
  if (text.length > LIMITS.queryMaxLength) {
    throw invalid(
      `${field} must be at most ${LIMITS.queryMaxLength} characters (got ${text.length})`,
    );
  }
  return text;
}

/** A validated request with every default filled in. */
export function checkSearch(query: unknown, options: SearchOptions = {}): SearchRequest {
  const request: SearchRequest = {
    query: checkQuery(query),
    searchDepth: options.searchDepth ?? SEARCH_DEFAULTS.searchDepth,
    maxResults: options.maxResults ?? SEARCH_DEFAULTS.maxResults,
    includeDomains: domains("include_domains", options.includeDomains),
    excludeDomains: domains("exclude_domains", options.excludeDomains),
  };
  if (!DEPTHS.has(request.searchDepth)) throw invalid("search_depth must be basic or advanced");
  const max = request.maxResults;
  if (!Number.isInteger(max) || max < 1 || max > LIMITS.searchMaxResults) {
    throw invalid(`max_results must be between 1 and ${LIMITS.searchMaxResults}`);
  }
  if (options.timeRange !== undefined) {
    if (!RANGES.has(options.timeRange)) {
      throw invalid("time_range must be day, week, month or year");
    }
    request.timeRange = options.timeRange;
  }
  return request;
}

function domains(field: string, list: readonly string[] | undefined): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw invalid(`${field} must be a list of domains`);
  if (list.length > LIMITS.searchMaxDomains) {
    throw invalid(`${field} takes at most ${LIMITS.searchMaxDomains} domains`);
  }
  return [
    ...new Set(
      list.map((raw) => {
        const domain = typeof raw === "string" ? normalizeDomain(raw) : "";
        if (!DOMAIN.test(domain)) throw invalid(`${field}: ${JSON.stringify(raw)} is not a domain`);
        return domain;
      }),
    ),
  ];
}

function invalid(message: string): WebFetchError {
  return new WebFetchError("INVALID_INPUT", message, { retryable: false });
}
