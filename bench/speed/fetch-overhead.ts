/**
 * Fetch overhead: `web.fetch()` of a 100 KB text page and of a 100 KB HTML page over loopback,
 * cache off, against a bare undici `request` of the same URL (its body read as text), in one
 * process with the server. webfetch is the compiled package in dist/, as users run it (so run
 * `npm run build` first). Rounds order the variants by a balanced Latin square, so that every
 * variant follows every other one as often (a round pays for some of the work of the one before:
 * the variant run right after the bare request would otherwise always pay for leaving it);
 * each figure is the median over rounds of the mean of one round's sequential requests, and each
 * ratio the median over rounds of the variant's mean over the bare request's in the same round
 * (so a round slowed by other work on the machine slows both sides of its ratio). Each ratio
 * comes with its 95% bootstrap interval over the rounds: how far it could move by the draw of
 * rounds alone.
 *
 * Where the time goes, from the result's own phase timings (guard, first byte, conversion with
 * its hand-off) and from variants run in the same rounds: the default logger against a silent
 * one, robots.txt respected against ignored. Only the phase timings of a result are kept, not
 * the result: holding every 100 KB page of the run would make the collector, not webfetch, the
 * cost of the variant that keeps them. For HTML the conversion itself is the product,
 * not overhead: the floor is a bare request whose body is converted on a conversion thread of
 * a pool of its own (made as webfetch makes its pool), in the same rounds, and webfetch's overhead is each fetch's time less its own
 * conversion, over the floor's request (which, like webfetch's, follows a wait for a thread).
 * The conversion alone (the same bytes through convertBody in this process) is shown too.
 *
 * Run: node --import tsx bench/speed/fetch-overhead.ts   (or npm run bench:speed)
 */
import { once } from "node:events";
import { closeSync, existsSync, openSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Agent, request } from "undici";
import type * as Convert from "../../src/convert/index.js";
import type * as Pool from "../../src/convert/pool.js";
import type * as Log from "../../src/log.js";
import type { Timings } from "../../src/result.js";
import type * as Instance from "../../src/webfetch/index.js";
import { testLookup } from "../../test/helpers/fixture-server.js";
import { bootstrapMedian, median } from "../stats.js";
import { markdownTable } from "./table.js";

/**
 * Rounds per page, at least: text's are short, so it takes more of them, which narrows the
 * interval of its ratio, the figure closest to its bound.
 */
const ROUNDS: Record<string, number> = { "/text": 42, "/html": 21 };
/** The compiled package. */
const DIST = new URL("../../dist/", import.meta.url);

/** A module of the compiled package, typed as its source. */
async function compiled<T>(path: string): Promise<T> {
  const url = new URL(path, DIST);
  if (!existsSync(fileURLToPath(url))) {
    throw new Error(`${fileURLToPath(url)} is missing: run \`npm run build\` first`);
  }
  return (await import(url.href)) as T;
}
const BARE = "bare undici request";
const FLOOR = "floor: bare request, converted on a thread";

/** Sequential requests per round: fewer of HTML, whose conversion takes most of a fetch. */
const PER_ROUND: Record<string, number> = { "/text": 100, "/html": 20 };
const PAGE_BYTES = 100 * 1024;

/** About `bytes` of prose, one line per sentence. */
function textPage(bytes: number): string {
  const line = "Webfetch reads the page and returns its text, line by line, as it was served.\n";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

/** An article of about `bytes`: navigation, headings, paragraphs with links, a footer. */
function htmlPage(bytes: number): string {
  const para = (i: number) =>
    `<p>Paragraph ${i} of the article, with <a href="/p/${i}">a link</a>, some <em>emphasis</em> and enough words to count as content rather than navigation.</p>\n`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes - 600; i++) {
    const p = (i % 12 === 1 ? `<h2>Section ${i}</h2>\n` : "") + para(i);
    parts.push(p);
    size += p.length;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Overhead</title></head><body>
<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><article><h1>Overhead</h1>
${parts.join("")}</article></main>
<footer>Copyright 2026</footer></body></html>`;
}

interface Variant {
  name: string;
  run: (url: string) => Promise<unknown>;
}

/**
 * Round `r`'s order of `n` variants, from a balanced Latin square (Williams): over n rounds (2n
 * when n is odd) each variant takes every place once and directly follows every other once.
 */
export function balancedOrder(n: number, r: number): number[] {
  // The first row runs 0, 1, n-1, 2, n-2, ...; row k adds k to each; odd n adds the rows reversed.
  const first = Array.from({ length: n }, (_, j) =>
    j === 0 ? 0 : j % 2 === 1 ? (j + 1) / 2 : n - j / 2,
  );
  const rows = n % 2 === 0 ? n : 2 * n;
  const k = r % rows;
  const row = first.map((x) => (x + (k % n)) % n);
  return k < n ? row : row.reverse();
}

/** Mean ms of one round of sequential runs of `run` over distinct URLs. */
async function round(variant: Variant, base: string, path: string): Promise<number> {
  const count = PER_ROUND[path]!;
  const started = performance.now();
  for (let i = 0; i < count; i++) await variant.run(`${base}${path}?i=${i}`);
  return (performance.now() - started) / count;
}

export async function fetchOverheadBench(): Promise<string[][]> {
  const { createWebFetch } = await compiled<typeof Instance>("webfetch/index.js");
  const { createLogger, silentLogger } = await compiled<typeof Log>("log.js");
  const { convertBody } = await compiled<typeof Convert>("convert/index.js");
  const { ConvertPool } = await compiled<typeof Pool>("convert/pool.js");
  const pages: Record<string, { type: string; body: string }> = {
    "/text": { type: "text/plain; charset=utf-8", body: textPage(PAGE_BYTES) },
    "/html": { type: "text/html; charset=utf-8", body: htmlPage(PAGE_BYTES) },
  };
  const server = createServer((req, res) => {
    const page = pages[(req.url ?? "").split("?")[0]!];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": page.type,
      "content-length": Buffer.byteLength(page.body),
    });
    res.end(page.body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const guard = { lookup: testLookup(), allowAddresses: [`127.0.0.1:${port}`] };
  // The default logger's work (one line per fetch, synchronously), its output thrown away.
  const devNull = openSync("/dev/null", "w");
  const logged = createLogger({ level: "info", fd: devNull });
  const web = createWebFetch({ ...guard, cache: false, logger: logged });
  const quiet = createWebFetch({ ...guard, cache: false, logger: silentLogger });
  const agent = new Agent();
  const pool = new ConvertPool();
  const never = new AbortController().signal;

  /** The phase timings of the default variant's results, for the phase rows. */
  const phases: Timings[] = [];
  /**
   * Per fetch, by round: web.fetch's wall time less its conversion with hand-off, and the
   * floor's request; then the floor's conversion.
   */
  let at = 0;
  const restByRound: number[][] = [];
  const floorRequestByRound: number[][] = [];
  const push = (byRound: number[][], ms: number) => {
    const round = byRound[at] ?? [];
    round.push(ms);
    byRound[at] = round;
  };
  const floorConvert: number[] = [];
  const variants: Variant[] = [
    {
      name: BARE,
      run: async (url) => {
        const res = await request(url, { dispatcher: agent });
        await res.body.text();
        return undefined;
      },
    },
    {
      name: "web.fetch",
      run: async (url) => {
        const started = performance.now();
        const result = await web.fetch(url);
        const wall = performance.now() - started;
        if (result.timings) {
          phases.push(result.timings);
          push(restByRound, wall - (result.timings.convertMs ?? 0));
        }
      },
    },
    { name: "  with a silent logger", run: (url) => quiet.fetch(url) },
    { name: "  robots.txt ignored", run: (url) => web.fetch(url, { robots: "ignore" }) },
  ];
  /** HTML's floor: the bare request, its body converted on a thread as webfetch converts it. */
  const converted: Variant = {
    name: FLOOR,
    run: async (url) => {
      const started = performance.now();
      const res = await request(url, { dispatcher: agent });
      const body = new Uint8Array(await res.body.arrayBuffer());
      const type = String(res.headers["content-type"]);
      const requested = performance.now();
      await pool.convert(body, type, { url, format: "markdown", extract: "main" }, never);
      push(floorRequestByRound, requested - started);
      floorConvert.push(performance.now() - requested);
    },
  };

  const rows: string[][] = [["page", "what", "ms per fetch (median)", "× bare"]];
  try {
    for (const path of ["/text", "/html"]) {
      const run = path === "/html" ? [...variants, converted] : variants;
      const times = new Map<string, number[]>(run.map((v) => [v.name, []]));
      for (const v of run) await round(v, base, path); // warm: pools, robots.txt, JIT
      for (const list of [phases, restByRound, floorRequestByRound, floorConvert]) list.length = 0;
      // Whole squares only: at least ROUNDS rounds.
      const square = run.length % 2 === 0 ? run.length : 2 * run.length;
      for (let r = 0; r < Math.ceil(ROUNDS[path]! / square) * square; r++) {
        at = r;
        for (const i of balancedOrder(run.length, r)) {
          const v = run[i]!;
          times.get(v.name)!.push(await round(v, base, path));
        }
      }
      const bareRounds = times.get(BARE)!;
      const rest = restByRound.flat();
      const bare = median(bareRounds);
      const label = `${path.slice(1)} ${PAGE_BYTES / 1024} KB`;
      const row = (what: string, ms: number, ratio: number | string = ms / bare) => [
        label,
        what,
        ms.toFixed(3),
        typeof ratio === "number" ? ratio.toFixed(2) : ratio,
      ];
      /** A median of ratios by round with its 95% interval: "1.49 (1.45–1.53)". */
      const withInterval = (ratios: number[]) => {
        const { median: middle, low, high } = bootstrapMedian(ratios);
        return `${middle.toFixed(2)} (${low.toFixed(2)}–${high.toFixed(2)})`;
      };
      /** A variant's ratios to the bare request of the same round. */
      const paired = (rounds: number[]) => rounds.map((ms, r) => ms / bareRounds[r]!);
      for (const v of run) {
        const rounds = times.get(v.name)!;
        const ratio = v.name === BARE ? "1.00" : withInterval(paired(rounds));
        rows.push(row(v.name, median(rounds), ratio));
      }
      if (path === "/html") {
        // Beside a conversion, a request pays for the wait: after milliseconds of idling the
        // main thread runs its next request slower. So HTML's overhead is each fetch's time
        // less its own conversion, over the floor's request in the same rounds.
        const request = median(floorRequestByRound.flat());
        rows.push(row("  floor: its request, per fetch", request));
        rows.push(row("  floor: its conversion on a thread, per fetch", median(floorConvert)));
        const own = median(rest);
        // By round: the median of the round's fetches less their conversion, over the median
        // of the floor's requests in the same round.
        const ownRatios = restByRound.map(
          (fetches, r) => median(fetches) / median(floorRequestByRound[r] ?? []),
        );
        rows.push(
          row(
            "web.fetch less its own conversion, over the floor's request",
            own,
            `${(own / request).toFixed(2)}; by round ${withInterval(ownRatios)}`,
          ),
        );
      }

      // The phases the results measured, and the conversion alone for HTML.
      const phase = (pick: (t: Timings) => number | undefined) =>
        median(phases.map((t) => pick(t) ?? 0));
      rows.push(
        row(
          "  phase: guard (resolve and check)",
          phase((t) => t.dnsMs),
        ),
      );
      rows.push(
        row(
          "  phase: request to first byte",
          phase((t) => t.firstByteMs),
        ),
      );
      rows.push(
        row(
          "  phase: conversion with hand-off",
          phase((t) => t.convertMs),
        ),
      );
      // Each fetch's own time less its own conversion: the overhead around the conversion,
      // which a conversion timed apart (on another thread, at another moment) cannot give.
      if (path === "/text") rows.push(row("web.fetch less its own conversion", median(rest)));
      if (path === "/html") {
        const body = Buffer.from(pages[path]!.body);
        const options = {
          url: `${base}${path}`,
          format: "markdown" as const,
          extract: "main" as const,
        };
        const alone: number[] = [];
        for (let i = 0; i < 20 + ROUNDS[path]! * 10; i++) {
          const started = performance.now();
          await convertBody(body, pages[path]!.type, options);
          if (i >= 20) alone.push(performance.now() - started);
        }
        const convert = median(alone);
        rows.push(row("  conversion alone, in this process", convert));
      }
    }
  } finally {
    await Promise.all([web.close(), quiet.close(), agent.close(), pool.close()]);
    server.close();
    closeSync(devNull);
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(markdownTable(await fetchOverheadBench()));
}
