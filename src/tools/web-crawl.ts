/**
 * web_crawl: a few of a site's pages, found by following its links, each under a heading with
 * its URL, depth and id (web_read / web_grep reach the rest of it), then the crawl's summary.
 * Bounded for a model: 10 pages unless asked, 100 at most, the whole result within the host's
 * token budget (the longest pages cut first).
 */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { CRAWL_DEFAULTS, type CrawlOptions, type CrawlProgress } from "../options.js";
import type { CrawlPage, CrawlSummary } from "../result.js";
import { budgetTarget, fitPages, measureOutput } from "./budget.js";
import { crawlPageText, crawlSummaryText, type TextEnv } from "./format.js";
import { TOOL_DEFAULTS } from "./options.js";
import {
  extractModeParam,
  listOptions,
  listParams,
  optionalQueryParam,
  pathsParam,
  refuseConflicts,
  selectorOptions,
  selectorParams,
  urlParam,
} from "./params.js";
import { crawlResultSchema } from "./schemas.js";
import { defineTool, type ToolEnv } from "./types.js";

/** A page left out of a result to fit a token budget: enough to read it by id. */
interface PageBrief {
  url: string;
  id: string;
  title?: string;
}

/**
 * What web_crawl answers: the pages in the order they came (the last ones only named in `more`
 * when the whole does not fit the host's budget), and the summary.
 */
interface CrawlOutput {
  results: CrawlPage[];
  more?: PageBrief[];
  summary: CrawlSummary;
}

/** Share of the pages kept in full at each step of fitting a budget. */
const KEEP_SHARE = 0.7;

export const webCrawlTool = defineTool({
  id: "web_crawl",
  texts: (t) => t.tools.web_crawl,
  input: ({ texts: t }) =>
    z.object({
      url: urlParam(t).describe(t.params.crawl_url),
      limit: z
        .number()
        .int()
        .min(1, `must be between 1 and ${LIMITS.toolCrawlMaxPages}`)
        .max(LIMITS.toolCrawlMaxPages, `must be between 1 and ${LIMITS.toolCrawlMaxPages}`)
        .optional()
        .describe(t.params.crawl_limit(TOOL_DEFAULTS.crawlLimit, LIMITS.toolCrawlMaxPages)),
      max_depth: z
        .number()
        .int()
        .min(0)
        .max(LIMITS.crawlMaxDepth)
        .optional()
        .describe(t.params.max_depth(CRAWL_DEFAULTS.maxDepth, LIMITS.crawlMaxDepth)),
      query: optionalQueryParam(t.params.crawl_query),
      include_paths: pathsParam(
        t.params.include_paths(LIMITS.pathPatternsMax, LIMITS.pathPatternMaxLength),
      ),
      exclude_paths: pathsParam(t.params.exclude_paths),
      allow_subdomains: z.boolean().optional().describe(t.params.allow_subdomains),
      allow_external: z.boolean().optional().describe(t.params.allow_external),
      extract_mode: extractModeParam(t),
      ...selectorParams(t),
      ...listParams(t),
    }),
  output: crawlResultSchema,
  async handle(input, env) {
    refuseConflicts(input);
    const limit = input.limit ?? TOOL_DEFAULTS.crawlLimit;
    const options: CrawlOptions = {
      limit,
      ...(input.max_depth === undefined ? {} : { maxDepth: input.max_depth }),
      ...(input.query === undefined ? {} : { query: input.query }),
      ...(input.include_paths ? { includePaths: input.include_paths } : {}),
      ...(input.exclude_paths ? { excludePaths: input.exclude_paths } : {}),
      ...(input.allow_subdomains === undefined ? {} : { allowSubdomains: input.allow_subdomains }),
      ...(input.allow_external === undefined ? {} : { allowExternal: input.allow_external }),
      ...(input.extract_mode ? { format: input.extract_mode } : {}),
      ...selectorOptions(input),
      ...listOptions(input),
      maxLength: env.settings.maxLength,
      ...(env.settings.timeout === undefined ? {} : { timeout: env.settings.timeout }),
      ...(env.signal ? { signal: env.signal } : {}),
      ...(env.progress ? { onProgress: progressOf(env.progress, limit) } : {}),
    };
    const run = env.web.crawl(input.url, options);
    const results: CrawlPage[] = [];
    for await (const page of run) results.push(page);
    const output: CrawlOutput = { results, summary: await run.summary };
    return { text: crawlText(output, env), structured: { ...output } };
  },
  // Over a host's token budget, the longest pages are cut first and each one's rest linked;
  // when even that is too long, the last pages are named by id instead of shown.
  fit: (output, budget, env) => {
    const full = output.structured as unknown as CrawlOutput;
    const limit = budgetTarget(budget);
    for (let shown = full.results.length; ; shown = Math.floor(shown * KEEP_SHARE)) {
      const left = full.results.slice(shown).map(brief);
      const view: CrawlOutput = {
        results: full.results.slice(0, shown),
        ...(left.length > 0 ? { more: left } : {}),
        summary: full.summary,
      };
      const fitted = fitPages(view, budget, env.texts, (result) => crawlText(result, env));
      if (shown === 0 || measureOutput(fitted, budget.count) <= limit) return fitted;
    }
  },
});

function brief(page: CrawlPage): PageBrief {
  return { url: page.finalUrl, id: page.id, ...(page.title ? { title: page.title } : {}) };
}

/** The heading, each page's section, the pages named by id only, then the summary. */
function crawlText(output: CrawlOutput, env: TextEnv): string {
  const { crawl: t } = env.texts;
  const more = output.more ?? [];
  return [
    t.heading(output.summary.url),
    ...output.results.map((page, i) => crawlPageText(page, i + 1, env, true)),
    ...(more.length > 0
      ? [
          [t.moreHeading(more.length), ...more.map((p) => t.moreItem(p.url, p.id, p.title))].join(
            "\n",
          ),
        ]
      : []),
    crawlSummaryText(output.summary, env),
  ].join("\n\n---\n\n");
}

/** Each page fetched or failed as a step of `limit`, with the counts so far. */
function progressOf(report: NonNullable<ToolEnv["progress"]>, limit: number) {
  return (p: CrawlProgress) =>
    report({
      progress: p.pages + p.failed,
      total: limit,
      message: `${p.pages} pages, ${p.failed} failed, ${p.queued} queued`,
    });
}
