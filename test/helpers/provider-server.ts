/**
 * A local stand-in for a search provider's API: real HTTP on 127.0.0.1, recording every request
 * (method, path, query, headers, body) so tests can assert what we send, and answering with
 * whatever the test's handler writes — shaped as the provider documents its responses.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ProviderHandler = (req: RecordedRequest, res: ServerResponse, n: number) => void;

export interface ProviderServer {
  /** `http://127.0.0.1:{port}` */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler (and forgets the requests seen so far). */
  reply(handler: ProviderHandler): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify(body));
}

export function html(res: ServerResponse, status: number, body: string, headers = {}): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
}

export async function startProviderServer(handler?: ProviderHandler): Promise<ProviderServer> {
  let current: ProviderHandler = handler ?? ((_req, res) => json(res, 404, {}));
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://provider.local");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      current(recorded, res, requests.length);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(next) {
      current = next;
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
