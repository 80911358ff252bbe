/**
 * The learned block scorer: gradient-boosted trees over each block's features (blocks.ts) that
 * tell the page's furniture left inside the main content (teaser lists, captions, bylines,
 * share and newsletter lines, live feeds) from its text. The trees are data, trained on the dev
 * benchmarks by scripts/train-blocks.ts and shipped as block-model.json; this module only reads
 * them. A block goes when the model is confident it is not content.
 */

import { readFileSync } from "node:fs";
import { type Block, collectBlocks, FEATURE_NAMES, type RootShape } from "./blocks.js";
import type { DomElement } from "./dom.js";
import type { PageType } from "./page-type.js";

/**
 * A trained model. Each tree is flat: node `i` splits on `feature[i]` (or is a leaf when it is
 * -1, worth `value[i]`), going to `left[i]` when the feature is at most `threshold[i]`.
 */
export interface BlockModel {
  /** Numeric features the trees were trained on, in order; must equal FEATURE_NAMES. */
  features: string[];
  /** Class/id words, each a 0/1 feature after the numeric ones. */
  names: string[];
  /** Log-odds before the trees. */
  base: number;
  /** A block whose probability of being content is below this is removed. */
  threshold: number;
  trees: {
    feature: number[];
    threshold: number[];
    left: number[];
    right: number[];
    value: number[];
  }[];
}

const PROSE_SHARE = FEATURE_NAMES.indexOf("root_prose_share");

/**
 * Which model reads a root: an article's, or the other one, trained on every root that is not an
 * article's and read on forum threads and product pages, where it finds the furniture the rules
 * leave: signatures, sidebars, other threads and products, badges in other languages.
 */
export type BlockProfile = "article" | "other";

/** Each profile's model file, beside this module (where the training script writes it). */
export const BLOCK_MODEL_FILES: Readonly<Record<BlockProfile, string>> = {
  article: "./block-model.json",
  other: "./block-model-other.json",
};

const loaded = new Map<BlockProfile, BlockModel>();

/** The shipped model of `profile`, read once. */
export function blockModel(profile: BlockProfile = "article"): BlockModel {
  let model = loaded.get(profile);
  if (model === undefined) {
    const file = BLOCK_MODEL_FILES[profile];
    model = JSON.parse(readFileSync(new URL(file, import.meta.url), "utf8")) as BlockModel;
    if (model.features.join() !== FEATURE_NAMES.join()) {
      throw new Error(`${file} was trained on other features: retrain it`);
    }
    loaded.set(profile, model);
  }
  return model;
}

/** A model's class words by number, and one 0/1 flag per word for the block being scored. */
interface NameFlags {
  index: Map<string, number>;
  flags: Uint8Array;
}

const nameFlags = new WeakMap<BlockModel, NameFlags>();

/** `model`'s class word flags, set for `block`'s words (clear them after use). */
function flagsFor(block: Block, model: BlockModel): Uint8Array {
  let entry = nameFlags.get(model);
  if (entry === undefined) {
    const index = new Map(model.names.map((name, i) => [name, i]));
    entry = { index, flags: new Uint8Array(model.names.length) };
    nameFlags.set(model, entry);
  }
  for (const name of block.names) {
    const i = entry.index.get(name);
    if (i !== undefined) entry.flags[i] = 1;
  }
  return entry.flags;
}

/** The features of `block` as the model reads them: numbers, then one 0/1 per class word. */
export function featureVector(block: Block, model: BlockModel): number[] {
  const flags = flagsFor(block, model);
  const out = block.features.concat(Array.from(flags));
  flags.fill(0);
  return out;
}

/**
 * Probability that `block` is content. The trees read its numbers and its class words' flags in
 * place: a vector of every class word, built per block, cost more than the trees to walk.
 */
export function contentProbability(block: Block, model: BlockModel): number {
  const { features } = block;
  const numeric = features.length;
  const flags = flagsFor(block, model);
  let z = model.base;
  try {
    for (const tree of model.trees) {
      let i = 0;
      for (let f = tree.feature[0]!; f >= 0; f = tree.feature[i]!) {
        const x = f < numeric ? features[f]! : flags[f - numeric]!;
        i = x <= tree.threshold[i]! ? tree.left[i]! : tree.right[i]!;
      }
      z += tree.value[i]!;
    }
  } finally {
    flags.fill(0);
  }
  return 1 / (1 + Math.exp(-z));
}

/** Share of a root's text in prose from which it reads as an article. */
const MIN_PROSE_SHARE = 0.5;
/**
 * Fewest blocks of a root the model reads: on a root of a few blocks each one matters and there
 * is too little around it to judge by (roots this small hold under 1% of the dev data's
 * furniture words).
 */
export const MIN_BLOCKS = 8;

/**
 * Page types whose roots the other model reads. On listings and collections the short linked
 * lines and cards it removes elsewhere are the content, and it lost more of them than it saved.
 */
const OTHER_PROFILE_TYPES: ReadonlySet<PageType> = new Set(["forum", "product"]);

/** True when the blocks are an article's, which the article model reads. */
export function isArticleLike(blocks: readonly Block[], pageType: PageType): boolean {
  return blockProfile(blocks, pageType) === "article";
}

/** The profile whose model reads these blocks, or none: a root of a few blocks, a listing. */
export function blockProfile(
  blocks: readonly Block[],
  pageType: PageType,
): BlockProfile | undefined {
  const proseShare = blocks[0]?.features[PROSE_SHARE] ?? 0;
  return profileOf({ blocks: blocks.length, proseShare }, pageType);
}

/** The profile whose model reads a root of this shape, or none. */
function profileOf(shape: RootShape, pageType: PageType): BlockProfile | undefined {
  if (shape.blocks < MIN_BLOCKS) return undefined;
  if (pageType === "page" && shape.proseShare >= MIN_PROSE_SHARE) return "article";
  return OTHER_PROFILE_TYPES.has(pageType) ? "other" : undefined;
}

/**
 * Removes from `root`, in place, the blocks the model of its profile reads as furniture: the
 * shipped one, or `model` when given (one model for every profile, or the model of a profile).
 * A heading it reads so takes its section with it when that section is mostly links: "Read
 * more" or "Lesen Sie auch" over a list of other stories, in whatever language; it stays when
 * text that stays is under it.
 *
 * @example
 * pruneContent(root, pageType);
 * removeFurnitureBlocks(root, pageType);
 */
export function removeFurnitureBlocks(
  root: DomElement,
  pageType: PageType,
  model?: BlockModel | ((profile: BlockProfile) => BlockModel),
): void {
  if (pageType !== "page" && !OTHER_PROFILE_TYPES.has(pageType)) return;
  const read = (shape: RootShape) => profileOf(shape, pageType) !== undefined;
  const blocks = collectBlocks(root, pageType, read);
  const profile = blockProfile(blocks, pageType);
  if (profile === undefined) return;
  const chosen = typeof model === "function" ? model(profile) : (model ?? blockModel(profile));
  const doomed = blocks.map((block) => {
    const p = contentProbability(block, chosen);
    return p < (block.prose ? PROSE_THRESHOLD : chosen.threshold);
  });
  // The article's paragraphs run on: prose right after a kept paragraph of the same parent
  // continues it, wherever it stands (the model reads position; a long essay's last pages sit
  // where comments do).
  for (let i = 1; i < blocks.length; i++) {
    const [before, block] = [blocks[i - 1]!, blocks[i]!];
    if (
      doomed[i] &&
      !doomed[i - 1] &&
      block.prose &&
      before.prose &&
      block.el.parentNode === before.el.parentNode
    ) {
      doomed[i] = false;
    }
  }
  for (let i = 0; i < blocks.length; i++) {
    const level = blocks[i]!.features[HEADING_LEVEL]!;
    if (!doomed[i] || level === 0) continue;
    let end = i + 1;
    let chars = 0;
    let links = 0;
    for (; end < blocks.length; end++) {
      const next = blocks[end]!;
      const nextLevel = next.features[HEADING_LEVEL]!;
      if (nextLevel > 0 && nextLevel <= level) break;
      chars += next.text.length;
      links += next.text.length * next.features[LINK_SHARE]!;
    }
    if (chars > 0 && links >= chars * SECTION_LINK_SHARE) doomed.fill(true, i + 1, end);
    // A heading over text that stays is that text's title, linked or not.
    else if (blocks.slice(i + 1, end).some((b, j) => !doomed[i + 1 + j] && isText(b))) {
      doomed[i] = false;
    }
  }
  for (let i = 0; i < blocks.length; i++) if (doomed[i]) blocks[i]!.el.remove();
}

/**
 * A paragraph of prose goes only when the model is this sure: position and shape that mark a
 * comment or a bio at an article's end also fit the last pages of a long essay, and losing a
 * paragraph of the article costs more than keeping one of furniture.
 */
const PROSE_THRESHOLD = 0.1;

/** True for a block of text rather than links: a sentence or more, mostly not linked. */
function isText(block: Block): boolean {
  return block.text.length >= MIN_TEXT_CHARS && block.features[LINK_SHARE]! < SECTION_LINK_SHARE;
}

/** Shortest block read as text under a heading: a sentence. */
const MIN_TEXT_CHARS = 25;

const HEADING_LEVEL = FEATURE_NAMES.indexOf("heading_level");
const LINK_SHARE = FEATURE_NAMES.indexOf("link_share");
/** Link share from which a furniture heading's section is a list of links that goes with it. */
const SECTION_LINK_SHARE = 0.5;
