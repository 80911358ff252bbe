/**
 * Labels for the learned scorers' training scripts: whether a block of a dev page is content or
 * furniture, read from the page's truth.
 * - With a reference text: content when most of its word trigrams are in the reference (a short
 *   block: when a short line of the reference holds it), furniture when few are.
 * - With snippets only: furniture when it holds a `without` snippet (or is part of one), content
 *   when it holds a `with` snippet (or is part of one); unlabelled otherwise.
 */

import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { fifthOf, isHeldOut } from "../bench/quality/split.js";
import {
  type ContentRootOptions,
  contentRoot,
  type PageContent,
  parsePage,
} from "../src/convert/html.js";

/** A tuning page of a dev data set. */
export interface DevPage {
  /** `set/id`, naming the page across sets. */
  name: string;
  /** Which fifth of the set the page is in (1–4: the held-out fifth, 0, is never read). */
  fifth: number;
  url: string | undefined;
  html: string;
  /** The page's type in the data set's truth (`article`, `forum`…), or `unknown`. */
  type: string;
  /** The page's truth: its reference text (when it has one) and its with/without snippets. */
  truth: { reference: string | undefined; with: string[]; without: string[] };
  /** Labels a block's words from this page's truth. */
  label: (w: string[]) => 0 | 1 | undefined;
}

/** The tuning pages (never the held-out fifth) of each data set directory, in id order. */
export function* tuningPages(dirs: readonly string[]): Generator<DevPage> {
  for (const dir of dirs) {
    const set = basename(dir);
    const ids = readdirSync(join(dir, "ground-truth"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -5))
      .filter((id) => !isHeldOut(id))
      .sort();
    for (const id of ids) {
      const truth = JSON.parse(readFileSync(join(dir, "ground-truth", `${id}.json`), "utf8"));
      const gt = truth.ground_truth ?? {};
      const pageTruth = {
        reference: gt.main_content ?? undefined,
        with: gt.with ?? [],
        without: gt.without ?? [],
      };
      yield {
        name: `${set}/${id}`,
        fifth: fifthOf(id),
        url: truth.url,
        html: gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`))).toString("utf8"),
        type: truth._internal?.page_type?.primary ?? "unknown",
        truth: pageTruth,
        label: labeller(pageTruth.reference, pageTruth.with, pageTruth.without),
      };
    }
  }
}

/**
 * The main content of `page` as the extractor leaves it, with `options` (which scorers run), or
 * undefined for a page without a body.
 */
export function mainContent(
  page: DevPage,
  options: Pick<ContentRootOptions, "scoreBlocks">,
): PageContent | undefined {
  const { document, body, ...parsed } = parsePage(page.html, page.url);
  if (!body) return undefined;
  return contentRoot(document, body, { ...parsed, ...options, extract: "main" });
}

/** Block trigram coverage from which a block is content, and up to which it is furniture. */
const CONTENT_COVERAGE = 0.6;
const FURNITURE_COVERAGE = 0.25;

const WORD = /[\p{L}\p{N}_]+/gu;

/** The lower-cased words of `text`. */
export const words = (text: string) => text.toLowerCase().match(WORD) ?? [];

/** Labels a block's words from a reference text, or from with/without snippets. */
export function labeller(
  reference: string | undefined,
  withSnippets: string[],
  withoutSnippets: string[],
): (w: string[]) => 0 | 1 | undefined {
  if (reference !== undefined && reference !== null) {
    const refWords = words(reference);
    const trigrams = new Set<string>();
    for (let i = 0; i + 2 < refWords.length; i++) {
      trigrams.add(`${refWords[i]} ${refWords[i + 1]} ${refWords[i + 2]}`);
    }
    const joined = ` ${refWords.join(" ")} `;
    const shortLines = reference
      .split("\n")
      .map((line) => words(line))
      .filter((w) => w.length > 0 && w.length <= 10)
      .map((w) => ` ${w.join(" ")} `);
    return (w) => {
      if (w.length === 0) return undefined;
      if (w.length < 3) {
        const phrase = ` ${w.join(" ")} `;
        // A long run of CJK is one "word": look for it in the whole text.
        if (phrase.length > 24) return joined.includes(phrase) ? 1 : 0;
        return shortLines.some((line) => line.includes(phrase) && line.length <= phrase.length * 3)
          ? 1
          : 0;
      }
      let hit = 0;
      for (let i = 0; i + 2 < w.length; i++) {
        if (trigrams.has(`${w[i]} ${w[i + 1]} ${w[i + 2]}`)) hit++;
      }
      const coverage = hit / (w.length - 2);
      if (coverage >= CONTENT_COVERAGE) return 1;
      if (coverage <= FURNITURE_COVERAGE) return 0;
      return undefined;
    };
  }
  const norm = (snippets: string[]) =>
    snippets.map((s) => ` ${words(s).join(" ")} `).filter((s) => s.trim() !== "");
  const withs = norm(withSnippets);
  const withouts = norm(withoutSnippets);
  return (w) => {
    if (w.length === 0) return undefined;
    const text = ` ${w.join(" ")} `;
    const matches = (list: string[], minWords: number) =>
      list.some((s) => text.includes(s) || (w.length >= minWords && s.includes(text)));
    const furniture = matches(withouts, 2);
    const content = matches(withs, 3);
    if (furniture === content) return undefined;
    return content ? 1 : 0;
  };
}
