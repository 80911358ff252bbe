/**
 * Grep over a page's full content: matching lines with their numbers and context, bounded in
 * pattern length, reported matches and time. A model writes the pattern, so it may be invalid or
 * catastrophic (`(a+)+$`): an invalid one is searched as literal text, and a regular expression
 * runs in a `vm` context whose timeout interrupts even a backtracking match inside one line.
 */
import vm from "node:vm";
import { LIMITS } from "../limits.js";

export interface GrepContentOptions {
  /** Lines of context before and after each match. */
  contextLines: number;
  /** Matching lines reported; more are counted only. @default LIMITS.grepMaxMatches */
  maxMatches?: number;
  /** Time the search may take, ms. @default LIMITS.grepTimeBudgetMs */
  timeBudgetMs?: number;
}

export interface GrepMatch {
  /** 1-based line number. */
  line: number;
  /** The line, clipped around the match when long. */
  text: string;
  /** Up to `contextLines` lines before and after, clipped. */
  before: string[];
  after: string[];
}

export interface Grepped {
  /** `literal` when the pattern was not a valid or not a fast-enough regular expression. */
  mode: "regex" | "literal";
  /** Why a pattern was searched as literal text. */
  fallback?: "invalid-regex" | "slow-regex";
  totalLines: number;
  /** Matching lines found (may exceed `matches.length`). */
  matchCount: number;
  matches: GrepMatch[];
  /** True when the search stopped early (time budget), so `matchCount` is a lower bound. */
  incomplete: boolean;
}

/** Line breaks of converted content (CRLF kept by text/plain pages included). */
const LINE_BREAK = /\r?\n/;

/** Share of the time budget after which a scan stops between lines, keeping what it found. */
const SOFT_STOP = 0.8;

/**
 * The scan that runs inside the vm context. Between lines it checks a soft deadline and stops
 * with partial results; within a line only the vm timeout can stop it.
 */
const SCAN = new vm.Script(`(() => {
  const re = new RegExp(source, flags);
  const hits = [];
  let count = 0;
  let stopped = false;
  for (let i = 0; i < lines.length; i++) {
    if ((i & 255) === 0 && Date.now() > softDeadline) { stopped = true; break; }
    const m = re.exec(lines[i]);
    if (m) { count++; if (hits.length < max) hits.push([i, m.index, m[0].length]); }
  }
  return { hits, count, stopped };
})()`);

interface Scan {
  hits: [number, number, number][];
  count: number;
  stopped: boolean;
}

/**
 * Finds the lines of `content` that match `pattern`: a regular expression, or literal text when
 * it is not a valid one. Case-insensitive unless the pattern has an uppercase letter (smart case).
 *
 * @example
 * grepContent("a\nfoo bar\nb", "foo", { contextLines: 1 }).matches[0]
 * // { line: 2, text: "foo bar", before: ["a"], after: ["b"] }
 */
export function grepContent(
  content: string,
  pattern: string,
  options: GrepContentOptions,
): Grepped {
  if (pattern.length === 0 || pattern.length > LIMITS.grepMaxPattern) {
    throw new RangeError(`pattern must be 1 to ${LIMITS.grepMaxPattern} characters`);
  }
  const contextLines = Math.min(Math.max(0, options.contextLines), LIMITS.grepMaxContext);
  const max = options.maxMatches ?? LIMITS.grepMaxMatches;
  const budget = options.timeBudgetMs ?? LIMITS.grepTimeBudgetMs;
  const lines = content.split(LINE_BREAK);
  const flags = pattern === pattern.toLowerCase() ? "i" : "";

  let scan: Scan | undefined;
  let fallback: Grepped["fallback"];
  if (isValidRegex(pattern, flags)) {
    scan = scanRegex(lines, pattern, flags, max, budget);
    if (!scan) fallback = "slow-regex";
  } else {
    fallback = "invalid-regex";
  }
  const mode = scan ? "regex" : "literal";
  scan ??= scanLiteral(lines, pattern, flags === "i", max, budget);

  const matches = scan.hits.map(([i, index, length]) => ({
    line: i + 1,
    text: clip(lines[i]!, index, length),
    before: lines.slice(Math.max(0, i - contextLines), i).map((l) => clip(l, 0, 0)),
    after: lines.slice(i + 1, i + 1 + contextLines).map((l) => clip(l, 0, 0)),
  }));
  return {
    mode,
    ...(fallback ? { fallback } : {}),
    totalLines: lines.length,
    matchCount: scan.count,
    matches,
    incomplete: scan.stopped,
  };
}

function isValidRegex(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/** Runs the regular expression under the time budget; undefined when the vm had to stop it. */
function scanRegex(
  lines: string[],
  source: string,
  flags: string,
  max: number,
  budget: number,
): Scan | undefined {
  const context = vm.createContext({
    lines,
    source,
    flags,
    max,
    softDeadline: Date.now() + budget * SOFT_STOP,
  });
  try {
    const result = SCAN.runInContext(context, { timeout: budget }) as Scan;
    // Copy out of the vm's realm so callers get plain arrays of this one.
    return {
      hits: Array.from(result.hits, (h) => [h[0], h[1], h[2]] as [number, number, number]),
      count: result.count,
      stopped: result.stopped,
    };
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return undefined;
    throw error;
  }
}

/** Plain substring search: linear, so it needs no vm, only the same soft deadline. */
function scanLiteral(
  lines: string[],
  needle: string,
  ignoreCase: boolean,
  max: number,
  budget: number,
): Scan {
  const wanted = ignoreCase ? needle.toLowerCase() : needle;
  const deadline = Date.now() + budget * SOFT_STOP;
  const hits: [number, number, number][] = [];
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    if ((i & 255) === 0 && Date.now() > deadline) return { hits, count, stopped: true };
    const line = lines[i]!;
    const index = (ignoreCase ? line.toLowerCase() : line).indexOf(wanted);
    if (index >= 0) {
      count++;
      if (hits.length < max) hits.push([i, index, needle.length]);
    }
  }
  return { hits, count, stopped: false };
}

/** A long line shown as a window around the match, marked with ellipses where it was cut. */
function clip(line: string, index: number, length: number): string {
  const limit = LIMITS.grepLineChars;
  if (line.length <= limit) return line;
  // Show some text before the match, and the match itself when it fits.
  const lead = Math.floor((limit - Math.min(length, limit)) / 4);
  const start = Math.max(0, Math.min(index - lead, line.length - limit));
  const end = start + limit;
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}
