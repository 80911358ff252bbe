/**
 * The default logger: pino's JSON line format on a file descriptor, from a level up, never
 * throwing, and losing no line to a full pipe.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, type LoggerOptions } from "../../src/log.js";

const dir = mkdtempSync(join(tmpdir(), "webfetch-log-"));
let file = 0;

/** The lines a logger made with `options` writes while `use` runs, parsed. */
function linesOf(
  options: Omit<LoggerOptions, "fd">,
  use: (log: ReturnType<typeof createLogger>) => void,
): Record<string, unknown>[] {
  const path = join(dir, `${file++}.log`);
  const fd = openSync(path, "w");
  try {
    use(createLogger({ ...options, fd }));
  } finally {
    closeSync(fd);
  }
  const text = readFileSync(path, "utf8");
  expect(text === "" || text.endsWith("\n")).toBe(true);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("createLogger", () => {
  const saved = process.env.WEBFETCH_LOG_LEVEL;
  afterEach(() => {
    if (saved === undefined) delete process.env.WEBFETCH_LOG_LEVEL;
    else process.env.WEBFETCH_LOG_LEVEL = saved;
  });

  it("writes pino's fields in pino's order: level, time, name, the fields, msg", () => {
    const before = Date.now();
    const [line] = linesOf({ level: "info" }, (log) =>
      log.info({ url: "https://a.test/x", status: 200, cached: false, gone: undefined }, "fetch"),
    );
    expect(Object.keys(line!)).toEqual(["level", "time", "name", "url", "status", "cached", "msg"]);
    expect(line).toMatchObject({ level: 30, name: "webfetch", status: 200, msg: "fetch" });
    expect(line!.time).toBeGreaterThanOrEqual(before);
    expect(line!.time).toBeLessThanOrEqual(Date.now());
  });

  it("writes from its level up, with pino's numbers", () => {
    const lines = linesOf({ level: "warn" }, (log) => {
      log.debug({}, "d");
      log.info({}, "i");
      log.warn({}, "w");
      log.error({}, "e");
    });
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, "w"],
      [50, "e"],
    ]);
    expect(linesOf({ level: "silent" }, (log) => log.error({}, "e"))).toEqual([]);
    expect(linesOf({ level: "debug" }, (log) => log.debug({}, "d"))).toHaveLength(1);
  });

  it("takes its level from WEBFETCH_LOG_LEVEL, and info for a level it does not know", () => {
    process.env.WEBFETCH_LOG_LEVEL = "ERROR";
    expect(linesOf({}, (log) => log.warn({}, "w"))).toEqual([]);
    for (const unknown of ["verbose", "toString", ""]) {
      process.env.WEBFETCH_LOG_LEVEL = unknown;
      const lines = linesOf({}, (log) => {
        log.debug({}, "d");
        log.info({}, "i");
      });
      expect(lines.map((l) => l.msg)).toEqual(["i"]);
    }
    // An explicit level wins over the environment.
    process.env.WEBFETCH_LOG_LEVEL = "error";
    expect(linesOf({ level: "debug" }, (log) => log.debug({}, "d"))).toHaveLength(1);
  });

  it("keeps each line one line of JSON, whatever the fields hold", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const lines = linesOf({ level: "info" }, (log) => {
      log.info({ text: 'a "quoted"\nnew line \u2028 é', "odd key\n": 1 }, 'msg "x"\n');
      log.info({ error: new TypeError("bad input"), cycle, big: 10n, list: [1, "2"] });
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ text: 'a "quoted"\nnew line \u2028 é', "odd key\n": 1 });
    expect(lines[0]!.msg).toBe('msg "x"\n');
    expect(lines[1]!.error).toMatchObject({ type: "TypeError", message: "bad input" });
    expect(String((lines[1]!.error as { stack: string }).stack)).toContain("bad input");
    expect(lines[1]).toMatchObject({ cycle: "[unserializable]", big: "[unserializable]" });
    expect(lines[1]!.list).toEqual([1, "2"]);
    expect("msg" in lines[1]!).toBe(false);
  });

  it("drops a line it cannot write instead of throwing", () => {
    const fd = openSync(join(dir, "closed.log"), "w");
    closeSync(fd);
    const log = createLogger({ level: "info", fd });
    expect(() => log.info({ url: "https://a.test/" }, "fetch")).not.toThrow();
  });
});

describe("createLogger on a full pipe", () => {
  it("loses no line while stderr's reader stops reading for a while, in a child process", async () => {
    const script = join(dir, "flood.mjs");
    const entry = pathToFileURL(join(process.cwd(), "dist/log.js")).href;
    // Touching process.stderr makes Node put the pipe in non-blocking mode, as a CLI does.
    writeFileSync(
      script,
      `import { createLogger } from ${JSON.stringify(entry)};
process.stderr;
const log = createLogger({ level: "info" });
for (let i = 0; i < 3000; i++) log.info({ i, pad: "x".repeat(300) }, "line");
process.stdout.write("done");
`,
    );
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    const closed = new Promise((resolve) => child.on("close", resolve));
    // About 1 MB of lines against a pipe of a few hundred KB: the child meets a full pipe.
    child.stderr.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.stderr.resume();
    expect(await closed).toBe(0);
    expect(Buffer.concat(out).toString()).toBe("done");
    const lines = Buffer.concat(err).toString().split("\n").filter(Boolean);
    expect(lines).toHaveLength(3000);
    expect(lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(
      Array.from({ length: 3000 }, (_, i) => i),
    );
  }, 60_000);
});
