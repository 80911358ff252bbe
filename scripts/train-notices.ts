/**
 * Trains the learned notice scorer (src/extract/notice-model.ts) and writes it to
 * src/extract/notice-model.json.
 *
 * Data: the forum threads and product pages (the types the model reads) of the tuning part of
 * each dev benchmark given, never its held-out fifth. Each page goes through the extractor with
 * no notice model (the phrase rules and the block scorer still run: the model learns what they
 * leave); every short line left in its content (a whole block of at most MAX_NOTICE_CHARS
 * characters holding inline text only, as the pruning walk meets them; a wrapper of the same
 * text counts once) is labelled from the page's truth (dev-data.ts) and described by
 * noticeFeatures().
 *
 * Model: logistic regression over the features that the lines of at least MIN_SITES sites
 * carry (so that it learns what many sites share, not one site's strings), fitted by full-batch
 * AdaGrad with an L2 penalty, each line weighing as many words as it has (at most MAX_WEIGHT).
 * A line is removed when its probability of furniture reaches the threshold and its words
 * (word pairs, phrase, shape) are for it. The threshold is chosen by cross-validation over the
 * four tuning fifths: each fifth is scored by a model fitted on the other three, and the
 * probability chosen is the one from which removing lines gains the most furniture words less
 * LOST_WORD_COST for each content word lost, over all four (a line inside one removed counts no
 * more). The model is then fitted on all tuning pages.
 *
 * Run: node --import tsx scripts/train-notices.ts ../shared/bench/wcxb-dev ../shared/bench/articles-dev
 *   --out FILE   where to write the model (default: src/extract/notice-model.json)
 *   --without-fifth N  leaves tuning fifth N (1–4) out of the data, so that the model can be
 *                measured on pages it was not fitted on; scripts/cross-fit.ts runs it for each
 *   ROWS_CACHE=FILE keeps the short blocks between runs that change only the training.
 *   MIN_SITES, L2, ROUNDS, LOST_WORD_COST (environment) change the defaults below.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { DomElement } from "../src/extract/dom.js";
import {
  isWordFeature,
  MAX_NOTICE_CHARS,
  NOTICE_MODEL_FILE,
  NOTICE_MODEL_TYPES,
  type NoticeModel,
  noticeFeatures,
} from "../src/extract/notice-model.js";
import { isLine, isWholeBlock, removeShortBlocks } from "../src/extract/prune.js";
import { mainContent, tuningPages, words } from "./dev-data.js";

/** A feature enters the model when the blocks of this many sites carry it. */
const MIN_SITES = Number(process.env.MIN_SITES ?? 3);
/** L2 penalty on the weights, in words of data. */
const L2 = Number(process.env.L2 ?? 3);
/** Full-batch AdaGrad steps. */
const ROUNDS = Number(process.env.ROUNDS ?? 300);
const LEARNING_RATE = 0.5;
/**
 * How many furniture words removing one content word must buy. One of each moves F1 about as
 * much either way; a lost line of the page costs the reader more than a kept badge.
 */
const LOST_WORD_COST = Number(process.env.LOST_WORD_COST ?? 1.5);
/** Most words one block weighs: a long line counts, but not as ten short ones. */
const MAX_WEIGHT = 12;
/** Thresholds tried, as furniture probabilities. */
const THRESHOLDS = Array.from({ length: 99 }, (_, i) => (99 - i) / 100);

interface Row {
  /** The page's site, by which the model counts how widely a feature is seen. */
  site: string;
  /** The tuning fifth (1–4) of the page. */
  fifth: number;
  features: string[];
  /** 1 furniture, 0 content, -1 unlabelled. */
  label: 1 | 0 | -1;
  words: number;
  /** Index of the nearest row around this one, or -1. */
  parent: number;
  text: string;
}

/** The host of `url` without a leading `www.`, or undefined. */
function siteOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return undefined;
  }
}

// ---- data ----
const argv = process.argv.slice(2);
const outAt = argv.indexOf("--out");
const outFile =
  outAt >= 0
    ? resolve(argv.splice(outAt, 2)[1] ?? "")
    : fileURLToPath(new URL(NOTICE_MODEL_FILE, new URL("../src/extract/", import.meta.url)));
const withoutAt = argv.indexOf("--without-fifth");
const withoutFifth = withoutAt >= 0 ? Number(argv.splice(withoutAt, 2)[1]) : undefined;
if (withoutFifth !== undefined && ![1, 2, 3, 4].includes(withoutFifth)) {
  process.stderr.write("--without-fifth must be 1, 2, 3 or 4\n");
  process.exit(2);
}
const dirs = argv.map((d) => resolve(d));
if (dirs.length === 0) {
  process.stderr.write(
    "usage: train-notices.ts <bench dir>… [--without-fifth N] [--out model.json]\n",
  );
  process.exit(2);
}
const rowsCache = process.env.ROWS_CACHE;
const cached: { pages: number; rows: Row[] } | undefined =
  rowsCache && existsSync(rowsCache) ? JSON.parse(readFileSync(rowsCache, "utf8")) : undefined;
let rows: Row[] = cached?.rows ?? [];
let pages = cached?.pages ?? 0;
for (const page of cached ? [] : tuningPages(dirs)) {
  const content = mainContent(page, { notices: null });
  if (!content) continue;
  const { root, pageType } = content;
  if (!NOTICE_MODEL_TYPES.has(pageType)) continue;
  pages++;
  const rowOf = new Map<DomElement, number>();
  removeShortBlocks(root, MAX_NOTICE_CHARS, (el, text) => {
    if (!isWholeBlock(el, text) || !isLine(el, text)) return false;
    let parent = -1;
    for (let up = el.parentNode; up !== null && up !== root && parent < 0; up = up.parentNode) {
      parent = rowOf.get(up as DomElement) ?? -1;
    }
    // A wrapper of the same text is the same line.
    if (parent >= 0 && rows[parent]!.text === text) {
      rowOf.set(el, parent);
      return false;
    }
    rowOf.set(el, rows.length);
    const w = words(text);
    const content = page.label(w);
    rows.push({
      site: siteOf(page.url) ?? page.name,
      fifth: page.fifth,
      features: [...noticeFeatures(el, text, pageType)],
      // The model is of furniture: the labeller's 1 is content.
      label: content === undefined ? -1 : content === 1 ? 0 : 1,
      words: w.length,
      parent,
      text,
    });
    return false;
  });
}
if (rowsCache && !cached) writeFileSync(rowsCache, JSON.stringify({ pages, rows }));
if (withoutFifth !== undefined) {
  // Parents are row numbers: number the rows kept afresh.
  const renumbered = new Map<number, number>();
  rows = rows.flatMap((r, i) => {
    if (r.fifth === withoutFifth) return [];
    renumbered.set(i, renumbered.size);
    return [{ ...r, parent: renumbered.get(r.parent) ?? -1 }];
  });
}
const labelled = rows.filter((r) => r.label >= 0);
const furniture = labelled.filter((r) => r.label === 1).length;
process.stderr.write(
  `${pages} forum and product pages, ${rows.length} short blocks, ${labelled.length} labelled (${furniture} furniture, ${labelled.length - furniture} content)\n`,
);

// ---- logistic regression ----
interface Fit {
  bias: number;
  weights: Map<string, number>;
}

/** Fits the model on `data` (labelled rows). */
function fitModel(data: Row[]): Fit {
  const sitesOf = new Map<string, Set<string>>();
  for (const row of data) {
    for (const f of row.features) {
      const sites = sitesOf.get(f) ?? new Set<string>();
      sitesOf.set(f, sites);
      sites.add(row.site);
    }
  }
  const vocabulary = [...sitesOf]
    .filter(([, sites]) => sites.size >= MIN_SITES)
    .map(([f]) => f)
    .sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const x = data.map(
    (r) =>
      new Int32Array(
        r.features.map((f) => index.get(f)).filter((i): i is number => i !== undefined),
      ),
  );
  const y = data.map((r) => r.label);
  const w = data.map((r) => Math.min(MAX_WEIGHT, Math.max(1, r.words)));
  const totalW = w.reduce((a, b) => a + b, 0);
  const mean = data.reduce((s, r, i) => s + r.label * w[i]!, 0) / totalW;
  let bias = Math.log(mean / (1 - mean));
  const theta = new Float64Array(vocabulary.length);
  const grad = new Float64Array(vocabulary.length);
  const squares = new Float64Array(vocabulary.length);
  let biasSquares = 0;
  for (let round = 0; round < ROUNDS; round++) {
    grad.fill(0);
    let biasGrad = 0;
    for (let i = 0; i < data.length; i++) {
      let z = bias;
      for (const j of x[i]!) z += theta[j]!;
      const g = (1 / (1 + Math.exp(-z)) - y[i]!) * w[i]!;
      biasGrad += g;
      for (const j of x[i]!) grad[j] = grad[j]! + g;
    }
    for (let j = 0; j < theta.length; j++) {
      const g = grad[j]! + L2 * theta[j]!;
      squares[j] = squares[j]! + g * g;
      if (squares[j]! > 0) theta[j] = theta[j]! - (LEARNING_RATE * g) / Math.sqrt(squares[j]!);
    }
    biasSquares += biasGrad * biasGrad;
    if (biasSquares > 0) bias -= (LEARNING_RATE * biasGrad) / Math.sqrt(biasSquares);
  }
  const weights = new Map<string, number>();
  for (let j = 0; j < theta.length; j++) weights.set(vocabulary[j]!, theta[j]!);
  return { bias, weights };
}

/** Probability of furniture of a row under `model`, or 0 when its words are not for it. */
function probability(model: Fit, row: Row): number {
  let z = model.bias;
  let words = 0;
  for (const f of row.features) {
    const w = model.weights.get(f) ?? 0;
    z += w;
    if (isWordFeature(f)) words += w;
  }
  return words > 0 ? 1 / (1 + Math.exp(-z)) : 0;
}

// ---- choose the threshold by cross-validation over the tuning fifths ----
const lost = new Float64Array(THRESHOLDS.length);
const gained = new Float64Array(THRESHOLDS.length);
const removedBlocks = new Float64Array(THRESHOLDS.length);
for (const fifth of [1, 2, 3, 4].filter((f) => f !== withoutFifth)) {
  const trial = fitModel(labelled.filter((r) => r.fifth !== fifth));
  const scored = rows
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.fifth === fifth)
    .map(({ r, i }) => ({ r, i, p: probability(trial, r) }));
  THRESHOLDS.forEach((t, k) => {
    const removed = new Set<number>();
    // Rows come in document order, a block before the blocks inside it.
    for (const { r, i, p } of scored) {
      if (r.parent >= 0 && removed.has(r.parent)) removed.add(i);
      else if (p >= t) {
        removed.add(i);
        if (r.label === 0) lost[k] = lost[k]! + r.words;
        else if (r.label === 1) gained[k] = gained[k]! + r.words;
      }
    }
    removedBlocks[k] = removedBlocks[k]! + removed.size;
  });
}
const contentWords = labelled.reduce((s, r) => s + (r.label === 0 ? r.words : 0), 0);
const furnitureWords = labelled.reduce((s, r) => s + (r.label === 1 ? r.words : 0), 0);
let threshold = 1;
let bestNet = 0;
process.stderr.write("threshold  content lost  furniture removed  blocks removed  net words\n");
THRESHOLDS.forEach((t, k) => {
  const net = gained[k]! - LOST_WORD_COST * lost[k]!;
  process.stderr.write(
    `${t.toFixed(2)}       ${((lost[k]! / contentWords) * 100).toFixed(2)}%         ${((gained[k]! / furnitureWords) * 100).toFixed(1)}%             ${removedBlocks[k]}  ${net}\n`,
  );
  if (net > bestNet) {
    bestNet = net;
    threshold = t;
  }
});
process.stderr.write(`chosen threshold ${threshold}\n`);

// ---- fit on every tuning page and write ----
const final = fitModel(labelled);
const weights: Record<string, number> = {};
for (const [f, v] of [...final.weights].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  // Three significant digits are plenty, and weights this small change no decision.
  if (Math.abs(v) >= 0.01) weights[f] = Number(v.toPrecision(3));
}
const model: NoticeModel = {
  maxChars: MAX_NOTICE_CHARS,
  bias: Number(final.bias.toPrecision(4)),
  threshold,
  weights,
};
writeFileSync(outFile, `${JSON.stringify(model)}\n`);
process.stderr.write(`wrote ${outFile}: ${Object.keys(weights).length} weights\n`);
