/**
 * locale: ja. The Japanese texts (web_fetch's error messages, the extract, search and context
 * layouts) are compared character for character with their fixed wording.
 */
import { describe, expect, it } from "vitest";
import type { FetchResult } from "../../src/result.js";
import { textsFor } from "../../src/tools/texts.js";
import { fixtureSuite } from "../helpers/web.js";
import { toolBox } from "./helpers.js";

const suite = fixtureSuite({ locale: "ja" });

describe("tools in Japanese", () => {
  it("gives the Japanese messages for an invalid URL, a timeout and an HTTP error", async () => {
    const box = toolBox(suite.t.web, { tools: { web_fetch: { timeout: 300 } } });
    const fetch = box.tool("web_fetch");
    expect((await fetch.call({ url: "ftp://example.com/" })).text).toBe(
      "無効なURLです。http:// または https:// で始まるURLを指定してください\nエラータイプ: INVALID_URL",
    );
    expect((await fetch.call({ url: suite.server.url("/hang") })).text).toBe(
      "ページの取得がタイムアウトしました\nエラータイプ: TIMEOUT",
    );
    expect((await fetch.call({ url: suite.server.url("/status?code=404") })).text).toBe(
      "ページを取得できませんでした\nエラータイプ: HTTP_ERROR",
    );
  });

  it("writes the page header and the continuation line in Japanese", async () => {
    const r = await toolBox(suite.t.web)
      .tool("web_fetch")
      .call({ url: suite.server.url("/long"), max_length: 1200 });
    const page = r.structured as unknown as FetchResult;
    expect(r.text.startsWith(`タイトル: Long Page\nURL: ${page.finalUrl}\n\n`)).toBe(true);
    expect(r.text).toContain(
      `start_index=${page.nextStartIndex} を指定して再度呼び出してください。`,
    );
    expect(r.text).toContain(`web_read / web_grep に id "${page.id}" を指定して`);
    expect(r.text).not.toContain("Content truncated");
  });

  it("prints the Japanese extract format word for word", async () => {
    const url = suite.server.url("/json");
    const r = await toolBox(suite.t.web)
      .tool("web_extract")
      .call({ urls: [url, "ftp://x/"] });
    const content = (r.structured as { results: FetchResult[] }).results[0]!.content;
    expect(r.text).toBe(
      `## コンテンツ抽出結果\n\n### URL: ${url}\n${content}\n\n---\n\n## 失敗したURL\n- ftp://x/: 無効なURLです。http:// または https:// で始まるURLを指定してください`,
    );
    const none = await toolBox(suite.t.web)
      .tool("web_extract")
      .call({ urls: ["ftp://x/"] });
    expect(none.text).toBe(
      "## コンテンツ抽出結果\n\nすべてのURLからコンテンツを抽出できませんでした。\n\n## 失敗したURL\n- ftp://x/: 無効なURLです。http:// または https:// で始まるURLを指定してください",
    );
  });

  it("describes the tools in Japanese", () => {
    const box = toolBox(suite.t.web);
    expect(box.tool("web_fetch").title).toBe("Webページの取得");
    expect(box.tool("web_fetch").description).toMatch(/^Webページの内容を取得し/);
    const shape = box.tool("web_fetch").inputSchema.shape as Record<
      string,
      { description?: string }
    >;
    expect(shape.url!.description).toBe("取得するWebページのURL（http または https）");
  });

  it("has the Japanese search and context texts for the tools still to come", () => {
    const t = textsFor("ja");
    expect(t.search.heading("東京")).toBe("## 検索結果: 東京");
    expect(t.search.result(1, "T", "https://a.example/", 0.876, "本文")).toBe(
      "### 1. T\nURL: https://a.example/\nスコア: 0.88\n本文",
    );
    expect(t.search.none).toBe("検索結果が見つかりませんでした。");
    expect(t.context.heading("東京")).toBe("## RAG用検索コンテキスト: 東京");
    const en = textsFor("en");
    expect(en.search.result(2, "T", "u", 0.5, "s")).toBe("### 2. T\nURL: u\nScore: 0.50\ns");
  });
});
