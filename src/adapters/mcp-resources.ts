/**
 * The pages an MCP server's tools fetched, as resources. `webfetch://page/{id}` reads a page's
 * full content from its start, `webfetch://page/{id}?start=N` from character N; each read is
 * cut to the result token budget at a boundary and then names the URI that reads on.
 * `resources/list` names the pages the instance keeps, the most recently used first. A tool
 * result cut to the budget links the rest of each page it cut in the same form.
 */
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { isWebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { isPageId, unknownPageId } from "../pages/kept.js";
import type { FetchResult } from "../result.js";
import { tokenCounter } from "../shape/tokens.js";
import { continuationLine } from "../shape/truncate.js";
import { budgetTarget, cutContent } from "../tools/budget.js";
import type { Texts } from "../tools/texts.js";
import type { PageRest } from "../tools/types.js";
import type { OutputFormat } from "../values.js";
import type { WebFetch } from "../webfetch/index.js";

/** Every page resource's URI starts so. */
export const PAGE_URI_PREFIX = "webfetch://page/";

/**
 * Characters a read asks for per token of the budget before it is measured: o200k averages
 * about four characters of English per token, so one read usually holds a full budget.
 */
const CHARS_PER_TOKEN = 4;

/** Rounds of cutting a read at most: each measures again and cuts what is still over. */
const MAX_ROUNDS = 8;

/** Digits of a `start` a URI may carry. */
const START = /^\d{1,9}$/;

/** The URI of a page's content from character `start` (the whole page from 0). */
export function pageUri(id: string, start = 0): string {
  return start > 0 ? `${PAGE_URI_PREFIX}${id}?start=${start}` : `${PAGE_URI_PREFIX}${id}`;
}

/** The MIME type of a page's content in its format: the page's own type for `raw`. */
export function pageMimeType(format: OutputFormat, contentType: string): string {
  if (format === "markdown") return "text/markdown";
  if (format === "text") return "text/plain";
  if (format === "html") return "text/html";
  return contentType.split(";")[0]?.trim() || "text/plain";
}

/** A tool result's link to the rest of a page it cut. */
export function restLink(rest: PageRest, texts: Texts) {
  return {
    type: "resource_link" as const,
    uri: pageUri(rest.id, rest.start),
    name: rest.id,
    ...(rest.title ? { title: rest.title } : {}),
    mimeType: pageMimeType(rest.format, rest.contentType),
    description: texts.budget.rest(rest.url, rest.start, rest.total),
  };
}

/** Registers the page resources (template, list and read) on `server`. */
export function registerPageResources(
  server: McpServer,
  web: WebFetch,
  texts: Texts,
  maxTokens: number,
): void {
  const template = new ResourceTemplate(`${PAGE_URI_PREFIX}{id}`, {
    list: () => ({
      resources: web.pages({ limit: LIMITS.listedPages }).map((page) => ({
        uri: pageUri(page.id),
        name: page.id,
        ...(page.title ? { title: page.title } : {}),
        mimeType: pageMimeType(page.format, page.contentType),
        description: page.finalUrl,
      })),
    }),
  });
  server.registerResource(
    "page",
    template,
    { title: "Fetched pages", description: texts.budget.resources },
    (uri, _variables, extra) => readPage(uri, { web, texts, maxTokens, signal: extra.signal }),
  );
}

interface ReadPageOptions {
  web: WebFetch;
  texts: Texts;
  maxTokens: number;
  signal: AbortSignal;
}

/**
 * One read of a page resource: the window from `start`, cut to the budget, ending with the URI
 * of the next window when the page goes on. An id this instance never gave is InvalidParams.
 */
async function readPage(uri: URL, options: ReadPageOptions): Promise<ReadResourceResult> {
  const { web, texts, maxTokens } = options;
  const id = decodeURIComponent(uri.pathname.replace(/^\//, ""));
  if (!isPageId(id)) throw new McpError(ErrorCode.InvalidParams, unknownPageId(id).message);
  const startText = uri.searchParams.get("start") ?? "0";
  if (!START.test(startText)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `start must be a character offset, got ${startText}`,
    );
  }
  let page: FetchResult;
  try {
    page = await web.read(id, {
      startIndex: Number(startText),
      length: Math.min(LIMITS.toolMaxLength, maxTokens * CHARS_PER_TOKEN),
      signal: options.signal,
    });
  } catch (error) {
    if (!isWebFetchError(error)) throw error;
    const code = error.code === "INVALID_INPUT" ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw new McpError(code, error.message, { code: error.code });
  }
  const count = await tokenCounter();
  const limit = budgetTarget({ maxTokens, count });
  const warning = texts.budget.cut(maxTokens);
  let text = resourceText(page, texts);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const tokens = count(text);
    if (tokens <= limit) break;
    const chars = Math.floor((page.content.length * limit * 0.9) / tokens);
    const shorter = cutContent(page, chars, warning);
    if (shorter.content === page.content) break;
    page = shorter;
    text = resourceText(page, texts);
  }
  return {
    contents: [{ uri: uri.href, mimeType: pageMimeType(page.format, page.contentType), text }],
  };
}

/** The window's content, its continuation line naming the URI that reads on. */
function resourceText(page: FetchResult, texts: Texts): string {
  const next = page.nextStartIndex;
  if (!page.truncated || next === undefined) return page.content;
  const line = continuationLine(next, page.totalLength);
  const body = page.content.endsWith(line)
    ? page.content.slice(0, -line.length).trimEnd()
    : page.content;
  const onward = texts.budget.resourceContinuation(next, page.totalLength, pageUri(page.id, next));
  return body === "" ? onward : `${body}\n\n${onward}`;
}
