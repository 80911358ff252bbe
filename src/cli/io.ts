/** What every CLI command shares: its streams, exit statuses, global flags and error output. */
import { isWebFetchError } from "../errors.js";

/** The streams and environment the CLI runs with. */
export interface CliIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin?: AsyncIterable<Buffer | string>;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Exit statuses (SPEC §2). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Codes that mean the user asked for something malformed, not that a fetch failed. */
export const USAGE_CODES: ReadonlySet<string> = new Set(["INVALID_INPUT"]);

/** Flags valid for every command (SPEC §2). */
export interface GlobalFlags {
  json?: boolean;
  config?: string;
  allowAddress?: string[];
  locale?: "en" | "ja";
  verbose?: boolean;
  /** Remote mode: the fetch service (over `tools.web_fetch.api_endpoint`). */
  endpoint?: string;
  endpointKind?: "webfetch" | "crawl4ai";
}

export function errorJson(error: unknown): { code: string; message: string } {
  if (isWebFetchError(error)) return { code: error.code, message: error.message };
  return { code: "ERROR", message: error instanceof Error ? error.message : String(error) };
}

export function errorLine(error: unknown, url?: string): string {
  const { code, message } = errorJson(error);
  return `webfetch: ${url ? `${url}: ` : ""}${code}: ${message}\n`;
}

export function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
