/**
 * The WCXB metric as its README defines it, plus the extras the quality benchmark reports:
 * snippet rates, metadata accuracy, Markdown stripping and structure counts.
 */

/** Python's `\w+` over lowercased text: letters, digits (any script) and underscore. */
const WORD = /[\p{L}\p{N}_]+/gu;

export interface Prf {
  p: number;
  r: number;
  f1: number;
}

function counts(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const token of text.toLowerCase().match(WORD) ?? []) {
    map.set(token, (map.get(token) ?? 0) + 1);
  }
  return map;
}

function total(map: Map<string, number>): number {
  let n = 0;
  for (const c of map.values()) n += c;
  return n;
}

/** Bag-of-tokens precision, recall and F1 of one page (WCXB's per-page score). */
export function scorePage(predicted: string, reference: string): Prf {
  const ref = counts(reference);
  const pred = counts(predicted);
  const refTotal = total(ref);
  const predTotal = total(pred);
  if (refTotal === 0) {
    const v = predTotal === 0 ? 1 : 0;
    return { p: v, r: v, f1: v };
  }
  if (predTotal === 0) return { p: 0, r: 0, f1: 0 };
  let overlap = 0;
  for (const [token, c] of pred) overlap += Math.min(c, ref.get(token) ?? 0);
  const p = overlap / predTotal;
  const r = overlap / refTotal;
  return { p, r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r) };
}

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Share of `snippets` found in `text` (case-insensitive substring, whitespace runs compared as
 * one space, since extractors break lines differently); undefined when there are none.
 */
export function snippetRate(text: string, snippets: readonly string[]): number | undefined {
  const wanted = snippets.map(squash).filter(Boolean);
  if (wanted.length === 0) return undefined;
  const hay = squash(text);
  return wanted.filter((s) => hay.includes(s)).length / wanted.length;
}

/** Markdown → the words a reader sees: syntax, URLs and fences removed. */
export function stripMarkdown(markdown: string): string {
  return (
    markdown
      // Fence lines (``` or ~~~ with an info string).
      .replace(/^[ \t]*(`{3,}|~{3,})[^\n]*$/gm, "")
      // Images are not text (text mode has none): dropped. Links keep their text only.
      .replace(/!\[([^\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, "")
      .replace(/\[((?:[^[\]]|\[[^\]]*\])*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, "$1")
      // Autolinks.
      .replace(/<(https?:[^>\s]+)>/g, "$1")
      // Table delimiter rows, then pipes.
      .replace(/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, "")
      .replace(/(^|[^\\])\|/gm, "$1 ")
      // Headings, blockquote markers, list markers, thematic breaks.
      .replace(/^[ \t]*#{1,6}[ \t]+/gm, "")
      .replace(/^[ \t]*(>[ \t]?)+/gm, "")
      .replace(/^[ \t]*([-*+]|\d{1,9}[.)])[ \t]+/gm, "")
      .replace(/^[ \t]*([-*_][ \t]*){3,}$/gm, "")
      // Emphasis and inline code markers.
      .replace(/(\*{1,3})(?=\S)([^\n]*?\S)\1/g, "$2")
      .replace(/(^|[^\p{L}\p{N}_\\])(_{1,3})(?=\S)([^\n]*?[^\s\\])\2(?![\p{L}\p{N}_])/gu, "$1$3")
      .replace(/`+/g, "")
      // Backslash escapes.
      .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1")
  );
}

/** Counts of Markdown structures: headings, list items, tables, fenced code blocks. */
export interface Structure {
  headings: number;
  items: number;
  tables: number;
  code: number;
}

export function structureOf(markdown: string): Structure {
  const lines = markdown.split("\n");
  let headings = 0;
  let items = 0;
  let tables = 0;
  let fences = 0;
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) {
      fences++;
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (/^#{1,6}\s/.test(line)) headings++;
    else if (/^\s*([-*+]|\d{1,9}[.)])\s+\S/.test(line)) items++;
    else if (/^\s*\|?\s*:?-{3,}:?\s*\|/.test(line)) tables++;
  }
  return { headings, items, tables, code: Math.floor(fences / 2) };
}

const words = (s: string) => (s.toLowerCase().match(WORD) ?? []).join(" ");

/** Title: right when its words match the reference's with F1 ≥ 0.9 (site suffixes cost). */
export function titleMatches(predicted: string | undefined, reference: string): boolean {
  if (!predicted) return false;
  return scorePage(predicted, reference).f1 >= 0.9;
}

/** Author: right when one name's words contain the other's ("By Jane Doe" ~ "Jane Doe"). */
export function authorMatches(predicted: string | undefined, reference: string): boolean {
  if (!predicted) return false;
  const a = words(predicted);
  const b = words(reference);
  return a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a));
}

/** Date: right when the calendar day (YYYY-MM-DD) is the same. */
export function dateMatches(predicted: string | undefined, reference: string): boolean {
  if (!predicted) return false;
  const day = (s: string) => {
    const iso = /(\d{4})-(\d{2})-(\d{2})/.exec(s);
    if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
    const parsed = new Date(s);
    return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString().slice(0, 10);
  };
  const a = day(predicted);
  return a !== undefined && a === day(reference);
}
