/** Fetches one bomb route in a fresh process and reports the peak RSS growth as JSON. */
import { silentLogger } from "../src/log.js";
import { createWebFetch } from "../src/webfetch.js";
import { testLookup } from "../test/helpers/fixture-server.js";

const [port, route] = process.argv.slice(2) as [string, string];
const web = createWebFetch({
  lookup: testLookup(),
  allowAddresses: [`127.0.0.1:${port}`],
  logger: silentLogger,
  cache: false,
});
// Warm up: modules, parser, pool and robots.txt, so the baseline holds everything but the bomb.
await web.fetch(`http://fixture.test:${port}/article`);
const before = process.resourceUsage().maxRSS;
const started = performance.now();
let code = "OK";
await web.fetch(`http://fixture.test:${port}${route}`).catch((e: { code: string }) => {
  code = e.code;
});
const ms = Math.round(performance.now() - started);
const after = process.resourceUsage().maxRSS;
await web.close();
console.log(
  JSON.stringify({
    code,
    ms,
    growthMiB: (after - before) / 1024,
    capMiB: web.options.maxBytes / 1024 / 1024,
  }),
);
