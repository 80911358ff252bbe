/**
 * Results cut to a token budget, for hosts that refuse long tool results (Claude Code takes
 * 25,000 tokens of an MCP result). A result is measured as such a host shows it: the text and
 * the result object as JSON, counted together with o200k, since a host may show either or both;
 * image blocks are not counted, and a screenshot's base64 counts one token per character (an
 * upper bound, so megabytes are never tokenized). A page's content is cut to a shorter window
 * at a boundary, keeping its continuation line; many pages share the budget, the longest cut
 * first; any other result has its long strings and lists shortened. Every cut says so in the
 * result, and a cut page is named in `rest` for a host to link.
 */
import type { FetchResult } from "../result.js";
import { continuationLine, cutPoint } from "../shape/truncate.js";
import type { Texts } from "./texts.js";
import type { PageRest, ToolBudget, ToolEnv, ToolOutput, ToolSpec } from "./types.js";

/**
 * Tokens of the budget kept free for what is added after the cut: the call's time, the host's
 * framing of the content blocks.
 */
const RESERVE_TOKENS = 200;

/** Tokens a resource link takes beyond its fields' text (its JSON keys and framing). */
const LINK_TOKENS = 40;

/** Rounds of cutting at most: each measures again and cuts what is still over. */
const MAX_ROUNDS = 8;

/** Share of the estimated length a cut keeps, so that one round is usually enough. */
const SHRINK = 0.9;

/** Characters of a string the generic cut leaves whole: URLs, titles, short snippets. */
const MIN_STRING = 200;

/** Items of a list the generic cut leaves whole. */
const MIN_ITEMS = 5;

/** The most a cut result may measure: the budget less the reserve. */
export function budgetTarget(budget: ToolBudget): number {
  return Math.max(1, budget.maxTokens - RESERVE_TOKENS);
}

/** Tokens of a result as a host shows it: text, object as JSON, and the links to the rest. */
export function measureOutput(output: ToolOutput, count: ToolBudget["count"]): number {
  let shot = 0;
  const json = JSON.stringify(output.structured, function (this: unknown, key, value: unknown) {
    // A screenshot's base64 counts as many tokens as characters, without tokenizing it.
    if (key === "data" && typeof value === "string" && isScreenshot(this)) {
      shot += value.length;
      return "";
    }
    return value;
  });
  const rest = output.rest?.length
    ? count(JSON.stringify(output.rest)) + LINK_TOKENS * output.rest.length
    : 0;
  return count(output.text) + count(json ?? "") + shot + rest;
}

/**
 * `output` within the budget: unchanged when it fits, else cut by the tool's own `fit`, then,
 * if that is not enough, by shortening long strings and lists.
 */
export async function fitOutput(
  output: ToolOutput,
  budget: ToolBudget,
  env: ToolEnv,
  fitTool?: ToolSpec["fit"],
): Promise<ToolOutput> {
  const limit = budgetTarget(budget);
  if (measureOutput(output, budget.count) <= limit) return output;
  let fitted = fitTool ? { ...output, ...(await fitTool(output, budget, env)) } : output;
  if (measureOutput(fitted, budget.count) > limit) fitted = fitGeneric(fitted, budget, env.texts);
  return fitted;
}

/**
 * One page (web_fetch, web_read) within the budget: a screenshot's base64 leaves the object
 * (the image block keeps it), then the content is cut to a shorter window.
 */
export function fitPage(
  page: FetchResult,
  budget: ToolBudget,
  texts: Texts,
  render: (page: FetchResult) => string,
): ToolOutput {
  const limit = budgetTarget(budget);
  const warning = texts.budget.cut(budget.maxTokens);
  // The text still counts the screenshot's bytes from its base64; only the object loses it.
  const dropShot = Boolean(page.screenshot?.data);
  let current: FetchResult = dropShot
    ? {
        ...page,
        warnings: [...(page.warnings ?? []), texts.budget.screenshotData(budget.maxTokens)],
      }
    : page;
  let cut = false;
  const output = (): ToolOutput => ({
    text: render(current),
    structured: dropShot ? withoutScreenshotData(current) : { ...current },
    ...(cut ? { rest: [restOf(current)] } : {}),
  });
  let out = output();
  let size = measureOutput(out, budget.count);
  if (size <= limit) return out;
  // What the result takes without its content: the room left is the content's.
  const full = current;
  current = cutContent(full, 0, warning);
  cut = true;
  const base = measureOutput(output(), budget.count);
  for (let round = 0, room = full.content.length; round < MAX_ROUNDS && base < limit; round++) {
    // Content tokens grow with its length (twice: text and JSON), so the share that fits is
    // the room over what the content took, a little under.
    room = Math.floor((room * (limit - base) * SHRINK) / Math.max(1, size - base));
    current = cutContent(full, room, warning);
    out = output();
    size = measureOutput(out, budget.count);
    if (size <= limit) return out;
  }
  current = cutContent(full, 0, warning);
  return output();
}

/**
 * Many pages (web_extract) within the budget: the longest contents are cut first, down to a
 * common level, so short pages stay whole.
 */
export function fitPages<R extends { results: FetchResult[] }>(
  result: R,
  budget: ToolBudget,
  texts: Texts,
  render: (result: R) => string,
): ToolOutput {
  const limit = budgetTarget(budget);
  const warning = texts.budget.cut(budget.maxTokens);
  let pages = result.results;
  const cut = new Set<number>();
  const output = (): ToolOutput => {
    const structured = { ...result, results: pages };
    const rest = [...cut].sort((a, b) => a - b).map((i) => restOf(pages[i]!));
    return { text: render(structured), structured, ...(rest.length > 0 ? { rest } : {}) };
  };
  let out = output();
  let size = measureOutput(out, budget.count);
  if (size <= limit) return out;
  const full = pages;
  const lengths = full.map((p) => p.content.length);
  const total = lengths.reduce((sum, n) => sum + n, 0);
  // What the result takes without any content: the room left is the contents'.
  const emptied = full.map((p) => cutContent(p, 0, warning));
  pages = emptied;
  const base = measureOutput(
    { text: render({ ...result, results: emptied }), structured: { ...result, results: emptied } },
    budget.count,
  );
  let room = total;
  for (let round = 0; round < MAX_ROUNDS && base < limit; round++) {
    room = Math.floor((room * (limit - base) * SHRINK) / Math.max(1, size - base));
    // The longest contents are cut down to a common length; shorter ones stay whole.
    const level = waterLevel(lengths, total - room);
    cut.clear();
    pages = full.map((p, i) => {
      if (lengths[i]! <= level) return p;
      cut.add(i);
      return cutContent(p, level, warning);
    });
    out = output();
    size = measureOutput(out, budget.count);
    if (size <= limit) return out;
  }
  cut.clear();
  pages = emptied;
  full.forEach((p, i) => {
    if (p.content !== emptied[i]!.content) cut.add(i);
  });
  return output();
}

/**
 * Any result within the budget: the text cut at a boundary with a note, and in the object
 * every long string shortened and every long list thinned by the same share.
 */
export function fitGeneric(output: ToolOutput, budget: ToolBudget, texts: Texts): ToolOutput {
  const limit = budgetTarget(budget);
  const note = texts.budget.textCut(budget.maxTokens);
  let out = output;
  let size = measureOutput(out, budget.count);
  for (let round = 0; size > limit && round < MAX_ROUNDS; round++) {
    const share = (limit / size) * SHRINK;
    out = {
      ...out,
      text: cutText(out.text, Math.floor(out.text.length * share), note),
      structured: shorten(out.structured, share) as Record<string, unknown>,
    };
    size = measureOutput(out, budget.count);
  }
  return out;
}

/**
 * The page with its content cut to about `chars` characters at a boundary, and a warning that
 * says so. A window (no query, no prompt) keeps its continuation line, now from the new end;
 * focused passages or an answer are only shortened.
 */
export function cutContent(page: FetchResult, chars: number, warning: string): FetchResult {
  const line =
    page.nextStartIndex === undefined
      ? undefined
      : continuationLine(page.nextStartIndex, page.totalLength);
  const body =
    line && page.content.endsWith(line)
      ? page.content.slice(0, -line.length).trimEnd()
      : page.content;
  const end =
    chars <= 0 ? 0 : chars >= body.length ? body.length : cutPoint(body, 0, Math.max(1, chars));
  if (end >= body.length) return page;
  const warnings = page.warnings?.includes(warning)
    ? page.warnings
    : [...(page.warnings ?? []), warning];
  const kept = body.slice(0, end).trimEnd();
  if (!isWindow(page)) return { ...page, content: kept, warnings };
  const next = page.startIndex + end;
  return {
    ...page,
    content: `${kept}${kept === "" ? "" : "\n\n"}${continuationLine(next, page.totalLength)}`,
    truncated: true,
    nextStartIndex: next,
    warnings,
  };
}

/** Where a cut page goes on: after its window, or from the start for passages or an answer. */
export function restOf(page: FetchResult): PageRest {
  return {
    id: page.id,
    url: page.finalUrl,
    ...(page.title ? { title: page.title } : {}),
    format: page.format,
    contentType: page.contentType,
    start: isWindow(page) ? (page.nextStartIndex ?? page.startIndex) : 0,
    total: page.totalLength,
  };
}

/** A window of the page's content, rather than passages matching a query or a model's answer. */
function isWindow(page: FetchResult): boolean {
  return page.query === undefined && page.prompt === undefined;
}

/** The page as an object without its screenshot's base64 (the image block carries it). */
function withoutScreenshotData(page: FetchResult): Record<string, unknown> {
  const { data: _data, ...shot } = page.screenshot!;
  return { ...page, screenshot: shot };
}

/**
 * The level no page's tokens may pass so that cutting every page above it down to it frees
 * `need` tokens; 0 when even that is not enough.
 */
export function waterLevel(tokens: readonly number[], need: number): number {
  const sorted = [...tokens].sort((a, b) => b - a);
  let above = 0;
  for (let i = 0; i < sorted.length; i++) {
    above += sorted[i]!;
    const next = sorted[i + 1] ?? 0;
    // Cutting the i+1 longest down to `next` frees above - (i+1)·next.
    if (above - (i + 1) * next >= need) return Math.max(0, Math.floor((above - need) / (i + 1)));
  }
  return 0;
}

/** `text` cut to about `chars` characters at a boundary, ending with `note` (once). */
function cutText(text: string, chars: number, note: string): string {
  const body = text.endsWith(note) ? text.slice(0, -note.length).trimEnd() : text;
  if (chars >= body.length) return text;
  const end = chars <= 0 ? 0 : cutPoint(body, 0, Math.max(1, chars));
  const kept = body.slice(0, end).trimEnd();
  return kept === "" ? note : `${kept}\n\n${note}`;
}

/** Every string over MIN_STRING and every list over MIN_ITEMS cut to `share` of its length. */
function shorten(value: unknown, share: number, holder?: unknown, key?: string): unknown {
  if (typeof value === "string") {
    // A screenshot's base64 is an image: cut, it would be no image at all.
    if (value.length <= MIN_STRING || (key === "data" && isScreenshot(holder))) return value;
    return `${value.slice(0, Math.max(MIN_STRING, Math.floor(value.length * share)))}…`;
  }
  if (Array.isArray(value)) {
    const kept =
      value.length > MIN_ITEMS
        ? value.slice(0, Math.max(MIN_ITEMS, Math.floor(value.length * share)))
        : value;
    return kept.map((item) => shorten(item, share));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, shorten(v, share, value, k)]),
    );
  }
  return value;
}

/** True for a screenshot object: an image type, a width and base64 data. */
function isScreenshot(holder: unknown): boolean {
  if (holder === null || typeof holder !== "object") return false;
  const h = holder as { mimeType?: unknown; width?: unknown };
  return typeof h.mimeType === "string" && h.mimeType.startsWith("image/") && "width" in h;
}
