/**
 * Cache entries for the store tests: realistic pages of a chosen size, and a way to run the
 * child script (child.ts) as a second process on the same store.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { CacheEntry } from "../../src/cache/store.js";

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
