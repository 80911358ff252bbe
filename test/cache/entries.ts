/**
 * Cache entries for the store tests: realistic pages of a chosen size, and a way to run the
 * child script (child.ts) as a second process on the same store.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect } from "vitest";
import type { CacheEntry, CacheStore } from "../../src/cache/store.js";

/** The child script, run by node with tsx. */
const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

/** An entry whose content is about `chars` characters of text. */
export function entry(name: string, chars = 1000, storedAt = 1_760_000_000_000): CacheEntry {
  const sentence = `The ${name} article explains caching, with ünïcode and 日本語 text. `;
  return {
    page: {
      url: `https://example.com/${name}`,
      finalUrl: `https://www.example.com/${name}`,
      redirects: [
        { from: `https://example.com/${name}`, to: `https://www.example.com/${name}`, status: 301 },
      ],
      status: 200,
      contentType: "text/html",
      charset: "utf-8",
      content: sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars),
      fetchedAt: new Date(storedAt).toISOString(),
      title: `About ${name}`,
      lang: "en",
      etag: `"${name}-1"`,
    },
    storedAt,
  };
}

/** Runs child.ts with `args` in a separate node process; its stdout. */
export async function runChild(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", CHILD, ...args],
    {
      timeout: 30_000,
    },
  );
  return stdout;
}

/**
 * What every store does: an entry reads back as written, a missing key is a miss, a second
 * write replaces the first, and delete removes it. Leaves "b" stored.
 */
export async function expectRoundTrip(s: CacheStore): Promise<void> {
  const a = entry("a", 20_000);
  await s.set("a", a, 60);
  await s.set("b", entry("b"), 60);
  expect(await s.get("a")).toEqual(a);
  expect(await s.get("missing")).toBeUndefined();
  await s.set("a", entry("a2"), 60);
  expect((await s.get("a"))?.page.url).toBe("https://example.com/a2");
  await s.delete("a");
  expect(await s.get("a")).toBeUndefined();
}
