/**
 * The service under load, in its own process so its RSS and its CPU are its own: a webfetch
 * service on 127.0.0.1 over the fixture site that bench/service/upstream.ts runs in another
 * process. Prints `{"service": url}` on stdout, samples RSS every 50 ms, starts counting CPU
 * time (every thread's) at a line `mark` on stdin, and prints `{"peakRss": bytes, "cpuMs": n}`
 * when stdin closes.
 *
 * Arguments: `cached` (the default in-memory cache) or `uncached` (cache: false), then the
 * fixture site's port.
 */
import { createInterface } from "node:readline";
import { silentLogger } from "../../src/log.js";
import { createServer } from "../../src/server/index.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { testLookup } from "../../test/helpers/fixture-server.js";

const cached = process.argv[2] !== "uncached";
const sitePort = Number(process.argv[3]);
const web = createWebFetch({
  lookup: testLookup(),
  allowAddresses: [`127.0.0.1:${sitePort}`],
  logger: silentLogger,
  // The load is 100 clients of one origin; the per-origin pool must not be the bottleneck.
  maxConnectionsPerOrigin: 32,
  maxConcurrency: 128,
  ...(cached ? {} : { cache: false as const }),
});
// The load generator is one client: the per-client limit would answer 429 after 120 requests.
const server = createServer({ web, port: 0, rateLimit: 1_000_000, logger: silentLogger });
const { url } = await server.listen();

// rss() alone: memoryUsage() also walks the heap's spaces, on the thread under load.
let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 50);
process.stdout.write(`${JSON.stringify({ service: url })}\n`);

let marked = process.cpuUsage();
const input = createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (line === "mark") marked = process.cpuUsage();
});
input.on("close", async () => {
  clearInterval(sampler);
  const { user, system } = process.cpuUsage(marked);
  process.stdout.write(`${JSON.stringify({ peakRss, cpuMs: (user + system) / 1000 })}\n`);
  await server.close();
  await web.close();
  process.exit(0);
});
