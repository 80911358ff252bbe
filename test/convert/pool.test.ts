import { afterEach, describe, expect, it } from "vitest";
import { ConvertPool } from "../../src/convert/pool.js";
import { isWebFetchError } from "../../src/errors.js";
import { Deadline } from "../../src/net/deadline.js";

const options = {
  url: "https://example.test/",
  format: "markdown" as const,
  extract: "main" as const,
};
const page = (html: string) => new TextEncoder().encode(html);
/** About 4 MB of small paragraphs: seconds of parsing, and far more heap than 16 MiB. */
const heavy = page(`<html><body>${"<p>word word word</p>".repeat(180_000)}</body></html>`);

let pool: ConvertPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("ConvertPool", () => {
  it("converts a page on a thread", async () => {
    pool = new ConvertPool({ threads: 1 });
    const doc = await pool.convert(
      page("<title>T</title><main><h1>Hello</h1><p>World, again.</p></main>"),
      "text/html",
      options,
      new AbortController().signal,
    );
    expect(doc.title).toBe("T");
    expect(doc.content).toContain("# Hello");
  });

  it("keeps the conversion's own error code", async () => {
    pool = new ConvertPool({ threads: 1 });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const error = await pool
      .convert(png, "text/html", options, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(isWebFetchError(error) && error.code).toBe("UNSUPPORTED_CONTENT_TYPE");
  });

  it("stops a conversion when its signal aborts, and serves the next job on a new thread", async () => {
    pool = new ConvertPool({ threads: 1 });
    // Warm the thread so the abort hits the conversion, not the thread's start-up.
    await pool.convert(page("<p>warm</p>"), "text/html", options, new AbortController().signal);
    const error = await pool
      .convert(heavy, "text/html", options, AbortSignal.timeout(100))
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    const doc = await pool.convert(
      page("<p>after</p>"),
      "text/html",
      options,
      new AbortController().signal,
    );
    expect(doc.content).toContain("after");
  });

  it("stops a conversion when a deadline's events abort, and forgets them once settled", async () => {
    pool = new ConvertPool({ threads: 1 });
    await pool.convert(page("<p>warm</p>"), "text/html", options, new AbortController().signal);
    const deadline = new Deadline(100);
    const error = await pool
      .convert(heavy, "text/html", options, deadline.events)
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(deadline.events.listenerCount("abort")).toBe(0);
    const open = new Deadline(60_000);
    const doc = await pool.convert(page("<p>after</p>"), "text/html", options, open.events);
    expect(doc.content).toContain("after");
    // A job settled leaves nothing listening on the deadline it ran under.
    expect(open.events.listenerCount("abort")).toBe(0);
    open.close();
  });

  it("fails with TOO_LARGE when a page needs more heap than a thread has", async () => {
    pool = new ConvertPool({ threads: 1, heapMb: 16 });
    const error = await pool
      .convert(heavy, "text/html", options, AbortSignal.timeout(60_000))
      .catch((e: unknown) => e);
    expect(isWebFetchError(error) && error.code).toBe("TOO_LARGE");
    const doc = await pool.convert(
      page("<p>still here</p>"),
      "text/html",
      options,
      new AbortController().signal,
    );
    expect(doc.content).toContain("still here");
  });

  it("lists a feed of 150,000 items within a thread's default heap, and says it is cut", async () => {
    pool = new ConvertPool({ threads: 1 });
    const items = Array.from(
      { length: 150_000 },
      (_, i) =>
        `<item><title>Post ${i}</title><link>/p/${i}</link><description>&lt;p&gt;Post ${i}&lt;/p&gt;</description><pubDate>01 Jan 2026</pubDate></item>\n`,
    );
    const feed = page(
      `<rss version="2.0"><channel><title>Big</title>${items.join("")}</channel></rss>`,
    );
    const doc = await pool.convert(
      feed,
      "application/rss+xml",
      options,
      new AbortController().signal,
    );
    expect(doc.content).toContain("- [Post 199](https://example.test/p/199) — 2026-01-01");
    expect(doc.content.endsWith("_(149800 more items not shown)_")).toBe(true);
    expect(doc.limits).toEqual([{ limit: "feed-items", max: 200 }]);
  }, 120_000);

  it("rejects jobs after close", async () => {
    pool = new ConvertPool({ threads: 1 });
    await pool.close();
    await expect(
      pool.convert(page("<p>x</p>"), "text/html", options, new AbortController().signal),
    ).rejects.toThrow(/closed/);
  });
});
