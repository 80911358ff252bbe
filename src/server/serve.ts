/**
 * The HTTP service on a socket: listen on the configured host and port (loopback by default),
 * and shut down gracefully: stop accepting, let in-flight requests finish within a grace
 * period, then cut what is left; running crawl jobs are cancelled so the process can exit.
 */
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";
import { LocalCrawlJobs } from "../queue/local.js";
import { type AppOptions, createApp } from "./app.js";
import { SERVER_DEFAULTS } from "./options.js";

export interface ServerOptions extends AppOptions {
  /** Port to listen on; 0 picks a free one. @default 8787 */
  port?: number;
}

export interface WebFetchServer {
  app: Hono;
  /** Starts listening; resolves with the address once it does. */
  listen(): Promise<{ host: string; port: number; url: string }>;
  /**
   * Stops accepting connections and resolves when in-flight requests are done (or cut after
   * `shutdownGraceMs`) and the crawl jobs it made are cancelled. The webfetch instance (and
   * `crawlJobs` when given) stays open: its owner closes it.
   */
  close(): Promise<void>;
}

/**
 * The webfetch HTTP service.
 *
 * @example
 * const server = createServer({ web: createWebFetch(), port: 0 });
 * const { url } = await server.listen();
 * process.once("SIGTERM", () => void server.close());
 */
export function createServer(options: ServerOptions): WebFetchServer {
  const host = options.host ?? SERVER_DEFAULTS.host;
  // The server's own crawl jobs, so that closing it stops their crawls.
  const ownJobs = options.crawlJobs
    ? undefined
    : new LocalCrawlJobs(options.web, { logger: options.logger ?? options.web.logger });
  const crawlJobs = options.crawlJobs ?? ownJobs!;
  const app = createApp({ ...options, host, crawlJobs });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  let closing: Promise<void> | undefined;
  // A keep-alive socket whose last request ends during shutdown is idle from then on: close it
  // at once, or close() would wait for the client's keep-alive timeout.
  server.on("request", (_req, res: ServerResponse) => {
    res.once("finish", () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    app,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.port ?? SERVER_DEFAULTS.port, host, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      return { host, port, url: `http://${shown}:${port}` };
    },
    close() {
      closing ??= Promise.all([ownJobs?.close(), closeHttp()]).then(() => undefined);
      return closing;
    },
  };

  function closeHttp(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      const grace = setTimeout(
        () => server.closeAllConnections(),
        options.shutdownGraceMs ?? SERVER_DEFAULTS.shutdownGraceMs,
      );
      grace.unref();
      server.close(() => {
        clearTimeout(grace);
        resolve();
      });
      // Keep-alive sockets with no request in flight would hold close() open for nothing.
      server.closeIdleConnections();
    });
  }
}
