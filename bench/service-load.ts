/**
 * Load benchmark of the HTTP service: autocannon drives `POST /v1/fetch` with 100 concurrent
 * connections for 20 s, against the local fixture site only, once with the cache off (every
 * request fetches and converts) and once cached. The service, the site and this load generator
 * are three processes on the same cores, as a service and the sites it reads are apart. Reports
 * requests/s, latency p50 and p99, errors (must be 0), the service process's peak RSS and its
 * CPU time per request.
 *
 * Run: npm run bench:service [-- --duration S --connections N]
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(args[i + 1]);
};
const DURATION_S = flag("duration", 20);
const CONNECTIONS = flag("connections", 100);
const child = fileURLToPath(new URL("./service/child.ts", import.meta.url));
const upstream = fileURLToPath(new URL("./service/upstream.ts", import.meta.url));

/** Starts `script` under tsx; its first stdout line is JSON, returned with the process. */
async function start<T>(script: string, args: string[]) {
  const proc = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const first = JSON.parse(((await lines.next()).value as string) ?? "{}") as T;
  return { proc, lines, first };
}

interface Row {
  mode: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  peakRssMiB: number;
  cpuMsPerRequest: number;
}

async function run(
  mode: "uncached" | "cached",
  site: { port: number; page: string },
): Promise<Row> {
  const {
    proc,
    lines,
    first: ready,
  } = await start<{ service: string }>(child, [mode, String(site.port)]);
  const body = JSON.stringify({ url: site.page });
  const request = {
    method: "POST" as const,
    headers: { "content-type": "application/json" },
    body,
  };
  // Warm the robots.txt cache, the pools and (cached mode) the page.
  await autocannon({
    url: `${ready.service}/v1/fetch`,
    connections: 4,
    amount: 20,
    requests: [request],
  });
  proc.stdin!.write("mark\n");
  const result = await autocannon({
    url: `${ready.service}/v1/fetch`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [request],
  });
  proc.stdin!.end();
  const done = JSON.parse(((await lines.next()).value as string) ?? "{}") as {
    peakRss: number;
    cpuMs: number;
  };
  await once(proc, "exit");
  return {
    mode,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    peakRssMiB: done.peakRss / 1024 / 1024,
    cpuMsPerRequest: done.cpuMs / Math.max(1, result.requests.total),
  };
}

const site = await start<{ port: number; page: string }>(upstream, []);
const rows = [await run("uncached", site.first), await run("cached", site.first)];
const siteExit = site.proc.exitCode === null ? once(site.proc, "exit") : undefined;
site.proc.stdin!.end();
await siteExit;
console.log(
  `POST /v1/fetch, ${CONNECTIONS} connections, ${DURATION_S} s each, fixture article page\n`,
);
console.log(
  "| mode | requests | req/s | p50 ms | p99 ms | errors | non-2xx | service peak RSS | service CPU ms/request |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.mode} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.peakRssMiB.toFixed(0)} MiB | ${r.cpuMsPerRequest.toFixed(3)} |`,
  );
}
if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) process.exitCode = 1;
