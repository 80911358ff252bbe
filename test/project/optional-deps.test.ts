/**
 * better-sqlite3, playwright-core, redis, bullmq and ioredis are optional dependencies: `npm install
 * --omit=optional` leaves them out, and webfetch must still compile and run. No module of src/
 * may name one statically (even for types, which the compiler would then need), and each
 * feature that uses one fails with a typed error saying what to install when it is absent.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const OPTIONAL = Object.keys(
  (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      optionalDependencies: Record<string, string>;
    }
  ).optionalDependencies,
);

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("optional dependencies", () => {
  it("are never named by a static import, an import type or a typeof import in src/", () => {
    expect(OPTIONAL.sort()).toEqual([
      "better-sqlite3",
      "bullmq",
      "ioredis",
      "playwright-core",
      "redis",
    ]);
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, "src"))) {
      const text = readFileSync(file, "utf8");
      for (const name of OPTIONAL) {
        const quoted = `["']${name.replace(/[.-]/g, "\\$&")}(/[^"']*)?["']`;
        const statically = new RegExp(`(\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\bimport\\s+)${quoted}`);
        if (statically.test(text)) found.push(`${relative(ROOT, file)}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("absent, each feature that needs one fails with a typed error that says what to install", async () => {
    // The modules that load them, copied (same layout) where no node_modules can be found.
    const dir = await mkdtemp(join(tmpdir(), "webfetch-nooptional-"));
    dirs.push(dir);
    const files = [
      "errors.ts",
      "cache/codec.ts",
      "cache/optional.ts",
      "cache/store.ts",
      "cache/sqlite.ts",
      "cache/redis.ts",
      "render/browser.ts",
      "render/playwright.ts",
      "queue/connection.ts",
    ];
    for (const file of files) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await copyFile(join(ROOT, "src", file), join(dir, file));
    }
    await writeFile(join(dir, "package.json"), '{ "type": "module" }');
    const at = (file: string) => JSON.stringify(join(dir, file));
    const script = `
      const { SqliteStore } = await import(${at("cache/sqlite.ts")});
      const { RedisStore } = await import(${at("cache/redis.ts")});
      const { BrowserPool } = await import(${at("render/browser.ts")});
      const report = (error) => console.log(error.name, error.code, error.message);
      for (const open of [
        () => new SqliteStore({ path: ${at("c.sqlite")}, maxBytes: 1000 }),
        () => new RedisStore({ url: "redis://127.0.0.1:1", maxBytes: 1000 }),
      ]) {
        try { open(); console.log("opened"); } catch (error) { report(error); }
      }
      // An executable that exists, so the package is what is missing.
      const pool = new BrowserPool({ executablePath: process.execPath });
      await pool.browser().then(() => console.log("launched"), report);
      await pool.close();
      const { loadBullmq, openRedis } = await import(${at("queue/connection.ts")});
      for (const open of [() => loadBullmq(), () => openRedis("redis://127.0.0.1:1", () => {})]) {
        try { open(); console.log("opened"); } catch (error) { report(error); }
      }`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      { cwd: ROOT },
    );
    expect(stdout.trim().split("\n")).toEqual([
      'WebFetchError INVALID_INPUT cache.store "sqlite" needs the optional package better-sqlite3: npm install better-sqlite3',
      'WebFetchError INVALID_INPUT cache.store "redis" needs the optional package redis: npm install redis',
      "WebFetchError RENDER_FAILED JavaScript rendering needs the optional package playwright-core: npm install playwright-core",
      "WebFetchError INVALID_INPUT the crawl queue (webfetch worker, queue.url) needs the optional package ioredis: npm install ioredis",
      "WebFetchError INVALID_INPUT the crawl queue (webfetch worker, queue.url) needs the optional package ioredis: npm install ioredis",
    ]);
  });
});
