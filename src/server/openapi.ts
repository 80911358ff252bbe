/**
 * `GET /openapi.json`: the service described in OpenAPI 3.1, built from the zod schemas that
 * validate its requests and shape its answers (the tools' input and output schemas, `/md`'s),
 * so the document and the routes cannot drift apart. Error answers are listed per status with
 * every code that status can carry.
 */
import { z } from "zod";
import { ERROR_CODES } from "../errors.js";
import type { Tool } from "../tools/types.js";
import { OUTPUT_FORMATS, RENDER_MODES, type ToolId } from "../values.js";
import { VERSION } from "../version.js";
import {
  CRAWL_READ_PARAMETERS,
  crawlJobSchema,
  crawlRequestSchema,
  crawlStartedSchema,
} from "./crawl.js";
import { SERVICE_ERROR_CODES, statusOf } from "./errors.js";
import { mdRequestSchema, mdResponseSchema } from "./md.js";
import { READER_HEADERS } from "./reader.js";

type Json = Record<string, unknown>;

/** What the document is built from: the service's routes as the app mounts them. */
export interface OpenApiSource {
  /** `/v1/<route>` → the tool behind it, for the enabled tools only. */
  v1: Readonly<Record<string, Tool>>;
  /** Body fields a `/v1` route takes beyond its tool's input, by route. */
  extras?: Readonly<Record<string, z.ZodObject>>;
  /** Whether the crawl job routes (`/v1/crawl`) are mounted. */
  crawl?: boolean;
  /** Whether every route but `/health` asks for a bearer token. */
  token: boolean;
}

/** JSON Schema 2020-12, OpenAPI 3.1's dialect, without the `$schema` line. */
function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
  }) as Json;
  return rest;
}

const ERROR_REF = { $ref: "#/components/schemas/Error" };

/** Codes only some routes answer, listed by those routes alone. */
const ROUTE_CODES: ReadonlySet<string> = new Set(["TOO_MANY_CRAWLS"]);

/** Every code an answer may carry, by its HTTP status; with `extra`, those route codes too. */
function codesByStatus(extra: readonly string[] = []): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  const add = (status: number, code: string) =>
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  for (const code of [...ERROR_CODES, ...SERVICE_ERROR_CODES]) {
    if (!ROUTE_CODES.has(code) || extra.includes(code)) add(statusOf(code), code);
  }
  // The service's own rate limit; a provider's RATE_LIMITED stays an upstream failure.
  add(429, "RATE_LIMITED");
  add(405, "METHOD_NOT_ALLOWED");
  return byStatus;
}

/** The error answers of a route, each status with the codes it carries (`extra`: its own). */
function errorResponses(statuses: readonly number[], extra: readonly string[] = []): Json {
  const byStatus = codesByStatus(extra);
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: `Error: ${(byStatus.get(status) ?? []).join(", ")}`,
        content: {
          "application/json": {
            schema: {
              allOf: [
                ERROR_REF,
                {
                  properties: {
                    error: { properties: { code: { enum: byStatus.get(status) ?? [] } } },
                  },
                },
              ],
            },
          },
        },
      },
    ]),
  );
}

/** Statuses every route but /health can answer with, before it runs. */
const GUARD_STATUSES = [401, 403, 413, 429] as const;

/** Statuses of a route that fetches: every library code's, and the guards'. */
function fetchStatuses(): number[] {
  return [...new Set([...codesByStatus().keys()])].filter((s) => s !== 405).sort();
}

function jsonContent(schema: Json): Json {
  return { "application/json": { schema } };
}

/**
 * The OpenAPI document of a service.
 *
 * @example
 * const doc = openApiDocument({ v1: { fetch: fetchTool }, token: false });
 */
export function openApiDocument(source: OpenApiSource): Json {
  const security = source.token ? [{ bearer: [] }] : [];
  const paths: Json = {
    "/health": {
      get: {
        operationId: "health",
        summary: "Liveness and version (never needs the token, never rate limited)",
        security: [],
        responses: {
          "200": {
            description: "The service is up",
            content: jsonContent({
              type: "object",
              properties: { status: { const: "ok" }, version: { type: "string" } },
              required: ["status", "version"],
            }),
          },
        },
      },
    },
    "/openapi.json": {
      get: {
        operationId: "openapi",
        summary: "This document",
        responses: {
          "200": { description: "OpenAPI 3.1", content: jsonContent({ type: "object" }) },
          ...errorResponses(GUARD_STATUSES),
        },
      },
    },
  };
  paths["/"] = {
    get: {
      operationId: "playground",
      summary:
        "The playground: a page to try a URL and the options of /v1/fetch (never needs the token; its API calls do)",
      security: [],
      responses: {
        "200": {
          description: "The page",
          content: { "text/html": { schema: { type: "string" } } },
        },
        ...errorResponses([403, 429]),
      },
    },
  };
  paths["/v1/info"] = {
    get: {
      operationId: "info",
      summary:
        "What the service offers: version, enabled tools, formats, render modes, whether a model and a token are configured",
      responses: {
        "200": {
          description: "The service's description",
          content: jsonContent({
            type: "object",
            properties: {
              version: { type: "string" },
              tools: { type: "array", items: { type: "string" } },
              formats: { type: "array", items: { enum: [...OUTPUT_FORMATS] } },
              renderModes: { type: "array", items: { enum: [...RENDER_MODES] } },
              render: { enum: [...RENDER_MODES] },
              model: { type: "boolean" },
              auth: { type: "boolean" },
            },
            required: ["version", "tools", "formats", "renderModes", "render", "model", "auth"],
          }),
        },
        ...errorResponses(GUARD_STATUSES),
      },
    },
  };
  for (const [route, tool] of Object.entries(source.v1)) {
    paths[`/v1/${route}`] = {
      post: {
        operationId: route,
        summary: tool.title,
        description: tool.description,
        requestBody: {
          required: true,
          content: jsonContent(schemaOf(bodySchema(tool, source.extras?.[route]), "input")),
        },
        responses: {
          "200": {
            description: "The result object",
            content: jsonContent(schemaOf(tool.outputSchema, "output")),
          },
          ...errorResponses(fetchStatuses()),
        },
      },
    };
  }
  if (source.crawl) Object.assign(paths, crawlPaths());
  paths["/md"] = {
    post: {
      operationId: "md",
      summary: "Crawl4AI's /md: a page as Markdown, whole, main content, or filtered by a query",
      requestBody: { required: true, content: jsonContent(schemaOf(mdRequestSchema, "input")) },
      responses: {
        "200": {
          description: "Crawl4AI's answer; X-Webfetch-Filter says which filter ran",
          headers: { "X-Webfetch-Filter": { schema: { type: "string" } } },
          content: jsonContent(schemaOf(mdResponseSchema, "output")),
        },
        ...errorResponses(fetchStatuses()),
      },
    },
  };
  paths["/mcp"] = {
    post: {
      operationId: "mcp",
      summary: "MCP over streamable HTTP (stateless, JSON answers): the tools of the service",
      requestBody: {
        required: true,
        content: jsonContent({
          description: "A JSON-RPC 2.0 message, or a batch of them",
          oneOf: [{ type: "object" }, { type: "array", items: { type: "object" } }],
        }),
      },
      responses: {
        "200": { description: "JSON-RPC answers", content: jsonContent({}) },
        "202": { description: "A notification, accepted" },
        ...errorResponses([400, ...GUARD_STATUSES]),
      },
    },
    get: {
      operationId: "mcpStream",
      summary: "Not served: the MCP endpoint is stateless",
      responses: errorResponses([405, ...GUARD_STATUSES]),
    },
    delete: {
      operationId: "mcpEnd",
      summary: "Not served: the MCP endpoint is stateless",
      responses: errorResponses([405, ...GUARD_STATUSES]),
    },
  };
  paths["/{target}"] = {
    get: {
      operationId: "read",
      summary: "The reader route: the page at `target` (the rest of the path and its query)",
      description:
        "Jina Reader's form: GET /https://example.com/a, or /example.com/a for https. The target spans the rest of the path, slashes included.",
      parameters: [
        {
          name: "target",
          in: "path",
          required: true,
          description: "The URL to read, scheme optional (https)",
          schema: { type: "string" },
        },
        ...READER_HEADERS.map((header) => ({
          name: header.name,
          in: "header",
          required: false,
          description: header.description,
          schema: header.values ? { enum: [...header.values] } : { type: "string" },
        })),
      ],
      responses: {
        "200": {
          description:
            "The content (Markdown or text, its warnings in X-Webfetch-Warnings as JSON), or with Accept: application/json Jina's envelope",
          headers: { "X-Webfetch-Warnings": { schema: { type: "string" } } },
          content: {
            "text/markdown": { schema: { type: "string" } },
            "text/plain": { schema: { type: "string" } },
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  code: { const: 200 },
                  status: { const: 20000 },
                  data: source.v1.fetch
                    ? schemaOf(source.v1.fetch.outputSchema, "output")
                    : { type: "object" },
                },
                required: ["code", "status", "data"],
              },
            },
          },
        },
        ...errorResponses(fetchStatuses()),
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "webfetch",
      version: VERSION,
      description:
        "Any URL to clean Markdown with metadata, behind an address guard: the webfetch HTTP service.",
      license: { name: "MIT", identifier: "MIT" },
    },
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          properties: {
            error: {
              type: "object",
              properties: {
                code: { type: "string", enum: [...ERROR_CODES, ...SERVICE_ERROR_CODES] },
                message: { type: "string" },
              },
              required: ["code", "message"],
            },
          },
          required: ["error"],
        },
      },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
    security,
  };
}

/** The crawl job routes: start, read from a cursor, cancel. */
function crawlPaths(): Json {
  const id = {
    name: "id",
    in: "path",
    required: true,
    description: "The job's id, from POST /v1/crawl",
    schema: { type: "string" },
  };
  const job = (description: string) => ({
    description,
    content: jsonContent(schemaOf(crawlJobSchema, "output")),
  });
  return {
    "/v1/crawl": {
      post: {
        operationId: "crawlStart",
        summary: "Start crawling a site: a job whose pages are read with GET /v1/crawl/{id}",
        description:
          "Breadth-first from the start URL (best-first with a query), robots.txt and its Crawl-delay honoured, each URL fetched once and each page returned once. Ended jobs are kept an hour; when every job kept is still running, 429 TOO_MANY_CRAWLS.",
        requestBody: {
          required: true,
          content: jsonContent(schemaOf(crawlRequestSchema, "input")),
        },
        responses: {
          "202": {
            description: "The job, started",
            content: jsonContent(schemaOf(crawlStartedSchema, "output")),
          },
          ...errorResponses([400, 403, ...GUARD_STATUSES, 500], ["TOO_MANY_CRAWLS"]),
        },
      },
    },
    "/v1/crawl/{id}": {
      get: {
        operationId: "crawlRead",
        summary: "A crawl job's state and its pages from a cursor on, in crawl order",
        description:
          "Follow `next` until it is absent to read every page once; it stays present while the crawl runs.",
        parameters: [
          id,
          ...CRAWL_READ_PARAMETERS.map((parameter) => ({
            ...parameter,
            in: "query",
            required: false,
          })),
        ],
        responses: {
          "200": job("The job's state and a run of its pages"),
          ...errorResponses([400, 404, ...GUARD_STATUSES]),
        },
      },
      delete: {
        operationId: "crawlCancel",
        summary: "Stop a running crawl job; its pages so far stay readable",
        parameters: [id],
        responses: {
          "200": job("The job's state once it has stopped, with its first pages"),
          ...errorResponses([404, ...GUARD_STATUSES]),
        },
      },
    },
  };
}

/** A route's body: its tool's input, and the fields the route adds to it. */
function bodySchema(tool: Tool, extras: z.ZodObject | undefined): z.ZodObject {
  return extras ? tool.inputSchema.extend(extras.shape) : tool.inputSchema;
}

/** The tools behind `/v1/<route>`, by route, among those the service enabled. */
export function v1Tools(
  routes: Readonly<Record<string, ToolId>>,
  byId: ReadonlyMap<ToolId, Tool>,
): Record<string, Tool> {
  return Object.fromEntries(
    Object.entries(routes).flatMap(([route, id]) => {
      const tool = byId.get(id);
      return tool ? [[route, tool]] : [];
    }),
  );
}
