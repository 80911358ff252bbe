/**
 * A small dev data set on disk, laid out as the benchmarks are (`html/<id>.html.gz`,
 * `ground-truth/<id>.json`), for the training scripts' tests. Its held-out pages (ids that are
 * multiples of 5) are broken on purpose: a script that read one would throw.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** One tuning page of the set: its HTML, address and reference text. */
export interface DevSetPage {
  html: string;
  url: string;
  reference: string;
}

/** Writes pages 1…`count` into `dir` (made if missing), `page(n)` giving each tuning page. */
export function writeDevSet(dir: string, count: number, page: (n: number) => DevSetPage): void {
  mkdirSync(join(dir, "html"), { recursive: true });
  mkdirSync(join(dir, "ground-truth"), { recursive: true });
  for (let n = 1; n <= count; n++) {
    const id = String(n).padStart(4, "0");
    const heldOut = n % 5 === 0;
    const tuning = heldOut ? undefined : page(n);
    writeFileSync(
      join(dir, "html", `${id}.html.gz`),
      gzipSync(tuning?.html ?? "<html><body><p>held out</p></body></html>"),
    );
    const truth = tuning && { url: tuning.url, ground_truth: { main_content: tuning.reference } };
    writeFileSync(
      join(dir, "ground-truth", `${id}.json`),
      truth ? JSON.stringify(truth) : "not json: never read",
    );
  }
}
