/**
 * A second process for the store tests, run as `node --import tsx test/cache/child.ts <command>`:
 *
 * - `read sqlite <path> <key>` / `read redis <url> <prefix> <key>`: prints the entry as JSON
 *   (`null` for a miss);
 * - `write sqlite <path> <maxBytes> <name> <count> <chars>`: writes `count` entries;
 * - `hold <url> <prefix> <origin> <leaseMs>`: takes a slot, prints "held" and waits to be killed.
 */
import { RedisStore } from "../../src/cache/redis.js";
import { RedisOriginLimiter } from "../../src/cache/redis-limiter.js";
import { SqliteStore } from "../../src/cache/sqlite.js";
import type { CacheStore } from "../../src/cache/store.js";
import { entry } from "./entries.js";

const [command, kind, ...rest] = process.argv.slice(2);

async function main(): Promise<void> {
  if (command === "read") {
    const [a = "", b = "", c = ""] = rest;
    const store: CacheStore =
      kind === "sqlite"
        ? new SqliteStore({ path: a, maxBytes: 1 << 30 })
        : new RedisStore({ url: a, prefix: b, maxBytes: 1 << 30 });
    const found = await store.get(kind === "sqlite" ? b : c);
    await store.close?.();
    process.stdout.write(JSON.stringify(found ?? null));
    return;
  }
  if (command === "write" && kind === "sqlite") {
    const [path = "", maxBytes = "", name = "", count = "", chars = ""] = rest;
    const store = new SqliteStore({ path, maxBytes: Number(maxBytes) });
    for (let i = 0; i < Number(count); i++) {
      await store.set(`${name}-${i}`, entry(`${name}-${i}`, Number(chars)), 3600);
    }
    await store.close();
    return;
  }
  if (command === "hold") {
    const [prefix = "", origin = "", leaseMs = ""] = rest;
    const limiter = new RedisOriginLimiter({
      url: kind ?? "",
      prefix,
      limit: 1,
      leaseMs: Number(leaseMs),
    });
    await limiter.acquire(origin, new AbortController().signal);
    process.stdout.write("held\n");
    setInterval(() => {}, 1000);
    return;
  }
  throw new Error(`unknown command: ${process.argv.slice(2).join(" ")}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
