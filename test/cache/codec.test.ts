import { describe, expect, it } from "vitest";
import { decodeEntry, encodeEntry } from "../../src/cache/codec.js";
import type { CacheEntry } from "../../src/cache/store.js";
import { entry } from "./entries.js";

/** Re-encodes a tampered payload with a valid checksum, so only validation can catch it. */
function withPayload(payload: unknown): string {
  return encodeEntry(payload as CacheEntry).toString("utf8");
}

describe("cache codec", () => {
  it("round-trips an entry, as a string or as bytes", () => {
    const e = entry("round", 5000);
    const bytes = encodeEntry(e);
    const text = bytes.toString("utf8");
    expect(text).toMatch(/^wf1:[0-9a-f]{8}:\{/);
    expect(decodeEntry(bytes)).toEqual(e);
    expect(decodeEntry(text)).toEqual(e);
    expect(decodeEntry(new Uint8Array(bytes))).toEqual(e);
  });

  it("rejects damaged values: truncated, bit-flipped, wrong version, garbage", () => {
    const value = encodeEntry(entry("damaged", 2000)).toString("utf8");
    expect(decodeEntry(value.slice(0, -10))).toBeUndefined();
    expect(decodeEntry(Buffer.from(value).subarray(0, -10))).toBeUndefined();
    // Still valid JSON, one letter changed: only the checksum notices.
    const at = value.indexOf("caching");
    const flipped = `${value.slice(0, at)}cachinG${value.slice(at + 7)}`;
    expect(() => JSON.parse(flipped.slice(13))).not.toThrow();
    expect(decodeEntry(flipped)).toBeUndefined();
    expect(decodeEntry(Buffer.from(flipped))).toBeUndefined();
    const bytes = Buffer.from(value);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0x01;
    expect(decodeEntry(bytes)).toBeUndefined();
    expect(decodeEntry(`wf0:${value.slice(4)}`)).toBeUndefined();
    expect(decodeEntry(value.replace(/^wf1:[0-9a-f]{8}:/, "wf1:zzzzzzzz:"))).toBeUndefined();
    for (const junk of ["", "garbage", "wf1:", "wf1:00000000:", "{}", null, undefined]) {
      expect(decodeEntry(junk)).toBeUndefined();
    }
  });

  it("rejects well-formed JSON that is not a whole entry", () => {
    const good = entry("shape");
    const page = good.page as unknown as Record<string, unknown>;
    const broken: unknown[] = [
      null,
      [],
      "text",
      { page: good.page },
      { page: good.page, storedAt: "yesterday" },
      { page: null, storedAt: 1 },
      ...["url", "finalUrl", "redirects", "status", "contentType", "content", "fetchedAt"].map(
        (field) => ({ storedAt: 1, page: { ...page, [field]: undefined } }),
      ),
      { storedAt: 1, page: { ...page, status: "200" } },
      { storedAt: 1, page: { ...page, content: 42 } },
      { storedAt: 1, page: { ...page, redirects: "none" } },
      { storedAt: 1, page: { ...page, redirects: [{ from: "a", to: "b" }] } },
      { storedAt: 1, page: { ...page, title: 7 } },
      { storedAt: 1, page: { ...page, pages: "3" } },
    ];
    for (const payload of broken) expect(decodeEntry(withPayload(payload))).toBeUndefined();
    expect(decodeEntry(withPayload({ storedAt: 1, page: { ...page, pages: 3 } }))).toBeDefined();
  });
});
