/**
 * Compares two runs of webfetch on a data set, page by page: F1 (where there is a reference
 * text) and with/without snippet rates, per page type, for the tuning part and the held-out
 * fifth apart, and the pages that moved most (tuning pages only: the held-out fifth is only
 * ever counted, never read).
 *
 * Run: node --import tsx bench/quality/compare.ts <data dir> <before.jsonl> <after.jsonl> [--moved N]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scorePage, snippetRate } from "./metric.js";
import { isHeldOut } from "./split.js";
import type { Prediction } from "./worker.js";

const args = process.argv.slice(2);
const movedAt = args.indexOf("--moved");
const moved = movedAt >= 0 ? Number(args.splice(movedAt, 2)[1]) : 10;
const [dataArg, beforeFile, afterFile] = args;
if (!dataArg || !beforeFile || !afterFile) {
  process.stderr.write("usage: compare.ts <data dir> <before.jsonl> <after.jsonl> [--moved N]\n");
  process.exit(2);
}
const dataDir = resolve(dataArg);

const read = (file: string) => {
  const out = new Map<string, Prediction>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    const p = JSON.parse(line) as Prediction;
    out.set(p.id, p);
  }
  return out;
};
const before = read(beforeFile);
const after = read(afterFile);

interface Sum {
  pages: number;
  f1Pages: number;
  f1: [number, number];
  withs: [number, number];
  withPages: number;
  withouts: [number, number];
  withoutPages: number;
}
const empty = (): Sum => ({
  pages: 0,
  f1Pages: 0,
  f1: [0, 0],
  withs: [0, 0],
  withPages: 0,
  withouts: [0, 0],
  withoutPages: 0,
});
const sums = new Map<string, Sum>();
const changes: { id: string; type: string; delta: number }[] = [];
const add = (key: string, f: (s: Sum) => void) => {
  const s = sums.get(key) ?? empty();
  sums.set(key, s);
  f(s);
};

for (const [id, a] of after) {
  const b = before.get(id);
  if (!b) continue;
  const truth = JSON.parse(readFileSync(join(dataDir, "ground-truth", `${id}.json`), "utf8"));
  const gt = truth.ground_truth ?? {};
  const type: string = truth._internal?.page_type?.primary ?? "unknown";
  const part = isHeldOut(id) ? "held-out" : "tuning";
  const reference: string | null = gt.main_content ?? null;
  const f1 = reference === null ? undefined : [b, a].map((p) => scorePage(p.text, reference).f1);
  const w = [b, a].map((p) => snippetRate(p.text, gt.with ?? []));
  const wo = [b, a].map((p) => snippetRate(p.text, gt.without ?? []));
  for (const key of [`${part} all`, `${part} ${type}`]) {
    add(key, (s) => {
      s.pages++;
      if (f1) {
        s.f1Pages++;
        s.f1[0] += f1[0]!;
        s.f1[1] += f1[1]!;
      }
      if (w[0] !== undefined && w[1] !== undefined) {
        s.withPages++;
        s.withs[0] += w[0];
        s.withs[1] += w[1];
      }
      if (wo[0] !== undefined && wo[1] !== undefined) {
        s.withoutPages++;
        s.withouts[0] += wo[0];
        s.withouts[1] += wo[1];
      }
    });
  }
  if (part !== "held-out" && f1 && f1[0] !== f1[1]) {
    changes.push({ id, type, delta: f1[1]! - f1[0]! });
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const line = (key: string, s: Sum) => {
  const f1 =
    s.f1Pages > 0
      ? `F1 ${(s.f1[0] / s.f1Pages).toFixed(3)} → ${(s.f1[1] / s.f1Pages).toFixed(3)}`
      : "";
  const w =
    s.withPages > 0
      ? `with ${pct(s.withs[0] / s.withPages)} → ${pct(s.withs[1] / s.withPages)}`
      : "";
  const wo =
    s.withoutPages > 0
      ? `without ${pct(s.withouts[0] / s.withoutPages)} → ${pct(s.withouts[1] / s.withoutPages)}`
      : "";
  return `${key.padEnd(26)} ${String(s.pages).padStart(5)}  ${f1.padEnd(20)}  ${w.padEnd(22)}  ${wo}`;
};
for (const key of [...sums.keys()].sort()) process.stdout.write(`${line(key, sums.get(key)!)}\n`);
changes.sort((x, y) => x.delta - y.delta);
if (moved === 0) process.exit(0);
process.stdout.write("\nmost lost (tuning):\n");
for (const c of changes.slice(0, moved)) {
  process.stdout.write(`  ${c.id} ${c.type} ${c.delta.toFixed(3)}\n`);
}
process.stdout.write("most gained (tuning):\n");
for (const c of changes.slice(-moved).reverse()) {
  process.stdout.write(`  ${c.id} ${c.type} +${c.delta.toFixed(3)}\n`);
}
