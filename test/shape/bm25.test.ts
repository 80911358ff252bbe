/** BM25 ranking and the terms it counts. */
import { describe, expect, it } from "vitest";
import { bm25Scores } from "../../src/shape/bm25.js";
import { terms } from "../../src/shape/terms.js";

describe("terms", () => {
  it("lower-cases, folds full-width forms and plurals, drops function words", () => {
    expect(terms("The Installers of ＷＩＤＧＥＴＳ and libraries")).toEqual([
      "installer",
      "widget",
      "library",
    ]);
  });

  it("turns Japanese runs into character bigrams", () => {
    expect(terms("東京都の天気")).toEqual(["東京", "京都", "都の", "の天", "天気"]);
    expect(terms("API設定")).toEqual(["api", "設定"]);
  });
});

describe("bm25Scores", () => {
  const passages = [
    "Installing the widget on Linux takes one command.",
    "The widget has a configuration file with many options.",
    "Nothing here is related.",
    "Configuration, configuration, configuration: the configuration file explained.",
  ];

  it("scores zero without a shared term, above zero with one", () => {
    const scores = bm25Scores(passages, "configuration file");
    expect(scores[2]).toBe(0);
    expect(scores[0]).toBe(0);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[3]).toBeGreaterThan(0);
  });

  it("ranks more occurrences higher, with saturation, and rare terms above common ones", () => {
    const [, one, , many] = bm25Scores(passages, "configuration");
    expect(many).toBeGreaterThan(one!);
    // Saturation: four times the term is far from four times the score.
    expect(many!).toBeLessThan(one! * 2.5);
    const rare = bm25Scores(passages, "linux")[0]!;
    const common = bm25Scores(passages, "widget")[0]!;
    expect(rare).toBeGreaterThan(common);
  });

  it("matches Japanese text by bigrams", () => {
    const scores = bm25Scores(["今日の東京の天気は晴れです", "大阪の経済について"], "東京の天気");
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[1]).toBe(0);
  });

  it("gives every passage zero for a query of function words only", () => {
    expect(bm25Scores(passages, "the of and")).toEqual([0, 0, 0, 0]);
  });
});
