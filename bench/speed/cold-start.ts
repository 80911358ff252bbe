/**
 * Cold start of the compiled CLI: how long `webfetch --version`, a fetch of a small local page,
 * and `webfetch mcp` answering `initialize` take from spawn, next to `node -e 0` (what Node
 * itself costs on this machine). Each round runs every case once, in turn, so a loaded machine
 * slows them alike; the table shows medians. Nothing is built here: it runs dist/bin/webfetch.js,
 * so run `npm run build` first. Only a server on 127.0.0.1 is reached; HOME is a fresh temporary
 * directory and the cache is off, so no run reuses another's work.
 * Run: node --import tsx bench/speed/cold-start.ts, or npm run bench:speed -- --only cold
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "../stats.js";
import { markdownTable } from "./table.js";

/** The compiled CLI; this benchmark measures what users run. */
const BIN = fileURLToPath(new URL("../../dist/bin/webfetch.js", import.meta.url));
/** Rounds of every case; medians of these. */
const ROUNDS = Number(process.env.COLD_START_ROUNDS ?? 9);
/** A run that takes longer than this has hung. */
const RUN_TIMEOUT_MS = 60_000;

/** A small article, the kind of page a one-shot fetch reads. */
const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Cold start</title><meta name="description" content="A small page."></head>
<body><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>Cold start</h1>
${Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i + 1} of a small article: a command line tool starts, reads its flags, fetches one page and prints it as Markdown, and the time it takes before the first byte leaves is what an agent waits for.</p>`).join("\n")}
<ul><li>one</li><li>two</li><li>three</li></ul>
</article></main><footer>Footer</footer></body></html>`;

/** Serves the article at every path but /robots.txt, which is a 404. */
async function startSite(): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((req, res) => {
    if (req.url === "/robots.txt") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/article`, port };
}

interface Case {
  what: string;
  args: string[];
  /** Written to stdin; the run ends at the first stdout line (then the child is ended). */
  stdin?: string;
}

/** Milliseconds from spawn to exit, or to the first stdout line when the case writes stdin. */
function timeRun(c: Case, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, c.args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let done = false;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${c.what}: no answer in ${RUN_TIMEOUT_MS} ms\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
    });
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
      if (c.stdin !== undefined && !done && stdout.includes("\n")) {
        done = true;
        const ms = performance.now() - start;
        clearTimeout(timer);
        child.stdin.end();
        child.once("exit", () => resolve(ms));
      }
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (c.stdin !== undefined) {
        if (!done) reject(new Error(`${c.what}: exited (${code}) before answering\n${stderr}`));
        return;
      }
      const ms = performance.now() - start;
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${c.what}: exit status ${code}\n${stderr}`));
      else resolve(ms);
    });
    if (c.stdin !== undefined) child.stdin.write(c.stdin);
    else child.stdin.end();
  });
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "cold-start-bench", version: "1" },
  },
})}\n`;

/**
 * Rows of the table: a header, then each case's median and its distance from `node -e 0`.
 *
 * @example
 * for (const row of await coldStartBench()) console.log(row.join(" | "));
 */
export async function coldStartBench(): Promise<string[][]> {
  if (!existsSync(BIN)) {
    throw new Error(
      `${BIN} is missing: run \`npm run build\` first (this benchmark builds nothing)`,
    );
  }
  const site = await startSite();
  const home = await mkdtemp(join(tmpdir(), "webfetch-cold-start-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_CONFIG_HOME: join(home, ".config"),
    WEBFETCH_ALLOW_ADDRESSES: `127.0.0.1:${site.port}`,
  };
  const cases: Case[] = [
    { what: "node -e 0", args: ["-e", "0"] },
    { what: "webfetch --version", args: [BIN, "--version"] },
    { what: "webfetch <local url> --no-cache", args: [BIN, site.url, "--no-cache"] },
    { what: "webfetch mcp: initialize answered", args: [BIN, "mcp"], stdin: INITIALIZE },
  ];
  const samples = cases.map(() => [] as number[]);
  try {
    // One unmeasured round warms the file system cache, as a user's second run would find it.
    for (const c of cases) await timeRun(c, env);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of cases.entries()) samples[i]!.push(await timeRun(c, env));
    }
  } finally {
    site.server.close();
    await rm(home, { recursive: true, force: true });
  }
  const base = median(samples[0]!);
  return [
    ["what", "median ms", "vs node -e 0"],
    ...cases.map((c, i) => {
      const m = median(samples[i]!);
      return [c.what, m.toFixed(0), i === 0 ? "" : `+${(m - base).toFixed(0)}`];
    }),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(`Cold start, medians of ${ROUNDS} interleaved runs\n`);
  console.log(markdownTable(await coldStartBench()));
}
