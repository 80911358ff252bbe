/**
 * Extraction quality benchmark (issue 3) on WCXB pages: webfetch against @mozilla/readability
 * and defuddle (both on linkedom), each in its own process, scored with the WCXB metric overall,
 * per page type and on the held-out fifth; snippet rates; title/author/date accuracy; speed
 * and peak RSS; Markdown structure against `main_content_markdown`.
 *
 * Run: npm run bench:quality -- ../shared/bench/wcxb-dev
 *   --systems webfetch,readability,defuddle   which extractors (default all three)
 *   --split all|tune|heldout                  which pages (default all; held-out shown apart)
 *   --limit N                                 the first N pages of the split
 *   --reuse                                   take the peers' last outputs instead of rerunning
 *   --worst N                                 list webfetch's N lowest-F1 pages (tune split)
 *
 * The held-out fifth is every page whose file id is a multiple of 5: fixed, spread over the
 * whole split, and never looked at while tuning (`--worst` lists tune pages only).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  authorMatches,
  dateMatches,
  type Prf,
  type Structure,
  scorePage,
  snippetRate,
  stripMarkdown,
  structureOf,
  titleMatches,
} from "./quality/metric.js";
import { isHeldOut } from "./quality/split.js";
import type { Prediction, SystemName, WorkerSummary } from "./quality/worker.js";
import { bootstrapDifference, mean, percentile } from "./stats.js";

interface Truth {
  id: string;
  url: string;
  type: string;
  title: string;
  author: string;
  date: string;
  /** The reference text; undefined where the data set has none (scored by snippets only). */
  text: string | undefined;
  markdown: string;
  with: string[];
  without: string[];
}

const TYPES = [
  "article",
  "forum",
  "product",
  "collection",
  "listing",
  "documentation",
  "service",
  // articles-dev's pages that are not articles.
  "other",
] as const;

// ---- arguments ----
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const reuse = args.includes("--reuse");
if (reuse) args.splice(args.indexOf("--reuse"), 1);
const systems = (flag("systems") ?? "webfetch,readability,defuddle").split(",") as SystemName[];
const split = flag("split") ?? "all";
const limit = Number(flag("limit") ?? Number.POSITIVE_INFINITY);
const worst = Number(flag("worst") ?? 0);
const dataDir = resolve(args[0] ?? "../shared/bench/wcxb-dev");
if (!existsSync(join(dataDir, "ground-truth"))) {
  console.error(`No WCXB data in ${dataDir} (expected ground-truth/ and html/)`);
  process.exit(2);
}
for (const s of systems) {
  if (!["webfetch", "readability", "defuddle"].includes(s)) {
    console.error(`Unknown system ${s}`);
    process.exit(2);
  }
}
if (!["all", "tune", "heldout"].includes(split)) {
  console.error(`--split must be all, tune or heldout`);
  process.exit(2);
}

// ---- ground truth ----
const truths: Truth[] = [];
for (const file of readdirSync(join(dataDir, "ground-truth")).sort()) {
  if (!file.endsWith(".json")) continue;
  const raw = JSON.parse(readFileSync(join(dataDir, "ground-truth", file), "utf8"));
  const id = file.replace(/\.json$/, "");
  if (split === "tune" && isHeldOut(id)) continue;
  if (split === "heldout" && !isHeldOut(id)) continue;
  let type = String(raw._internal?.page_type?.primary ?? "unknown");
  if (type === "category") type = "collection";
  const gt = raw.ground_truth ?? {};
  truths.push({
    id,
    url: raw.url,
    type,
    title: gt.title ?? "",
    author: gt.author ?? "",
    date: gt.publish_date ?? "",
    text: typeof gt.main_content === "string" ? gt.main_content : undefined,
    markdown: gt.main_content_markdown ?? "",
    with: gt.with ?? [],
    without: gt.without ?? [],
  });
  if (truths.length >= limit) break;
}

// ---- run each system in its own process ----
// Each data set keeps its own outputs, so --reuse works for both without rerunning the peers.
const outDir = resolve(".bench-results/quality", basename(dataDir));
mkdirSync(outDir, { recursive: true });
const idsFile = join(outDir, "ids.txt");
const idsText = `${truths.map((t) => t.id).join("\n")}\n`;
writeFileSync(idsFile, idsText);
const worker = fileURLToPath(new URL("./quality/worker.ts", import.meta.url));

interface Run {
  summary: WorkerSummary;
  predictions: Map<string, Prediction>;
}
const runs = new Map<SystemName, Run>();
for (const system of systems) {
  const outFile = join(outDir, `${system}.jsonl`);
  const summaryFile = join(outDir, `${system}.summary.json`);
  const idsOfLast = join(outDir, `${system}.ids.txt`);
  let summary: WorkerSummary;
  const canReuse =
    reuse &&
    system !== "webfetch" &&
    existsSync(summaryFile) &&
    existsSync(idsOfLast) &&
    readFileSync(idsOfLast, "utf8") === idsText;
  if (canReuse) {
    summary = JSON.parse(readFileSync(summaryFile, "utf8"));
  } else {
    process.stderr.write(`running ${system} on ${truths.length} pages…\n`);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", worker, system, dataDir, idsFile, outFile],
      { maxBuffer: 1 << 20, timeout: 60 * 60 * 1000 },
    );
    summary = JSON.parse(stdout.trim().split("\n").at(-1)!);
    writeFileSync(summaryFile, JSON.stringify(summary));
    writeFileSync(idsOfLast, idsText);
  }
  const predictions = new Map<string, Prediction>();
  for (const line of readFileSync(outFile, "utf8").split("\n")) {
    if (!line) continue;
    const p = JSON.parse(line) as Prediction;
    predictions.set(p.id, p);
  }
  runs.set(system, { summary, predictions });
}

// ---- scoring ----
interface Scored {
  truth: Truth;
  /** Against the reference text, where there is one. */
  text?: Prf;
  markdown?: Prf;
  with?: number;
  without?: number;
}

// `+ 0` turns a rounded -0 into 0: "-0.000" would read as a loss.
const f3 = (x: number) => (Number.isNaN(x) ? "–" : (Math.round(x * 1000) / 1000 + 0).toFixed(3));
const pc = (x: number) => (Number.isNaN(x) ? "–" : `${(x * 100).toFixed(1)}%`);

function score(run: Run): Scored[] {
  return truths.map((truth) => {
    const p = run.predictions.get(truth.id);
    const text = p?.text ?? "";
    const scored: Scored = { truth };
    if (truth.text !== undefined) {
      scored.text = scorePage(text, truth.text);
      if (p?.markdown !== undefined)
        scored.markdown = scorePage(stripMarkdown(p.markdown), truth.text);
    }
    const w = snippetRate(text, truth.with);
    const wo = snippetRate(text, truth.without);
    if (w !== undefined) scored.with = w;
    if (wo !== undefined) scored.without = wo;
    return scored;
  });
}

const scores = new Map<SystemName, Scored[]>();
for (const [system, run] of runs) scores.set(system, score(run));

const rows: string[][] = [];
const header = ["", ...systems];
const add = (label: string, f: (system: SystemName, s: Scored[], run: Run) => string) =>
  rows.push([label, ...systems.map((sys) => f(sys, scores.get(sys)!, runs.get(sys)!))]);
const subset = (s: Scored[], keep: (x: Scored) => boolean) => s.filter(keep);
/** A measure of the pages that have a reference text. */
const ofText = (s: Scored[], f: (x: Prf) => number) =>
  mean(s.flatMap((x) => (x.text ? [f(x.text)] : [])));
const f1Of = (s: Scored[]) => f3(ofText(s, (x) => x.f1));
const withText = truths.filter((t) => t.text !== undefined).length;
const snippets = (s: Scored[], key: "with" | "without") =>
  pc(mean(s.flatMap((x) => (x[key] === undefined ? [] : [x[key]]))));

add(`F1 (${withText} of ${truths.length} pages have a reference text)`, (_y, s) => f1Of(s));
add("  precision", (_y, s) => f3(ofText(s, (x) => x.p)));
add("  recall", (_y, s) => f3(ofText(s, (x) => x.r)));
add("  F1, Markdown stripped", (_y, s) =>
  s.some((x) => x.markdown) ? f3(mean(s.flatMap((x) => (x.markdown ? [x.markdown.f1] : [])))) : "–",
);
add("  `with` found (higher is better)", (_y, s) =>
  pc(mean(s.flatMap((x) => (x.with === undefined ? [] : [x.with])))),
);
add("  `without` found (lower is better)", (_y, s) =>
  pc(mean(s.flatMap((x) => (x.without === undefined ? [] : [x.without])))),
);
for (const type of TYPES) {
  const n = truths.filter((t) => t.type === type && t.text !== undefined).length;
  if (n > 0) add(`  F1 ${type} (${n})`, (_y, s) => f1Of(subset(s, (x) => x.truth.type === type)));
}
const tuneN = truths.filter((t) => !isHeldOut(t.id)).length;
const heldN = truths.length - tuneN;
if (tuneN > 0 && heldN > 0) {
  add(`F1 tuning part (${tuneN})`, (_y, s) => f1Of(subset(s, (x) => !isHeldOut(x.truth.id))));
  add("  tuning part `with` / `without`", (_y, s) => {
    const tune = subset(s, (x) => !isHeldOut(x.truth.id));
    return `${snippets(tune, "with")} / ${snippets(tune, "without")}`;
  });
  add(`F1 held-out fifth (${heldN})`, (_y, s) => f1Of(subset(s, (x) => isHeldOut(x.truth.id))));
  add("  held-out `with`", (_y, s) =>
    snippets(
      subset(s, (x) => isHeldOut(x.truth.id)),
      "with",
    ),
  );
  add("  held-out `without`", (_y, s) =>
    pc(
      mean(
        subset(s, (x) => isHeldOut(x.truth.id)).flatMap((x) =>
          x.without === undefined ? [] : [x.without],
        ),
      ),
    ),
  );
  // How far the gap could move by the draw of pages alone: a fifth of a few hundred pages
  // differs from the rest by a few hundredths with no tuning at all.
  const f1s = (s: Scored[], held: boolean) =>
    s.flatMap((x) => (x.text && isHeldOut(x.truth.id) === held ? [x.text.f1] : []));
  add("F1 gap, tuning − held-out (95% bootstrap interval)", (_y, s) => {
    const { difference, low, high } = bootstrapDifference(f1s(s, false), f1s(s, true));
    return Number.isNaN(low) ? "–" : `${f3(difference)} (${f3(low)} to ${f3(high)})`;
  });
  for (const type of TYPES) {
    const tune = truths.filter((t) => t.type === type && t.text && !isHeldOut(t.id)).length;
    const held = truths.filter((t) => t.type === type && t.text && isHeldOut(t.id)).length;
    if (tune === 0 || held === 0) continue;
    add(`  F1 ${type}, tuning / held-out (${tune} / ${held})`, (_y, s) => {
      const ofType = subset(s, (x) => x.truth.type === type);
      return `${f1Of(subset(ofType, (x) => !isHeldOut(x.truth.id)))} / ${f1Of(subset(ofType, (x) => isHeldOut(x.truth.id)))}`;
    });
  }
}
const metaRate = (
  run: Run,
  field: "title" | "author" | "date",
  match: (p: string | undefined, r: string) => boolean,
) => {
  const withField = truths.filter((t) => t[field].trim() !== "");
  const right = withField.filter((t) => match(run.predictions.get(t.id)?.[field], t[field]));
  return `${pc(right.length / withField.length)} of ${withField.length}`;
};
add("title right", (_y, _s, run) => metaRate(run, "title", titleMatches));
add("author right", (_y, _s, run) => metaRate(run, "author", authorMatches));
add("date right", (_y, _s, run) => metaRate(run, "date", dateMatches));
const msOf = (run: Run) => [...run.predictions.values()].map((p) => p.ms);
add("pages/s (extraction only, one process)", (_y, _s, run) =>
  (run.predictions.size / (msOf(run).reduce((a, b) => a + b, 0) / 1000)).toFixed(1),
);
add("  ms/page p50 / p95 / max", (_y, _s, run) => {
  const ms = msOf(run);
  return `${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 95).toFixed(1)} / ${Math.max(...ms).toFixed(0)}`;
});
add("  text mode pages/s", (_y, _s, run) => {
  const ms = [...run.predictions.values()].flatMap((p) =>
    p.msText === undefined ? [] : [p.msText],
  );
  return ms.length ? (ms.length / (ms.reduce((a, b) => a + b, 0) / 1000)).toFixed(1) : "–";
});
// CPU time is the fairer speed on a shared machine: waiting for a core does not count.
const cpuOf = (run: Run) =>
  [...run.predictions.values()].flatMap((p) => (p.cpuMs === undefined ? [] : [p.cpuMs]));
const perCpuSecond = (run: Run) => {
  const cpu = cpuOf(run);
  return cpu.length / (cpu.reduce((a, b) => a + b, 0) / 1000);
};
add("pages per CPU-second (extraction only, all threads)", (_y, _s, run) =>
  cpuOf(run).length ? perCpuSecond(run).toFixed(1) : "–",
);
add("  CPU ms/page p50 / p95", (_y, _s, run) => {
  const cpu = cpuOf(run);
  return cpu.length ? `${percentile(cpu, 50).toFixed(1)} / ${percentile(cpu, 95).toFixed(1)}` : "–";
});
const ours = runs.get("webfetch");
const theirs = runs.get("readability");
if (ours && theirs && cpuOf(ours).length && cpuOf(theirs).length) {
  add("webfetch ÷ readability, pages per CPU-s", (system) =>
    system === "webfetch" ? `${(perCpuSecond(ours) / perCpuSecond(theirs)).toFixed(2)}×` : "",
  );
}
add("peak RSS of the process", (_y, _s, run) => `${run.summary.maxRssMiB.toFixed(0)} MiB`);
add("errors", (_y, _s, run) => String([...run.predictions.values()].filter((p) => p.error).length));

const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));

// ---- Markdown structure against the ground truth's Markdown ----
if (ours) {
  const sum = (xs: Structure[]): Structure =>
    xs.reduce(
      (a, b) => ({
        headings: a.headings + b.headings,
        items: a.items + b.items,
        tables: a.tables + b.tables,
        code: a.code + b.code,
      }),
      { headings: 0, items: 0, tables: 0, code: 0 },
    );
  const withMd = truths.filter((t) => t.markdown.trim() !== "");
  if (withMd.length === 0) process.exit(0);
  const gt = sum(withMd.map((t) => structureOf(t.markdown)));
  const us = sum(withMd.map((t) => structureOf(ours.predictions.get(t.id)?.markdown ?? "")));
  console.log(
    `\nMarkdown structure on ${withMd.length} pages with main_content_markdown (ours / ground truth):`,
  );
  for (const k of ["headings", "items", "tables", "code"] as const) {
    console.log(`  ${k.padEnd(8)} ${us[k]} / ${gt[k]} (${pc(us[k] / gt[k])})`);
  }
}

if (worst > 0 && scores.has("webfetch")) {
  console.log(`\nLowest F1, webfetch, tuning part only:`);
  const list = scores
    .get("webfetch")!
    .filter((x) => !isHeldOut(x.truth.id))
    // Pages with a reference text by F1; snippet-only pages by their snippets' score.
    .map((x) => ({ x, rank: x.text ? x.text.f1 : (x.with ?? 1) - (x.without ?? 0) }))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, worst);
  for (const { x } of list) {
    const measure = x.text
      ? `F1 ${f3(x.text.f1)} P ${f3(x.text.p)} R ${f3(x.text.r)}`
      : `with ${pc(x.with ?? Number.NaN)} without ${pc(x.without ?? Number.NaN)}`;
    console.log(`  ${x.truth.id} ${x.truth.type.padEnd(13)} ${measure}  ${x.truth.url}`);
  }
}
