/**
 * The learned notice scorer: a logistic model over the words and shape of a short block (a
 * line of at most a hundred characters: "Share", "Thread starter", "3 hours ago", "In stock",
 * "Posts: 1,234") that tells the page's furniture left inside the main content from its text.
 * Its weights are data, trained on the dev benchmarks by scripts/train-notices.ts and shipped
 * as notice-model.json; a feature enters the model only when the lines of at least three sites
 * carry it, so what it learns holds across sites rather than naming one. This module only
 * describes lines and reads the weights.
 */

import { readFileSync } from "node:fs";
import { type DomElement, tagOf } from "./dom.js";
import type { PageType } from "./page-type.js";

/** A trained model. */
export interface NoticeModel {
  /** Longest block text, in characters, the model reads. */
  maxChars: number;
  /** Log-odds of furniture before any feature. */
  bias: number;
  /** A block whose probability of being furniture is at least this is removed. */
  threshold: number;
  /** Each feature's weight toward furniture; a feature the model does not know weighs nothing. */
  weights: Record<string, number>;
}

/**
 * Page types whose short blocks the model reads: forum threads and product pages, whose
 * furniture (post counters, badges, stock and shipping lines) is their own.
 */
export const NOTICE_MODEL_TYPES: ReadonlySet<PageType> = new Set(["forum", "product"]);

/** Longest line, in characters, a model reads. */
export const MAX_NOTICE_CHARS = 100;

/** Where the shipped model lives, beside this module (where the training script writes it). */
export const NOTICE_MODEL_FILE = "./notice-model.json";

let shipped: NoticeModel | undefined;
/** Each model's weights as a map, each with whether its feature is a word feature, built once. */
const weightMaps = new WeakMap<NoticeModel, Map<string, readonly [number, boolean]>>();

/**
 * The model that reads the lines of a page of `pageType`: `given` when it is set (null: none),
 * else the shipped one; none for the types it does not read, which never load it.
 */
export function noticeModelFor(
  pageType: PageType,
  given: NoticeModel | null | undefined,
): NoticeModel | null {
  if (!NOTICE_MODEL_TYPES.has(pageType)) return null;
  return given === undefined ? noticeModel() : given;
}

/** The shipped model, read once. */
export function noticeModel(): NoticeModel {
  shipped ??= JSON.parse(
    readFileSync(new URL(NOTICE_MODEL_FILE, import.meta.url), "utf8"),
  ) as NoticeModel;
  return shipped;
}

/** A run of letters or of digits: "mm4.5" is two words and a number, as a reader sees it. */
const WORD = /\p{L}+|\p{N}+/gu;
const DIGITS = /\p{N}+/gu;
const DIGIT = /\p{N}/u;
const LETTER = /\p{L}/u;
const LETTERS = /\p{L}+/gu;
const SPACES = /\s+/g;
/** Longest shape of a text kept as a feature: longer ones are sentences, not badges. */
const MAX_SHAPE_CHARS = 16;
/** Most words of a text read as one phrase. */
const MAX_PHRASE_WORDS = 5;

/**
 * The features of a short line: its word pairs (digits as `0`) with the line's start and end,
 * the whole phrase when it is short, its shape ("Posts: 1,234" reads `a: 0,0`), its number of
 * words, its last character, its tag, how much of it is linked and the page's type, and the
 * phrase once more with the type ("Quote" is furniture on a forum).
 */
export function noticeFeatures(el: DomElement, text: string, pageType: PageType): Set<string> {
  const lower = text.toLowerCase();
  const words = (lower.match(WORD) ?? []).map((w) => w.replace(DIGITS, "0"));
  const out = [`t:${pageType}`, `tag:${tagOf(el)}`, `n:${bucket(words.length)}`];
  out.push(`end:${endClass(text)}`, `link:${linkClass(el, text)}`);
  // Letters alone have no shape but their number of words: only a text with digits has one.
  if (DIGIT.test(text)) {
    const shape = lower.replace(LETTERS, "a").replace(DIGITS, "0").replace(SPACES, " ").trim();
    if (shape.length <= MAX_SHAPE_CHARS) out.push(`s:${shape}`);
  }
  for (let i = 0; i <= words.length; i++) out.push(`b:${words[i - 1] ?? "^"} ${words[i] ?? "$"}`);
  if (words.length > 0 && words.length <= MAX_PHRASE_WORDS) {
    const phrase = `p:${words.join(" ")}`;
    out.push(phrase);
    out.push(`${pageType}|${phrase}`);
  }
  // A word pair said twice is one feature, as in training.
  return new Set(out);
}

/** Upper edges of the bins of a count: 0, 1, 2, 3, 4–5, 6–8, 9–13, 14–21, 22–34, 35+. */
const BIN_EDGES = [0, 1, 2, 3, 5, 8, 13, 21, 34];

/** The bin of a count. */
function bucket(n: number): number {
  const i = BIN_EDGES.findIndex((edge) => n <= edge);
  return i < 0 ? BIN_EDGES.length : i;
}

/** How a text ends: a sentence's stop, a question, a colon, a digit, a letter or other. */
function endClass(text: string): string {
  const last = text.trimEnd().slice(-1);
  if (last === "." || last === "!" || last === "?" || last === ":") return last;
  if (DIGIT.test(last)) return "0";
  return LETTER.test(last) ? "a" : "other";
}

/** Whether none, some or all of `el`'s text is inside links. */
function linkClass(el: DomElement, text: string): "none" | "some" | "all" {
  if (tagOf(el) === "a") return "all";
  const linked = linkedChars(el);
  if (linked === 0) return "none";
  return linked >= nonSpaceChars(text) ? "all" : "some";
}

/** Characters (not counting spaces) of `el`'s text inside links. */
function linkedChars(el: DomElement): number {
  let chars = 0;
  for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
    chars += tagOf(child) === "a" ? nonSpaceChars(child.textContent ?? "") : linkedChars(child);
  }
  return chars;
}

/** Length of `text` without its white space. */
const nonSpaceChars = (text: string) => text.replace(SPACES, "").length;

/** How the model reads a line. */
export interface NoticeReading {
  /** Probability that the line is furniture. */
  p: number;
  /** What its words alone (word pairs, phrase, shape) add to the log-odds of furniture. */
  words: number;
}

/** Features of what a line says, as opposed to its tag, length or type of page. */
const WORD_FEATURE = /^[bps]:|\|p:/;

/** True for a feature of what a line says: a word pair, its phrase, its shape. */
export const isWordFeature = (feature: string) => WORD_FEATURE.test(feature);

/** How `model` reads a line of `features`. */
export function readNotice(features: Iterable<string>, model: NoticeModel): NoticeReading {
  let weights = weightMaps.get(model);
  if (weights === undefined) {
    weights = new Map(
      Object.entries(model.weights).map(([f, w]) => [f, [w, isWordFeature(f)] as const]),
    );
    weightMaps.set(model, weights);
  }
  let z = model.bias;
  let words = 0;
  for (const feature of features) {
    const entry = weights.get(feature);
    if (entry === undefined) continue;
    z += entry[0];
    if (entry[1]) words += entry[0];
  }
  return { p: 1 / (1 + Math.exp(-z)), words };
}

/**
 * True when `model` (the shipped one by default) reads `el`, of text `text`, as furniture: it is
 * sure enough, and the line's words are for it. A short line in a span is not furniture for
 * its shape alone: a post's "von anna" is as short as a badge.
 */
export function isNotice(
  el: DomElement,
  text: string,
  pageType: PageType,
  model: NoticeModel = noticeModel(),
): boolean {
  if (text.length > model.maxChars) return false;
  const { p, words } = readNotice(noticeFeatures(el, text, pageType), model);
  return p >= model.threshold && words > 0;
}
