/**
 * The service under load, in its own process so its RSS is its own: the fixture server and a
 * webfetch service over it, both on 127.0.0.1. Prints `{"service": url, "page": url}` on stdout,
 * samples RSS every 50 ms, and prints `{"peakRss": bytes}` when stdin closes.
 *
 * Argument: `cached` (the default in-memory cache) or `uncached` (cache: false).
 */
import { silentLogger } from "../../src/log.js";
import { createServer } from "../../src/server/index.js";
import { createWebFetch } from "../../src/webfetch/index.js";
import { startFixtureServer, testLookup } from "../../test/helpers/fixture-server.js";

const cached = process.argv[2] !== "uncached";
const fixture = await startFixtureServer();
const web = createWebFetch({
  lookup: testLookup(),
  allowAddresses: [`127.0.0.1:${fixture.port}`],
  logger: silentLogger,
  // The load is 100 clients of one origin; the per-origin pool must not be the bottleneck.
  maxConnectionsPerOrigin: 32,
  maxConcurrency: 128,
  ...(cached ? {} : { cache: false as const }),
});
// The load generator is one client: the per-client limit would answer 429 after 120 requests.
const server = createServer({ web, port: 0, rateLimit: 1_000_000, logger: silentLogger });
const { url } = await server.listen();

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
process.stdout.write(`${JSON.stringify({ service: url, page: fixture.url("/article") })}\n`);

process.stdin.resume();
process.stdin.on("end", async () => {
  clearInterval(sampler);
  process.stdout.write(`${JSON.stringify({ peakRss })}\n`);
  await server.close();
  await web.close();
  await fixture.close();
  process.exit(0);
});
