/**
 * Opens the built-in store a configuration names (`cache.*`), and resolves the SQLite
 * file's default place: `$XDG_CACHE_HOME/webfetch/cache.sqlite`, else
 * `~/.cache/webfetch/cache.sqlite`. The SQLite and Redis drivers load only when their store is
 * opened, so importing this module stays light.
 */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import {
  FallbackOriginLimiter,
  LocalOriginLimiter,
  type OriginLimiter,
} from "../net/politeness.js";
import { MemoryStore } from "./memory.js";
import { RedisConnection, RedisStore } from "./redis.js";
import { RedisOriginLimiter } from "./redis-limiter.js";
import { SqliteStore } from "./sqlite.js";
import type { CacheStore } from "./store.js";

export interface OpenCacheStoreOptions {
  /** Which store. */
  store: "memory" | "sqlite" | "redis";
  /** Bound on the total size of entries, bytes. */
  maxBytes: number;
  /** SQLite: the file; a leading `~` is the home directory. @default defaultCachePath() */
  path?: string;
  /** Redis: the server, `redis://host:port`. Required for `redis`. */
  url?: string;
}

/**
 * Opens a cache store. Throws at once when the store's optional package is not installed or an
 * option is missing, so a configuration mistake shows up at start, not at the first fetch.
 *
 * @example
 * const cache = openCacheStore({ store: "sqlite", maxBytes: 50 << 20 });
 * // … later
 * await cache.close?.();
 */
export function openCacheStore(options: OpenCacheStoreOptions): CacheStore {
  switch (options.store) {
    case "memory":
      return new MemoryStore({ maxBytes: options.maxBytes });
    case "sqlite":
      return new SqliteStore({
        path: expandHome(options.path ?? defaultCachePath()),
        maxBytes: options.maxBytes,
      });
    case "redis":
      return new RedisStore({ url: redisUrl(options), maxBytes: options.maxBytes });
    default:
      throw new TypeError(`unknown cache store: ${JSON.stringify(options.store)}`);
  }
}

/** The Redis server's URL, which the redis store cannot do without. */
function redisUrl(options: OpenCacheStoreOptions): string {
  if (!options.url) throw new TypeError('cache.store "redis" needs cache.url (redis://host:port)');
  return options.url;
}

/** A store, and with Redis the per-origin limiter that shares its server. */
export interface OpenedCache {
  store: CacheStore;
  /** Per-origin politeness counted on the Redis server; undefined for the other stores. */
  limiter?: OriginLimiter;
  /** Closes the store, the limiter and their connection. */
  close(): Promise<void>;
}

/**
 * Opens a store the way an instance uses it: with Redis, one connection serves the store and a
 * per-origin limiter of `originLimit` requests at once, shared by every process on the server
 * (counted in this process while the server fails; `onLimiterError` hears of it).
 */
export function openCache(
  options: OpenCacheStoreOptions & {
    originLimit: number;
    onLimiterError: (error: unknown) => void;
  },
): OpenedCache {
  if (options.store !== "redis") {
    const store = openCacheStore(options);
    return { store, close: async () => store.close?.() };
  }
  const connection = new RedisConnection({ url: redisUrl(options) });
  const store = new RedisStore({ connection, maxBytes: options.maxBytes });
  const limiter = new FallbackOriginLimiter(
    new RedisOriginLimiter({ connection, limit: options.originLimit }),
    new LocalOriginLimiter(options.originLimit),
    options.onLimiterError,
  );
  return {
    store,
    limiter,
    async close() {
      await limiter.close();
      await store.close();
      await connection.close();
    },
  };
}

/**
 * The SQLite cache file's default path. XDG_CACHE_HOME counts only when absolute, as the XDG
 * base directory specification says.
 *
 * @example
 * defaultCachePath({ XDG_CACHE_HOME: "/var/cache" }); // "/var/cache/webfetch/cache.sqlite"
 * defaultCachePath({ HOME: "/home/ada" }); // "/home/ada/.cache/webfetch/cache.sqlite"
 */
export function defaultCachePath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".cache");
  return join(base, "webfetch", "cache.sqlite");
}

/**
 * Replaces a leading `~` (alone or before a separator) with the home directory; other paths,
 * `~user/…` included, come back unchanged.
 *
 * @example
 * expandHome("~/.cache/webfetch/cache.sqlite"); // "/home/ada/.cache/webfetch/cache.sqlite"
 */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return path;
}
