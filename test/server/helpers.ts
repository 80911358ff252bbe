/**
 * Starts the HTTP service on a free port of 127.0.0.1 over a test instance wired to the fixture
 * server (and to a local search provider), captures its log lines, and closes everything after
 * the suite, checking that no socket was aimed outside loopback.
 */
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fetch } from "undici";
import { afterAll, beforeAll, expect } from "vitest";
import type { Logger } from "../../src/log.js";
import type { WebFetchOptions } from "../../src/options.js";
import { createServer, type ServerOptions, type WebFetchServer } from "../../src/server/serve.js";
import type { WebFetch } from "../../src/webfetch/index.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { type ProviderServer, startProviderServer } from "../helpers/provider-server.js";
import { type TestWeb, testWeb } from "../helpers/web.js";

export interface Service {
  /** `http://127.0.0.1:{port}` of the service. */
  url: string;
  fixture: FixtureServer;
  provider: ProviderServer;
  t: TestWeb;
  server: WebFetchServer;
  logs: Record<string, unknown>[];
  /** A fixture page's URL. */
  page(path: string, host?: string): string;
  /** POST JSON (or a raw string body) to the service. */
  post(path: string, body: unknown, headers?: Record<string, string>): ReturnType<typeof fetch>;
  get(path: string, headers?: Record<string, string>): ReturnType<typeof fetch>;
}

export interface ServiceOptions {
  server?: Omit<ServerOptions, "web">;
  web?: WebFetchOptions;
  /** Wraps the instance the service gets (to slow it down, say). */
  wrap?: (web: WebFetch) => WebFetch;
}

/** A logger that records every line. */
export function recordingLogger(lines: Record<string, unknown>[]): Logger {
  const push = (o: object, msg?: string) => lines.push({ ...o, msg });
  return { debug: push, info: push, warn: push, error: push };
}

/** The service for the enclosing test file, filled in before its tests run. */
export function serviceSuite(options: ServiceOptions = {}): Service {
  const s = { logs: [] } as unknown as Service & { close(): Promise<void> };
  beforeAll(async () => {
    const [fixture, provider] = await Promise.all([startFixtureServer(), startProviderServer()]);
    const t = testWeb(fixture, {
      search: { provider: "tavily", tavilyApiKey: "tvly-k", tavilyBaseUrl: provider.url, env: {} },
      ...options.web,
    });
    const server = createServer({
      web: options.wrap ? options.wrap(t.web) : t.web,
      logger: recordingLogger(s.logs),
      ...options.server,
      host: "127.0.0.1",
      port: 0,
    });
    const { url } = await server.listen();
    Object.assign(s, {
      url,
      fixture,
      provider,
      t,
      server,
      page: (path: string, host?: string) => fixture.url(path, host),
      post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
      get: (path: string, headers: Record<string, string> = {}) =>
        fetch(`${url}${path}`, { headers }),
      close: async () => {
        await server.close();
        await t.web.close();
        await Promise.all([fixture.close(), provider.close()]);
      },
    });
  });
  afterAll(async () => {
    await s.close();
    expect(s.t.recorder.refused).toEqual([]);
  });
  return s;
}

export interface RawRequest {
  method?: string;
  /** Headers as sent, Host and Origin included (fetch would not let a test forge them). */
  headers?: Record<string, string>;
  body?: string;
  /** The local address to connect from (any of 127.0.0.0/8 on Linux): another client. */
  localAddress?: string;
}

/** One request over node:http, with headers fetch forbids; resolves with status and body. */
export function rawRequest(
  url: string,
  path: string,
  options: RawRequest = {},
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: hostname.replace(/^\[|\]$/g, ""),
        port,
        path,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** An MCP SDK client connected to the service's `/mcp` for the suite, closed after it. */
export function mcpClientSuite(s: Service): { client: Client } {
  const holder = {} as { client: Client };
  beforeAll(async () => {
    holder.client = new Client({ name: "test", version: "1.0.0" });
    await holder.client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
  });
  afterAll(async () => {
    await holder.client.close();
  });
  return holder;
}
