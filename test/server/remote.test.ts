/**
 * Remote mode end to end: library → service on 127.0.0.1 → fixture server, over both protocols
 * (`/v1/fetch` and Crawl4AI's `/md`), errors mapped through, and web_fetch delegating to a small
 * Crawl4AI-shaped stub, with its Japanese messages word for word. The client instance has no hole
 * in its guard: had it contacted a target itself, the fetch would have been blocked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory.js";
import { optionsFromConfig, parseConfig } from "../../src/config/load.js";
import { silentLogger } from "../../src/log.js";
import type { WebFetchOptions } from "../../src/options.js";
import { createTools } from "../../src/tools/registry.js";
import { runCli } from "../helpers/cli.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";
import { serviceSuite } from "./helpers.js";

const s = serviceSuite();
const clients: TestWeb[] = [];

/** A client in remote mode; every socket it opens is recorded (and must be loopback). */
function client(options: WebFetchOptions): TestWeb {
  const t = testWeb(undefined, { retries: 0, ...options });
  clients.push(t);
  return t;
}

/** The port of every socket a client opened: only the endpoint's. */
function ports(t: TestWeb): string[] {
  return [...new Set(t.recorder.attempts.map((a) => String(a.port)))];
}

afterAll(async () => {
  for (const t of clients) {
    await t.web.close();
    expect(t.recorder.refused).toEqual([]);
  }
});

describe("remote mode with a webfetch service (/v1/fetch)", () => {
  it("returns the service's result object, metadata included, never touching the target", async () => {
    const t = client({ endpoint: `${s.url}/`, endpointKind: "webfetch" });
    const direct = await s.t.web.fetch(s.page("/article"));
    const page = await t.web.fetch(s.page("/article"));
    expect(page.title).toBe(direct.title);
    expect(page.content).toBe(direct.content);
    expect(page.finalUrl).toBe(direct.finalUrl);
    expect(page.status).toBe(200);
    expect(page.contentType).toBe(direct.contentType);
    expect(page.cached).toBe(false);
    expect(ports(t)).toEqual([new URL(s.url).port]);
    // The client's own cache answers a second call.
    expect((await t.web.fetch(s.page("/article"))).cached).toBe(true);
  });

  it("gathers a long page window by window, so read and paging work on the client", async () => {
    const t = client({ endpoint: s.url, endpointKind: "webfetch" });
    const whole = await s.t.web.read(s.page("/long"), { length: 100_000 });
    const first = await t.web.fetch(s.page("/long"), { maxLength: 500 });
    expect(first.truncated).toBe(true);
    expect(first.totalLength).toBe(whole.totalLength);
    const all = await t.web.read(first.id, { length: 100_000 });
    expect(all.content).toBe(whole.content);
  });

  it("maps the service's {error: {code, message}} to the same typed error", async () => {
    const t = client({ endpoint: s.url, endpointKind: "webfetch" });
    const blocked = await failure(t.web.fetch("http://169.254.169.254/latest/meta-data/"));
    expect(blocked.code).toBe("BLOCKED_ADDRESS");
    const missing = await failure(t.web.fetch(s.page("/no-such-page")));
    expect(missing.code).toBe("HTTP_ERROR");
  });

  it("applies the URL policy on the client before contacting the endpoint", async () => {
    const t = client({ endpoint: s.url, endpointKind: "webfetch" });
    expect((await failure(t.web.fetch("ftp://example.com/"))).code).toBe("INVALID_URL");
    expect((await failure(t.web.fetch("http://user:pw@example.com/"))).code).toBe("INVALID_URL");
    expect((await failure(t.web.fetch(`https://example.com/${"a".repeat(2100)}`))).code).toBe(
      "INVALID_URL",
    );
    expect(t.recorder.attempts).toEqual([]);
  });

  it("sends the token of a service that asks for one", async () => {
    const t = client({ endpoint: s.url, endpointKind: "webfetch", endpointToken: "unused" });
    // This service asks for none: the header is simply ignored.
    expect((await t.web.fetch(s.page("/article"))).status).toBe(200);
    // The options an instance shows never carry the token.
    expect(t.web.options.endpoint?.token).toBe("[redacted]");
  });
});

describe("remote mode from the CLI", () => {
  it("fetches through --endpoint, and refuses an endpoint that is not a URL", async () => {
    const out = await runCli([
      "fetch",
      "--json",
      "--endpoint",
      s.url,
      "--endpoint-kind",
      "webfetch",
      s.page("/article"),
    ]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ status: 200, finalUrl: s.page("/article") });
    const bad = await runCli(["fetch", "--endpoint", "ftp://x", s.page("/article")]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("endpoint must be an http(s) URL");
  });
});

describe("remote mode with a Crawl4AI-compatible /md (the service's own)", () => {
  it("builds the result from {url, markdown, success}", async () => {
    const t = client({ endpoint: s.url });
    const direct = await s.t.web.fetch(s.page("/article"));
    const page = await t.web.fetch(s.page("/article"));
    expect(page.content).toBe(direct.content);
    expect(page.finalUrl).toBe(s.page("/article"));
    expect(page.format).toBe("markdown");
    expect(ports(t)).toEqual([new URL(s.url).port]);
  });

  it("maps an error the service answers on /md", async () => {
    const t = client({ endpoint: s.url });
    expect((await failure(t.web.fetch("http://127.0.0.1:1/"))).code).toBe("BLOCKED_ADDRESS");
  });
});

/** A Crawl4AI-shaped stub: records each body, answers as `reply` says. */
interface Stub {
  url: string;
  bodies: unknown[];
  reply: (body: { url: string }, res: ServerResponse) => void;
  close(): Promise<void>;
}

async function startStub(): Promise<Stub> {
  const stub = { bodies: [] as unknown[] } as Stub;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { url: string };
      stub.bodies.push({ path: req.url, ...body });
      stub.reply(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

describe("web_fetch through a Crawl4AI-shaped endpoint, locale ja", () => {
  let stub: Stub;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(() => stub.close());

  function webFetchTool(timeout?: number) {
    const t = client({ endpoint: stub.url, locale: "ja" });
    const [tool] = createTools({
      web: t.web,
      logger: silentLogger,
      tools: { web_fetch: timeout ? { timeout } : {} },
    });
    return tool!;
  }

  it("POSTs {endpoint}/md with {url, f: 'llm', q: null, c: '0'} and returns the markdown", async () => {
    stub.reply = (body, res) =>
      json(res, 200, {
        url: body.url,
        filter: "llm",
        query: null,
        cache: "0",
        markdown: "# 見出し\n\n本文",
        success: true,
      });
    const result = await webFetchTool().call({ url: "https://example.com/page" });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("本文");
    expect(stub.bodies.at(-1)).toEqual({
      path: "/md",
      url: "https://example.com/page",
      f: "llm",
      q: null,
      c: "0",
    });
  });

  it("success: false → ページを取得できませんでした", async () => {
    stub.reply = (body, res) => json(res, 200, { url: body.url, markdown: "", success: false });
    const result = await webFetchTool().call({ url: "https://example.com/fails" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("ページを取得できませんでした");
    expect((result.structured as { error: { code: string } }).error.code).toBe("HTTP_ERROR");
  });

  it("an endpoint that fails (500, or not there) → ページを取得できませんでした", async () => {
    stub.reply = (_body, res) => json(res, 500, { detail: "crawler crashed" });
    const failed = await webFetchTool().call({ url: "https://example.com/500" });
    expect(failed.text).toContain("ページを取得できませんでした");
    const down = client({ endpoint: "http://127.0.0.1:1", locale: "ja" });
    const [tool] = createTools({ web: down.web, logger: silentLogger });
    const unreachable = await tool!.call({ url: "https://example.com/" });
    expect(unreachable.isError).toBe(true);
    expect(unreachable.text).toContain("ページを取得できませんでした");
  });

  it("joins a webfetch service's cut windows into the whole page", async () => {
    const full = "alpha beta\n\ngamma delta\n\nepsilon";
    stub.reply = (body, res) => {
      const start = (body as { start_index?: number }).start_index ?? 0;
      const base = { url: body.url, finalUrl: body.url, status: 200, contentType: "text/html" };
      if (start === 0) {
        const content = "alpha beta\n\n[Content truncated: call again with start_index=12.]";
        json(res, 200, { ...base, content, truncated: true, nextStartIndex: 12 });
      } else json(res, 200, { ...base, content: full.slice(start), truncated: false });
    };
    const t = client({ endpoint: stub.url, endpointKind: "webfetch" });
    const page = await t.web.fetch("https://example.com/windows");
    expect(page.content).toBe(full);
    expect(stub.bodies.slice(-2)).toEqual([
      {
        path: "/v1/fetch",
        url: "https://example.com/windows",
        extract_mode: "markdown",
        max_length: 100_000,
      },
      {
        path: "/v1/fetch",
        url: "https://example.com/windows",
        extract_mode: "markdown",
        max_length: 100_000,
        start_index: 12,
      },
    ]);
  });

  it("an endpoint that times out (timeout_seconds) → ページの取得がタイムアウトしました", async () => {
    stub.reply = () => {}; // never answers
    const result = await webFetchTool(300).call({ url: "https://example.com/slow" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("ページの取得がタイムアウトしました");
  });
});

describe("the Crawl4AI endpoint client's settings: deadline, filter, failure messages", () => {
  let stub: Stub;
  beforeAll(async () => {
    stub = await startStub();
  });
  afterAll(() => stub.close());

  /** Options from a config file whose tools.web_fetch section is `section`, at the stub. */
  function fromFile(section: Record<string, unknown>): WebFetchOptions {
    return optionsFromConfig(
      parseConfig({ tools: { web_fetch: { api_endpoint: stub.url, ...section } } }),
    );
  }

  /** The reply of a Crawl4AI server that fetched the page. */
  function answers(): void {
    stub.reply = (body, res) =>
      json(res, 200, {
        url: body.url,
        filter: (body as { f?: string }).f,
        query: null,
        cache: "0",
        markdown: "# Page\n\nText",
        success: true,
      });
  }

  it("defaults the endpoint's deadline to 60 s while a direct fetch keeps 30 s", () => {
    expect(client({}).web.options).toMatchObject({ timeout: 30_000 });
    const remote = client({ endpoint: stub.url });
    expect(remote.web.options.endpoint).toMatchObject({ timeout: 60_000 });
    expect(remote.web.options.timeout).toBe(30_000);
    expect(client(fromFile({})).web.options.endpoint).toMatchObject({ timeout: 60_000 });
    expect(client(fromFile({ timeout_seconds: 90 })).web.options.endpoint).toMatchObject({
      timeout: 90_000,
    });
  });

  it("gives a fetch through the endpoint the endpoint's deadline, not the instance's", async () => {
    stub.reply = () => {}; // never answers
    const t = client({ endpoint: stub.url, timeout: 600_000, endpointTimeout: 400 });
    const error = await failure(t.web.fetch("https://example.com/slow-endpoint"));
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toBe("Request timed out after 0.4s");
  });

  it("asks for the llm filter by default, and for tools.web_fetch.filter when set (bm25)", async () => {
    answers();
    expect(client({ endpoint: stub.url }).web.options.endpoint).toMatchObject({ filter: "llm" });
    await client({ endpoint: stub.url }).web.fetch("https://example.com/default-filter");
    expect(stub.bodies.at(-1)).toEqual({
      path: "/md",
      url: "https://example.com/default-filter",
      f: "llm",
      q: null,
      c: "0",
    });
    const configured = client(fromFile({ filter: "bm25" }));
    expect(configured.web.options.endpoint).toMatchObject({ filter: "bm25" });
    await configured.web.fetch("https://example.com/bm25-filter");
    expect(stub.bodies.at(-1)).toMatchObject({ url: "https://example.com/bm25-filter", f: "bm25" });
    // The whole page is raw whatever the filter.
    await configured.web.fetch("https://example.com/whole", { extract: "full" });
    expect(stub.bodies.at(-1)).toMatchObject({ url: "https://example.com/whole", f: "raw" });
  });

  it("keeps pages asked with one filter apart from another's in a shared cache", async () => {
    answers();
    const cache = new MemoryStore({ maxBytes: 1024 * 1024 });
    const bm25 = client({ ...fromFile({ filter: "bm25" }), cache });
    const llm = client({ endpoint: stub.url, cache });
    await bm25.web.fetch("https://example.com/shared-cache");
    const sent = stub.bodies.length;
    expect((await llm.web.fetch("https://example.com/shared-cache")).cached).toBe(false);
    expect(stub.bodies.length).toBe(sent + 1);
    expect(stub.bodies.at(-1)).toMatchObject({ f: "llm" });
    // The same settings share the entry.
    const again = client({ endpoint: stub.url, cache });
    expect((await again.web.fetch("https://example.com/shared-cache")).cached).toBe(true);
  });

  /** The web_fetch tool of a client at the stub, in `locale`. */
  function webFetchTool(locale: "en" | "ja") {
    const [tool] = createTools({
      web: client({ endpoint: stub.url, locale }).web,
      logger: silentLogger,
    });
    return tool!;
  }

  it("success: false reads 'could not fetch' in English and ページを取得できませんでした in Japanese", async () => {
    stub.reply = (body, res) =>
      json(res, 200, { url: body.url, markdown: "", success: false, error: "navigation failed" });
    const en = await webFetchTool("en").call({ url: "https://example.com/unfetchable" });
    expect(en.isError).toBe(true);
    expect(en.text).toContain(
      "The fetch endpoint could not fetch https://example.com/unfetchable: navigation failed",
    );
    expect((en.structured as { error: { code: string } }).error.code).toBe("HTTP_ERROR");
    const ja = await webFetchTool("ja").call({ url: "https://example.com/unfetchable" });
    expect(ja.text).toContain("ページを取得できませんでした");
    expect(ja.text).not.toContain("The fetch endpoint");
  });

  it("a 500 reply names the status and Crawl4AI's detail in English, ページを取得できませんでした in Japanese", async () => {
    stub.reply = (_body, res) => json(res, 500, { detail: "crawler crashed" });
    const en = await webFetchTool("en").call({ url: "https://example.com/crash" });
    expect(en.isError).toBe(true);
    expect(en.text).toContain("The fetch endpoint answered 500: crawler crashed");
    expect((en.structured as { error: { code: string } }).error.code).toBe("HTTP_ERROR");
    const ja = await webFetchTool("ja").call({ url: "https://example.com/crash" });
    expect(ja.text).toContain("ページを取得できませんでした");
    expect(ja.text).not.toContain("crawler crashed");
  });
});
