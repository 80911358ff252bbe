/**
 * The learned notice scorer: how it describes a short line (notice-model.ts), which lines of a
 * forum thread or a product page it reads and what it removes (prune.ts), the shipped model,
 * and the training script run end to end on a small data set of its own.
 */

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parsePage } from "../../src/convert/html.js";
import { attr, type DomElement, tagOf, textOf, walkElements } from "../../src/extract/dom.js";
import {
  isNotice,
  type NoticeModel,
  noticeFeatures,
  noticeModel,
  readNotice,
} from "../../src/extract/notice-model.js";
import { pruneContent } from "../../src/extract/prune.js";
import { writeDevSet } from "../helpers/dev-set.js";

/** The `<body>` of `html`, parsed. */
function bodyOf(html: string): DomElement {
  const { body } = parsePage(html, undefined);
  if (!body) throw new Error("no body");
  return body;
}

/** The elements under `root` that `test` takes, in document order. */
function all(root: DomElement, test: (el: DomElement) => boolean): DomElement[] {
  const found: DomElement[] = [];
  walkElements(root, (el) => {
    if (test(el)) found.push(el);
    return true;
  });
  return found;
}

/** The first element under `root` with tag `tag`. */
function first(root: DomElement, tag: string): DomElement {
  const el = all(root, (e) => tagOf(e) === tag)[0];
  if (!el) throw new Error(`no ${tag}`);
  return el;
}

/** True when an element of class `name` is left under `root`. */
const holdsClass = (root: DomElement, name: string) =>
  all(root, (e) => attr(e, "class") === name).length > 0;

/** A model that reads the phrase "flag this" as furniture, and nothing else. */
const FLAG_MODEL: NoticeModel = {
  maxChars: 100,
  bias: -5,
  threshold: 0.5,
  weights: { "p:flag this": 10 },
};

/** A post's paragraph, long enough to be no short line. */
const post = (n: number) =>
  `<p>Post ${n} says something about the question at length, as a reply in a thread does, with a reason or two and an example of what worked.</p>`;

describe("noticeFeatures", () => {
  it("describes a counter by its words, word pairs, phrase and shape, with the page's type", () => {
    const body = bodyOf("<div><span>Posts: 1,234</span></div>");
    const features = noticeFeatures(first(body, "span"), "Posts: 1,234", "forum");
    for (const f of [
      "t:forum",
      "tag:span",
      "n:3",
      "end:0",
      "link:none",
      "s:a: 0,0",
      "b:^ posts",
      "b:posts 0",
      "b:0 $",
      "p:posts 0 0",
      "forum|p:posts 0 0",
    ]) {
      expect(features).toContain(f);
    }
  });

  it("splits letters from digits, gives a shape only to a text with digits, and counts a pair once", () => {
    const body = bodyOf('<div><p>3.8 mm4.5 mm</p><p><a href="/x">Quote</a></p></div>');
    const measures = noticeFeatures(first(body, "p"), "3.8 mm4.5 mm", "product");
    expect(measures).toContain("b:mm 0");
    expect(measures).toContain("s:0.0 a0.0 a");
    const quote = noticeFeatures(all(body, (e) => tagOf(e) === "p")[1]!, "Quote", "forum");
    expect(quote).toContain("link:all");
    expect([...quote].some((f) => f.startsWith("s:"))).toBe(false);
    const twice = noticeFeatures(first(body, "p"), "0 mm 0 mm 0 mm", "product");
    expect([...twice].filter((f) => f === "b:0 mm")).toHaveLength(1);
  });
});

describe("the notice scorer", () => {
  it("adds the weights of the features it knows to its bias, and tells its words' apart", () => {
    const model = { ...FLAG_MODEL, weights: { ...FLAG_MODEL.weights, "tag:span": 20 } };
    const flag = readNotice(["p:flag this", "tag:span", "unknown"], model);
    expect(flag.p).toBeCloseTo(1 / (1 + Math.exp(-25)));
    expect(flag.words).toBe(10);
    expect(readNotice(["unknown"], model).p).toBeCloseTo(1 / (1 + Math.exp(5)));
    // Sure of a span for its tag alone, the model still keeps it: its words say nothing.
    const span = bodyOf("<p><span>Anna</span></p>");
    expect(
      readNotice(noticeFeatures(first(span, "span"), "Anna", "forum"), model).p,
    ).toBeGreaterThan(0.99);
    expect(isNotice(first(span, "span"), "Anna", "forum", model)).toBe(false);
    const body = bodyOf("<p>Flag this</p>");
    expect(isNotice(first(body, "p"), "Flag this", "forum", FLAG_MODEL)).toBe(true);
    // Longer than the model reads: never a notice.
    const long = { ...FLAG_MODEL, maxChars: 3 };
    expect(isNotice(first(body, "p"), "Flag this", "forum", long)).toBe(false);
  });

  it("removes the lines of a thread it reads as furniture, and only whole lines outside tables", () => {
    const body = bodyOf(
      `<div>${post(1)}<div class="bar">Flag this</div>${post(2)}` +
        "<table><tr><td>Flag this</td><td>2</td></tr></table>" +
        "<div><p>Flag this</p><p>Thanks</p></div>" +
        `<p>Press <b>Flag this</b> to report it.</p>${post(3)}</div>`,
    );
    pruneContent(body, "forum", { notices: FLAG_MODEL });
    const text = textOf(body);
    expect(text).toContain("Post 1 says");
    expect(text).toContain("Post 3 says");
    // The bar goes; so does the line inside a block of two lines, which is read line by line.
    expect(holdsClass(body, "bar")).toBe(false);
    expect(text).toContain("Thanks");
    // Left: the cell's and the sentence's.
    expect(text.match(/Flag this/g)).toHaveLength(2);
    // A table's cell stays, and so does a word inside a sentence.
    expect(textOf(first(body, "td"))).toBe("Flag this");
    expect(text).toContain("Press Flag this to report it.");
  });

  it("reads forum threads and product pages only, and no lines at all without a model", () => {
    const html = `<div>${post(1)}<div class="bar">Flag this</div>${post(2)}</div>`;
    const article = bodyOf(html);
    pruneContent(article, "page", { notices: FLAG_MODEL });
    expect(holdsClass(article, "bar")).toBe(true);
    const none = bodyOf(html);
    pruneContent(none, "forum", { notices: null });
    expect(holdsClass(none, "bar")).toBe(true);
    const product = bodyOf(html);
    pruneContent(product, "product", { notices: FLAG_MODEL });
    expect(holdsClass(product, "bar")).toBe(false);
  });

  it("ships a model of short lines with a threshold between 0 and 1", () => {
    const model = noticeModel();
    expect(model.maxChars).toBe(100);
    expect(model.threshold).toBeGreaterThan(0);
    expect(model.threshold).toBeLessThan(1);
    expect(Object.keys(model.weights).length).toBeGreaterThan(100);
  });
});

describe("train-notices script", () => {
  const dir = mkdtempSync(join(tmpdir(), "webfetch-notices-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("learns a line that many sites' threads share from a data set of its own, never reading held-out pages", async () => {
    const bench = join(dir, "bench");
    writeDevSet(bench, 20, (n) => {
      const posts = [1, 2, 3, 4].map((i) => post(n * 10 + i));
      // Each thread on a site of its own, with a furniture line after each post and a short
      // line of content.
      const thread = posts.map((p) => `<div class="post">${p}<div>Flag this</div></div>`);
      return {
        html: `<html><body><main><h1>Thread ${n}</h1>${thread.join("")}<p>Solved, thanks</p></main></body></html>`,
        url: `https://site${n}.example/threads/topic.${n}/`,
        reference: [
          `Thread ${n}`,
          ...posts.map((p) => p.replace(/<\/?p>/g, "")),
          "Solved, thanks",
        ].join("\n\n"),
      };
    });
    const out = join(dir, "model.json");
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "scripts/train-notices.ts", bench, "--out", out],
      { env: { ...process.env, ROUNDS: "100" }, timeout: 120_000 },
    );
    expect(stderr).toContain("16 forum and product pages");
    expect(stderr).toContain("chosen threshold");
    const model = JSON.parse(readFileSync(out, "utf8")) as NoticeModel;
    expect(model.weights["p:flag this"]).toBeGreaterThan(0);
    const body = bodyOf(`<div>${post(1)}<div class="x">Flag this</div>${post(2)}</div>`);
    pruneContent(body, "forum", { notices: model });
    expect(holdsClass(body, "x")).toBe(false);
    expect(textOf(body)).toContain("Post 2 says");
  }, 180_000);
});
