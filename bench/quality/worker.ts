/**
 * Runs one extractor over a list of WCXB pages in its own process, so its speed and peak RSS
 * are its own. Only the extraction is timed: reading and gunzipping the page is not, and the
 * peers' HTML output is turned into block-aware text after the clock stops.
 *
 * Usage: node --import tsx bench/quality/worker.ts <system> <data dir> <ids file> <out file>
 * Writes one JSON line per page to <out file>, and a summary line on stdout.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Readability as ReadabilityClass } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { ConvertPool } from "../../src/convert/pool.js";

export type SystemName = "webfetch" | "readability" | "defuddle";

/** What a system produced for one page. */
export interface Prediction {
  id: string;
  text: string;
  markdown?: string;
  title?: string;
  author?: string;
  date?: string;
  /** Milliseconds of extraction (Markdown mode for webfetch). */
  ms: number;
  /**
   * CPU milliseconds (user + system) the whole process spent on the same extraction that `ms`
   * times, every thread counted: for webfetch the conversion thread, the hand-off to it and
   * back, and V8's helper threads; for the peers the linkedom parse and the extractor.
   */
  cpuMs?: number;
  /** webfetch only: milliseconds of the text-mode conversion. */
  msText?: number;
  error?: string;
}

export interface WorkerSummary {
  system: SystemName;
  pages: number;
  seconds: number;
  maxRssMiB: number;
}

// Block elements start a new line in the text of the peers' HTML output.
const BLOCK = new Set(
  "address article aside blockquote dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody thead tfoot tr ul".split(
    " ",
  ),
);

interface Node {
  nodeType: number;
  localName?: string;
  data?: string;
  firstChild: Node | null;
  nextSibling: Node | null;
}

/** Block-aware text of an HTML fragment (the peers return HTML). */
function htmlToText(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const parts: string[] = [];
  // Iterative walk: each element is pushed twice, to open and to close it.
  const work: { node: Node; close: boolean }[] = [
    { node: document.body as unknown as Node, close: false },
  ];
  while (work.length > 0) {
    const { node, close } = work.pop()!;
    if (node.nodeType === 3) {
      parts.push(node.data!.replace(/\s+/g, " "));
      continue;
    }
    if (node.nodeType !== 1) continue;
    const name = node.localName!;
    if (name === "script" || name === "style") continue;
    if (name === "br") {
      parts.push("\n");
      continue;
    }
    const block = BLOCK.has(name) || name === "td" || name === "th";
    if (close) {
      if (block) parts.push(name === "td" || name === "th" ? " " : "\n\n");
      continue;
    }
    if (block) parts.push(name === "td" || name === "th" ? " " : "\n\n");
    work.push({ node, close: true });
    const children: Node[] = [];
    for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
    for (let i = children.length - 1; i >= 0; i--) work.push({ node: children[i]!, close: false });
  }
  return parts
    .join("")
    .split("\n")
    .map((l) => l.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** CPU milliseconds, user and system, the process spent since `start`. */
function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

async function run(system: SystemName, page: Buffer, url: string): Promise<Omit<Prediction, "id">> {
  if (system === "webfetch") {
    // As the product converts: on a pool thread with a bounded heap, the body as the bytes
    // served (never decoded to a string here, which would count against the RSS measured).
    const signal = new AbortController().signal;
    const convert = (format: "markdown" | "text") =>
      pool!.convert(page, "text/html; charset=utf-8", { url, format, extract: "main" }, signal);
    // `process.cpuUsage()` is the process's (getrusage RUSAGE_SELF), so it counts the pool
    // thread's work, not only this thread's waiting: what one Markdown fetch costs, hand-off
    // included. Nothing else runs meanwhile.
    const cpu = process.cpuUsage();
    let t = performance.now();
    const md = await convert("markdown");
    const ms = performance.now() - t;
    const cpuMs = cpuMsSince(cpu);
    t = performance.now();
    const text = await convert("text");
    const msText = performance.now() - t;
    return {
      text: text.content,
      markdown: md.content,
      ms,
      cpuMs,
      msText,
      ...(md.title === undefined ? {} : { title: md.title }),
      ...(md.author === undefined ? {} : { author: md.author }),
      ...(md.publishedAt === undefined ? {} : { date: md.publishedAt }),
    };
  }
  const html = page.toString("utf8");
  // Timed: linkedom's parse of the decoded page and the extractor, in this process; turning
  // its HTML output into text afterwards is not.
  const cpu = process.cpuUsage();
  const t = performance.now();
  const { document } = parseHTML(html);
  // The peers take linkedom's document in place of a browser DOM Document.
  const doc = document as unknown as ConstructorParameters<typeof ReadabilityClass>[0];
  let content = "";
  let meta: {
    title?: string | null | undefined;
    author?: string | null | undefined;
    date?: string | null | undefined;
  } = {};
  if (system === "readability") {
    const article = new Readability(doc).parse();
    content = article?.content ?? "";
    meta = { title: article?.title, author: article?.byline, date: article?.publishedTime };
  } else {
    const result = new DefuddleClass(doc as never, { url }).parse();
    content = result.content ?? "";
    meta = { title: result.title, author: result.author, date: result.published };
  }
  const ms = performance.now() - t;
  const cpuMs = cpuMsSince(cpu);
  return {
    text: htmlToText(content),
    ms,
    cpuMs,
    ...(meta.title ? { title: meta.title } : {}),
    ...(meta.author ? { author: meta.author } : {}),
    ...(meta.date ? { date: meta.date } : {}),
  };
}

const [system, dataDir, idsFile, outFile] = process.argv.slice(2) as [
  SystemName,
  string,
  string,
  string,
];
// The peers load only when they run: nothing of theirs shares the process with webfetch.
const { Readability } =
  system === "readability" ? await import("@mozilla/readability") : ({} as never);
const { DefuddleClass } = system === "defuddle" ? await import("defuddle/node") : ({} as never);
const ids = readFileSync(idsFile, "utf8").split("\n").filter(Boolean);
const pool = system === "webfetch" ? new ConvertPool({ threads: 1 }) : undefined;
/**
 * This process's own peak resident set, KiB: the kernel's high-water mark of its memory
 * (VmHWM), every thread included. `resourceUsage().maxRSS` is not that: Linux carries the
 * parent's peak across fork and exec into the child's, so a worker started by a large parent
 * would report the parent's size. Elsewhere it is the best there is.
 */
function peakRssKiB(): number {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const hwm = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

writeFileSync(outFile, "");
// One small page first, untimed: loading the system's code and starting webfetch's conversion
// thread are start-up, not a page's cost (the peers' modules are loaded above, also untimed).
await run(
  system,
  Buffer.from("<!doctype html><title>Warm-up</title><p>A page converted before timing.</p>"),
  "https://example.com/warm-up",
).catch(() => undefined);
const started = performance.now();
for (const id of ids) {
  const page = gunzipSync(readFileSync(join(dataDir, "html", `${id}.html.gz`)));
  const { url } = JSON.parse(readFileSync(join(dataDir, "ground-truth", `${id}.json`), "utf8"));
  let prediction: Prediction;
  try {
    prediction = { id, ...(await run(system, page, url)) };
  } catch (error) {
    prediction = { id, text: "", ms: 0, error: String((error as Error)?.message ?? error) };
  }
  // Written as it goes: holding every prediction would count against the RSS measured.
  appendFileSync(outFile, `${JSON.stringify(prediction)}\n`);
}
await pool?.close();
const summary: WorkerSummary = {
  system,
  pages: ids.length,
  seconds: (performance.now() - started) / 1000,
  maxRssMiB: peakRssKiB() / 1024,
};
console.log(JSON.stringify(summary));
