/**
 * The text a model reads: a short header (title, final URL), the content, and for a cut page a
 * continuation line in the tool's language; a section per URL for many URLs; grep's
 * numbered lines. Structured results are left as the library returns them.
 */
import type { ContextResult } from "../context/build.js";
import type { ExtractResult } from "../pages/extract.js";
import type {
  CrawlPage,
  CrawlSummary,
  FetchResult,
  GrepResult,
  MapResult,
  Screenshot,
} from "../result.js";
import type { SearchResponse } from "../search/types.js";
import { continuationLine } from "../shape/truncate.js";
import type { ErrorInfo, Texts } from "./texts.js";
import type { ToolEnv } from "./types.js";

/** What formatting needs: the language, and the current names of tools it may point to. */
export type TextEnv = Pick<ToolEnv, "texts" | "nameOf">;

/** The page's content with its continuation line in the tool's words (naming the id's tools). */
export function contentText(result: FetchResult, env: TextEnv): string {
  if (result.query !== undefined && result.chunks) {
    const { focus } = env.texts;
    if (result.content === "") return focus.none(result.query);
    const summary = focus.summary(result.query, result.chunks.returned, result.chunks.matched);
    return `${summary}\n\n${result.content}`;
  }
  const next = result.nextStartIndex;
  if (!result.truncated || next === undefined) return result.content;
  const line = continuationLine(next, result.totalLength);
  const body = result.content.endsWith(line)
    ? result.content.slice(0, -line.length).trimEnd()
    : result.content;
  const continuation = env.texts.continuation({
    next,
    total: result.totalLength,
    id: result.id,
    read: env.nameOf("web_read"),
    grep: env.nameOf("web_grep"),
  });
  return `${body}\n\n${continuation}`;
}

/**
 * Title, final URL (and saved file), the note and warnings (why the content is thinner than the
 * page, so a model never reads a short or empty text as the whole page), then the content.
 */
export function pageText(result: FetchResult, env: TextEnv): string {
  const { labels } = env.texts;
  const header = [
    ...titleLines(result.title, env),
    `${labels.url}: ${result.finalUrl}`,
    ...(result.savedPath ? [`${labels.savedPath}: ${result.savedPath}`] : []),
    ...(result.note ? [result.note] : []),
    ...warningLines(result, env),
    ...(result.screenshot ? [screenshotLine(result.screenshot, env)] : []),
  ];
  return `${header.join("\n")}\n\n${contentText(result, env)}${listsText(result, env.texts.labels)}`;
}

/**
 * Data filled from a page (`schema`): title, final URL and warnings as for a page, then the
 * data as pretty JSON.
 */
export function dataText(result: FetchResult, env: TextEnv): string {
  const { labels } = env.texts;
  const header = [
    ...titleLines(result.title, env),
    `${labels.url}: ${result.finalUrl}`,
    ...warningLines(result, env),
  ];
  return `${header.join("\n")}\n\n${JSON.stringify(result.data, null, 2)}`;
}

/**
 * The page's links and images, when the call asked for them, each under its own heading after
 * the content: `- [text](url)`, marked `(main)` inside the main content; `- ![alt](url)`.
 */
export function listsText(
  result: FetchResult,
  labels: Pick<TextEnv["texts"]["labels"], "links" | "images">,
): string {
  const sections: string[] = [];
  if (result.links) {
    const lines = result.links.map(
      (link) => `- [${bare(link.text)}](${link.url})${link.inMain ? " (main)" : ""}`,
    );
    sections.push([`## ${labels.links}`, ...lines].join("\n"));
  }
  if (result.images) {
    const lines = result.images.map((image) => `- ![${bare(image.alt)}](${image.url})`);
    sections.push([`## ${labels.images}`, ...lines].join("\n"));
  }
  return sections.length > 0 ? `\n\n${sections.join("\n\n")}` : "";
}

/** A label without the brackets that would end its Markdown link early. */
export function bare(label: string): string {
  return label.replace(/[[\]]/g, "");
}

/** The line that says a screenshot was taken: its size in pixels and bytes. */
export function screenshotLine(shot: Screenshot, env: TextEnv): string {
  const bytes = Buffer.byteLength(shot.data, "base64");
  return env.texts.screenshot({ width: shot.width, height: shot.height, bytes });
}

/** The `Title: …` line of a page that has a title, as a list of none or one. */
export function titleLines(title: string | undefined, env: TextEnv): string[] {
  return title ? [`${env.texts.labels.title}: ${title}`] : [];
}

/** One `Warning: …` line per warning of the result. */
export function warningLines(result: FetchResult, env: TextEnv): string[] {
  return (result.warnings ?? []).map((w) => `${env.texts.labels.warning}: ${w}`);
}

/**
 * One section per URL (its URL, its title, its warnings, its content), `---` between them, then
 * the failed URLs.
 */
export function extractText(result: ExtractResult, env: TextEnv): string {
  const t = env.texts.extract;
  const sections = result.results.map(
    (r) =>
      [
        t.item(r.url),
        ...titleLines(r.title, env),
        ...warningLines(r, env),
        contentText(r, env),
      ].join("\n") + listsText(r, env.texts.labels),
  );
  const failed = result.failed.map((f) =>
    t.failedItem(f.url, env.texts.errorMessage({ code: f.code, message: f.message })),
  );
  const failedPart = failed.length > 0 ? `${t.failedHeading}\n${failed.join("\n")}` : "";
  if (sections.length === 0) {
    return [t.heading, t.none, failedPart].filter(Boolean).join("\n\n");
  }
  const body = [...sections, ...(failedPart ? [failedPart] : [])].join("\n\n---\n\n");
  return `${t.heading}\n\n${body}`;
}

/** The heading, then each result numbered with its URL, score and snippet. */
export function searchText(response: SearchResponse, env: TextEnv): string {
  const t = env.texts.search;
  const items = response.results.map((r, i) =>
    t.result(i + 1, r.title, r.url, r.score, r.snippet).trimEnd(),
  );
  return [t.heading(response.query), ...(items.length > 0 ? items : [t.none])].join("\n\n");
}

/**
 * The heading, the warnings, then one URL a line (its title after it when known), and a closing
 * line when more were found than the limit.
 */
export function mapText(result: MapResult, env: TextEnv, limit: number): string {
  const { map: t, labels } = env.texts;
  const lines = result.links.map((link) =>
    link.title ? `${link.url} — ${oneLine(link.title)}` : link.url,
  );
  return [
    t.heading(result.url, result.links.length),
    ...(result.warnings ?? []).map((w) => `${labels.warning}: ${w}`),
    "",
    ...(lines.length > 0 ? lines : [t.none]),
    ...(result.truncated ? ["", t.truncated(limit)] : []),
  ].join("\n");
}

/**
 * One crawled page: its number, URL, depth (and id, for a host that reads on by id), title,
 * warnings and content.
 */
export function crawlPageText(page: CrawlPage, n: number, env: TextEnv, withId: boolean): string {
  const { crawl: t } = env.texts;
  return [
    t.item(n, page.finalUrl, page.depth, withId ? page.id : undefined),
    ...titleLines(page.title, env),
    ...warningLines(page, env),
    "",
    contentText(page, env) + listsText(page, env.texts.labels),
  ].join("\n");
}

/** A crawl's summary: its counts, whether it was stopped, its warnings and its failed URLs. */
export function crawlSummaryText(summary: CrawlSummary, env: TextEnv): string {
  const { crawl: t, labels } = env.texts;
  const { skipped } = summary;
  return [
    t.summaryHeading,
    "",
    ...(summary.pages === 0 ? [t.none] : []),
    t.summary({
      pages: summary.pages,
      failed: summary.failed.length,
      ...skipped,
      seconds: summary.elapsedMs / 1000,
    }),
    ...(summary.cancelled ? [t.cancelled] : []),
    ...(summary.warnings ?? []).map((w) => `${labels.warning}: ${w}`),
    ...summary.failed.map((f) =>
      t.failedItem(f.url, env.texts.errorMessage({ code: f.code, message: f.message })),
    ),
  ].join("\n");
}

/** A title on one line: a model reads one URL per line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The heading, then the cited context (or the no-results text). */
export function contextText(result: ContextResult, env: TextEnv): string {
  const body = result.context === "" ? env.texts.search.none : result.context;
  return `${contextHeading(result.query, env)}${body}`;
}

/** The heading line of a context text and the blank line after it. */
export function contextHeading(query: string, env: TextEnv): string {
  return `${env.texts.context.heading(query)}\n\n`;
}

/** A summary, then each match grep-style: `N: line` for matches, `N- line` around them. */
export function grepText(result: GrepResult, env: TextEnv): string {
  const { labels, grep: t } = env.texts;
  const header = [...titleLines(result.title, env), `${labels.url}: ${result.finalUrl}`];
  const notes = [
    ...(result.fallback === "invalid-regex" ? [t.invalidRegex] : []),
    ...(result.fallback === "slow-regex" ? [t.slowRegex] : []),
    result.matchCount === 0
      ? t.none(result.pattern)
      : t.summary(result.matchCount, result.pattern, result.totalLines),
    ...(result.matches.length < result.matchCount ? [t.shown(result.matches.length)] : []),
    ...(result.incomplete ? [t.incomplete] : []),
  ];
  const blocks = grepBlocks(result);
  return [header.join("\n"), notes.join("\n"), ...(blocks ? [blocks] : [])].join("\n\n");
}

/** Matches and their context as numbered lines; overlapping context is printed once. */
function grepBlocks(result: GrepResult): string {
  const lines = new Map<number, { text: string; match: boolean }>();
  for (const m of result.matches) {
    m.before.forEach((text, i) => {
      const n = m.line - m.before.length + i;
      if (!lines.has(n)) lines.set(n, { text, match: false });
    });
    lines.set(m.line, { text: m.text, match: true });
    m.after.forEach((text, i) => {
      const n = m.line + 1 + i;
      if (!lines.get(n)?.match) lines.set(n, { text, match: false });
    });
  }
  const out: string[] = [];
  let previous: number | undefined;
  for (const n of [...lines.keys()].sort((a, b) => a - b)) {
    if (previous !== undefined && n > previous + 1) out.push("--");
    const line = lines.get(n)!;
    out.push(`${n}${line.match ? ":" : "-"} ${line.text}`);
    previous = n;
  }
  return out.join("\n");
}

/** The message in the tool's language, then the code, on two lines. */
export function errorText(error: ErrorInfo, texts: Texts, provider = false): string {
  const message = provider ? texts.providerError(error) : texts.errorMessage(error);
  return `${message}\n${texts.labels.errorType}: ${error.code}`;
}
