/**
 * What the learned block scorer costs per page: the time of its stage (finding the blocks,
 * their features, the trees, the removals) against the time of the whole extraction up to it,
 * on every page of a data set, one process, after a warm-up pass.
 *
 * Run: node --import tsx bench/quality/block-cost.ts ../shared/bench/articles-dev
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { contentRoot, parsePage } from "../../src/convert/html.js";
import { removeFurnitureBlocks } from "../../src/extract/block-model.js";
import { percentile } from "../stats.js";

const dataDir = resolve(process.argv[2] ?? "../shared/bench/articles-dev");
const pages = readdirSync(join(dataDir, "html"))
  .filter((f) => f.endsWith(".html.gz"))
  .sort()
  .map((f) => {
    const id = f.slice(0, -".html.gz".length);
    const truth = JSON.parse(readFileSync(join(dataDir, "ground-truth", `${id}.json`), "utf8"));
    return {
      url: truth.url as string,
      html: gunzipSync(readFileSync(join(dataDir, "html", f))).toString("utf8"),
    };
  });

function measure(): { before: number[]; stage: number[] } {
  const before: number[] = [];
  const stage: number[] = [];
  for (const { url, html } of pages) {
    const t0 = performance.now();
    const page = parsePage(html, url);
    if (!page.body) continue;
    const { root, pageType } = contentRoot(page.document, page.body, {
      ...page,
      extract: "main",
      scoreBlocks: false,
    });
    const t1 = performance.now();
    removeFurnitureBlocks(root, pageType);
    const t2 = performance.now();
    before.push(t1 - t0);
    stage.push(t2 - t1);
  }
  return { before, stage };
}

measure(); // warm-up: compile, load the model
const { before, stage } = measure();
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const ms = (x: number) => x.toFixed(2);
process.stdout.write(
  `${[
    `${before.length} pages of ${dataDir}`,
    `extraction up to the scorer: p50 ${ms(percentile(before, 50))} ms, p95 ${ms(percentile(before, 95))} ms`,
    `block scorer:                p50 ${ms(percentile(stage, 50))} ms, p95 ${ms(percentile(stage, 95))} ms, max ${ms(Math.max(...stage))} ms`,
    `scorer share of the total time: ${((sum(stage) / (sum(before) + sum(stage))) * 100).toFixed(1)}%`,
  ].join("\n")}\n`,
);
