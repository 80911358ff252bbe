/**
 * DNS rebinding and cross-site requests: without a token, every route but /health answers 403
 * `FORBIDDEN_HOST` unless Host (and Origin, when sent) names this machine, the bound host or a
 * configured name, and a browser's cross-site request is refused whatever its Host. With a
 * token, the token guards the routes and /mcp still checks Host and Origin.
 */
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { type RawRequest, rawRequest, serviceSuite } from "./helpers.js";

const JSON_POST = { "content-type": "application/json" };
const MCP_POST = { ...JSON_POST, accept: "application/json, text/event-stream" };
const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

/** Every route a client can drive, with a request that it would serve from loopback. */
function routes(page: (path: string) => string): [string, string, RawRequest][] {
  const post = (body: unknown, headers = JSON_POST): RawRequest => ({
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  return [
    ["POST", "/v1/fetch", post({ url: page("/article") })],
    ["POST", "/v1/extract", post({ urls: [page("/article")] })],
    ["POST", "/v1/search", post({ query: "installation" })],
    ["POST", "/v1/context", post({ query: "installation" })],
    ["POST", "/md", post({ url: page("/article") })],
    ["POST", "/mcp", { method: "POST", headers: MCP_POST, body: TOOLS_LIST }],
    ["GET", `/${page("/article")}`, {}],
    ["GET", "/no-such-route", {}],
  ];
}

/** `request` with `headers` added. */
function withHeaders(request: RawRequest, headers: Record<string, string>): RawRequest {
  return { ...request, headers: { ...request.headers, ...headers } };
}

describe("host guard without a token", () => {
  const s = serviceSuite();
  const port = () => new URL(s.url).port;

  it.each([
    ["a foreign Host", () => ({ host: `evil.example:${port()}` })],
    ["a foreign Origin", () => ({ host: `127.0.0.1:${port()}`, origin: "http://evil.example" })],
    [
      "a foreign Host and Origin",
      () => ({ host: `evil.example:${port()}`, origin: `http://evil.example:${port()}` }),
    ],
    ["Origin null", () => ({ host: `localhost:${port()}`, origin: "null" })],
    [
      "a browser's cross-site request",
      () => ({ host: `localhost:${port()}`, "sec-fetch-site": "cross-site" }),
    ],
  ])("refuses %s on every route but /health", async (_name, headers) => {
    for (const [method, path, request] of routes(s.page)) {
      const res = await rawRequest(s.url, path, withHeaders(request, headers()));
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: "FORBIDDEN_HOST" } });
    }
    const health = await rawRequest(s.url, "/health", { headers: headers() });
    expect(health.status).toBe(200);
  });

  it.each(["127.0.0.1", "localhost", "[::1]"])(
    "serves Host %s:port, with a same-origin Origin too",
    async (name) => {
      const host = `${name}:${port()}`;
      for (const extra of [{}, { origin: `http://${host}`, "sec-fetch-site": "same-origin" }]) {
        const headers = { host, ...extra };
        const fetched = await rawRequest(
          s.url,
          "/v1/fetch",
          withHeaders(routes(s.page)[0]![2], headers),
        );
        expect(fetched.status).toBe(200);
        expect(JSON.parse(fetched.body)).toMatchObject({ title: "Fixture Article" });
        const md = await rawRequest(s.url, "/md", withHeaders(routes(s.page)[4]![2], headers));
        expect(md.status).toBe(200);
        const mcp = await rawRequest(s.url, "/mcp", withHeaders(routes(s.page)[5]![2], headers));
        expect(mcp.status).toBe(200);
        const reader = await rawRequest(s.url, `/${s.page("/article")}`, { headers });
        expect(reader.status).toBe(200);
        expect(reader.body).toContain("Fixture Article");
      }
    },
  );

  it("serves a page the user opens from the address bar (Sec-Fetch-Site: none)", async () => {
    const res = await rawRequest(s.url, `/${s.page("/article")}`, {
      headers: { host: `localhost:${port()}`, "sec-fetch-site": "none" },
    });
    expect(res.status).toBe(200);
  });
});

describe("host guard with allowedHosts", () => {
  const s = serviceSuite({ server: { allowedHosts: ["webfetch.internal"] } });

  it("serves a listed name in Host and Origin, and still refuses others", async () => {
    const port = new URL(s.url).port;
    const ok = await rawRequest(s.url, `/${s.page("/article")}`, {
      headers: { host: `webfetch.internal:${port}`, origin: "http://WebFetch.Internal" },
    });
    expect(ok.status).toBe(200);
    const other = await rawRequest(s.url, `/${s.page("/article")}`, {
      headers: { host: `evil.example:${port}` },
    });
    expect(other.status).toBe(403);
  });
});

describe("host guard with a token", () => {
  const s = serviceSuite({ server: { token: "tok" } });

  it("lets the token guard /v1, /md and the reader route whatever the Host", async () => {
    const port = new URL(s.url).port;
    const foreign = { host: `fetcher.example:${port}`, authorization: "Bearer tok" };
    for (const [method, path, request] of routes(s.page)) {
      if (path === "/mcp" || path.startsWith("/v1/search") || path.startsWith("/v1/context")) {
        continue;
      }
      const res = await rawRequest(s.url, path, withHeaders(request, foreign));
      const expected = path === "/no-such-route" ? 404 : 200;
      expect({ method, path, status: res.status }).toEqual({ method, path, status: expected });
    }
    const noToken = await rawRequest(s.url, "/v1/fetch", {
      ...routes(s.page)[0]![2],
      headers: { ...JSON_POST, host: `evil.example:${port}` },
    });
    expect(noToken.status).toBe(401);
  });

  it("keeps /mcp's Host and Origin check", async () => {
    const port = new URL(s.url).port;
    const mcp = routes(s.page)[5]![2];
    const foreign = await rawRequest(
      s.url,
      "/mcp",
      withHeaders(mcp, { host: `evil.example:${port}`, authorization: "Bearer tok" }),
    );
    expect(foreign.status).toBe(403);
    const local = await rawRequest(
      s.url,
      "/mcp",
      withHeaders(mcp, { host: `127.0.0.1:${port}`, authorization: "Bearer tok" }),
    );
    expect(local.status).toBe(200);
  });
});

describe("host guard in process", () => {
  it("takes the host from the URL of a request with no Host header (app.request)", async () => {
    const web = createWebFetch({ network: "none" });
    try {
      const app = createApp({ web });
      expect((await app.request("/no-such-route")).status).toBe(404);
      expect((await app.request("http://127.0.0.1:8787/no-such-route")).status).toBe(404);
      expect((await app.request("http://evil.example/no-such-route")).status).toBe(403);
      const forged = await app.request("/no-such-route", { headers: { host: "evil.example" } });
      expect(forged.status).toBe(403);
    } finally {
      await web.close();
    }
  });
});
