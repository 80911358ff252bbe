/**
 * Measures the learned block scorer on pages it was not fitted on. For each tuning fifth (1–4)
 * of the dev data sets given, the models measured (both profiles' unless --models names one)
 * are trained without that fifth (train-blocks.ts --without-fifth N) and the fifth's pages are
 * extracted with them; they are also trained on every tuning page, as a release would be. It
 * prints, per data set and page type, F1 and the with/without rates of four runs over the same
 * tuning pages: the shipped models; no block scorer (when both models are measured); the
 * models refitted on every tuning page (in-sample); and the cross-fitted ones (out-of-sample).
 * What the refitted models gain over the cross-fitted ones is how much they fit their own
 * pages; the trainings' settings (in the environment, passed on) are chosen on the
 * cross-fitted figures. The held-out fifth is never read.
 *
 * Run: node --import tsx scripts/cross-fit.ts ../shared/bench/wcxb-dev ../shared/bench/articles-dev
 *   --models LIST  the models measured, article or other or both (default: article,other);
 *               the other is the shipped one in every run
 *   --dir DIR   where the models, the labelled blocks (kept between runs) and each run's text
 *               per page (JSON lines, for bench/quality/compare.ts) go (default: a new temp dir)
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { scorePage, snippetRate } from "../bench/quality/metric.js";
import { mean } from "../bench/stats.js";
import { contentRoot, parsePage } from "../src/convert/html.js";
import {
  type BlockModel,
  type BlockProfile,
  blockModel,
  removeFurnitureBlocks,
} from "../src/extract/block-model.js";
import { toText } from "../src/markdown/text.js";
import { type DevPage, tuningPages } from "./dev-data.js";

const PROFILES: readonly BlockProfile[] = ["article", "other"];
const FIFTHS = [1, 2, 3, 4] as const;
const RUNS = ["shipped", "none", "refit", "cross-fit"] as const;
type Run = (typeof RUNS)[number];

const argv = process.argv.slice(2);
const dirAt = argv.indexOf("--dir");
const workDir =
  dirAt >= 0
    ? resolve(argv.splice(dirAt, 2)[1] ?? "")
    : mkdtempSync(join(tmpdir(), "webfetch-cross-fit-"));
const modelsAt = argv.indexOf("--models");
const MODELS = (
  modelsAt >= 0 ? (argv.splice(modelsAt, 2)[1] ?? "").split(",") : PROFILES
) as BlockProfile[];
const dirs = argv.map((d) => resolve(d));
if (dirs.length === 0 || MODELS.some((m) => !PROFILES.includes(m))) {
  process.stderr.write("usage: cross-fit.ts <bench dir>… [--models article,other] [--dir DIR]\n");
  process.exit(2);
}
mkdirSync(workDir, { recursive: true });
process.stderr.write(`working in ${workDir}\n`);

// ---- train: every tuning page, then without each fifth ----
const run = promisify(execFile);
const modelFile = (profile: BlockProfile, fifth: number | "all") =>
  join(workDir, `${profile}-${fifth}.json`);
const trainScript = fileURLToPath(new URL("./train-blocks.ts", import.meta.url));

async function train(profile: BlockProfile, fifth: number | "all"): Promise<void> {
  const args = ["--import", "tsx", trainScript, ...dirs, "--profile", profile];
  if (fifth !== "all") args.push("--without-fifth", String(fifth));
  args.push("--out", modelFile(profile, fifth));
  const env = { ...process.env, ROWS_CACHE: join(workDir, `rows-${profile}.json`) };
  const { stderr } = await run(process.execPath, args, { env, maxBuffer: 1 << 26 });
  const chosen = /chosen threshold (\S+)/.exec(stderr)?.[1];
  process.stderr.write(`  ${profile} model without fifth ${fifth}: threshold ${chosen}\n`);
}

// The models of one fifth train side by side; the first pair also gathers their data.
for (const fifth of ["all", ...FIFTHS] as const) {
  await Promise.all(MODELS.map((profile) => train(profile, fifth)));
}

/** The block scorer's models of a run (a model per profile), or null for no block scorer. */
type Models = ((profile: BlockProfile) => BlockModel) | null;
/** The models trained without `fifth` (or on all tuning pages), the shipped one for the rest. */
const modelsOf = (fifth: number | "all"): Models => {
  const read = (p: BlockProfile) =>
    JSON.parse(readFileSync(modelFile(p, fifth), "utf8")) as BlockModel;
  const models = new Map(PROFILES.map((p) => [p, MODELS.includes(p) ? read(p) : blockModel(p)]));
  return (profile) => models.get(profile)!;
};
/** No block scorer, when both its models are measured; else the shipped models. */
const without: Models | undefined = MODELS.length === PROFILES.length ? null : undefined;
const refit = modelsOf("all");
const crossFit = new Map<number, Models>(FIFTHS.map((fifth) => [fifth, modelsOf(fifth)]));

// ---- extract every tuning page four ways and score ----
/** The page's text as the product gives it, with `models` for the block scorer (or shipped). */
function textOf(page: DevPage, models?: Models): string {
  const parsed = parsePage(page.html, page.url);
  if (!parsed.body) return "";
  const { root, pageType } = contentRoot(parsed.document, parsed.body, {
    ...parsed,
    extract: "main",
    scoreBlocks: false,
  });
  if (models !== null) removeFurnitureBlocks(root, pageType, models);
  return toText(root, parsed.baseUrl === undefined ? {} : { baseUrl: parsed.baseUrl });
}

/** Per run and group of pages (`set\tgroup\trun`): each page's F1, with and without rates. */
const scores = new Map<string, { f1: number[]; with: number[]; without: number[] }>();
const add = (key: string, page: DevPage, text: string) => {
  const s = scores.get(key) ?? { f1: [], with: [], without: [] };
  scores.set(key, s);
  const { reference } = page.truth;
  if (reference !== undefined) s.f1.push(scorePage(text, reference).f1);
  const w = snippetRate(text, page.truth.with);
  if (w !== undefined) s.with.push(w);
  const wo = snippetRate(text, page.truth.without);
  if (wo !== undefined) s.without.push(wo);
};

const outputs = new Map<string, string[]>();
let done = 0;
for (const page of tuningPages(dirs)) {
  const set = page.name.split("/")[0]!;
  const id = page.name.slice(set.length + 1);
  const texts: Record<Run, string> = {
    shipped: textOf(page),
    none: textOf(page, without),
    refit: textOf(page, refit),
    "cross-fit": textOf(page, crossFit.get(page.fifth)),
  };
  for (const r of RUNS) {
    for (const group of ["all", page.type]) add(`${set}\t${group}\t${r}`, page, texts[r]);
    const file = join(workDir, `${set}.${r}.jsonl`);
    const lines = outputs.get(file) ?? [];
    outputs.set(file, lines);
    lines.push(JSON.stringify({ id, text: texts[r], ms: 0 }));
  }
  if (++done % 200 === 0) process.stderr.write(`  ${done} pages extracted\n`);
}
for (const [file, lines] of outputs) writeFileSync(file, `${lines.join("\n")}\n`);

// ---- report ----
const f3 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(3));
const pc = (x: number) => (Number.isNaN(x) ? "–" : `${(x * 100).toFixed(1)}%`);
const groups = [...new Set([...scores.keys()].map((k) => k.split("\t").slice(0, 2).join("\t")))];
process.stdout.write(
  `| set | pages | ${RUNS.map((r) => `${r}: F1 / with / without`).join(" | ")} |\n`,
);
process.stdout.write(`|---|---|${RUNS.map(() => "---").join("|")}|\n`);
// Each set's pages together, then each of its page types.
const order = (group: string) => group.replace(/\tall$/, "\t");
for (const group of groups.sort((a, b) => (order(a) < order(b) ? -1 : 1))) {
  const [set, type] = group.split("\t");
  const first = scores.get(`${group}\t${RUNS[0]}`)!;
  const pages = Math.max(first.f1.length, first.with.length, first.without.length);
  const cells = RUNS.map((r) => {
    const s = scores.get(`${group}\t${r}`)!;
    return `${f3(mean(s.f1))} / ${pc(mean(s.with))} / ${pc(mean(s.without))}`;
  });
  process.stdout.write(`| ${basename(set!)} ${type} | ${pages} | ${cells.join(" | ")} |\n`);
}
