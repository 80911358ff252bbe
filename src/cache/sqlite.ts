/**
 * A persistent cache in one SQLite file (better-sqlite3, an optional dependency loaded only when
 * this store is created). WAL mode and a busy timeout let several processes share the file: an
 * agent, the CLI and the HTTP service see each other's pages.
 *
 * The size bound is kept exact across processes by triggers that maintain a running total in a
 * one-row table, so a write never scans the table; when the total passes `maxBytes`, expired
 * rows go first, then the least recently read. Reads record their time at most once per
 * `ACCESS_GRANULARITY_MS` per entry, so a hot entry does not turn every hit into a write.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { decodeEntry, encodeEntry } from "./codec.js";
import { requireOptional } from "./optional.js";
import type { CacheEntry, CacheStore } from "./store.js";

export interface SqliteStoreOptions {
  /** The database file; its directory is created. A relative path resolves from the working directory. */
  path: string;
  /** Bound on the total size of stored values, bytes. */
  maxBytes: number;
  /** Clock, epoch milliseconds (tests). @default Date.now */
  now?: () => number;
}

/** The part of better-sqlite3's API used here (the package ships no types). */
interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface Database {
  pragma(source: string, options?: { simple: boolean }): unknown;
  exec(source: string): void;
  prepare(source: string): Statement;
  transaction<A extends unknown[]>(fn: (...args: A) => void): { immediate(...args: A): void };
  close(): void;
}
type DatabaseConstructor = new (path: string, options: { timeout: number }) => Database;

/** How long a writer waits for another process's write lock before failing, ms. */
const BUSY_TIMEOUT_MS = 3000;
/** A read updates the entry's access time only when the stored one is older than this, ms. */
const ACCESS_GRANULARITY_MS = 1000;
/** Least recently read rows looked at per eviction round. */
const EVICTION_BATCH = 32;
/** Schema version (PRAGMA user_version) this module writes. */
const SCHEMA_VERSION = 1;

/** Tables, indexes and the triggers that keep `cache_meta.total` equal to SUM(size). */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS cache_entries (
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL,
  size INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  accessed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS cache_entries_accessed ON cache_entries (accessed_at);
CREATE INDEX IF NOT EXISTS cache_entries_expires ON cache_entries (expires_at);
CREATE TABLE IF NOT EXISTS cache_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
INSERT OR IGNORE INTO cache_meta (name, value)
  SELECT 'total', COALESCE(SUM(size), 0) FROM cache_entries;
CREATE TRIGGER IF NOT EXISTS cache_entries_insert AFTER INSERT ON cache_entries BEGIN
  UPDATE cache_meta SET value = value + NEW.size WHERE name = 'total';
END;
CREATE TRIGGER IF NOT EXISTS cache_entries_delete AFTER DELETE ON cache_entries BEGIN
  UPDATE cache_meta SET value = value - OLD.size WHERE name = 'total';
END;
CREATE TRIGGER IF NOT EXISTS cache_entries_resize AFTER UPDATE OF size ON cache_entries BEGIN
  UPDATE cache_meta SET value = value - OLD.size + NEW.size WHERE name = 'total';
END;
PRAGMA user_version = ${SCHEMA_VERSION};
`;

/** Loads better-sqlite3, or explains how to install it. */
function loadDriver(): DatabaseConstructor {
  return requireOptional<DatabaseConstructor>("better-sqlite3", "sqlite");
}

interface Row {
  value: Uint8Array | string;
  expires_at: number;
  accessed_at: number;
}

/**
 * A cache store in one SQLite file, shared safely by several processes.
 *
 * @example
 * const store = new SqliteStore({ path: "/var/cache/webfetch/cache.sqlite", maxBytes: 50 << 20 });
 * await store.set(key, { page, storedAt: Date.now() }, 900);
 * const entry = await store.get(key);
 * await store.close();
 */
export class SqliteStore implements CacheStore {
  readonly #db: Database;
  readonly #maxBytes: number;
  /** Larger values would push out a quarter of the cache for one page; they are not kept. */
  readonly #maxEntryBytes: number;
  readonly #now: () => number;
  readonly #select: Statement;
  readonly #touch: Statement;
  readonly #upsert: Statement;
  readonly #delete: Statement;
  readonly #deleteIfUnchanged: Statement;
  readonly #deleteExpired: Statement;
  readonly #total: Statement;
  readonly #oldest: Statement;
  readonly #write: (key: string, value: Uint8Array, size: number, expiresAt: number) => void;
  #closed = false;

  constructor(options: SqliteStoreOptions) {
    if (!(options.maxBytes > 0)) throw new RangeError("maxBytes must be a positive number");
    this.#maxBytes = options.maxBytes;
    this.#maxEntryBytes = Math.max(1, Math.floor(options.maxBytes / 4));
    this.#now = options.now ?? Date.now;
    const Driver = loadDriver();
    const path = resolve(options.path);
    mkdirSync(dirname(path), { recursive: true });
    const db = new Driver(path, { timeout: BUSY_TIMEOUT_MS });
    try {
      const version = db.pragma("user_version", { simple: true }) as number;
      if (version > SCHEMA_VERSION) {
        throw new Error(
          `${path} holds a cache of schema version ${version}, written by a newer webfetch; use another cache path`,
        );
      }
      db.pragma("journal_mode = WAL");
      // With WAL, NORMAL loses at most the last commits on power loss, never consistency.
      db.pragma("synchronous = NORMAL");
      db.transaction(() => db.exec(SCHEMA)).immediate();
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db = db;
    this.#select = db.prepare(
      "SELECT value, expires_at, accessed_at FROM cache_entries WHERE key = ?",
    );
    this.#touch = db.prepare("UPDATE cache_entries SET accessed_at = ? WHERE key = ?");
    this.#upsert = db.prepare(
      `INSERT INTO cache_entries (key, value, size, expires_at, accessed_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, size = excluded.size,
         expires_at = excluded.expires_at, accessed_at = excluded.accessed_at`,
    );
    this.#delete = db.prepare("DELETE FROM cache_entries WHERE key = ?");
    // Drops a row read as expired or corrupt, unless another process rewrote it meanwhile.
    this.#deleteIfUnchanged = db.prepare(
      "DELETE FROM cache_entries WHERE key = ? AND expires_at = ?",
    );
    this.#deleteExpired = db.prepare("DELETE FROM cache_entries WHERE expires_at <= ?");
    this.#total = db.prepare("SELECT value FROM cache_meta WHERE name = 'total'");
    this.#oldest = db.prepare(
      "SELECT key, size FROM cache_entries WHERE key <> ? ORDER BY accessed_at, key LIMIT ?",
    );
    this.#write = db.transaction(
      (key: string, value: Uint8Array, size: number, expiresAt: number) => {
        const now = this.#now();
        this.#upsert.run(key, value, size, expiresAt, now);
        this.#evict(key, now);
      },
    ).immediate;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    this.#assertOpen();
    const row = this.#select.get(key) as Row | undefined;
    if (!row) return undefined;
    const now = this.#now();
    const entry = row.expires_at > now ? decodeEntry(row.value) : undefined;
    if (!entry) {
      // Expired or corrupt: a miss either way, even if another process holds the write lock.
      this.#tryRun(this.#deleteIfUnchanged, key, row.expires_at);
      return undefined;
    }
    // If another process holds the write lock past the busy timeout, the hit still stands and
    // its recency is recorded on a later read.
    if (now - row.accessed_at >= ACCESS_GRANULARITY_MS) this.#tryRun(this.#touch, now, key);
    return entry;
  }

  /** Stores `entry` for `ttlSeconds`; a non-positive TTL, or an entry over a quarter of `maxBytes`, removes the key instead. */
  async set(key: string, entry: CacheEntry, ttlSeconds: number): Promise<void> {
    this.#assertOpen();
    const value = encodeEntry(entry);
    const size = value.length;
    if (!(ttlSeconds > 0) || size > this.#maxEntryBytes) {
      this.#delete.run(key);
      return;
    }
    this.#write(key, value, size, this.#now() + Math.round(ttlSeconds * 1000));
  }

  async delete(key: string): Promise<void> {
    this.#assertOpen();
    this.#delete.run(key);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }

  /** Inside the write transaction: brings the total under the bound, sparing `keep`. */
  #evict(keep: string, now: number): void {
    if (this.#totalBytes() <= this.#maxBytes) return;
    this.#deleteExpired.run(now);
    let total = this.#totalBytes();
    while (total > this.#maxBytes) {
      const rows = this.#oldest.all(keep, EVICTION_BATCH) as { key: string; size: number }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        this.#delete.run(row.key);
        total -= row.size;
        if (total <= this.#maxBytes) return;
      }
    }
  }

  /** Runs a statement whose failure changes nothing for the caller. */
  #tryRun(statement: Statement, ...params: unknown[]): void {
    try {
      statement.run(...params);
    } catch {
      // Best effort by design.
    }
  }

  #totalBytes(): number {
    return (this.#total.get() as { value: number } | undefined)?.value ?? 0;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error("the SQLite cache store is closed");
  }
}
