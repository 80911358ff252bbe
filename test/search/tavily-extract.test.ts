/**
 * `via: "tavily"`: web.extract (and web_extract) through Tavily's extract API, against a local
 * server speaking it. The request we send is asserted; the pages' own hosts are never resolved
 * or contacted (only the local Tavily server is), and failures are listed in input order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebFetch } from "../../src/webfetch/index.js";
import { json, type ProviderServer, startProviderServer } from "../helpers/provider-server.js";
import { failure, type Recorder, testWeb } from "../helpers/web.js";

let api: ProviderServer;
let web: WebFetch;
let recorder: Recorder;

beforeAll(async () => {
  api = await startProviderServer();
  ({ web, recorder } = testWeb(undefined, {
    search: { env: {}, tavilyApiKey: "tvly-test", tavilyBaseUrl: api.url, extract: "tavily" },
    blockedDomains: ["blocked.example"],
    timeout: 3_000,
  }));
});
afterAll(async () => {
  await web.close();
  await api.close();
  expect(recorder.refused).toEqual([]);
  expect(recorder.attempts.every((a) => a.hostname === "127.0.0.1")).toBe(true);
});

/** Tavily's answer for one URL: its content, or a failed result. */
function tavily() {
  api.reply((req, res) => {
    const { urls } = JSON.parse(req.body) as { urls: string[] };
    const url = urls[0]!;
    if (url.includes("broken")) {
      json(res, 200, { results: [], failed_results: [{ url, error: "Failed to fetch url" }] });
    } else {
      json(res, 200, {
        results: [{ url, raw_content: `# Page ${new URL(url).pathname}\n\nText of the page.` }],
        failed_results: [],
        response_time: 0.4,
      });
    }
  });
}

describe("extract via Tavily", () => {
  it("POSTs /extract with the key and the URL, and returns the pages in input order", async () => {
    tavily();
    const r = await web.extract([
      "https://docs.example/a",
      "ftp://docs.example/x",
      "https://docs.example/broken",
      "https://blocked.example/b",
      "https://docs.example/c",
    ]);
    const req = api.requests.find((q) => q.body.includes("/a"))!;
    expect(req).toMatchObject({ method: "POST", path: "/extract" });
    expect(req.headers.authorization).toBe("Bearer tvly-test");
    expect(JSON.parse(req.body)).toEqual({
      urls: ["https://docs.example/a"],
      format: "markdown",
      extract_depth: "basic",
    });
    expect(r.results.map((p) => [p.url, p.content])).toEqual([
      ["https://docs.example/a", "# Page /a\n\nText of the page."],
      ["https://docs.example/c", "# Page /c\n\nText of the page."],
    ]);
    expect(r.results[0]).toMatchObject({
      status: 200,
      contentType: "text/markdown",
      cached: false,
    });
    expect(r.failed.map((f) => [f.url, f.code])).toEqual([
      ["ftp://docs.example/x", "INVALID_URL"],
      ["https://docs.example/broken", "PROVIDER_ERROR"],
      ["https://blocked.example/b", "BLOCKED_DOMAIN"],
    ]);
    expect(r.failed[1]!.message).toBe(
      "Tavily could not extract https://docs.example/broken: Failed to fetch url",
    );
    // The blocked domain and the invalid URL never reached Tavily.
    expect(api.requests).toHaveLength(3);
  });

  it("a page Tavily extracted is cached apart from a page fetched here", async () => {
    tavily();
    const first = await web.fetch("https://docs.example/d", { via: "tavily" });
    const again = await web.fetch("https://docs.example/d", { via: "tavily" });
    expect([first.cached, again.cached]).toEqual([false, true]);
    expect(api.requests).toHaveLength(1);
  });

  it("refuses the html and raw formats before asking Tavily", async () => {
    tavily();
    for (const format of ["html", "raw"] as const) {
      const error = await failure(web.fetch("https://docs.example/f", { via: "tavily", format }));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toBe(
        `format ${format} needs the page converted here or by a webfetch service, not by Tavily's extract API`,
      );
    }
    expect(api.requests).toHaveLength(0);
  });

  it("needs a key: INVALID_INPUT naming TAVILY_API_KEY; a bad via is a RangeError", async () => {
    const t = testWeb(undefined, { search: { env: {} } });
    const error = await failure(t.web.fetch("https://docs.example/e", { via: "tavily" }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toContain("TAVILY_API_KEY");
    await expect(t.web.fetch("https://docs.example/e", { via: "x" as "tavily" })).rejects.toThrow(
      RangeError,
    );
    await t.web.close();
    expect(t.recorder.attempts).toEqual([]);
  });
});
