/**
 * Why a result is thinner than the page: every limit a conversion hit, a page that needed a
 * browser it did not get, a prompt or query that matched nothing. Stages record these as data;
 * the result names them in the caller's language, so no content is ever cut or left empty
 * without a word.
 */
import type { Locale } from "./values.js";

/** A limit a conversion stopped at: what was cut, and the limit. */
export interface LimitHit {
  limit: "html-length" | "html-elements" | "feed-items" | "pdf-pages" | "pdf-chars";
  max: number;
}

/** One reason a result is thinner than the page, as data (kept with a cached page). */
export type Warning =
  | ({ kind: "cut" } & LimitHit)
  | { kind: "not-rendered"; reason: string }
  | { kind: "render-off" }
  | { kind: "no-passage"; query: string }
  | { kind: "no-room"; maxLength: number }
  | { kind: "prompt-start" }
  | { kind: "raw-unavailable" }
  | { kind: "model-input-cut" }
  | { kind: "empty" }
  | ScreenshotWarning;

/** Why a screenshot asked for is missing or shows less than the page. */
export type ScreenshotWarning =
  /** The page is not HTML (a PDF, JSON): nothing to render. */
  | { kind: "screenshot-not-html"; contentType: string }
  /** A full-page screenshot of a page taller than the cap shows its top only. */
  | { kind: "screenshot-cut"; pageHeight: number; maxHeight: number }
  /** No capture fitted the byte cap, even at the smallest scale tried. */
  | { kind: "screenshot-too-large"; maxBytes: number };

const count = (n: number, locale: Locale) => n.toLocaleString(locale === "ja" ? "ja-JP" : "en-US");

const EN: Record<LimitHit["limit"], (max: string) => string> = {
  "html-length": (max) =>
    `The page's HTML is longer than ${max} characters; only the first ${max} were read, so the content ends early`,
  "html-elements": (max) =>
    `The page has more than ${max} elements; only the first ${max} were read, so the content ends early`,
  "feed-items": (max) => `The feed has more than ${max} items; only the first ${max} are listed`,
  "pdf-pages": (max) => `The PDF has more than ${max} pages; only the first ${max} were read`,
  "pdf-chars": (max) =>
    `The PDF's text is longer than ${max} characters; reading stopped there, so the content ends early`,
};

const JA: Record<LimitHit["limit"], (max: string) => string> = {
  "html-length": (max) =>
    `ページの HTML が ${max} 文字を超えるため、先頭の ${max} 文字だけを読みました。内容は途中で終わっています`,
  "html-elements": (max) =>
    `ページの要素が ${max} 個を超えるため、先頭の ${max} 個だけを読みました。内容は途中で終わっています`,
  "feed-items": (max) =>
    `フィードの項目が ${max} 件を超えるため、先頭の ${max} 件だけを表示しています`,
  "pdf-pages": (max) => `PDF が ${max} ページを超えるため、先頭の ${max} ページだけを読みました`,
  "pdf-chars": (max) =>
    `PDF のテキストが ${max} 文字を超えるため、そこで読むのをやめました。内容は途中で終わっています`,
};

/** The warning as a sentence in `locale`. */
export function warningText(warning: Warning, locale: Locale): string {
  const ja = locale === "ja";
  switch (warning.kind) {
    case "cut":
      return (ja ? JA : EN)[warning.limit](count(warning.max, locale));
    case "not-rendered":
      return ja
        ? `このページは JavaScript で表示されるようですが、ブラウザで表示できませんでした（${warning.reason}）。スクリプトを実行しない HTML の内容を返しています。Chromium をインストールするか（apt-get install chromium）、fetch.browser_path を設定してください`
        : `The page seems to need JavaScript, but it could not be rendered (${warning.reason}); this is what its HTML holds without scripts. Install Chromium (apt-get install chromium) or set fetch.browser_path`;
    case "render-off":
      return ja
        ? 'このページは JavaScript で表示されるようですが、render が "never" のためスクリプトを実行していません。render を "auto" にすると表示できます'
        : 'The page seems to need JavaScript, but render is "never", so its scripts did not run; use render "auto" to render it';
    case "no-passage":
      return ja
        ? `ページのどの部分もクエリ「${warning.query}」に一致しませんでした。query なしで取得するとページ全体を読めます`
        : `No passage of the page matches the query "${warning.query}"; fetch without query to read the page`;
    case "no-room":
      return ja
        ? `クエリに一致する部分はありますが、max_length（${count(warning.maxLength, locale)} 文字）に収まるものがありません。max_length を大きくしてください`
        : `Passages match the query, but none fits in max_length (${count(warning.maxLength, locale)} characters); ask for more`;
    case "prompt-start":
      return ja
        ? "プロンプトに一致する部分がなかったため、ページの先頭を返しています"
        : "No passage matched the prompt; returning the start of the page";
    case "raw-unavailable":
      return ja
        ? "PDF にはそのまま返せるテキスト文書がないため、raw では抽出したテキストを返しています"
        : "A PDF has no text document to return as served; raw gives its extracted text instead";
    case "model-input-cut":
      return ja
        ? "ページがモデルの入力上限（llm.max_input_tokens）を超えるため、モデルはタスクに最も関連する部分だけを読みました。data にはページの残りの部分の内容が欠けている可能性があります"
        : "The page is longer than the model's input budget (llm.max_input_tokens): the model read only its parts most relevant to the task, so data may miss what the rest of the page holds";
    case "empty":
      return ja
        ? "ページに抽出できるテキストがありませんでした"
        : "The page has no text that could be extracted";
    case "screenshot-not-html":
      return ja
        ? `スクリーンショットは HTML ページだけで撮れます（このページは ${warning.contentType}）`
        : `No screenshot: only HTML pages are rendered, and this one is ${warning.contentType}`;
    case "screenshot-cut":
      return ja
        ? `ページの高さが ${count(warning.pageHeight, locale)} px あるため、スクリーンショットは上から ${count(warning.maxHeight, locale)} px までです`
        : `The page is ${count(warning.pageHeight, locale)} px tall; the screenshot shows its first ${count(warning.maxHeight, locale)} px`;
    case "screenshot-too-large":
      return ja
        ? `スクリーンショットを縮小しても ${count(warning.maxBytes, locale)} バイトに収まらなかったため、付けていません`
        : `No screenshot: even scaled down it did not fit in ${count(warning.maxBytes, locale)} bytes`;
  }
}

/** The limits hit as warnings. */
export function limitWarnings(limits: readonly LimitHit[] | undefined): Warning[] {
  return (limits ?? []).map((hit) => ({ kind: "cut", ...hit }));
}

/** Why a map may list fewer of a site's URLs than it has, as data. */
export type MapWarning =
  | { kind: "sitemap-failed"; url: string; reason: string }
  | { kind: "sitemap-cut"; url: string; max: number }
  | { kind: "sitemap-too-deep"; url: string; maxDepth: number }
  | { kind: "sitemaps-too-many"; max: number }
  | { kind: "urls-cut"; max: number }
  /** The start page could not be read, so its links are missing. */
  | { kind: "start-page-failed"; reason: string }
  /** The map's deadline passed before every source was read. */
  | { kind: "map-timeout" }
  /** Links were on more hosts than robots.txt is consulted for: those are left out. */
  | { kind: "robots-hosts"; max: number };

/** A map's warning as a sentence in `locale`. */
export function mapWarningText(warning: MapWarning, locale: Locale): string {
  const ja = locale === "ja";
  switch (warning.kind) {
    case "sitemap-failed":
      return ja
        ? `サイトマップ ${warning.url} を読めませんでした（${warning.reason}）`
        : `The sitemap ${warning.url} could not be read (${warning.reason})`;
    case "sitemap-cut":
      return ja
        ? `サイトマップ ${warning.url} の URL が ${count(warning.max, locale)} 件を超えるため、先頭の ${count(warning.max, locale)} 件だけを読みました`
        : `The sitemap ${warning.url} lists more than ${count(warning.max, locale)} URLs; only the first ${count(warning.max, locale)} were read`;
    case "sitemap-too-deep":
      return ja
        ? `サイトマップインデックス ${warning.url} は ${warning.maxDepth} 段より深く入れ子になっているため読んでいません`
        : `The sitemap index ${warning.url} is nested more than ${warning.maxDepth} levels deep; it was not read`;
    case "sitemaps-too-many":
      return ja
        ? `サイトマップが ${count(warning.max, locale)} 個を超えるため、残りは読んでいません`
        : `The site has more than ${count(warning.max, locale)} sitemaps; the rest were not read`;
    case "urls-cut":
      return ja
        ? `サイトマップの URL が全部で ${count(warning.max, locale)} 件を超えるため、残りは読んでいません`
        : `The sitemaps list more than ${count(warning.max, locale)} URLs in all; the rest were not read`;
    case "start-page-failed":
      return ja
        ? `開始ページを取得できなかったため、そのリンクは含まれていません（${warning.reason}）`
        : `The start page could not be fetched, so its links are missing (${warning.reason})`;
    case "map-timeout":
      return ja
        ? "時間制限までにすべてのサイトマップとページを読めませんでした。一覧は途中までです"
        : "The time ran out before every sitemap and page was read; the list is partial";
    case "robots-hosts":
      return ja
        ? `リンクが ${warning.max} 個を超えるホストにまたがるため、残りのホストのリンクは robots.txt を確認できず除外しました`
        : `The links span more than ${warning.max} hosts; links on the rest were left out, their robots.txt unchecked`;
  }
}

/** Why a crawl read less than asked. */
export type CrawlWarning =
  /** An origin's robots.txt asks for a longer delay than a crawl waits: it waited the maximum. */
  | { kind: "crawl-delay-cut"; origin: string; seconds: number; maxSeconds: number }
  /** Links were found past the frontier's size: they were skipped. */
  | { kind: "frontier-full"; max: number };

/** A crawl's warning as a sentence in `locale`. */
export function crawlWarningText(warning: CrawlWarning, locale: Locale): string {
  const ja = locale === "ja";
  switch (warning.kind) {
    case "crawl-delay-cut":
      return ja
        ? `${warning.origin} の robots.txt は ${warning.seconds} 秒の間隔を求めていますが、${warning.maxSeconds} 秒の間隔で取得しました`
        : `robots.txt of ${warning.origin} asks for ${warning.seconds} s between requests; the crawl waited ${warning.maxSeconds} s`;
    case "frontier-full":
      return ja
        ? `待機中の URL が ${count(warning.max, locale)} 件に達したため、それ以降に見つかったリンクはたどっていません`
        : `More than ${count(warning.max, locale)} URLs were waiting; links found after that were not followed`;
  }
}
