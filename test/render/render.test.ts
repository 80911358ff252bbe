/**
 * JavaScript rendering in real Chromium (Debian's /usr/bin/chromium, which CI installs): a
 * single-page app whose content exists only after its script runs, the `auto` decision, the
 * page's own requests through the address guard (refused and counted when private), and the
 * fallback when there is no browser. The suites that start Chromium are skipped where it is
 * missing (helpers/services.ts); the fallback runs everywhere.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserPool } from "../../src/render/browser.js";
import { looksLikeAppShell } from "../../src/render/shell.js";
import { articleHtml } from "../helpers/fixture-server.js";
import { chromiumPath, hasService } from "../helpers/services.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";

const withChromium = hasService("chromium");

const SPA = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading…</title></head>
<body><div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script src="/app.js"></script></body></html>`;

/** Builds the article from an API call, after trying two private addresses. */
const APP_JS = `
(async () => {
  const tries = [
    fetch("http://10.0.0.5/secret").catch(() => "refused"),
    fetch("http://internal.test/admin").catch(() => "refused"),
  ];
  await Promise.all(tries);
  const data = await (await fetch("/api/article.json")).json();
  document.title = data.title;
  const root = document.getElementById("root");
  const article = document.createElement("article");
  const h1 = document.createElement("h1");
  h1.textContent = data.title;
  article.appendChild(h1);
  for (const text of data.paragraphs) {
    const p = document.createElement("p");
    p.textContent = text;
    article.appendChild(p);
  }
  root.appendChild(article);
})();
`;

/** Builds the article at once, then keeps a request open forever (a long poll). */
const POLL_JS = `
const root = document.getElementById("root");
root.innerHTML = "<article><h1>Live page</h1>" +
  Array.from({ length: 6 }, (_, i) => "<p>Live paragraph " + (i + 1) + " is here before the long poll, with enough words to be content.</p>").join("") +
  "</article>";
fetch("/hang").catch(() => {});
`;

/** Asks for a body over the byte cap first; builds the article whatever happened to it. */
const BIG_JS = `
(async () => {
  await fetch("/huge").then((r) => r.text()).catch(() => "too large");
  document.getElementById("root").innerHTML = "<article><h1>After the big request</h1>" +
    Array.from({ length: 6 }, (_, i) => "<p>Capped paragraph " + (i + 1) + " arrives although the big body was refused by the cap.</p>").join("") +
    "</article>";
})();
`;

const shellWith = (script: string) => SPA.replace("/app.js", script);

const ARTICLE = {
  title: "Rendered by script",
  paragraphs: Array.from(
    { length: 6 },
    (_, i) =>
      `Paragraph ${i + 1} exists only after the script ran. It is long enough to be the main content of this page, with commas, clauses, and detail.`,
  ),
};

interface SpaServer {
  port: number;
  url(path: string): string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

async function startSpaServer(): Promise<SpaServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (type: string, body: string) => {
      res.writeHead(200, { "content-type": type });
      res.end(body);
    };
    if (path === "/robots.txt") return send("text/plain", "User-agent: *\nAllow: /\n");
    if (path === "/spa") return send("text/html; charset=utf-8", SPA);
    if (path === "/app.js") return send("text/javascript", APP_JS);
    if (path === "/api/article.json") return send("application/json", JSON.stringify(ARTICLE));
    if (path === "/poll") return send("text/html; charset=utf-8", shellWith("/poll.js"));
    if (path === "/poll.js") return send("text/javascript", POLL_JS);
    if (path === "/hang") return; // never answered
    if (path === "/spin")
      return send(
        "text/html; charset=utf-8",
        SPA.replace('<script src="/app.js"></script>', "<script>for (;;) {}</script>"),
      );
    if (path === "/big") return send("text/html; charset=utf-8", shellWith("/big.js"));
    if (path === "/big.js") return send("text/javascript", BIG_JS);
    if (path === "/huge") return send("text/plain", "x".repeat(3 * 1024 * 1024));
    if (path === "/static") return send("text/html; charset=utf-8", articleHtml("Static page", 6));
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `http://spa.test:${port}${path}`,
    hits,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

// Starting Chromium and rendering take many times longer on a busy machine.
describe.runIf(withChromium)("render", { timeout: 120_000 }, () => {
  let server: SpaServer;
  let t: TestWeb;

  beforeAll(async () => {
    server = await startSpaServer();
    t = testWeb(undefined, {
      names: { "internal.test": "192.168.1.20" },
      allowAddresses: [`127.0.0.1:${server.port}`],
      browserPath: chromiumPath(),
      timeout: 60_000,
    });
  });

  afterAll(async () => {
    await t.web.close();
    await server.close();
    // No socket was ever aimed outside loopback, by the page or by us.
    expect(t.recorder.refused).toEqual([]);
    expect(t.recorder.attempts.every((a) => a.hostname === "127.0.0.1")).toBe(true);
  });

  it("auto renders an app shell: the content its script builds, private requests refused and counted", async () => {
    const page = await t.web.fetch(server.url("/spa"));
    expect(page.rendered).toBe(true);
    expect(page.content).toContain("Paragraph 6 exists only after the script ran.");
    expect(page.title).toBe("Rendered by script");
    // 10.0.0.5 (a literal) and internal.test (a name resolving to 192.168.1.20).
    expect(page.blockedRequests).toBe(2);
    expect(server.hits.get("/api/article.json")).toBe(1);
    // The document itself was fetched once, by us; the browser was served our copy.
    expect(server.hits.get("/spa")).toBe(1);
  });

  it("never keeps the static result", async () => {
    const page = await t.web.fetch(server.url("/spa"), { render: "never" });
    expect(page.rendered).toBeUndefined();
    expect(page.content).not.toContain("exists only after the script ran");
  });

  it("auto leaves a page with content alone; always renders it", async () => {
    const plain = await t.web.fetch(server.url("/static"));
    expect(plain.rendered).toBeUndefined();
    expect(plain.content).toContain("Paragraph 6 of the article about Static page");
    const rendered = await t.web.fetch(server.url("/static"), { render: "always" });
    expect(rendered.rendered).toBe(true);
    expect(rendered.blockedRequests).toBe(0);
    expect(rendered.content).toContain("Paragraph 6 of the article about Static page");
  });

  it("a browser reused between calls renders again after a cache bypass", async () => {
    const again = await t.web.fetch(server.url("/spa"), { cache: false });
    expect(again.rendered).toBe(true);
    expect(again.content).toContain("Paragraph 1 exists only after the script ran.");
  });

  it("a page that never goes quiet is read once its text settles, inside the deadline", async () => {
    const page = await t.web.fetch(server.url("/poll"), { timeout: 8_000 });
    expect(page.rendered).toBe(true);
    expect(page.content).toContain("Live paragraph 6 is here");
  });

  it("the page's requests share the byte cap: a body over it is refused, the page still renders", async () => {
    const capped = testWeb(undefined, {
      allowAddresses: [`127.0.0.1:${server.port}`],
      maxBytes: 1024 * 1024,
      browserPath: chromiumPath(),
      timeout: 60_000,
    });
    try {
      const page = await capped.web.fetch(server.url("/big"));
      expect(page.rendered).toBe(true);
      expect(page.blockedRequests).toBe(0);
      expect(page.content).toContain("Capped paragraph 6 arrives");
      expect(server.hits.get("/huge")).toBe(1);
    } finally {
      await capped.web.close();
    }
  });

  it("a page whose script never yields: auto keeps the static result, always fails clearly", async () => {
    const page = await t.web.fetch(server.url("/spin"), { timeout: 4_000 });
    expect(page.rendered).toBeUndefined();
    const error = await failure(
      t.web.fetch(server.url("/spin"), { timeout: 4_000, render: "always", cache: false }),
    );
    expect(["RENDER_FAILED", "TIMEOUT"]).toContain(error.code);
    // The browser is still there for the next page.
    const next = await t.web.fetch(server.url("/spa"), { cache: false });
    expect(next.rendered).toBe(true);
  });
});

describe("render without Chromium", () => {
  let server: SpaServer;
  let noBrowser: TestWeb;

  beforeAll(async () => {
    server = await startSpaServer();
    noBrowser = testWeb(undefined, {
      allowAddresses: [`127.0.0.1:${server.port}`],
      browserPath: "/nonexistent/chromium",
    });
  });

  afterAll(async () => {
    await noBrowser.web.close();
    await server.close();
    expect(noBrowser.recorder.refused).toEqual([]);
  });

  it("without Chromium: auto falls back to the static result, always says how to install it", async () => {
    const page = await noBrowser.web.fetch(server.url("/spa"));
    expect(page.rendered).toBeUndefined();
    const error = await failure(noBrowser.web.fetch(server.url("/static"), { render: "always" }));
    expect(error.code).toBe("RENDER_FAILED");
    expect(error.message).toContain("apt-get install chromium");
  });
});

describe.runIf(withChromium)("BrowserPool", { timeout: 120_000 }, () => {
  it("launches one browser, reuses it, and closes it", async () => {
    const pool = new BrowserPool({ executablePath: chromiumPath() });
    const first = await pool.browser();
    const second = await pool.browser();
    expect(second).toBe(first);
    expect(first.isConnected()).toBe(true);
    await pool.close();
    expect(first.isConnected()).toBe(false);
    await expect(pool.browser()).rejects.toMatchObject({ code: "RENDER_FAILED" });
  });
});

describe("looksLikeAppShell", () => {
  const shell = (html: string, content = "") => looksLikeAppShell(Buffer.from(html), content);

  it("sees mount points, noscript notices and script-only pages", () => {
    expect(shell('<div id="root"></div><script src="/a.js"></script>')).toBe(true);
    expect(shell('<div id="__next"></div><script>self.__next_f=[]</script>')).toBe(true);
    expect(shell("<app-root></app-root><script src=main.js></script>")).toBe(true);
    expect(shell("<noscript>Please enable JavaScript.</noscript><script>x()</script>")).toBe(true);
    expect(shell('<body><script src="/bundle.js"></script></body>')).toBe(true);
  });

  it("leaves pages with content, or without scripts, alone", () => {
    expect(shell('<div id="root"></div>', "")).toBe(false);
    expect(shell('<div id="root"></div><script src="/a.js"></script>', "word ".repeat(100))).toBe(
      false,
    );
    expect(shell("<p>Short page.</p><script>track()</script>", "Short page.")).toBe(false);
  });
});
