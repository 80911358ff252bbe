/**
 * The wire form of a cache entry in the persistent and shared stores (SQLite, Redis): a version
 * tag, a CRC-32 of the payload and the entry as JSON. A value that a crash truncated, a disk
 * flipped a bit in, an older release wrote, or someone edited by hand decodes to `undefined`,
 * and the store drops it: a cache serves a faithful page or nothing.
 *
 * `wf1:<crc32 as 8 hex digits>:<json>`
 *
 * CRC-32 (zlib's, hardware-assisted) catches accidental damage at a fraction of the cost of a
 * cryptographic hash; this runs on every cache hit. It is not meant to resist tampering: anyone
 * who can write the store can write a valid entry.
 */
import { crc32 } from "node:zlib";
import type { CachedPage, CacheEntry } from "./store.js";

/** Version tag; a change to the entry's shape gets a new one, so old values read as misses. */
const TAG = "wf1:";
/** Tag, eight hex digits of checksum, and a colon: ASCII, so as many bytes as characters. */
const HEADER_LENGTH = TAG.length + 9;
/** Optional string fields of a cached page (PageMetadata and the validators). */
const OPTIONAL_STRINGS = [
  "charset",
  "etag",
  "lastModified",
  "title",
  "description",
  "author",
  "siteName",
  "publishedAt",
  "lang",
  "canonicalUrl",
] as const;

/** Eight lower-case hex digits of the CRC-32 of `data` (of its UTF-8 bytes, for a string). */
function checksum(data: Uint8Array | string): string {
  return crc32(data).toString(16).padStart(8, "0");
}

/**
 * Encodes an entry for a store, as the bytes to store (their length is the entry's size).
 *
 * @example
 * const value = encodeEntry({ page, storedAt: Date.now() }); // <Buffer "wf1:1a2b3c4d:{...}">
 */
export function encodeEntry(entry: CacheEntry): Buffer {
  const payload = Buffer.from(JSON.stringify(entry), "utf8");
  return Buffer.concat([Buffer.from(`${TAG}${checksum(payload)}:`, "latin1"), payload]);
}

/**
 * Decodes a stored value, bytes or text; `undefined` when the value is damaged, of another
 * version, or not a whole entry. Never throws. Bytes are checked before they are decoded; text
 * is checked as is (zlib's CRC-32 of a string is that of its UTF-8 bytes).
 *
 * @example
 * decodeEntry(encodeEntry(entry)); // a copy of entry
 * decodeEntry("wf1:00000000:{}"); // undefined
 */
export function decodeEntry(value: Uint8Array | string | null | undefined): CacheEntry | undefined {
  if (value === null || value === undefined || value.length < HEADER_LENGTH) return undefined;
  let header: string;
  let payload: Buffer | string;
  if (typeof value === "string") {
    header = value.slice(0, HEADER_LENGTH);
    payload = value.slice(HEADER_LENGTH);
  } else {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    header = bytes.toString("latin1", 0, HEADER_LENGTH);
    payload = bytes.subarray(HEADER_LENGTH);
  }
  if (!header.startsWith(TAG) || header !== `${TAG}${checksum(payload)}:`) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof payload === "string" ? payload : payload.toString("utf8"));
  } catch {
    return undefined;
  }
  return isEntry(parsed) ? parsed : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` has every required field of an entry, each of the right type. */
function isEntry(value: unknown): value is CacheEntry {
  if (!isRecord(value) || !Number.isFinite(value.storedAt)) return false;
  return isPage(value.page);
}

function isPage(page: unknown): page is CachedPage {
  if (!isRecord(page)) return false;
  if (
    typeof page.url !== "string" ||
    typeof page.finalUrl !== "string" ||
    typeof page.status !== "number" ||
    typeof page.contentType !== "string" ||
    typeof page.content !== "string" ||
    typeof page.fetchedAt !== "string" ||
    !Array.isArray(page.redirects)
  ) {
    return false;
  }
  for (const hop of page.redirects) {
    if (
      !isRecord(hop) ||
      typeof hop.from !== "string" ||
      typeof hop.to !== "string" ||
      typeof hop.status !== "number"
    ) {
      return false;
    }
  }
  for (const field of OPTIONAL_STRINGS) {
    const v = page[field];
    if (v !== undefined && typeof v !== "string") return false;
  }
  if (page.screenshot !== undefined && !isScreenshot(page.screenshot)) return false;
  return page.pages === undefined || typeof page.pages === "number";
}

function isScreenshot(shot: unknown): boolean {
  return (
    isRecord(shot) &&
    shot.mimeType === "image/png" &&
    typeof shot.data === "string" &&
    typeof shot.width === "number" &&
    typeof shot.height === "number"
  );
}
