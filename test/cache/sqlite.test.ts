import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeEntry } from "../../src/cache/codec.js";
import { SqliteStore, type SqliteStoreOptions } from "../../src/cache/sqlite.js";
import { entry, expectRoundTrip, runChild } from "./entries.js";

/** A raw connection to the same file, to look inside and to damage rows. */
interface RawDb {
  prepare(sql: string): {
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): unknown;
  };
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => RawDb;

let dir: string;
let path: string;
let clock: number;
const open: SqliteStore[] = [];
const raws: RawDb[] = [];

function store(options: Partial<SqliteStoreOptions> = {}): SqliteStore {
  const s = new SqliteStore({ path, maxBytes: 1 << 20, now: () => clock, ...options });
  open.push(s);
  return s;
}

function raw(): RawDb {
  const db = new Database(path);
  raws.push(db);
  return db;
}

/** Keys present, and the tracked total against the real sum of sizes. */
function inspect(db: RawDb): { keys: string[]; total: number; sum: number } {
  const keys = (
    db.prepare("SELECT key FROM cache_entries ORDER BY key").all() as { key: string }[]
  ).map((r) => r.key);
  const total = (
    db.prepare("SELECT value FROM cache_meta WHERE name = 'total'").get() as { value: number }
  ).value;
  const sum = (
    db.prepare("SELECT COALESCE(SUM(size), 0) AS s FROM cache_entries").get() as { s: number }
  ).s;
  return { keys, total, sum };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "webfetch-sqlite-"));
  path = join(dir, "sub", "cache.sqlite");
  clock = 1_760_000_000_000;
});

afterEach(async () => {
  for (const db of raws.splice(0)) db.close();
  for (const s of open.splice(0)) await s.close();
  await rm(dir, { recursive: true, force: true });
});

describe("SqliteStore", () => {
  it("stores and reads entries back; delete removes them", async () => {
    const s = store();
    await expectRoundTrip(s);
    const db = raw();
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const { keys, total, sum } = inspect(db);
    expect(keys).toEqual(["b"]);
    expect(total).toBe(sum);
  });

  it("expires entries after their TTL and deletes them", async () => {
    const s = store();
    await s.set("short", entry("short"), 10);
    await s.set("long", entry("long"), 1000);
    clock += 9_999;
    expect(await s.get("short")).toBeDefined();
    clock += 2;
    expect(await s.get("short")).toBeUndefined();
    expect(await s.get("long")).toBeDefined();
    expect(inspect(raw()).keys).toEqual(["long"]);
  });

  it("does not keep entries with a non-positive TTL or over a quarter of maxBytes", async () => {
    const s = store({ maxBytes: 40_000 });
    await s.set("k", entry("k"), 60);
    await s.set("k", entry("k"), 0);
    expect(await s.get("k")).toBeUndefined();
    await s.set("big", entry("big", 12_000), 60);
    expect(await s.get("big")).toBeUndefined();
  });

  it("keeps the total under maxBytes, evicting expired rows first, then the least recently read", async () => {
    const size = encodeEntry(entry("k0", 4000)).length;
    const s = store({ maxBytes: size * 6 + 100 });
    await s.set("expiring", entry("expiring", 4000), 5);
    for (let i = 0; i < 5; i++) {
      clock += 2000;
      await s.set(`k${i}`, entry(`k${i}`, 4000), 3600);
    }
    expect(inspect(raw()).keys).toHaveLength(6);
    // The oldest live entry is read, so it becomes the most recent.
    clock += 2000;
    expect(await s.get("k0")).toBeDefined();
    clock += 2000;
    await s.set("k5", entry("k5", 4000), 3600);
    // "expiring" is gone (expired) though it was not the least recently read when stored.
    let state = inspect(raw());
    expect(state.keys).toEqual(["k0", "k1", "k2", "k3", "k4", "k5"]);
    clock += 2000;
    await s.set("k6", entry("k6", 4000), 3600);
    state = inspect(raw());
    // k1 was the least recently read: k0 was read after it.
    expect(state.keys).toEqual(["k0", "k2", "k3", "k4", "k5", "k6"]);
    expect(state.total).toBe(state.sum);
    expect(state.total).toBeLessThanOrEqual(size * 6 + 100);
    for (let i = 7; i < 30; i++) {
      clock += 10;
      await s.set(`k${i}`, entry(`k${i}`, 4000), 3600);
      const now = inspect(raw());
      expect(now.total).toBe(now.sum);
      expect(now.total).toBeLessThanOrEqual(size * 6 + 100);
    }
  });

  it("drops corrupted rows and never serves them", async () => {
    const s = store();
    const names = ["garbage", "flipped", "bitflip", "blob", "old", "shape"];
    for (const k of names) await s.set(k, entry(k), 60);
    const db = raw();
    const update = db.prepare("UPDATE cache_entries SET value = ? WHERE key = ?");
    update.run("garbage", "garbage");
    const value = encodeEntry(entry("flipped")).toString("utf8");
    const at = value.indexOf("caching");
    update.run(`${value.slice(0, at)}cachinG${value.slice(at + 7)}`, "flipped");
    update.run(Buffer.from([0xff, 0x00, 0x13, 0x37]), "blob");
    const stored = (
      db.prepare("SELECT value FROM cache_entries WHERE key = 'bitflip'").get() as {
        value: Buffer;
      }
    ).value;
    stored[stored.length - 50] = (stored[stored.length - 50] ?? 0) ^ 0x04;
    update.run(stored, "bitflip");
    update.run(`wf0:${encodeEntry(entry("old")).toString("utf8").slice(4)}`, "old");
    update.run(encodeEntry({ storedAt: 1, page: { url: "x" } } as never), "shape");
    for (const k of names) {
      expect(await s.get(k), k).toBeUndefined();
    }
    const state = inspect(db);
    expect(state.keys).toEqual([]);
    expect(state.total).toBe(0);
  });

  it("keeps entries across close and reopen", async () => {
    const first = store({ now: Date.now });
    await first.set("kept", entry("kept", 3000), 3600);
    await first.close();
    await expect(first.get("kept")).rejects.toThrow(/closed/);
    const second = store({ now: Date.now });
    expect(await second.get("kept")).toEqual(entry("kept", 3000));
  });

  it("is read by a second process", async () => {
    const s = store({ now: Date.now });
    const e = entry("shared", 30_000);
    await s.set("shared", e, 3600);
    expect(JSON.parse(await runChild("read", "sqlite", path, "shared"))).toEqual(e);
    expect(JSON.parse(await runChild("read", "sqlite", path, "absent"))).toBeNull();
  });

  it("keeps one bound while several processes write at once", async () => {
    const size = encodeEntry(entry("p0-0", 3000)).length;
    const maxBytes = size * 20;
    await Promise.all(
      ["p0", "p1", "p2"].map((name) =>
        runChild("write", "sqlite", path, String(maxBytes), name, "40", "3000"),
      ),
    );
    const state = inspect(raw());
    expect(state.total).toBe(state.sum);
    expect(state.total).toBeLessThanOrEqual(maxBytes);
    expect(state.keys.length).toBeGreaterThanOrEqual(18);
  });
});
