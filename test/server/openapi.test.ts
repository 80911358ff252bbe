/**
 * `/openapi.json`: the document validates as OpenAPI 3.1, lists every route the service mounts,
 * and each route it lists answers with a status the document gives it.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { serviceSuite } from "./helpers.js";

const s = serviceSuite();

type Operation = { responses: Record<string, unknown> };
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** A request for each documented operation, its path filled in. */
function requests(): Record<string, { path: string; body?: unknown }> {
  const article = s.page("/article");
  return {
    "GET /health": { path: "/health" },
    "GET /openapi.json": { path: "/openapi.json" },
    "GET /": { path: "/" },
    "GET /v1/info": { path: "/v1/info" },
    "POST /v1/fetch": { path: "/v1/fetch", body: { url: article } },
    "POST /v1/extract": { path: "/v1/extract", body: { urls: [article] } },
    "POST /v1/search": { path: "/v1/search", body: { query: "fixture" } },
    "POST /v1/context": { path: "/v1/context", body: { query: "fixture" } },
    "POST /v1/read": { path: "/v1/read", body: { url: article } },
    "POST /v1/grep": { path: "/v1/grep", body: { url: article, pattern: "Paragraph" } },
    "POST /v1/map": { path: "/v1/map", body: { url: article, sitemap: "skip" } },
    "POST /v1/crawl": { path: "/v1/crawl", body: { url: article, max_depth: 0 } },
    "GET /v1/crawl/{id}": { path: "/v1/crawl/00000000-0000-4000-8000-000000000000" },
    "DELETE /v1/crawl/{id}": { path: "/v1/crawl/00000000-0000-4000-8000-000000000000" },
    "POST /md": { path: "/md", body: { url: article, f: "fit" } },
    "POST /mcp": {
      path: "/mcp",
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "openapi-test", version: "1" },
        },
      },
    },
    "GET /mcp": { path: "/mcp" },
    "DELETE /mcp": { path: "/mcp" },
    "GET /{target}": { path: `/${article}` },
  };
}

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const res = await s.get("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists every route, and each answers with a status it documents", async () => {
    const doc = (await (await s.get("/openapi.json")).json()) as Doc;
    const table = requests();
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(Object.keys(table).sort());
    for (const operation of documented) {
      const [method, path] = operation.split(" ") as [string, string];
      const request = table[operation]!;
      const res =
        request.body === undefined
          ? await fetch(`${s.url}${request.path}`, {
              method,
              headers: { accept: "application/json, text/event-stream" },
            })
          : await s.post(request.path, request.body, {
              accept: "application/json, text/event-stream",
            });
      const statuses = Object.keys(doc.paths[path]![method.toLowerCase()]!.responses);
      expect({ operation, status: res.status, ok: statuses.includes(String(res.status)) }).toEqual({
        operation,
        status: res.status,
        ok: true,
      });
    }
  });

  it("gives each error status the codes it carries", async () => {
    const doc = (await (await s.get("/openapi.json")).json()) as Doc;
    const responses = doc.paths["/v1/fetch"]!.post!.responses as Record<
      string,
      { description: string }
    >;
    expect(responses["403"]?.description).toContain("BLOCKED_ADDRESS");
    expect(responses["422"]?.description).toContain("SELECTOR_NOT_FOUND");
    expect(responses["429"]?.description).toContain("RATE_LIMITED");
    // A route's own code is listed for that route alone.
    expect(responses["429"]?.description).not.toContain("TOO_MANY_CRAWLS");
    const crawl = doc.paths["/v1/crawl"]!.post!.responses as Record<
      string,
      { description: string }
    >;
    expect(crawl["429"]?.description).toContain("TOO_MANY_CRAWLS");
    const body = (
      doc.paths["/v1/fetch"]!.post as unknown as {
        requestBody: { content: { "application/json": { schema: { properties: object } } } };
      }
    ).requestBody.content["application/json"].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(["url", "links", "schema"]),
    );
    const blocked = await s.post("/v1/fetch", { url: "http://10.0.0.1/" });
    expect(blocked.status).toBe(403);
  });
});
