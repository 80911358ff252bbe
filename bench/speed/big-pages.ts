/**
 * Conversion time of very large pages: each shape that once made conversion slow or superlinear
 * (a million list items, 150,000 links, one 9 MB line of text with and without spaces, a
 * 5,000-column table, a tall table, thousands of short link lists or status messages side by
 * side, lists nested 100 deep, each paragraph in 30 nested lists, quotes nested 100 deep) is
 * generated at two or three sizes and converted in process by convertBody (markdown, extract
 * "main", the path a fetch takes), after one untimed conversion of the shape's smallest size;
 * time per MB must stay flat as the size grows. A 150,000-item RSS feed, and the largest size of
 * each of the first six shapes (the pages of 4 to 9 MB that once took seconds), also go through
 * a fresh thread of a real ConvertPool, whose threads have the default bounded heap, to show
 * they fit in it, as a one-shot fetch converts them; the slowest shapes go through a fresh pool
 * thread, through one that has converted 300 ordinary pages first, as a long-running service's
 * has, and through one that has converted the same big page once before (each pool row is the
 * median of `--runs` threads).
 * Input past MAX_HTML_LENGTH (5,000,000 characters) or MAX_NODES tags is cut by the parser;
 * MB/s is always of the input as given.
 *
 * Run: node --import tsx bench/speed/big-pages.ts
 *   --runs N     conversions per size, the median reported (default 3)
 *   --only NAME  shapes whose name contains NAME
 */
import { fileURLToPath } from "node:url";
import { convertBody } from "../../src/convert/index.js";
import { ConvertPool } from "../../src/convert/pool.js";
import { LIMITS } from "../../src/limits.js";
import { median } from "../stats.js";
import { markdownTable } from "./table.js";

const MB = 1_000_000;
const OPTIONS = { url: "https://big.example/page", format: "markdown", extract: "main" } as const;

/** One generated input. */
interface Shape {
  name: string;
  contentType: string;
  sizes: readonly number[];
  /** About `bytes` bytes of this shape. */
  make: (bytes: number) => string;
  /**
   * One of the pages of 4 to 9 MB that once took seconds: its largest size also goes through a
   * fresh pool thread, as a one-shot fetch converts it.
   */
  once?: true;
}

/** Repeats `unit(i)` until the parts reach `bytes`, between `head` and `tail`. */
function fill(bytes: number, head: string, tail: string, unit: (i: number) => string): string {
  const parts = [head];
  let length = head.length + tail.length;
  for (let i = 0; length < bytes; i++) {
    const part = unit(i);
    parts.push(part);
    length += part.length;
  }
  parts.push(tail);
  return parts.join("");
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
const [pageHead, pageTail] = page("Big page", "\u0000").split("\u0000") as [string, string];

const WORDS =
  "the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing".split(" ");

export const SHAPES: readonly Shape[] = [
  {
    name: "list items",
    contentType: "text/html",
    once: true,
    sizes: [1 * MB, 2.5 * MB, 5 * MB],
    make: (bytes) =>
      fill(bytes, `${pageHead}<ul>`, `</ul>${pageTail}`, (i) => `<li>Item number ${i}</li>\n`),
  },
  {
    name: "links in paragraphs",
    contentType: "text/html",
    once: true,
    sizes: [1 * MB, 2.5 * MB, 5 * MB],
    make: (bytes) =>
      fill(bytes, pageHead, pageTail, (i) => {
        const links: string[] = [];
        for (let k = 0; k < 10; k++)
          links.push(`<a href="/p/${i * 10 + k}">link ${i * 10 + k}</a>`);
        return `<p>Read ${links.join(", ")}.</p>\n`;
      }),
  },
  {
    name: "links in a list",
    contentType: "text/html",
    once: true,
    sizes: [1 * MB, 2.5 * MB, 5 * MB],
    make: (bytes) =>
      fill(
        bytes,
        `${pageHead}<ul>`,
        `</ul>${pageTail}`,
        (i) => `<li><a href="/p/${i}">link ${i}</a></li>\n`,
      ),
  },
  {
    name: "one line of words",
    contentType: "text/html",
    once: true,
    sizes: [1 * MB, 2.5 * MB, 9 * MB],
    make: (bytes) =>
      fill(bytes, `${pageHead}<p>`, `</p>${pageTail}`, (i) => `${WORDS[i % WORDS.length]} `),
  },
  {
    name: "one line, no spaces",
    contentType: "text/html",
    once: true,
    sizes: [1 * MB, 2.5 * MB, 9 * MB],
    make: (bytes) => fill(bytes, `${pageHead}<p>`, `</p>${pageTail}`, () => "abcdefghijklmnop"),
  },
  {
    name: "wide table (5,000 columns)",
    contentType: "text/html",
    once: true,
    sizes: [1 * MB, 2.5 * MB, 5 * MB],
    make: (bytes) => {
      const row = (r: number) => {
        const cells: string[] = [];
        for (let c = 0; c < 5_000; c++) cells.push(`<td>r${r}c${c}</td>`);
        return `<tr>${cells.join("")}</tr>\n`;
      };
      return fill(bytes, `${pageHead}<table>`, `</table>${pageTail}`, row);
    },
  },
  {
    name: "tall table (5 columns)",
    contentType: "text/html",
    sizes: [1 * MB, 2.5 * MB, 5 * MB],
    make: (bytes) =>
      fill(
        bytes,
        `${pageHead}<table><tr><th>A</th><th>B</th><th>C</th><th>D</th><th>E</th></tr>`,
        `</table>${pageTail}`,
        (r) =>
          `<tr><td>${r}</td><td>alpha</td><td>beta ${r}</td><td>gamma</td><td>delta</td></tr>\n`,
      ),
  },
  {
    name: "side-by-side link lists",
    contentType: "text/html",
    sizes: [0.25 * MB, 1 * MB, 2.5 * MB],
    make: (bytes) =>
      fill(
        bytes,
        `${pageHead}<p>${"Some prose, with commas, to be the article. ".repeat(20)}</p>`,
        pageTail,
        (i) => {
          const items: string[] = [];
          for (let k = 0; k < 5; k++) items.push(`<li><a href="/${i}/${k}">L${k}</a></li>`);
          return `<ul class="m${i}">${items.join("")}</ul>`;
        },
      ),
  },
  {
    name: "side-by-side form status messages",
    contentType: "text/html",
    sizes: [0.25 * MB, 1 * MB, 2.5 * MB],
    make: (bytes) =>
      fill(
        bytes,
        `${pageHead}<p>${"Some prose, with commas, to be the article. ".repeat(20)}</p>`,
        pageTail,
        (i) => {
          return `<div class="error-message">Error ${i}</div>`;
        },
      ),
  },
  {
    name: "lists nested 100 deep",
    contentType: "text/html",
    sizes: [0.25 * MB, 1 * MB, 2.5 * MB],
    make: (bytes) => {
      const open = "<ul><li>item ".repeat(100);
      const close = "</li></ul>".repeat(100);
      return fill(bytes, `${pageHead}${open}`, `${close}${pageTail}`, (i) => {
        return `<p>Para ${i} with <a href="/p/${i}">a link</a>, and words.</p>`;
      });
    },
  },
  {
    name: "each paragraph in 30 nested lists",
    contentType: "text/html",
    sizes: [0.25 * MB, 1 * MB, 2.5 * MB],
    make: (bytes) =>
      fill(bytes, pageHead, pageTail, (i) => {
        const para = `<p>Para ${i} with <a href="/p/${i}">a link</a>, and words.</p>`;
        return `${"<ul><li>".repeat(30)}${para}${"</li></ul>".repeat(30)}`;
      }),
  },
  {
    name: "quotes nested 100 deep",
    contentType: "text/html",
    sizes: [0.25 * MB, 1 * MB, 2.5 * MB],
    make: (bytes) =>
      fill(
        bytes,
        `${pageHead}${"<blockquote>".repeat(100)}`,
        `${"</blockquote>".repeat(100)}${pageTail}`,
        (i) => `<p>Para ${i} with <a href="/p/${i}">a link</a>, and words.</p>`,
      ),
  },
];

/** An RSS 2.0 feed of `items` items, each with title, link, description and pubDate. */
export function rssFeed(items: number): string {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Big feed</title><link>https://big.example/</link><description>Every post</description>\n`,
  ];
  const day = Date.UTC(2026, 0, 1);
  for (let i = 0; i < items; i++) {
    const date = new Date(day - i * 600_000).toUTCString().slice(5, 16);
    parts.push(
      `<item><title>Post ${i}</title><link>/p/${i}</link><description>&lt;p&gt;Post ${i}&lt;/p&gt;</description><pubDate>${date}</pubDate></item>\n`,
    );
  }
  parts.push("</channel></rss>\n");
  return parts.join("");
}

const encode = (text: string) => new TextEncoder().encode(text);
const fmt = (n: number, digits = 1) => n.toFixed(digits);

/**
 * Median wall time and median CPU time (this process, garbage collection included) of `runs`
 * conversions of `body`, ms, and what the last one was cut at. On a loaded machine the CPU time
 * is the steadier of the two.
 */
async function timeConvert(body: Uint8Array, type: string, runs: number): Promise<Timing> {
  const times: number[] = [];
  const cpus: number[] = [];
  let cut = "";
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const doc = await convertBody(body, type, OPTIONS);
    const used = process.cpuUsage(cpu);
    times.push(performance.now() - start);
    cpus.push((used.user + used.system) / 1000);
    cut = (doc.limits ?? []).map((l) => l.limit).join(",");
  }
  return { ms: median(times), cpuMs: median(cpus), cut };
}

interface Timing {
  ms: number;
  cpuMs: number;
  cut: string;
}

/** Peak process RSS while `work` runs, sampled every 10 ms, MB. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMb: peak / MB };
  } finally {
    clearInterval(timer);
  }
}

/** An ordinary article of about 40 KB: navigation, sections of linked prose, a list, a footer. */
function ordinaryPage(i: number): Uint8Array {
  const nav = Array.from({ length: 20 }, (_, k) => `<a href="/s/${k}">Section ${k}</a>`).join(" ");
  const sections: string[] = [];
  for (let s = 0; s < 12; s++) {
    const paragraphs = Array.from(
      { length: 6 },
      (_, k) =>
        `<p>Paragraph ${k} of part ${s} in article ${i}, with <a href="/p/${i}/${s}/${k}">a link</a>, some <em>emphasis</em> and words enough to read as prose.</p>`,
    ).join("");
    const list = Array.from({ length: 5 }, (_, k) => `<li>Point ${k} of part ${s}</li>`).join("");
    sections.push(`<h2>Part ${s}</h2>${paragraphs}<ul>${list}</ul>`);
  }
  return encode(
    `<!doctype html><html><head><title>Article ${i}</title></head><body><header><nav>${nav}</nav></header><main><article><h1>Article ${i}</h1>${sections.join("")}</article></main><footer><p>Copyright 2026</p></footer></body></html>`,
  );
}

/**
 * Converts `body` on a one-thread pool (default heap) after `warm` ordinary pages on the same
 * thread; outcome, time and peak RSS. A thread that has converted many small pages is what a
 * long-running service converts a big page on: its compiled code and its heap are shaped by
 * them, and a fresh thread's or this process's are not.
 */
async function throughPool(body: Uint8Array, type: string, warm = 0, before = 0) {
  const pool = new ConvertPool({ threads: 1 });
  try {
    // A first small job starts the thread, so the time below is the conversion's.
    await pool.convert(encode("<p>warm</p>"), "text/html", OPTIONS, new AbortController().signal);
    for (let i = 0; i < warm; i++) {
      await pool.convert(ordinaryPage(i), "text/html", OPTIONS, new AbortController().signal);
    }
    for (let i = 0; i < before; i++) {
      await pool.convert(body, type, OPTIONS, new AbortController().signal);
    }
    const start = performance.now();
    const { value, peakMb } = await peakRss(() =>
      pool
        .convert(body, type, OPTIONS, new AbortController().signal)
        .then((doc) => {
          const limits = (doc.limits ?? []).map((l) => `${l.limit} ${l.max}`).join(", ");
          return limits ? `cut (${limits})` : "converted";
        })
        .catch(
          (error: { code?: string; message?: string }) => `failed: ${error.code ?? error.message}`,
        ),
    );
    return { outcome: value, ms: performance.now() - start, peakMb };
  } finally {
    await pool.close();
  }
}

/**
 * throughPool `runs` times, each on a new pool: the median time (one thread's first big page
 * varies by a fifth from thread to thread), the highest peak RSS, the first outcome.
 */
async function medianThroughPool(
  body: Uint8Array,
  type: string,
  runs: number,
  warm: number,
  before = 0,
) {
  const timed: Awaited<ReturnType<typeof throughPool>>[] = [];
  for (let i = 0; i < runs; i++) timed.push(await throughPool(body, type, warm, before));
  return {
    outcome: timed[0]!.outcome,
    ms: median(timed.map((t) => t.ms)),
    peakMb: Math.max(...timed.map((t) => t.peakMb)),
  };
}

/** Ordinary pages a pool thread converts before the big one, as a long-running service's has. */
const WARM_PAGES = 300;

const HEADER = [
  "shape",
  "input MB",
  "ms (median)",
  "MB/s",
  "CPU ms (median)",
  "MB/s of CPU",
  "cut / outcome",
  "peak RSS MB",
];

/** One row of a conversion measured in process. */
function inProcessRow(name: string, bytes: number, time: Timing): string[] {
  const mb = bytes / MB;
  const cpu = [fmt(time.cpuMs, 0), fmt(mb / (time.cpuMs / 1000))];
  return [
    name,
    fmt(mb, 2),
    fmt(time.ms, 0),
    fmt(mb / (time.ms / 1000)),
    ...cpu,
    time.cut || "-",
    "",
  ];
}

/** One row of a conversion on a pool thread (its CPU time is not this thread's). */
function poolRow(name: string, bytes: number, pooled: Awaited<ReturnType<typeof throughPool>>) {
  const mb = bytes / MB;
  const speed = fmt(mb / (pooled.ms / 1000));
  return [
    name,
    fmt(mb, 2),
    fmt(pooled.ms, 0),
    speed,
    "",
    "",
    pooled.outcome,
    fmt(pooled.peakMb, 0),
  ];
}

/**
 * Runs the benchmark: one row per shape and size in process, then the feed and one HTML page
 * through a ConvertPool. Rows include the header.
 */
export async function bigPagesBench(
  options: { runs?: number; only?: string } = {},
): Promise<string[][]> {
  const runs = options.runs ?? 3;
  const rows: string[][] = [HEADER];
  const wanted = (name: string) => !options.only || name.includes(options.only);
  for (const shape of SHAPES.filter((s) => wanted(s.name))) {
    // One conversion of the smallest size first, not timed: the rows are of code the shape has
    // run before, not of its first compilation, which fell on whichever size came first.
    await convertBody(encode(shape.make(shape.sizes[0]!)), shape.contentType, OPTIONS);
    for (const size of shape.sizes) {
      const body = encode(shape.make(size));
      const time = await timeConvert(body, shape.contentType, runs);
      rows.push(inProcessRow(shape.name, body.length, time));
    }
  }
  const heap = `${LIMITS.convertHeapMb} MiB heap`;
  if (wanted("feed")) {
    for (const items of [15_000, 60_000, 150_000]) {
      const body = encode(rssFeed(items));
      const time = await timeConvert(body, "application/rss+xml", runs);
      rows.push(inProcessRow(`RSS feed, ${items} items`, body.length, time));
    }
    const feed = encode(rssFeed(150_000));
    const pooled = await throughPool(feed, "application/rss+xml");
    rows.push(poolRow(`RSS feed, 150000 items, pool (${heap})`, feed.length, pooled));
  }
  if (wanted("pool")) {
    for (const shape of SHAPES.filter((x) => x.once)) {
      const html = encode(shape.make(shape.sizes[shape.sizes.length - 1]!));
      const pooled = await medianThroughPool(html, shape.contentType, runs, 0, 0);
      rows.push(poolRow(`${shape.name}, pool (${heap}), fresh thread`, html.length, pooled));
    }
    // The slowest shapes, as a long-running service's thread converts them: its first big page
    // (the code the shape runs is compiled for it while it runs), and one after another.
    const slowest = SHAPES.filter((x) => /^(tall table|lists nested)/.test(x.name));
    const threads = [
      { label: "fresh thread", warm: 0, before: 0 },
      { label: `after ${WARM_PAGES} ordinary pages`, warm: WARM_PAGES, before: 0 },
      { label: "after one page of the shape", warm: 0, before: 1 },
    ];
    for (const shape of slowest) {
      const big = encode(shape.make(2.5 * MB));
      for (const { label, warm, before } of threads) {
        const timed = await medianThroughPool(big, "text/html", runs, warm, before);
        rows.push(poolRow(`${shape.name}, pool, ${label}`, big.length, timed));
      }
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const runs = Number(arg("--runs") ?? 3);
  const only = arg("--only");
  const rows = await bigPagesBench({ runs, ...(only ? { only } : {}) });
  console.log(markdownTable(rows));
}
