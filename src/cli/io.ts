/** What every CLI command shares: its streams, exit statuses, global flags and error output. */
import { isWebFetchError } from "../errors.js";
import type { ErrorInfo, ToolErrorCode } from "../tools/texts.js";
import type { Locale, OutputFormat } from "../values.js";
import { type CliTexts, cliTexts } from "./texts.js";

/** The streams and environment the CLI runs with. */
export interface CliIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  stdin?: AsyncIterable<Buffer | string>;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Exit statuses: 0 success, 1 a fetch or provider failure, 2 bad usage (INVALID_INPUT too), 130
 * a crawl stopped by Ctrl-C (what it had is printed).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** Codes that mean the user asked for something malformed, not that a fetch failed. */
export const USAGE_CODES: ReadonlySet<string> = new Set(["INVALID_INPUT"]);

/** Flags valid for every command. */
export interface GlobalFlags {
  json?: boolean;
  config?: string;
  allowAddress?: string[];
  locale?: Locale;
  verbose?: boolean;
  /** Remote mode: the fetch service (over `tools.web_fetch.api_endpoint`). */
  endpoint?: string;
  endpointKind?: "webfetch" | "crawl4ai";
  /** Remote mode: the service's bearer token (over WEBFETCH_API_TOKEN and the file's). */
  endpointToken?: string;
}

/**
 * An error as `{code, message}`. A RangeError is a bad option value the library refused, so it
 * is INVALID_INPUT like every other bad input; anything else unexpected is ERROR.
 */
export function errorJson(error: unknown): { code: string; message: string } {
  if (isWebFetchError(error)) return { code: error.code, message: error.message };
  if (error instanceof RangeError) return { code: "INVALID_INPUT", message: error.message };
  return { code: "ERROR", message: error instanceof Error ? error.message : String(error) };
}

/** The line on stderr for an error: `webfetch: [url: ]CODE: message`, the message in `texts`. */
export function errorLine(error: unknown, url?: string, texts: CliTexts = cliTexts("en")): string {
  const { code, message } = errorJson(error);
  const location = isWebFetchError(error) ? error.location : undefined;
  const info: ErrorInfo = {
    code: (code === "ERROR" ? "INTERNAL_ERROR" : code) as ToolErrorCode,
    message,
    ...(location ? { location } : {}),
  };
  return `webfetch: ${url ? `${url}: ` : ""}${code}: ${texts.errorMessage(info)}\n`;
}

/**
 * A page's title over its content, for a page printed alone as a document: a heading in
 * Markdown, a line in text, nothing in other formats. The main content leaves out a heading that
 * only repeats the title; callers add this only where the content is that whole main content.
 */
export function titleLine(title: string | undefined, format: OutputFormat): string {
  if (!title) return "";
  if (format === "markdown") return `# ${title}\n\n`;
  return format === "text" ? `${title}\n\n` : "";
}

/**
 * True when the flags print a page's whole main content, the content that leaves the title out:
 * not the whole page (`--full`) nor parts chosen by selectors.
 */
export function wholeMainContent(flags: {
  full?: boolean;
  includeSelector?: string[];
  excludeSelector?: string[];
}): boolean {
  return !flags.full && !flags.includeSelector?.length && !flags.excludeSelector?.length;
}

export function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
