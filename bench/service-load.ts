/**
 * Load benchmark of the HTTP service (issue 7): autocannon drives `POST /v1/fetch` with 100
 * concurrent connections for 20 s, against the local fixture server only, once with the cache
 * off (every request fetches and converts) and once cached. Reports requests/s, latency p50 and
 * p99, errors (must be 0) and the service process's peak RSS.
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

interface Row {
  mode: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  peakRssMiB: number;
}

async function run(mode: "uncached" | "cached"): Promise<Row> {
  const proc = spawn(process.execPath, ["--import", "tsx", child, mode], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: proc.stdout! });
  const iterator = lines[Symbol.asyncIterator]();
  const ready = JSON.parse(((await iterator.next()).value as string) ?? "{}") as {
    service: string;
    page: string;
  };
  const body = JSON.stringify({ url: ready.page });
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
  const result = await autocannon({
    url: `${ready.service}/v1/fetch`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [request],
  });
  proc.stdin!.end();
  const done = JSON.parse(((await iterator.next()).value as string) ?? "{}") as { peakRss: number };
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
  };
}

const rows = [await run("uncached"), await run("cached")];
console.log(
  `POST /v1/fetch, ${CONNECTIONS} connections, ${DURATION_S} s each, fixture article page\n`,
);
console.log("| mode | requests | req/s | p50 ms | p99 ms | errors | non-2xx | service peak RSS |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.mode} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.peakRssMiB.toFixed(0)} MiB |`,
  );
}
if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) process.exitCode = 1;
