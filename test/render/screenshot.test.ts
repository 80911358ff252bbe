/**
 * Screenshots in real Chromium (Debian's /usr/bin/chromium, which CI installs): a PNG whose
 * header matches the size the result reports, the page's stylesheet and images fetched through
 * the address guard (a private one refused), a full page too tall and too big for the byte cap
 * cut and scaled down under it, no screenshot for a page that is not HTML, and the cache. One
 * instance, so one browser, serves the file. The checks that need no browser run everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pngSize } from "../../src/render/screenshot.js";
import { type FixtureServer, startFixtureServer } from "../helpers/fixture-server.js";
import { chromiumPath, hasService } from "../helpers/services.js";
import { failure, type TestWeb, testWeb } from "../helpers/web.js";

const withChromium = hasService("chromium");

/** The byte cap of the file's instance: small, so a full page must be scaled to fit. */
const MAX_BYTES = 100_000;

/** The PNG signature. */
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

// Starting Chromium and rendering take many times longer on a busy machine.
describe.runIf(withChromium)("screenshot", { timeout: 120_000 }, () => {
  let t: TestWeb;

  beforeAll(() => {
    t = testWeb(server, {
      browserPath: chromiumPath(),
      screenshotMaxBytes: MAX_BYTES,
      timeout: 60_000,
    });
  });
  afterAll(async () => {
    await t.web.close();
    // No socket was ever aimed outside loopback, by the page or by us.
    expect(t.recorder.refused).toEqual([]);
  });

  it("a PNG of the viewport, its size in its header; styles and images come through the guard", async () => {
    const page = await t.web.fetch(server.url("/styled"), {
      screenshot: { width: 640, height: 400 },
    });
    const shot = page.screenshot!;
    expect(shot.mimeType).toBe("image/png");
    const png = Buffer.from(shot.data, "base64");
    expect(png.subarray(0, 8).equals(PNG_MAGIC)).toBe(true);
    expect(pngSize(png)).toEqual({ width: shot.width, height: shot.height });
    expect([shot.width, shot.height]).toEqual([640, 400]);
    expect(png.length).toBeLessThanOrEqual(MAX_BYTES);
    // The content is the rendered page's.
    expect(page.rendered).toBe(true);
    expect(page.content).toContain("Paragraph 6 of the article about Styled Page");
    expect(server.hits.get("/styled.css")).toBe(1);
    expect(server.hits.get("/image")).toBe(1);
    // The image on 10.0.0.9 was refused by the guard, never requested.
    expect(page.blockedRequests).toBe(1);
    expect(page.warnings).toBeUndefined();
  });

  it("a full page too tall and too big: cut at the height cap, scaled under the byte cap, with a warning", async () => {
    const page = await t.web.fetch(server.url("/tall"), { screenshot: { fullPage: true } });
    const shot = page.screenshot!;
    const png = Buffer.from(shot.data, "base64");
    expect(png.length).toBeLessThanOrEqual(MAX_BYTES);
    expect(pngSize(png)).toEqual({ width: shot.width, height: shot.height });
    // Scaled: narrower than the 1,280 px viewport, and the cut page keeps its proportions.
    expect(shot.width).toBeLessThan(1280);
    expect(shot.height / shot.width).toBeCloseTo(10_000 / 1280, 0);
    // 600 rows of 50 px, and the heading above them.
    expect(page.warnings).toHaveLength(1);
    expect(page.warnings![0]).toMatch(
      /^The page is 30,\d{3} px tall; the screenshot shows its first 10,000 px$/,
    );
  });

  it("is cached apart: the same call again is a cache hit with its image; without one, another entry", async () => {
    const first = await t.web.fetch(server.url("/styled"), {
      screenshot: { width: 640, height: 400 },
    });
    expect(first.cached).toBe(true);
    expect(first.screenshot?.width).toBe(640);
    const plain = await t.web.fetch(server.url("/styled"), { render: "always" });
    expect(plain.screenshot).toBeUndefined();
    expect(plain.id).not.toBe(first.id);
  });

  it("a page that is not HTML has no screenshot, and a warning says why", async () => {
    const page = await t.web.fetch(server.url("/json"), { screenshot: true });
    expect(page.screenshot).toBeUndefined();
    expect(page.rendered).toBeUndefined();
    expect(page.content).toContain('"a": 1');
    expect(page.warnings).toEqual([
      "No screenshot: only HTML pages are rendered, and this one is application/json",
    ]);
  });
});

describe("screenshot without a browser", () => {
  it("without Chromium: RENDER_FAILED saying how to install it", async () => {
    const t = testWeb(server, { browserPath: "/nonexistent/chromium" });
    try {
      const error = await failure(t.web.fetch(server.url("/article"), { screenshot: true }));
      expect(error.code).toBe("RENDER_FAILED");
      expect(error.message).toContain("apt-get install chromium");
    } finally {
      await t.web.close();
    }
  });

  it("bad values are INVALID_INPUT; render never is a conflict; Tavily and a remote endpoint refuse", async () => {
    const t = testWeb(server, {
      browserPath: "/nonexistent/chromium",
      search: { env: {}, tavilyApiKey: "tvly-test", tavilyBaseUrl: "http://127.0.0.1:1" },
    });
    const remote = testWeb(server, { endpoint: "http://127.0.0.1:1", endpointKind: "webfetch" });
    try {
      const url = server.url("/article");
      for (const bad of [{ width: 50 }, { height: 5000 }, { width: 1.5 }, { zoom: 2 }, "yes"]) {
        const error = await failure(t.web.fetch(url, { screenshot: bad as never }));
        expect(error.code).toBe("INVALID_INPUT");
      }
      expect((await failure(t.web.fetch(url, { screenshot: { width: 50 } }))).message).toBe(
        "screenshot width must be an integer from 100 to 4096 (CSS pixels), got 50",
      );
      await expect(t.web.fetch(url, { screenshot: true, render: "never" })).rejects.toThrow(
        'screenshot renders the page in a browser: it cannot be combined with render: "never"',
      );
      const tavily = await failure(t.web.fetch(url, { screenshot: true, via: "tavily" }));
      expect(tavily).toMatchObject({ code: "INVALID_INPUT" });
      expect(tavily.message).toContain("Tavily");
      const viaEndpoint = await failure(remote.web.fetch(url, { screenshot: true }));
      expect(viaEndpoint).toMatchObject({ code: "INVALID_INPUT" });
      expect(viaEndpoint.message).toContain("remote fetch service");
      expect(() => testWeb(server, { screenshotMaxBytes: 100 })).toThrow(RangeError);
    } finally {
      await t.web.close();
      await remote.web.close();
    }
    expect(t.recorder.attempts).toEqual([]);
  });
});
