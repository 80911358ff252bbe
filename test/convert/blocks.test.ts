/**
 * The learned block scorer: which blocks it reads and how it describes them (blocks.ts), how a
 * model's trees decide and what guards their decisions (block-model.ts), the shipped model on
 * an article, and the training script run end to end on a small data set of its own.
 */

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { convertHtml, parsePage } from "../../src/convert/html.js";
import {
  type BlockModel,
  blockModel,
  blockProfile,
  contentProbability,
  featureVector,
  removeFurnitureBlocks,
} from "../../src/extract/block-model.js";
import {
  type Block,
  collectBlocks,
  FEATURE_NAMES,
  nameWords,
  type RootShape,
} from "../../src/extract/blocks.js";
import type { DomElement } from "../../src/extract/dom.js";
import { textOf } from "../../src/extract/dom.js";
import { writeDevSet } from "../helpers/dev-set.js";

/** A paragraph of prose (about 180 characters) that names itself. */
const prose = (label: string) =>
  `<p>${label} is a paragraph of ordinary prose, with commas, that reads like an article and says something about the world. It goes on for a while, as paragraphs do.</p>`;

/** The `<body>` of `html`, parsed. */
function bodyOf(html: string): DomElement {
  const { body } = parsePage(html, undefined);
  if (!body) throw new Error("no body");
  return body;
}

/** A model of one tree: a block whose link share is over a half is furniture. */
const LINK_MODEL: BlockModel = {
  features: [...FEATURE_NAMES],
  names: ["teaser"],
  base: 3,
  threshold: 0.5,
  trees: [
    {
      feature: [FEATURE_NAMES.indexOf("link_share"), -1, -1],
      threshold: [0.5, 0, 0],
      left: [1, -1, -1],
      right: [2, -1, -1],
      value: [0, 0, -6],
    },
  ],
};

/** An article root: a title, `paragraphs` paragraphs, then `after`. */
const article = (paragraphs: number, after = "") =>
  `<body><article><h1>Title</h1>${Array.from({ length: paragraphs }, (_, i) => prose(`P${i + 1}`)).join("")}${after}</article></body>`;

const linkedLines = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<li><a href="/s/${i}">Another story number ${i + 1} to read</a></li>`,
  ).join("");

describe("blocks", () => {
  it("reads leaf blocks: paragraphs, items, headings and leaf divs, not their containers", () => {
    const body = bodyOf(`<body><div class="wrap"><h2>Section</h2><p>One <em>two</em>.</p>
      <ul><li>Item</li><li>Parent<ul><li>Child</li></ul></li></ul><div>Leaf div</div>
      <table><tr><td>Cell</td></tr></table><pre>code()</pre><h1>Title</h1></div></body>`);
    const texts = collectBlocks(body, "page").map((b) => b.text);
    // A list item holding a list is no leaf; cells, code and the title are never scored.
    expect(texts).toEqual(["Section", "One two.", "Item", "Child", "Leaf div"]);
  });

  it("describes each block with every feature and its and its ancestors' class words", () => {
    const body = bodyOf(
      `<body><div class="relatedPosts__list"><ul class="teaser-list"><li><a href="/x">A linked teaser title</a></li></ul></div></body>`,
    );
    const [block] = collectBlocks(body, "page");
    expect(block?.features).toHaveLength(FEATURE_NAMES.length);
    expect(block?.features[FEATURE_NAMES.indexOf("link_share")]).toBe(1);
    expect(block?.features[FEATURE_NAMES.indexOf("in_list")]).toBe(1);
    expect([...(block?.names ?? [])].sort()).toEqual(["list", "posts", "related", "teaser"]);
  });

  it("splits class and id into lower-case words: hyphens, underscores, camelCase", () => {
    expect(nameWords("relatedPosts__item share-bar_v2 x")).toEqual([
      "related",
      "posts",
      "item",
      "share",
      "bar",
    ]);
  });

  it("reads no blocks in a root of more than an article holds (300,000 items)", () => {
    const body = bodyOf(`<body><ul>${"<li>Item text</li>".repeat(300_000)}</ul></body>`);
    expect(collectBlocks(body, "page")).toEqual([]);
  });
});

describe("block model", () => {
  it("walks each tree to a leaf and adds the leaves to the base", () => {
    const [linked, plain] = collectBlocks(
      bodyOf(`<body><p><a href="/a">All link</a></p><p>No link here.</p></body>`),
      "page",
    );
    expect(contentProbability(linked!, LINK_MODEL)).toBeCloseTo(1 / (1 + Math.exp(3)));
    expect(contentProbability(plain!, LINK_MODEL)).toBeCloseTo(1 / (1 + Math.exp(-3)));
  });

  it("gives a class word its 0/1 feature after the numbers", () => {
    const [block] = collectBlocks(
      bodyOf(`<body><div class="teaser"><p>Text</p></div></body>`),
      "page",
    );
    const x = featureVector(block!, LINK_MODEL);
    expect(x).toHaveLength(FEATURE_NAMES.length + 1);
    expect(x.at(-1)).toBe(1);
  });

  it("removes the blocks the model reads as furniture from an article, and keeps its prose", () => {
    const body = bodyOf(article(12, `<ul>${linkedLines(3)}</ul><p>Closing line.</p>`));
    removeFurnitureBlocks(body, "page", LINK_MODEL);
    const text = textOf(body);
    expect(text).not.toContain("Another story");
    for (const kept of ["Title", "P1 is", "P12 is", "Closing line."]) expect(text).toContain(kept);
  });

  it("reads articles, forum threads and product pages; not a listing, nor a root of a few blocks", () => {
    for (const [html, type] of [
      [article(12, `<ul>${linkedLines(3)}</ul>`), "listing"],
      [article(12, `<ul>${linkedLines(3)}</ul>`), "documentation"],
      [article(3, `<ul>${linkedLines(3)}</ul>`), "page"],
      // Mostly links: a list of stories, not an article.
      [`<body><p>${"Intro words. ".repeat(12)}</p><ul>${linkedLines(40)}</ul></body>`, "page"],
    ] as const) {
      const body = bodyOf(html);
      removeFurnitureBlocks(body, type, LINK_MODEL);
      expect(textOf(body)).toContain("Another story number 3");
    }
    for (const type of ["forum", "product"] as const) {
      const body = bodyOf(article(12, `<ul>${linkedLines(3)}</ul>`));
      removeFurnitureBlocks(body, type, LINK_MODEL);
      expect(textOf(body)).not.toContain("Another story number 3");
      expect(textOf(body)).toContain("P12 is");
    }
  });

  it("reads a forum thread or a product page with the other model, an article with its own", () => {
    const blocks = collectBlocks(bodyOf(article(12, "")), "page");
    expect(blockProfile(blocks, "page")).toBe("article");
    expect(blockProfile(blocks, "forum")).toBe("other");
    expect(blockProfile(blocks, "product")).toBe("other");
    expect(blockProfile(blocks, "listing")).toBeUndefined();
    expect(blockModel("other").features).toEqual([...FEATURE_NAMES]);
    expect(blockModel("other")).not.toBe(blockModel("article"));
  });

  it("tells a root's shape before its features, and gives none when the shape is turned down", () => {
    const html = article(12, `<ul>${linkedLines(5)}</ul>`);
    const blocks = collectBlocks(bodyOf(html), "page");
    const shapes: RootShape[] = [];
    const none = collectBlocks(bodyOf(html), "page", (shape) => {
      shapes.push(shape);
      return false;
    });
    expect(none).toEqual([]);
    const proseShare = blocks[0]!.features[FEATURE_NAMES.indexOf("root_prose_share")];
    expect(shapes).toEqual([{ blocks: blocks.length, proseShare }]);
    // The same blocks, each of another parse of the page: compared by what they hold.
    const held = (list: Block[]) => list.map(({ el, ...rest }) => ({ tag: el.localName, ...rest }));
    expect(held(collectBlocks(bodyOf(html), "page", () => true))).toEqual(held(blocks));
  });

  it("takes a furniture heading's list of links with it, in any language", () => {
    // The model reads the heading as furniture by its class word; its list goes with it.
    const model: BlockModel = {
      ...LINK_MODEL,
      trees: [
        ...LINK_MODEL.trees,
        {
          feature: [FEATURE_NAMES.length, -1, -1],
          threshold: [0, 0, 0],
          left: [1, -1, -1],
          right: [2, -1, -1],
          value: [0, 0, -6],
        },
      ],
    };
    const list = `<li><a href="/a">Ein Artikel</a> und etwas Text</li><li><a href="/b">Noch ein Artikel</a> dazu</li>`;
    const body = bodyOf(
      article(
        12,
        `<h3 class="teaser">Lesen Sie auch</h3><ul>${list}</ul><h3>Fazit</h3>${prose("End")}`,
      ),
    );
    removeFurnitureBlocks(body, "page", model);
    const text = textOf(body);
    expect(text).not.toContain("Lesen Sie auch");
    expect(text).not.toContain("Ein Artikel");
    expect(text).toContain("Fazit");
    expect(text).toContain("End is");
  });

  it("keeps a heading the model doubts when text that stays is under it", () => {
    // Headings of class "teaser" are furniture; everything else is content.
    const model: BlockModel = {
      ...LINK_MODEL,
      trees: [
        {
          feature: [FEATURE_NAMES.length, -1, -1],
          threshold: [0, 0, 0],
          left: [1, -1, -1],
          right: [2, -1, -1],
          value: [0, 0, -6],
        },
      ],
    };
    const body = bodyOf(
      article(
        12,
        `<h2 class="teaser"><a href="#heap">The Stack and the Heap</a></h2><p>The heap is where objects live.</p>`,
      ),
    );
    removeFurnitureBlocks(body, "page", model);
    expect(textOf(body)).toContain("The Stack and the Heap");
  });

  it("removes a paragraph of prose only when sure, and never one that continues kept prose", () => {
    // Blocks of class "bio" are furniture with probability 1 - p; others are content.
    const bioModel = (p: number): BlockModel => ({
      features: [...FEATURE_NAMES],
      names: ["bio"],
      base: 3,
      threshold: 0.5,
      trees: [
        {
          feature: [FEATURE_NAMES.length, -1, -1],
          threshold: [0, 0, 0],
          left: [1, -1, -1],
          right: [2, -1, -1],
          value: [0, 0, Math.log(p / (1 - p)) - 3],
        },
      ],
    });
    const apart = article(12, `<div class="bio">${prose("Bio")}</div>`);
    const run = article(12, `<p class="bio">${prose("Bio").slice(3, -4)}</p>`);
    const left = (html: string, p: number) => {
      const body = bodyOf(html);
      removeFurnitureBlocks(body, "page", bioModel(p));
      return textOf(body);
    };
    // Prose under the model's threshold but over the bar for prose stays.
    expect(left(apart, 0.3)).toContain("Bio is");
    expect(left(apart, 0.05)).not.toContain("Bio is");
    // A paragraph right after the article's last, in the same parent, continues it.
    expect(left(run, 0.05)).toContain("Bio is");
    expect(left(run, 0.05)).toContain("P12 is");
  });

  it("keeps all 400 paragraphs of a long article with the shipped model", () => {
    const { content } = convertHtml(article(400), { url: "https://example.com/essay" });
    expect(content).toContain("P400 is a paragraph");
    expect(content.split("is a paragraph of ordinary prose").length - 1).toBe(400);
  });
});

describe("shipped block model", () => {
  it("loads, and was trained on the features blocks.ts computes", () => {
    const model = blockModel();
    expect(model.features).toEqual([...FEATURE_NAMES]);
    expect(model.trees.length).toBeGreaterThan(0);
    expect(model.threshold).toBeGreaterThan(0);
    expect(model.threshold).toBeLessThan(1);
  });

  it("drops a heading in German and its list of other stories after an article", () => {
    const teasers = [
      "Die stille Revolution in den Stadtgärten",
      "Warum der Meeresboden lauter ist als gedacht",
      "Eine kurze Geschichte der Büroklammer",
      "Forscher kartieren die ältesten Bäume",
    ]
      .map((t, i) => `<li><a href="/s/${i}">${t}</a></li>`)
      .join("");
    const html = article(12, `<div class="x1"><h4>Lesen Sie auch</h4><ul>${teasers}</ul></div>`);
    const { content } = convertHtml(html, { url: "https://news.example.com/2024/05/rivers" });
    expect(content).toContain("P12 is a paragraph");
    expect(content).not.toContain("Lesen Sie auch");
    expect(content).not.toContain("Büroklammer");
  });
});

describe("train-blocks and cross-fit scripts", () => {
  const dir = mkdtempSync(join(tmpdir(), "webfetch-train-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = promisify(execFile);
  /** An article of 12 paragraphs with a list of links and a share line after it. */
  const page = (n: number) => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => prose(`Page${n} part${i}`));
    const furniture = `<div class="more-links"><ul>${linkedLines(4)}</ul></div><p class="note">Share this now</p>`;
    return {
      html: `<html><body><article><h1>Page ${n}</h1>${paragraphs.join("")}${furniture}</article></body></html>`,
      url: `https://example.com/${String(n).padStart(4, "0")}`,
      reference: paragraphs.map((p) => p.replace(/<\/?p>/g, "")).join("\n\n"),
    };
  };

  it("trains a model the scorer loads from a data set of its own, never reading held-out pages", async () => {
    const bench = join(dir, "bench");
    writeDevSet(bench, 15, page);
    const out = join(dir, "model.json");
    const { stderr } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/train-blocks.ts", bench, "--out", out],
      { env: { ...process.env, TREES: "5" }, timeout: 120_000 },
    );
    expect(stderr).toContain("12 pages");
    expect(stderr).toContain("chosen threshold");
    const model = JSON.parse(readFileSync(out, "utf8")) as BlockModel;
    expect(model.features).toEqual([...FEATURE_NAMES]);
    expect(model.trees).toHaveLength(5);
    const body = bodyOf(article(12, `<ul>${linkedLines(4)}</ul>`));
    removeFurnitureBlocks(body, "page", model);
    expect(textOf(body)).toContain("P12 is");
  }, 180_000);

  it("measures a model on each tuning fifth with a model trained without it", async () => {
    const bench = join(dir, "set");
    writeDevSet(bench, 20, page);
    const work = join(dir, "cross-fit");
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/cross-fit.ts", bench, "--models", "article", "--dir", work],
      { env: { ...process.env, TREES: "5" }, timeout: 400_000 },
    );
    for (const fifth of ["all", 1, 2, 3, 4]) {
      expect(stderr).toContain(`article model without fifth ${fifth}: threshold`);
    }
    // Four runs over the 16 tuning pages; the held-out fifth is never read.
    expect(stdout).toContain("cross-fit: F1 / with / without");
    expect(stdout).toMatch(/\| set all \| 16 \| (?:[\d.]+ \/ – \/ – \| ){3}[\d.]+ \/ – \/ – \|/);
    const ids = readFileSync(join(work, "set.cross-fit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toHaveLength(16);
    expect(ids.some((id) => Number(id) % 5 === 0)).toBe(false);
    for (const fifth of ["all", 1, 2, 3, 4]) {
      const model = JSON.parse(readFileSync(join(work, `article-${fifth}.json`), "utf8"));
      expect((model as BlockModel).trees).toHaveLength(5);
    }
  }, 450_000);
});
