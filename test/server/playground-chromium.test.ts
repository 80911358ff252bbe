/**
 * The playground in real Chromium (Debian's /usr/bin/chromium, which CI installs): load `/`, type
 * a fixture URL, submit with Enter, see the title, a sentence of the body and the four phase
 * timings; switch to text; see a blocked address's error code; show a hostile Markdown page
 * without running any of it. A screenshot is saved under test-results/ and its path logged.
 * Skipped where Chromium is missing (helpers/services.ts).
 */
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, hasService } from "../helpers/services.js";
import { serviceSuite } from "./helpers.js";

const withChromium = hasService("chromium");

/** Where the screenshot goes: test output, gitignored. */
const SHOTS = resolve("test-results");

/** Markdown that would run script or load things if it ever became live HTML. */
const HOSTILE = [
  '# Hostile <img src="/x.png" onerror="window.__pwned = 1">',
  "",
  "<script>window.__pwned = 1</script>",
  "",
  "[run me](javascript:window.__pwned=1) and [safe link](https://example.com/safe) and ![pic](http://127.0.0.1:9/x.png)",
  "",
  "- **bold** item with `code`",
  "- second item",
  "",
  "| name | value |",
  "|---|---|",
  "| <b>cell</b> | 2 |",
  "",
].join("\n");

// Starting Chromium and fetching take many times longer on a busy machine.
describe.runIf(withChromium)("the playground in Chromium", { timeout: 120_000 }, () => {
  // The fixture server and the hostile page's server, both on 127.0.0.1, both opened in the guard.
  const s = serviceSuite({ web: { allowAddresses: ["127.0.0.1/32"] } });
  let hostile: Server;
  let hostileUrl: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const outside: string[] = [];

  beforeAll(async () => {
    hostile = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end(HOSTILE);
    });
    hostile.listen(0, "127.0.0.1");
    await once(hostile, "listening");
    hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/hostile.md`;
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      timeout: 60_000,
      // No name resolves: the page may only ever reach the service on 127.0.0.1.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("request", (request) => {
      if (!request.url().startsWith(s.url)) outside.push(request.url());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    hostile?.closeAllConnections();
    hostile?.close();
  });

  async function submitUrl(url: string): Promise<void> {
    await page.fill("#url", url);
    await page.press("#url", "Enter");
  }

  it("fetches a page and shows its title, body, metadata and phase timings", async () => {
    await page.goto(`${s.url}/`, { waitUntil: "load" });
    // The form comes from /v1/info: the formats the service takes, no prompt without a model.
    await expect.poll(() => page.locator("#version").textContent()).toMatch(/^v\d/);
    expect(await page.locator("#prompt").isHidden()).toBe(true);
    // The URL field has the focus, so a person can type at once.
    expect(await page.evaluate("document.activeElement?.id")).toBe("url");

    await submitUrl(s.page("/article"));
    const title = page.locator("#result-title");
    await expect.poll(() => title.textContent(), { timeout: 60_000 }).toBe("Fixture Article");
    const rendered = page.locator("#panel-rendered");
    // The title shows above the content, which does not repeat it as a heading.
    expect(await rendered.locator("h1").count()).toBe(0);
    expect(await rendered.textContent()).toContain("Paragraph 8 of the article");
    expect(await rendered.locator("a", { hasText: "the related page" }).getAttribute("href")).toBe(
      s.page("/related"),
    );
    const meta = await page.locator("#meta").textContent();
    for (const text of ["Ada Lovelace", "Fixture Site", "2026-01-02", "text/html", "200"]) {
      expect(meta).toContain(text);
    }
    const timings = await page.locator("#timings tr").allTextContents();
    expect(timings).toHaveLength(5);
    for (const row of timings.slice(0, 4)) expect(row).toMatch(/\d ms$/);
    expect(await page.locator("#status").getAttribute("aria-live")).toBe("polite");

    // The source tab has the Markdown as it came.
    await page.click("#tab-source");
    expect(await page.locator("#source").textContent()).toMatch(/^Paragraph 1 of the article/);
    expect(await page.locator("#panel-rendered").isHidden()).toBe(true);
    await page.click("#tab-rendered");

    mkdirSync(SHOTS, { recursive: true });
    const shot = join(SHOTS, "playground.png");
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`playground screenshot: ${shot}`);
  });

  it("switches to text and shows text", async () => {
    await page.selectOption("#format", "text");
    await page.click("#submit");
    const format = page
      .locator("#meta dt", { hasText: "Format" })
      .locator("xpath=following-sibling::dd[1]");
    await expect.poll(() => format.textContent(), { timeout: 60_000 }).toBe("text");
    const source = await page.locator("#source").textContent();
    expect(source).toContain("Paragraph 8 of the article");
    expect(source).not.toContain("# Fixture Article");
    expect(await page.locator("#panel-rendered h1").count()).toBe(0);
    await page.selectOption("#format", "markdown");
  });

  it("shows a blocked address's error code and message", async () => {
    await submitUrl("http://10.0.0.1/");
    const error = page.locator("#error");
    await expect.poll(() => error.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await error.locator("code").textContent()).toBe("BLOCKED_ADDRESS");
    expect(await error.textContent()).toContain("10.0.0.1");
    expect(await error.getAttribute("role")).toBe("alert");
    expect(await page.locator("#result").isHidden()).toBe(true);
  });

  it("shows hostile Markdown as text: no script, no element of the page's, http(s) links only", async () => {
    await submitUrl(hostileUrl);
    const rendered = page.locator("#panel-rendered");
    await expect.poll(() => page.locator("#result").isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => rendered.textContent()).toContain("window.__pwned = 1");
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
    expect(await rendered.locator("script, img, iframe, object, embed, b").count()).toBe(0);
    const hrefs = await rendered
      .locator("a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(["https://example.com/safe", "http://127.0.0.1:9/x.png"]);
    expect(await rendered.textContent()).toContain("run me");
    expect(await rendered.locator("strong").first().textContent()).toBe("bold");
    expect(await rendered.locator("li code").first().textContent()).toBe("code");
    expect(await rendered.locator("table td").allTextContents()).toEqual(["<b>cell</b>", "2"]);
  });

  it("loaded nothing but the service's own files, with no error and no CSP report", () => {
    expect(outside).toEqual([]);
    expect(problems.filter((p) => !/status of 403/.test(p))).toEqual([]);
  });
});
