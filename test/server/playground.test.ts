/**
 * The playground over plain HTTP: `GET /` is the page under a strict Content-Security-Policy, its
 * script and stylesheet are files of the service with their own types and nosniff, all three
 * small; `/v1/info` tells the page what the service offers; `/v1/fetch` takes `render`; the
 * reader route still serves `/<url>`.
 */
import { describe, expect, it } from "vitest";
import { PLAYGROUND_CSP } from "../../src/server/playground.js";
import { OUTPUT_FORMATS, RENDER_MODES } from "../../src/values.js";
import { VERSION } from "../../src/version.js";
import { rawRequest, serviceSuite } from "./helpers.js";

const s = serviceSuite();

/** The playground's files and the type each is served with. */
const FILES = {
  "/": "text/html; charset=utf-8",
  "/playground.js": "text/javascript; charset=utf-8",
  "/playground.css": "text/css; charset=utf-8",
} as const;

/** The page's assets stay small: it is a tool, not an app. */
const MAX_ASSET_BYTES = 100 * 1024;

describe("the playground's files", () => {
  it("serves the page under a strict CSP, each file with its type and nosniff", async () => {
    for (const [path, type] of Object.entries(FILES)) {
      const res = await s.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe(PLAYGROUND_CSP);
    }
    const csp = (await s.get("/")).headers.get("content-security-policy") ?? "";
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "img-src 'self' data:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp.split("; ")).toContain(directive);
    }
  });

  it("the page loads its own script and stylesheet, and nothing from elsewhere", async () => {
    const html = await (await s.get("/")).text();
    expect(html).toContain('<script type="module" src="/playground.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/playground.css">');
    // No inline script or style the CSP would refuse, and no other origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("weighs under 100 KB, all three files together", async () => {
    let total = 0;
    for (const path of Object.keys(FILES)) {
      total += (await (await s.get(path)).arrayBuffer()).byteLength;
    }
    expect(total).toBeLessThan(MAX_ASSET_BYTES);
  });

  it("keeps the reader route for /<url>", async () => {
    const res = await s.get(`/${s.page("/article")}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await res.text()).toContain("Paragraph 1 of the article about Fixture Article.");
  });

  it("answers the host guard's 403 to a foreign Host, as every route does", async () => {
    const { port } = new URL(s.url);
    const res = await rawRequest(s.url, "/", { headers: { host: `evil.example:${port}` } });
    expect(res.status).toBe(403);
  });
});

describe("GET /v1/info", () => {
  it("tells the version, tools, formats, render modes and that no model or token is set", async () => {
    const res = await s.get("/v1/info");
    expect(res.status).toBe(200);
    const info = (await res.json()) as Record<string, unknown>;
    expect(info).toMatchObject({
      version: VERSION,
      formats: [...OUTPUT_FORMATS],
      renderModes: [...RENDER_MODES],
      render: "auto",
      model: false,
      auth: false,
    });
    expect(info.tools).toContain("web_fetch");
  });
});

describe("POST /v1/fetch with render", () => {
  it("takes a render mode, and refuses a value that is not one", async () => {
    const ok = await s.post("/v1/fetch", { url: s.page("/article"), render: "never" });
    expect(ok.status).toBe(200);
    const result = (await ok.json()) as { title: string; timings: Record<string, number> };
    expect(result.title).toBe("Fixture Article");
    const bad = await s.post("/v1/fetch", { url: s.page("/article"), render: "sometimes" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { code: "INVALID_INPUT", message: "render: must be one of never, auto, always" },
    });
  });

  it("answers the phase timings of the fetch", async () => {
    const res = await s.post("/v1/fetch", { url: s.page("/long") });
    const { timings } = (await res.json()) as { timings: Record<string, number> };
    for (const phase of ["dnsMs", "connectMs", "firstByteMs", "convertMs", "totalMs"]) {
      expect(timings[phase], phase).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("the playground behind a token", () => {
  const t = serviceSuite({ server: { token: "s3cret" } });

  it("serves the page and its files without the token, and the API only with it", async () => {
    for (const path of Object.keys(FILES)) expect((await t.get(path)).status).toBe(200);
    expect((await t.get("/v1/info")).status).toBe(401);
    const info = await t.get("/v1/info", { authorization: "Bearer s3cret" });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ auth: true });
    expect((await t.post("/v1/fetch", { url: t.page("/article") })).status).toBe(401);
  });
});
