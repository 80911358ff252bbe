/**
 * `npm test` on a machine without Chromium or redis-server: the suites that need one skip, and
 * the run says once what is missing and how to install it; with WEBFETCH_REQUIRE_SERVICES=1, as
 * CI sets it, the same run fails instead. Proven on a real child vitest run of a Redis test
 * file, with the service hidden through the overrides the helpers honour.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VITEST = join(
  dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
);
const REDIS_LINE =
  "skipped: redis-server not found; install it with `apt-get install redis-server` (or set REDIS_SERVER) to run the tests that need it";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

interface ChildRun {
  status: number;
  output: string;
  report?: { numPassedTests: number; numFailedTests: number; numPendingTests: number };
}

/** `vitest run test/cache/redis.test.ts` in a child, with no redis-server and no Chromium. */
async function runWithoutServices(extra: Record<string, string>): Promise<ChildRun> {
  const dir = await mkdtemp(join(tmpdir(), "webfetch-services-"));
  dirs.push(dir);
  const reportPath = join(dir, "report.json");
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The child is a run of its own, not a worker of this one.
    if (!key.startsWith("VITEST") && key !== "WEBFETCH_REQUIRE_SERVICES") env[key] = value;
  }
  Object.assign(env, {
    REDIS_SERVER: join(dir, "no-redis-server"),
    WEBFETCH_CHROMIUM_PATH: join(dir, "no-chromium"),
    NO_COLOR: "1",
    ...extra,
  });
  const args = [VITEST, "run", "test/cache/redis.test.ts", "--reporter=default", "--reporter=json"];
  args.push(`--outputFile.json=${reportPath}`);
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env }, async (error, stdout, stderr) => {
      const report = await readFile(reportPath, "utf8").then(JSON.parse, () => undefined);
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: stdout + stderr, report });
    });
  });
}

describe("tests that need a service missing here", () => {
  it("skip with one line naming the service and how to install it, and the run passes", async () => {
    const run = await runWithoutServices({});
    expect(run.output.split(REDIS_LINE)).toHaveLength(2);
    expect(run.status).toBe(0);
    expect(run.report?.numFailedTests).toBe(0);
    expect(run.report?.numPassedTests).toBe(0);
    expect(run.report?.numPendingTests).toBeGreaterThan(10);
  }, 120_000);

  it("fail the run when WEBFETCH_REQUIRE_SERVICES=1 (CI), naming what is missing", async () => {
    const run = await runWithoutServices({ WEBFETCH_REQUIRE_SERVICES: "1" });
    expect(run.status).not.toBe(0);
    expect(run.output).toContain("WEBFETCH_REQUIRE_SERVICES is set");
    expect(run.output).toContain(
      "redis-server not found; install it with `apt-get install redis-server`",
    );
    expect(run.output).not.toContain(REDIS_LINE);
  }, 120_000);
});
