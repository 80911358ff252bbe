import { mkdtemp, rm, stat } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/cache/memory.js";
import { defaultCachePath, expandHome, openCacheStore } from "../../src/cache/open.js";
import { RedisStore } from "../../src/cache/redis.js";
import { SqliteStore } from "../../src/cache/sqlite.js";
import { entry } from "./entries.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("defaultCachePath / expandHome", () => {
  it("uses an absolute XDG_CACHE_HOME, else ~/.cache", () => {
    expect(defaultCachePath({ XDG_CACHE_HOME: "/var/cache" })).toBe(
      "/var/cache/webfetch/cache.sqlite",
    );
    expect(defaultCachePath({ XDG_CACHE_HOME: "relative", HOME: "/home/ada" })).toBe(
      "/home/ada/.cache/webfetch/cache.sqlite",
    );
    expect(defaultCachePath({ HOME: "/home/ada" })).toBe("/home/ada/.cache/webfetch/cache.sqlite");
    expect(defaultCachePath({})).toBe(join(homedir(), ".cache/webfetch/cache.sqlite"));
  });

  it("expands a leading ~ only", () => {
    expect(expandHome("~/.cache/x.sqlite", "/home/ada")).toBe("/home/ada/.cache/x.sqlite");
    expect(expandHome("~", "/home/ada")).toBe("/home/ada");
    expect(expandHome("~bob/x", "/home/ada")).toBe("~bob/x");
    expect(expandHome("/abs/~/x", "/home/ada")).toBe("/abs/~/x");
    expect(expandHome("~/x")).toBe(join(homedir(), "x"));
  });
});

describe("openCacheStore", () => {
  it("opens each built-in store", async () => {
    expect(openCacheStore({ store: "memory", maxBytes: 1 << 20 })).toBeInstanceOf(MemoryStore);
    const dir = await mkdtemp(join(tmpdir(), "webfetch-open-"));
    dirs.push(dir);
    const path = join(dir, "nested", "deeper", "cache.sqlite");
    const sqlite = openCacheStore({ store: "sqlite", maxBytes: 1 << 20, path });
    expect(sqlite).toBeInstanceOf(SqliteStore);
    await sqlite.set("k", entry("k"), 60);
    expect(await sqlite.get("k")).toEqual(entry("k"));
    await sqlite.close?.();
    expect((await stat(path)).isFile()).toBe(true);
    // Connecting is lazy: creating the store needs no server.
    const redis = openCacheStore({ store: "redis", maxBytes: 1 << 20, url: "redis://127.0.0.1:1" });
    expect(redis).toBeInstanceOf(RedisStore);
    await redis.close?.();
  });

  it("refuses a redis store without a url, and bad urls", () => {
    expect(() => openCacheStore({ store: "redis", maxBytes: 1 << 20 })).toThrow(/cache\.url/);
    expect(() => openCacheStore({ store: "redis", maxBytes: 1, url: "http://x" })).toThrow(
      TypeError,
    );
    expect(() => openCacheStore({ store: "nope" as "memory", maxBytes: 1 << 20 })).toThrow(
      /unknown cache store/,
    );
  });
});
