/**
 * The in-process fixture server for every network test: real HTTP on 127.0.0.1, serving fixture
 * pages and pathological responses. Behaviour can depend on the Host header, so names mapped to
 * 127.0.0.1 by the injected lookup act as different sites (robots.txt variants, cross-host
 * redirects). Nothing here ever listens on or talks to another address.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import zlib from "node:zlib";

export interface FixtureServer {
  port: number;
  /** `http://{host}:{port}{path}`, host defaulting to fixture.test. */
  url(path: string, host?: string): string;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  /** Connections accepted so far, and the most open at once. */
  connections: { total: number; open: number; maxOpen: number };
  close(): Promise<void>;
}

/**
 * An article with a stylesheet and two images, one on this server and one on a private
 * address: a screenshot fetches both through the guard, which refuses the second.
 */
const STYLED_HTML = articleHtml("Styled Page", 6)
  .replace("</head>", '<link rel="stylesheet" href="/styled.css"></head>')
  .replace(
    "</body>",
    '<img src="/image" alt="pixel"><img src="http://10.0.0.9/private.png" alt="private"></body>',
  );

/** A page 30,000 CSS pixels tall of coloured, numbered rows: too tall and too big to capture whole. */
const TALL_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tall Page</title></head>
<body style="margin:0"><main><h1>Tall page</h1>${Array.from(
  { length: 600 },
  (_, i) =>
    `<p style="margin:0;height:50px;background:hsl(${(i * 37) % 360},70%,${40 + (i % 5) * 8}%)">Row ${i + 1} of the tall page, with a few words so that each row differs from the last one.</p>`,
).join("")}</main></body></html>`;

/** A page of about `bytes` bytes of article HTML. */
export function articleHtml(title: string, paragraphs: number): string {
  const body = Array.from(
    { length: paragraphs },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the article about ${title}. It has enough words, commas, and substance to count as content, unlike the navigation around it.</p>`,
  ).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="A test article about ${title}.">
<meta name="author" content="Ada Lovelace">
<meta property="og:site_name" content="Fixture Site">
<meta property="article:published_time" content="2026-01-02T00:00:00Z">
<link rel="canonical" href="/canonical/${encodeURIComponent(title)}">
</head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<div class="cookie-banner">We use cookies. <button>Accept</button></div>
<main><article><h1>${title}</h1>
${body}
<p>See <a href="/related">the related page</a> for more.</p>
</article></main>
<aside class="ad">Buy our product now!</aside>
<footer>Copyright 2026 Fixture Site. All rights reserved.</footer>
</body></html>`;
}

/**
 * A guide with headed sections, for query-focused extraction and RAG context: each topic is a
 * section whose paragraphs talk about that topic only.
 */
export function guideHtml(title: string, topics: readonly string[]): string {
  const sections = topics
    .map(
      (topic) => `<h2>${topic}</h2>
<p>This section explains ${topic} in detail. The ${topic} steps are short, and every ${topic} example works as written.</p>
<p>More about ${topic}: people who read about ${topic} usually come back to ${topic} again.</p>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><article><h1>${title}</h1>
<p>An introduction to ${title} that mentions nothing in particular.</p>
${sections}
</article></main></body></html>`;
}

/** Lazily built bodies that are expensive to make. */
const cached = new Map<string, Buffer>();
function memo(key: string, make: () => Buffer): Buffer {
  let value = cached.get(key);
  if (!value) {
    value = make();
    cached.set(key, value);
  }
  return value;
}

/**
 * 64 MiB of zeros, compressed: a few dozen KiB on the wire. `br24` uses brotli's largest
 * window (16 MiB), so its decoder's own buffer is as large as it gets.
 */
export function bombBytes(kind: "gzip" | "br" | "br24"): Buffer {
  return memo(`bomb-${kind}`, () => {
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    if (kind === "gzip") return zlib.gzipSync(zeros, { level: 9 });
    return zlib.brotliCompressSync(zeros, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        ...(kind === "br24" ? { [zlib.constants.BROTLI_PARAM_LGWIN]: 24 } : {}),
      },
    });
  });
}

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e0f2f90000000049454e44ae426082",
  "hex",
);

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** robots.txt by site (the Host header's name). */
function robots(host: string, res: ServerResponse, port: number): void {
  switch (host) {
    case "robots-disallow.test":
      send(res, 200, "text/plain", "User-agent: *\nDisallow: /private\n");
      return;
    case "robots-agent.test":
      send(
        res,
        200,
        "text/plain",
        "User-agent: *\nAllow: /\n\nUser-agent: webfetch\nDisallow: /\n",
      );
      return;
    case "robots-500.test":
      send(res, 500, "text/plain", "oops");
      return;
    case "robots-hang.test":
      // Never answers; the socket stays open until the client gives up.
      return;
    case "robots-slow.test":
      setTimeout(() => send(res, 404, "text/plain", "slow"), 800);
      return;
    case "robots-to-blocked.test":
      res.writeHead(302, { location: `http://blocked.test:${port}/robots.txt` }).end();
      return;
    case "robots-redirect.test":
      res.writeHead(301, { location: `http://robots-disallow.test:${port}/robots.txt` }).end();
      return;
    default:
      send(res, 404, "text/plain", "no robots here");
  }
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const hits = new Map<string, number>();
  const connections = { total: 0, open: 0, maxOpen: 0 };
  const sockets = new Set<Socket>();
  const counters = new Map<string, number>();
  let port = 0;

  const routes: Record<string, Handler> = {
    "/article": (_req, res) =>
      send(res, 200, "text/html; charset=utf-8", articleHtml("Fixture Article", 8)),
    "/big": (_req, res, url) => {
      const kb = Number(url.searchParams.get("kb") ?? 100);
      send(
        res,
        200,
        "text/html; charset=utf-8",
        articleHtml("Big Page", Math.round((kb * 1024) / 150)),
      );
    },
    "/long": (_req, res) =>
      send(res, 200, "text/html; charset=utf-8", articleHtml("Long Page", 400)),
    // The article with a figure in its text and a logo in its header.
    "/gallery": (_req, res) =>
      send(
        res,
        200,
        "text/html; charset=utf-8",
        articleHtml("Gallery", 4)
          .replace("<nav>", '<nav><img src="/logo.png" alt="Site logo">')
          .replace(
            "<h1>Gallery</h1>",
            '<h1>Gallery</h1><img src="/photos/one.jpg" alt="A [red] boat">',
          ),
      ),
    "/json": (_req, res) => send(res, 200, "application/json", '{"a":1,"b":[1,2],"c":{"d":"e"}}'),
    "/text": (_req, res) => send(res, 200, "text/plain; charset=utf-8", "line one\r\nline two\r\n"),
    "/csv": (_req, res) => send(res, 200, "text/csv", "a,b\n1,2\n"),
    "/markdown": (_req, res) =>
      send(res, 200, "text/markdown; charset=utf-8", "# Hello\n\nAlready *Markdown*.\n"),
    "/rss": (_req, res) =>
      send(
        res,
        200,
        "application/rss+xml",
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture Feed</title><link>http://fixture.test/</link><description>News</description><item><title>First post</title><link>http://fixture.test/p/1</link><pubDate>Fri, 02 Jan 2026 00:00:00 GMT</pubDate><description>Hello &lt;b&gt;world&lt;/b&gt;</description></item></channel></rss>`,
      ),
    "/binary-as-html": (_req, res) => send(res, 200, "text/html", PNG),
    "/octet-html": (_req, res) =>
      send(
        res,
        200,
        "application/octet-stream",
        "<!doctype html><html><body><main><h1>Sniffed</h1><p>HTML served as octet-stream is still HTML.</p></main></body></html>",
      ),
    "/image": (_req, res) => send(res, 200, "image/png", PNG),
    "/echo-headers": (req, res) => send(res, 200, "application/json", JSON.stringify(req.headers)),
    "/gzip": (_req, res) => {
      const body = zlib.gzipSync(articleHtml("Gzipped", 5));
      send(res, 200, "text/html; charset=utf-8", body, { "content-encoding": "gzip" });
    },
    "/br": (_req, res) => {
      const body = zlib.brotliCompressSync(articleHtml("Brotli", 5));
      send(res, 200, "text/html; charset=utf-8", body, { "content-encoding": "br" });
    },
    "/deflate-raw": (_req, res) => {
      const body = zlib.deflateRawSync(articleHtml("Raw Deflate", 5));
      send(res, 200, "text/html; charset=utf-8", body, { "content-encoding": "deflate" });
    },
    "/deflate": (_req, res) => {
      const body = zlib.deflateSync(articleHtml("Deflate", 5));
      send(res, 200, "text/html; charset=utf-8", body, { "content-encoding": "deflate" });
    },
    "/many-codings": (_req, res) => {
      let body = Buffer.from(articleHtml("Layered", 2));
      for (let i = 0; i < 4; i++) body = zlib.gzipSync(body);
      send(res, 200, "text/html", body, { "content-encoding": "gzip, gzip, gzip, gzip" });
    },
    "/raw-deflate-in-gzip": (_req, res) => {
      const body = zlib.gzipSync(zlib.deflateRawSync(articleHtml("Two Layers", 2)));
      send(res, 200, "text/html", body, { "content-encoding": "deflate, gzip" });
    },
    "/corrupt-gzip": (_req, res) =>
      send(res, 200, "text/html", Buffer.from("this is not gzip at all"), {
        "content-encoding": "gzip",
      }),
    "/corrupt-br": (_req, res) =>
      send(res, 200, "text/html", Buffer.from("this is not brotli at all, not even close"), {
        "content-encoding": "br",
      }),
    "/corrupt-deflate": (_req, res) =>
      send(res, 200, "text/html", Buffer.from("x\u009cthis is not deflate"), {
        "content-encoding": "deflate",
      }),
    "/coded": (_req, res, url) =>
      // A plain body under whatever Content-Encoding the test names.
      send(res, 200, "text/html", "<html><body><p>plain body</p></body></html>", {
        "content-encoding": url.searchParams.get("coding") ?? "identity",
      }),
    "/app-shell": (_req, res) =>
      // A page whose text exists only after its script runs.
      send(
        res,
        200,
        "text/html",
        '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>',
      ),
    "/empty-page": (_req, res) =>
      send(res, 200, "text/html", "<!doctype html><html><head></head><body></body></html>"),
    "/many-items": (_req, res, url) => {
      const n = Number(url.searchParams.get("n") ?? 300_000);
      const items = Array.from({ length: n }, (_, i) => `<li>${i + 1}</li>`).join("");
      send(res, 200, "text/html", `<html><body><main><ul>${items}</ul></main></body></html>`);
    },
    "/big-feed": (_req, res, url) => {
      const n = Number(url.searchParams.get("n") ?? 250);
      const items = Array.from(
        { length: n },
        (_, i) =>
          `<item><title>Item ${i + 1}</title><link>https://feed.example/${i + 1}</link></item>`,
      ).join("");
      send(
        res,
        200,
        "application/rss+xml",
        `<?xml version="1.0"?><rss version="2.0"><channel><title>Big feed</title>${items}</channel></rss>`,
      );
    },
    "/gzip-bomb": (_req, res) =>
      send(res, 200, "text/html", bombBytes("gzip"), { "content-encoding": "gzip" }),
    "/br-bomb": (_req, res) =>
      send(res, 200, "text/html", bombBytes("br"), { "content-encoding": "br" }),
    "/br24-bomb": (_req, res) =>
      send(res, 200, "text/html", bombBytes("br24"), { "content-encoding": "br" }),
    "/declared-huge": (_req, res) => {
      res.writeHead(200, {
        "content-type": "text/html",
        "content-length": String(50 * 1024 * 1024),
      });
      res.write("<html>");
    },
    "/endless": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    },
    "/slow-drip": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      const timer = setInterval(
        () => (res.destroyed ? clearInterval(timer) : res.write("<p>drip</p>")),
        200,
      );
      res.on("close", () => clearInterval(timer));
    },
    "/late": (_req, res, url) => {
      // Headers only after `ms` milliseconds: a server that thinks before it answers.
      const ms = Number(url.searchParams.get("ms") ?? 100);
      const timer = setTimeout(() => send(res, 200, "text/plain", "late"), ms);
      res.on("close", () => clearTimeout(timer));
    },
    "/early-hints": (_req, res, url) => {
      // 103 Early Hints at once, the response itself after `ms` milliseconds.
      const ms = Number(url.searchParams.get("ms") ?? 100);
      res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
      const timer = setTimeout(() => send(res, 200, "text/plain", "hinted"), ms);
      res.on("close", () => clearTimeout(timer));
    },
    "/hang": () => {
      // No status line, ever.
    },
    "/huge-headers": (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "x-huge": "a".repeat(64 * 1024) });
      res.end("<p>never seen</p>");
    },
    "/nested-divs": (_req, res) =>
      send(res, 200, "text/html", `<html><body>${"<div>".repeat(100_000)}deep text</body></html>`),
    "/long-line": (_req, res) =>
      send(
        res,
        200,
        "text/html",
        `<html><body><p>${"word ".repeat(4 * 1024 * 1024)}</p></body></html>`,
      ),
    "/status": (_req, res, url) => {
      const code = Number(url.searchParams.get("code") ?? 500);
      send(res, code, "text/html", `<h1>${code}</h1>`);
    },
    "/rate-limited": (_req, res, url) =>
      send(res, 429, "text/plain", "slow down", {
        "retry-after": url.searchParams.get("after") ?? "1",
      }),
    "/flaky": (_req, res, url) => {
      // Fails `fail` times with `code` (or a reset), then succeeds; counted by `key`.
      const key = url.searchParams.get("key") ?? "default";
      const fail = Number(url.searchParams.get("fail") ?? 1);
      const n = (counters.get(key) ?? 0) + 1;
      counters.set(key, n);
      if (n <= fail) {
        const code = url.searchParams.get("code") ?? "503";
        if (code === "reset") {
          res.socket?.destroy();
          return;
        }
        send(
          res,
          Number(code),
          "text/plain",
          "try again",
          code === "429" ? { "retry-after": "0" } : {},
        );
        return;
      }
      send(res, 200, "text/html", articleHtml(`Recovered ${key}`, 3));
    },
    "/redirect": (_req, res, url) => {
      // /redirect?n=3 → /redirect?n=2 → ... → /article
      const n = Number(url.searchParams.get("n") ?? 1);
      const status = Number(url.searchParams.get("status") ?? 302);
      res
        .writeHead(status, {
          location: n > 1 ? `/redirect?n=${n - 1}&status=${status}` : "/article",
        })
        .end();
    },
    "/loop-a": (_req, res) => res.writeHead(302, { location: "/loop-b" }).end(),
    "/loop-b": (_req, res) => res.writeHead(302, { location: "/loop-a" }).end(),
    "/redirect-to": (_req, res, url) => {
      res
        .writeHead(Number(url.searchParams.get("status") ?? 302), {
          location: url.searchParams.get("url") ?? "/",
        })
        .end();
    },
    "/guide": (_req, res, url) => {
      const topics = (
        url.searchParams.get("topics") ?? "installation,configuration,upgrades"
      ).split(",");
      send(
        res,
        200,
        "text/html; charset=utf-8",
        guideHtml(url.searchParams.get("title") ?? "Guide", topics),
      );
    },
    "/private": (_req, res) => send(res, 200, "text/html", articleHtml("Private", 2)),
    "/styled": (_req, res) => send(res, 200, "text/html; charset=utf-8", STYLED_HTML),
    "/styled.css": (_req, res) => send(res, 200, "text/css", "body { background: #fde; }"),
    "/tall": (_req, res) => send(res, 200, "text/html; charset=utf-8", TALL_HTML),
    "/public": (_req, res) => send(res, 200, "text/html", articleHtml("Public", 2)),
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture.test");
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    if (url.pathname === "/robots.txt") {
      robots(host, res, port);
      return;
    }
    if (url.pathname.startsWith("/enc/")) {
      encodedPage(url, res);
      return;
    }
    const handler = routes[url.pathname];
    if (handler) handler(req, res, url);
    else send(res, 404, "text/html", "<h1>Not found</h1>");
  });
  server.on("connection", (socket: Socket) => {
    connections.total++;
    connections.open++;
    connections.maxOpen = Math.max(connections.maxOpen, connections.open);
    sockets.add(socket);
    socket.on("close", () => {
      connections.open--;
      sockets.delete(socket);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;

  return {
    port,
    url: (path, host = "fixture.test") => `http://${host}:${port}${path}`,
    hits,
    connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

/** Test strings in each legacy encoding, as bytes made by TextDecoder's inverse (see encode()). */
export const ENCODED_TEXT: Record<string, string> = {
  shift_jis: "日本語のテキスト",
  "euc-jp": "日本語のテキスト",
  "iso-2022-jp": "日本語のテキスト",
  gbk: "中文文本内容",
  big5: "中文文本內容",
  "euc-kr": "한국어 텍스트",
  "windows-1251": "Привет мир",
  "windows-1252": "Café déjà vu",
  "iso-8859-2": "Zażółć gęślą jaźń",
};

/** Encodes `text` in a legacy charset by inverting TextDecoder over its byte space (tests only). */
export function encode(text: string, charset: string): Buffer {
  if (charset === "iso-2022-jp") return encodeIso2022jp(text);
  const table = inverseTable(charset);
  const out: number[] = [];
  for (const ch of text) {
    const bytes = table.get(ch);
    if (!bytes) throw new Error(`cannot encode ${ch} in ${charset}`);
    out.push(...bytes);
  }
  return Buffer.from(out);
}

const inverse = new Map<string, Map<string, number[]>>();
function inverseTable(charset: string): Map<string, number[]> {
  let table = inverse.get(charset);
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder(charset, { fatal: true });
  const tryBytes = (bytes: number[]) => {
    try {
      const s = decoder.decode(Uint8Array.from(bytes));
      if ([...s].length === 1 && !table!.has(s)) table!.set(s, bytes);
    } catch {}
  };
  for (let a = 0x20; a < 0x100; a++) tryBytes([a]);
  for (let a = 0x81; a < 0xff; a++) for (let b = 0x40; b < 0xff; b++) tryBytes([a, b]);
  inverse.set(charset, table);
  return table;
}

/** ISO-2022-JP: ESC $ B, then the JIS X 0208 codes (EUC-JP bytes minus 0x80), then ESC ( B. */
function encodeIso2022jp(text: string): Buffer {
  const euc = encode(text, "euc-jp");
  const out = [0x1b, 0x24, 0x42];
  for (const byte of euc) out.push(byte & 0x7f);
  out.push(0x1b, 0x28, 0x42);
  return Buffer.from(out);
}

/** /enc/<charset>?via=header|meta: a page whose text is ENCODED_TEXT[charset]. */
function encodedPage(url: URL, res: ServerResponse): void {
  const charset = decodeURIComponent(url.pathname.slice("/enc/".length));
  const text = ENCODED_TEXT[charset];
  if (!text) {
    send(res, 404, "text/plain", "unknown charset");
    return;
  }
  const via = url.searchParams.get("via") ?? "header";
  const head = via === "meta" ? `<meta charset="${charset}">` : "";
  const html = (t: string) =>
    `<html><head>${head}<title>T</title></head><body><main><p>${t}</p></main></body></html>`;
  const marker = "@@TEXT@@";
  const [before, after] = html(marker).split(marker) as [string, string];
  const body = Buffer.concat([
    Buffer.from(before, "latin1"),
    encode(text, charset),
    Buffer.from(after, "latin1"),
  ]);
  send(res, 200, via === "header" ? `text/html; charset=${charset}` : "text/html", body);
}

/** A listener that must never be reached: it counts every connection it accepts. */
export interface Victim {
  port: number;
  connections: number;
  close(): Promise<void>;
}

export async function startVictim(): Promise<Victim> {
  const victim = { port: 0, connections: 0, close: async () => {} };
  const server = createServer((_req, res) => res.end("secret"));
  server.on("connection", () => {
    victim.connections++;
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  victim.port = (server.address() as AddressInfo).port;
  victim.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, "close");
  };
  return victim;
}

/** A lookup that maps test names to loopback and never asks real DNS. */
export function testLookup(map: Record<string, string | string[]> = {}) {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const entry = map[hostname] ?? (hostname.endsWith(".test") ? "127.0.0.1" : undefined);
    if (entry === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    }
    const list = Array.isArray(entry) ? entry : [entry];
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}
