/**
 * Fetches one bomb route in a fresh process and reports, as JSON, how far the process's
 * resident set grew above where it stood when the bomb fetch began.
 *
 * Measurement:
 * - Warm-up first: a normal page, then a small page in the bomb's own coding (/gzip or /br),
 *   so modules, JIT code, the conversion thread, the connection pool, robots.txt and the
 *   decoder's code and static tables are already resident. These are one-time costs of any
 *   process, not of the bomb.
 * - Baseline: the current RSS right before the bomb fetch (not a high-water mark).
 * - Peak: on Linux the kernel's own high-water mark of the whole process (every thread, the
 *   zlib/brotli state, the conversion thread), reset to the current RSS right before the fetch
 *   (`echo 5 > /proc/self/clear_refs`) and read from VmHWM after it, so no peak is missed
 *   between samples. Elsewhere (or if /proc is not writable) RSS is polled every millisecond
 *   during the fetch and once after it, which can only miss a peak, never invent one.
 * `process.resourceUsage().maxRSS` is not used: on Linux a spawned child's maxRSS starts from a
 * high-water mark carried over from the parent's address space (a 39 MiB child of a 443 MiB
 * parent reads 404 MiB), and it is a peak, not the current RSS, so the difference of two readings
 * can only under-count, anywhere from the true growth down to zero.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { silentLogger } from "../src/log.js";
import { createWebFetch } from "../src/webfetch/index.js";
import { testLookup } from "../test/helpers/fixture-server.js";

const [port, route] = process.argv.slice(2) as [string, string];
const site = `http://fixture.test:${port}`;
const web = createWebFetch({
  lookup: testLookup(),
  allowAddresses: [`127.0.0.1:${port}`],
  logger: silentLogger,
  cache: false,
});

/** A VmRSS/VmHWM line of /proc/self/status, in bytes. */
function procStatus(field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
      readFileSync("/proc/self/status", "utf8"),
    );
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resets the kernel's peak-RSS counter to the current RSS; false where that is not possible. */
function resetPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return procStatus("VmHWM") !== undefined;
  } catch {
    return false;
  }
}

// Warm-up: everything but the bomb itself.
await web.fetch(`${site}/article`);
await web.fetch(`${site}${route.startsWith("/br") ? "/br" : "/gzip"}`);
// Let the warm-up's stragglers (timers, the conversion thread going idle) finish.
await new Promise((resolve) => setTimeout(resolve, 100));

const kernel = resetPeak();
const baseline = kernel ? procStatus("VmRSS")! : process.memoryUsage.rss();
let polled = baseline;
const poll = kernel
  ? undefined
  : setInterval(() => {
      polled = Math.max(polled, process.memoryUsage.rss());
    }, 1);

const started = performance.now();
let code = "OK";
await web.fetch(`${site}${route}`).catch((e: { code: string }) => {
  code = e.code;
});
const ms = Math.round(performance.now() - started);
if (poll) clearInterval(poll);
const peak = kernel ? procStatus("VmHWM")! : Math.max(polled, process.memoryUsage.rss());
await web.close();

const MiB = 1024 * 1024;
console.log(
  JSON.stringify({
    code,
    ms,
    method: kernel ? "VmHWM" : "polled",
    baselineMiB: baseline / MiB,
    peakMiB: peak / MiB,
    growthMiB: (peak - baseline) / MiB,
    capMiB: web.options.maxBytes / MiB,
  }),
);
