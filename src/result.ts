/**
 * The result object of one fetch (SPEC §3.7). The CLI's --json, the HTTP API and MCP
 * structuredContent all carry this same object.
 */
import type { PageMetadata } from "./extract/metadata.js";
import type { OutputFormat } from "./options.js";

export interface FetchResult extends PageMetadata {
  /** As requested, normalized. */
  url: string;
  /** After redirects. */
  finalUrl: string;
  redirects: { from: string; to: string; status: number }[];
  status: number;
  contentType: string;
  charset?: string;
  format: OutputFormat;
  content: string;
  /** Characters of the full converted content. */
  totalLength: number;
  startIndex: number;
  truncated: boolean;
  /** Where the next window starts, when `truncated`. */
  nextStartIndex?: number;
  /** Where the full content was saved, when a save directory is configured. */
  savedPath?: string;
  cached: boolean;
  /** ISO 8601 time of the network fetch (of the cached copy on a hit). */
  fetchedAt: string;
  timings: { totalMs: number };
}
