/**
 * Replies that break HTTP or carry a body we cannot decode: each has one documented code, so a
 * caller can tell a server's fault (PROTOCOL_ERROR), a corrupt body (PARSE_ERROR) and a coding we
 * do not read (UNSUPPORTED_CONTENT_TYPE) from a network failure (CONNECT_FAILED).
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure, fixtureSuite, type TestWeb, testWeb } from "../helpers/web.js";

/** Raw replies, written whole to the socket after the request arrives. */
const REPLIES: Record<string, string> = {
  "/bad-content-length":
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: abc\r\n\r\nhello",
  "/length-and-chunked":
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
  "/two-lengths":
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
  "/not-http": "SSH-2.0-OpenSSH_9.6\r\n",
  "/control-in-location": "HTTP/1.1 302 Found\r\nLocation: /a\x01b\r\nContent-Length: 0\r\n\r\n",
  "/bad-chunk":
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
};

/** Bodies cut short by a server that closes the connection: a dropped connection, not a breach. */
const CUT_SHORT: Record<string, string> = {
  "/closed-before-length":
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\nContent-Length: 100\r\n\r\n<p>hello",
  "/closed-mid-chunks":
    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
};

let raw: Server;
let t: TestWeb;
beforeAll(async () => {
  raw = createServer((socket: Socket) => {
    socket.on("error", () => {});
    socket.once("data", (data: Buffer) => {
      const path = data.toString("latin1").split(" ")[1] ?? "/";
      socket.end(
        REPLIES[path] ?? CUT_SHORT[path] ?? "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
      );
    });
  });
  raw.listen(0, "127.0.0.1");
  await once(raw, "listening");
  const { port } = raw.address() as AddressInfo;
  t = testWeb(undefined, { allowAddresses: [`127.0.0.1:${port}`], robots: "ignore" });
});
afterAll(async () => {
  await t.web.close();
  raw.close();
  expect(t.recorder.refused).toEqual([]);
});

const rawUrl = (path: string) => `http://127.0.0.1:${(raw.address() as AddressInfo).port}${path}`;

describe("a reply that breaks HTTP is PROTOCOL_ERROR, not CONNECT_FAILED", () => {
  for (const path of Object.keys(REPLIES)) {
    it(path.slice(1), async () => {
      const error = await failure(t.web.fetch(rawUrl(path)));
      expect(error.code).toBe("PROTOCOL_ERROR");
      expect(error.message).toMatch(/^The server broke the HTTP protocol: /);
      expect(error.retryable).toBe(false);
    });
  }
});

describe("a body cut short by a closed connection is CONNECT_FAILED, worth a retry", () => {
  for (const path of Object.keys(CUT_SHORT)) {
    it(path.slice(1), async () => {
      const error = await failure(t.web.fetch(rawUrl(path)));
      expect(error.code).toBe("CONNECT_FAILED");
      expect(error.retryable).toBe(true);
    });
  }
});

const suite = fixtureSuite();

describe("content codings", () => {
  it("a corrupt gzip body and a corrupt brotli body are both PARSE_ERROR", async () => {
    for (const path of ["/corrupt-gzip", "/corrupt-br", "/corrupt-deflate"]) {
      const error = await failure(suite.t.web.fetch(suite.server.url(path)));
      expect({ path, code: error.code }).toEqual({ path, code: "PARSE_ERROR" });
      expect(error.retryable).toBe(false);
    }
  });

  it("refuses a coding it cannot read instead of returning its bytes as text", async () => {
    const codings = ["compress", "x-compress", "gzip, compress"];
    if (typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress !== "function") {
      codings.push("zstd");
    }
    for (const coding of codings) {
      const url = suite.server.url(`/coded?coding=${encodeURIComponent(coding)}`);
      const error = await failure(suite.t.web.fetch(url));
      expect({ coding, code: error.code }).toEqual({ coding, code: "UNSUPPORTED_CONTENT_TYPE" });
      expect(error.message).toContain("Unsupported content encoding");
    }
  });

  it("still reads identity, the codings it knows, and a token that names no coding", async () => {
    for (const coding of ["identity", "none", "utf-8"]) {
      const page = await suite.t.web.fetch(suite.server.url(`/coded?coding=${coding}`));
      expect(page.content).toContain("plain body");
    }
    expect((await suite.t.web.fetch(suite.server.url("/br"))).title).toBe("Brotli");
  });
});
