/**
 * The command line's own lines in English and Japanese (`--locale`, or `locale` in the
 * configuration): error lines, usage errors and the argument parser's reasons, notes. Messages of
 * errors keep their English detail where no Japanese text exists; codes are never translated.
 */
import { ERROR_CODES } from "../errors.js";
import { type ErrorInfo, textsFor } from "../tools/texts.js";
import type { Locale } from "../values.js";

export interface CliTexts {
  /** A usage error of the argument parser, without its trailing newline. */
  usage(detail: string): string;
  /** The line after a usage error. */
  helpHint: string;
  /** A note on stderr (the passages returned instead of a model's answer). */
  note(text: string): string;
  /** A warning on stderr: why the content is thinner than the page. */
  warning(text: string): string;
  /** An error's message for its line on stderr. */
  errorMessage(error: ErrorInfo): string;
  /** The note after a map cut at its limit. */
  mapTruncated(limit: number): string;
  /** A crawl's progress line on a terminal. */
  crawlProgress(p: { pages: number; failed: number; queued: number; perSecond: number }): string;
  /** Reasons a flag's value is refused. */
  reasons: {
    integerFrom(min: number): string;
    integerBetween(min: number, max: number): string;
    seconds(max: number): string;
    nonNegativeSeconds: string;
    httpUrl: string;
  };
}

const en: CliTexts = {
  usage: (detail) => `error: ${detail}`,
  helpHint: "(run webfetch --help for usage)",
  note: (text) => `note: ${text}`,
  warning: (text) => `warning: ${text}`,
  errorMessage: (error) => error.message,
  mapTruncated: (limit) =>
    `more URLs were found than the limit of ${limit}; narrow with --search or --include-path, or raise --limit`,
  crawlProgress: (p) =>
    `crawling: ${p.pages} pages · ${p.failed} failed · ${p.queued} queued · ${p.perSecond.toFixed(1)} pages/s`,
  reasons: {
    integerFrom: (min) => `must be an integer >= ${min}`,
    integerBetween: (min, max) => `must be an integer from ${min} to ${max}`,
    seconds: (max) => `must be a positive number of seconds, at most ${max}`,
    nonNegativeSeconds: "must be a number of seconds >= 0",
    httpUrl: "must be an absolute http or https URL",
  },
};

/**
 * The argument parser's (commander's) messages, in Japanese; the flag, the value and our own
 * reasons are kept as they are written.
 */
const JA_USAGE: ReadonlyArray<[RegExp, (...groups: string[]) => string]> = [
  [
    /^option '(.+)' argument '(.*)' is invalid\. Allowed choices are (.+)\.$/s,
    (flag, value, choices) =>
      `オプション ${flag} の値 '${value}' は使えません。使える値: ${choices}`,
  ],
  [
    /^option '(.+)' argument '(.*)' is invalid\. (.*)$/s,
    (flag, value, reason) => `オプション ${flag} の値 '${value}' が正しくありません: ${reason}`,
  ],
  [/^option '(.+)' argument missing$/, (flag) => `オプション ${flag} に値がありません`],
  [/^missing required argument '(.+)'$/, (name) => `引数 ${name} が必要です`],
  [
    /^unknown option '(.+?)'(.*)$/s,
    (flag, rest) => `不明なオプションです: ${flag}${didYouMean(rest)}`,
  ],
  [
    /^unknown command '(.+?)'(.*)$/s,
    (name, rest) => `不明なコマンドです: ${name}${didYouMean(rest)}`,
  ],
  [
    /^too many arguments(?: for '(.+)')?\. (.*)$/s,
    (command, rest) => `引数が多すぎます${command ? `（${command}）` : ""}: ${rest}`,
  ],
];

/** Codes the tools' Japanese texts cover; any other keeps its English message. */
const JA_CODES: ReadonlySet<string> = new Set([...ERROR_CODES, "INTERNAL_ERROR"]);

/** The parser's suggestion, "(Did you mean --json?)". */
function didYouMean(rest: string): string {
  return rest.replace(/\(Did you mean (.+)\?\)/, "（$1 のことですか？）");
}

const ja: CliTexts = {
  usage: (detail) => {
    for (const [pattern, say] of JA_USAGE) {
      const match = pattern.exec(detail);
      if (match) return `エラー: ${say(...match.slice(1).map((g) => g ?? ""))}`;
    }
    return `エラー: ${detail}`;
  },
  helpHint: "（使い方は webfetch --help で確認できます）",
  note: (text) => `注: ${text}`,
  warning: (text) => `警告: ${text}`,
  errorMessage: (error) => {
    if (!JA_CODES.has(error.code)) return error.message;
    const text = textsFor("ja").errorMessage(error);
    // The English message keeps what the Japanese text leaves out: the status, the address.
    const told =
      text.includes(error.message) ||
      (error.location !== undefined && text.includes(error.location));
    return told ? text : `${text}（${error.message}）`;
  },
  mapTruncated: (limit) =>
    `上限の ${limit} 件より多くの URL が見つかりました。--search や --include-path で絞り込むか、--limit を大きくしてください`,
  crawlProgress: (p) =>
    `クロール中: ${p.pages}ページ · 失敗 ${p.failed} · 待機 ${p.queued} · ${p.perSecond.toFixed(1)} ページ/秒`,
  reasons: {
    integerFrom: (min) => `${min} 以上の整数を指定してください`,
    integerBetween: (min, max) => `${min} から ${max} までの整数を指定してください`,
    seconds: (max) => `正の秒数（${max} 秒まで）を指定してください`,
    nonNegativeSeconds: "0 以上の秒数を指定してください",
    httpUrl: "http または https の絶対 URL を指定してください",
  },
};

const TEXTS: Readonly<Record<Locale, CliTexts>> = { en, ja };

/** The CLI's texts in a locale. */
export function cliTexts(locale: Locale): CliTexts {
  return TEXTS[locale];
}
