/**
 * The HTTP service's routes as a Hono app, with no socket of its own: `createServer()`
 * listens with it, tests and hosts may mount it elsewhere. Every URL that comes in goes through
 * the instance's address guard, robots and limits like any other fetch; nothing here fetches
 * by itself.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { positiveInt } from "../checks.js";
import { isWebFetchError } from "../errors.js";
import type { Logger } from "../log.js";
import { parseIpLiteral } from "../net/address.js";
import type { FetchOptions } from "../options.js";
import type { CrawlJobs } from "../queue/contract.js";
import { LocalCrawlJobs } from "../queue/local.js";
import type { ToolsOptions } from "../tools/options.js";
import { createTools } from "../tools/registry.js";
import { describeIssues } from "../tools/run.js";
import type { Tool } from "../tools/types.js";
import { webFetchTool } from "../tools/web-fetch.js";
import { type OutputFormat, RENDER_MODES, type ToolId } from "../values.js";
import { VERSION } from "../version.js";
import type { WebFetch } from "../webfetch/index.js";
import { bearerAuth } from "./auth.js";
import { mountCrawlRoutes } from "./crawl.js";
import { errorResponse, statusOf, thrownResponse } from "./errors.js";
import { renderOption } from "./fetch-render.js";
import { hostGuard } from "./host-guard.js";
import { serviceInfo } from "./info.js";
import { handleMcp, messageCount } from "./mcp.js";
import { markdownFor, mdRequestSchema, wholePage } from "./md.js";
import { openApiDocument, v1Tools } from "./openapi.js";
import { SERVER_DEFAULTS, type ServerLimits } from "./options.js";
import { mountPlayground } from "./playground.js";
import { createRateLimiter } from "./rate-limit.js";
import { jinaEnvelope, readerBody, readerRequest } from "./reader.js";

export interface AppOptions extends ToolsOptions, ServerLimits {
  /** The instance every route fetches with. */
  web: WebFetch;
  /**
   * Bearer token every route but `/health` requires; empty or undefined: no token asked for
   * (fit only for loopback).
   */
  token?: string | undefined;
  /** The host the service binds, also a name accepted in Host. @default "127.0.0.1" */
  host?: string;
  /**
   * More host names accepted in Host and Origin (a name the service is reached by): checked on
   * every route but `/health` without a token, on `/mcp` only with one.
   */
  allowedHosts?: readonly string[];
  /**
   * The service runs behind one proxy that appends the client's address to X-Forwarded-For:
   * the rate limit and the access log take that address instead of the proxy's. @default false
   */
  trustProxy?: boolean;
  /** One access line per request, and the tools' timing lines. @default the instance's logger */
  logger?: Logger;
  /**
   * The registry behind `/v1/crawl` (one shared by several processes, say). Its owner closes it:
   * `createServer()` passes its own and cancels their crawls when it closes; an app made here
   * without one keeps jobs in this process that nothing closes.
   * @default crawl jobs in this process, over `web`
   */
  crawlJobs?: CrawlJobs;
}

/**
 * Body fields a `/v1` route takes beyond its tool's input: `/v1/fetch`'s `schema` (a JSON Schema
 * object the configured model fills into `data`) and `render` (JavaScript rendering for the
 * call), which web_fetch itself does not take.
 */
const V1_EXTRAS: Readonly<Record<string, z.ZodObject>> = {
  fetch: z.object({
    schema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("A JSON Schema object: the configured model fills it from the page into `data`"),
    render: z
      .enum(RENDER_MODES)
      .optional()
      .describe("JavaScript rendering for this call: never, auto (the default) or always"),
  }),
};

/** `/v1/<route>` → the tool whose input it takes and whose result object it answers. */
const V1_ROUTES: Readonly<Record<string, ToolId>> = {
  fetch: "web_fetch",
  extract: "web_extract",
  search: "web_search",
  context: "web_context",
  read: "web_read",
  grep: "web_grep",
  map: "web_map",
};

/**
 * The service's Hono app.
 *
 * @example
 * const app = createApp({ web: createWebFetch(), token: process.env.WEBFETCH_API_TOKEN });
 * const res = await app.request("/health");
 */
export function createApp(options: AppOptions): Hono {
  const { web } = options;
  const logger = options.logger ?? web.logger;
  const toolOptions = { ...options, logger };
  const tools = createTools(toolOptions);
  const byId = new Map<ToolId, Tool>(tools.map((tool) => [tool.id, tool]));
  const app = new Hono();
  const trustProxy = options.trustProxy ?? SERVER_DEFAULTS.trustProxy;
  const clientOf = (c: Context) => clientAddress(c, trustProxy);
  const limiter = createRateLimiter({
    limit: positiveInt("rateLimit", options.rateLimit ?? SERVER_DEFAULTS.rateLimit),
    windowMs: positiveInt("rateWindowMs", options.rateWindowMs ?? SERVER_DEFAULTS.rateWindowMs),
    clientOf,
  });

  app.use("*", accessLog(logger, clientOf));
  app.get("/health", (c) => c.json({ status: "ok", version: VERSION }));
  // Without a token nothing else tells a web page's request from the user's own, so every
  // route checks Host and Origin; with one, the token does, and /mcp keeps the MCP transport's
  // own rule. Before the rate limit, so a page cannot use up the user's requests.
  app.use(
    options.token ? "/mcp" : "*",
    hostGuard(options.host ?? SERVER_DEFAULTS.host, options.allowedHosts),
  );
  app.use("*", limiter.middleware);
  // The playground's page and files carry nothing of the service's: served before the token
  // check, so a browser can load the page that then asks for the token.
  mountPlayground(app);
  if (options.token) app.use("*", bearerAuth(options.token));
  app.use("*", limitBody(options.maxBodyBytes ?? SERVER_DEFAULTS.maxBodyBytes));

  // The service crawls when the web_crawl tool is enabled and the instance fetches itself (a
  // remote-mode instance hands its fetches to another service, which crawls on its own).
  const crawl = byId.has("web_crawl") && web.options.endpoint === undefined;
  const openApi = openApiDocument({
    v1: v1Tools(V1_ROUTES, byId),
    extras: V1_EXTRAS,
    crawl,
    token: Boolean(options.token),
  });
  app.get("/openapi.json", (c) => c.json(openApi));

  const info = serviceInfo(web, [...byId.keys()], Boolean(options.token));
  app.get("/v1/info", (c) => c.json(info));

  if (crawl) {
    const own = options.tools?.web_crawl ?? {};
    mountCrawlRoutes(
      app,
      options.crawlJobs ?? new LocalCrawlJobs(web, { logger }),
      { maxLength: own.maxLength ?? web.options.maxLength, timeout: own.timeout },
      jsonBody,
    );
  }

  app.post("/v1/:route", async (c) => {
    const id = V1_ROUTES[c.req.param("route")];
    const tool = id && byId.get(id);
    if (!tool) return errorResponse(c, "NOT_FOUND", `No route POST ${c.req.path}`);
    const body = await jsonBody(c);
    const result = await withBodyOptions(tool, body, toolOptions).call(body, {
      signal: c.req.raw.signal,
    });
    if (!result.isError) return c.json(result.structured);
    const { error } = result.structured as { error: { code: string; message: string } };
    return c.json({ error }, statusOf(error.code));
  });

  app.post("/md", async (c) => {
    const parsed = mdRequestSchema.safeParse(await jsonBody(c));
    if (!parsed.success) {
      return errorResponse(c, "INVALID_INPUT", describeIssues(parsed.error));
    }
    const { body, applied } = await markdownFor(web, parsed.data, c.req.raw.signal);
    // Crawl4AI echoes the filter asked for; which one ran is told here.
    return c.json(body, 200, { "X-Webfetch-Filter": applied });
  });

  app.post("/mcp", async (c) => {
    // Each message of a JSON-RPC batch is a call of its own; the request itself counted one.
    const refused = limiter.charge(c, (await messageCount(c.req.raw)) - 1);
    return refused ?? handleMcp(c, toolOptions);
  });
  // Stateless: no session to stream to (GET) or to end (DELETE).
  app.on(["GET", "DELETE"], "/mcp", (c) =>
    errorResponse(c, "METHOD_NOT_ALLOWED", "Stateless MCP server: use POST", { status: 405 }),
  );

  app.get("/*", async (c) => {
    const raw = new URL(c.req.url);
    const reader = readerRequest(`${raw.pathname}${raw.search}`.slice(1), (name) =>
      c.req.header(name),
    );
    if (!reader) return errorResponse(c, "NOT_FOUND", `No route GET ${raw.pathname}`);
    if (reader.image && !reader.json) {
      // The PNG itself; a page that gave none (not HTML) is answered with the reason.
      const page = await web.fetch(reader.url, { ...reader.call, signal: c.req.raw.signal });
      if (!page.screenshot) {
        const reason = page.warnings?.join("; ") ?? "The page gave no screenshot";
        return errorResponse(c, "UNSUPPORTED_CONTENT_TYPE", reason, { status: 422 });
      }
      return c.body(Buffer.from(page.screenshot.data, "base64"), 200, {
        "Content-Type": page.screenshot.mimeType,
      });
    }
    const page = await wholePage(web, reader.url, { ...reader.call, signal: c.req.raw.signal });
    if (reader.json) return c.json(jinaEnvelope(page));
    // The body is the content alone; why it is thinner than the page travels beside it, as
    // JSON in ASCII (a header carries no other text safely).
    const warnings = page.warnings?.length
      ? { "X-Webfetch-Warnings": asciiJson(page.warnings) }
      : {};
    const type = CONTENT_TYPES[page.format];
    // HTML from another site is served on this origin: the browser is told to run none of it.
    const sandbox = page.format === "html" ? HTML_SANDBOX : {};
    return c.body(readerBody(page), 200, {
      "Content-Type": `${type}; charset=utf-8`,
      ...sandbox,
      ...warnings,
    });
  });

  app.notFound((c) => errorResponse(c, "NOT_FOUND", `No route ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => {
    if (error instanceof BadRequest) return errorResponse(c, "INVALID_INPUT", error.message);
    // A fetch that failed is an answer, not an incident; anything else is a bug worth a line.
    if (!isWebFetchError(error)) logger.error({ err: error }, "request failed");
    return thrownResponse(c, error);
  });
  return app;
}

/** The reader route's Content-Type by format (raw is not one of its formats, but is text). */
const CONTENT_TYPES: Readonly<Record<OutputFormat, string>> = {
  markdown: "text/markdown",
  text: "text/plain",
  html: "text/html",
  raw: "text/plain",
};

/** Headers that keep served HTML inert: no script, no plugin, no request it could make. */
const HTML_SANDBOX = {
  "Content-Security-Policy": "sandbox; default-src 'none'; img-src https: http:",
  "X-Content-Type-Options": "nosniff",
} as const;

/**
 * Refuses a body over `maxBytes` with PAYLOAD_TOO_LARGE. A declared Content-Length is checked
 * before the body is read; a chunked body is counted as it is read. A request with neither has
 * no body, and is not touched: asking for its body would build a full web Request, which costs
 * more than the rest of answering a cached page.
 */
function limitBody(maxBytes: number): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    errorResponse(c, "PAYLOAD_TOO_LARGE", `Request body exceeds ${maxBytes} bytes`);
  const counted = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return (c, next) => {
    if (c.req.header("transfer-encoding") !== undefined) return counted(c, next);
    const length = c.req.header("content-length");
    if (length !== undefined && Number(length) > maxBytes) return Promise.resolve(tooLarge(c));
    return next();
  };
}

/** A body that is not JSON: the client's mistake, answered 400. */
class BadRequest extends Error {}

/** `application/json` or a `+json` type, parameters allowed. */
const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * `/v1/fetch`'s tool for a body with `schema` (a JSON Schema object) or `render`: web_fetch over
 * the same instance with them added to its fetch, so the result gains `data` or is rendered as
 * asked. web_fetch itself takes neither (an agent has web_fetch_structured, and the instance's
 * render mode); any other body keeps the tool as it is.
 */
function withBodyOptions(
  tool: Tool,
  body: unknown,
  options: AppOptions & { logger: Logger },
): Tool {
  if (tool.id !== "web_fetch" || typeof body !== "object" || body === null) return tool;
  const added: FetchOptions = { ...renderOption(body) };
  if ("schema" in body && body.schema !== undefined) {
    added.schema = body.schema as NonNullable<FetchOptions["schema"]>;
  }
  if (Object.keys(added).length === 0) return tool;
  const { web } = options;
  const scoped: WebFetch = {
    ...web,
    fetch: (url, fetchOptions) => web.fetch(url, { ...fetchOptions, ...added }),
  };
  const [bound] = createTools({ ...options, web: scoped, specs: [webFetchTool] });
  return bound ?? tool;
}

/**
 * The request's JSON body. Other content types are refused: a web page can send text/plain
 * cross-origin without asking, but not JSON, so this keeps pages in a browser from driving a
 * token-less local service.
 */
async function jsonBody(c: Context): Promise<unknown> {
  if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
    throw new BadRequest("Content-Type must be application/json");
  }
  try {
    return await c.req.json();
  } catch {
    throw new BadRequest("Request body must be JSON");
  }
}

/** A limit of the service: an integer >= 1; anything else is a programmer error. */

/**
 * The client's address, the key of the rate limit: the socket's peer, or behind a trusted
 * proxy the last X-Forwarded-For entry, the one that proxy appended (earlier entries are the
 * client's own to forge).
 */
function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded && parseIpLiteral(forwarded)) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // Not behind @hono/node-server (app.request() in a host's own tests): one shared bucket.
    return "local";
  }
}

/** One line per request: method, path, status, time, client. Never a header's value. */
function accessLog(logger: Logger, clientOf: (c: Context) => string) {
  return async (c: Context, next: () => Promise<void>) => {
    const started = performance.now();
    await next();
    logger.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        client: clientOf(c),
      },
      "request",
    );
  };
}

/** JSON with every character outside printable ASCII escaped, fit for a header value. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
