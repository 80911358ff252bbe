/**
 * `webfetch crawl <url>`: web.crawl(), each page printed as it arrives (a Markdown section, or
 * with --json one JSON object a line), then the summary (a last section, or a last line
 * `{"summary": …}`). On a terminal a progress line on stderr counts pages, failures, the queue
 * and pages/s. Ctrl-C stops the crawl: the pages so far and the summary are printed, and the
 * status is 130.
 */
import type { Command } from "commander";
import { LIMITS } from "../limits.js";
import { CRAWL_DEFAULTS, type CrawlOptions, type CrawlProgress } from "../options.js";
import { crawlPageText, crawlSummaryText } from "../tools/format.js";
import { textsFor } from "../tools/texts.js";
import { addContentFlags, type CommandContext, callFlags, collect } from "./flags.js";
import { type CliIO, EXIT } from "./io.js";
import { type CallFlags, callOptions, cliSetup, refuseConflicts } from "./setup.js";
import type { CliTexts } from "./texts.js";

interface CrawlFlags extends CallFlags {
  limit?: number;
  maxDepth?: number;
  includePath?: string[];
  excludePath?: string[];
  allowSubdomains?: boolean;
  allowExternal?: boolean;
  query?: string;
  concurrency?: number;
}

/** Least time between two draws of the progress line, ms. */
const PROGRESS_INTERVAL_MS = 100;

/** Adds `crawl` to the program. */
export function addCrawlCommand(program: Command, cli: CommandContext): void {
  const { parse } = cli;
  const call = callFlags(parse, " per page");
  addContentFlags(
    program
      .command("crawl")
      .description("fetch a site's pages by following its links (progress on stderr; Ctrl-C stops)")
      .argument("<url>", "the start URL")
      .option(
        "--limit <n>",
        `pages to fetch, 1 to ${LIMITS.crawlMaxPages} (default ${CRAWL_DEFAULTS.limit})`,
        parse.between(1, LIMITS.crawlMaxPages),
      )
      .option(
        "--max-depth <n>",
        `links to follow from the start page, 0 to ${LIMITS.crawlMaxDepth} (default ${CRAWL_DEFAULTS.maxDepth})`,
        parse.between(0, LIMITS.crawlMaxDepth),
      )
      .option(
        "--include-path <regex>",
        "follow only links whose path matches this regular expression (repeatable)",
        collect,
      )
      .option(
        "--exclude-path <regex>",
        "do not follow links whose path matches this regular expression (repeatable)",
        collect,
      )
      .option("--allow-subdomains", "also follow links to the other hosts of the site's domain")
      .option("--allow-external", "also follow links to other sites")
      .option("--query <q>", "fetch the pages most relevant to this query first")
      .option(
        "--concurrency <n>",
        `pages fetched at once, 1 to ${LIMITS.crawlMaxConcurrency} (default ${CRAWL_DEFAULTS.concurrency})`,
        parse.between(1, LIMITS.crawlMaxConcurrency),
      ),
    call,
  )
    .addOption(call.maxLength)
    .addOption(call.timeout)
    .addOption(call.noCache)
    .addOption(call.ignoreRobots)
    .action(cli.action<CrawlFlags>((flags, [url]) => crawlCommand(url!, flags, cli)));
}

async function crawlCommand(url: string, flags: CrawlFlags, cli: CommandContext): Promise<number> {
  const { io, env, t } = cli;
  // A crawl's --query orders the pages; it does not cut their content, so it conflicts with nothing.
  const { query: _ordering, ...pageFlags } = flags;
  refuseConflicts(pageFlags);
  const { options } = await cliSetup(flags, io, env);
  const { createWebFetch } = await import("../webfetch/index.js");
  const web = createWebFetch(options);
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error("interrupted"));
  process.once("SIGINT", onInterrupt);
  const bar = io.stderr.isTTY ? progressLine(io, t) : undefined;
  try {
    const run = web.crawl(url, {
      ...crawlOptions(flags),
      signal: stop.signal,
      ...(bar ? { onProgress: bar.draw } : {}),
    });
    const env = { texts: textsFor(web.options.locale), nameOf: () => undefined };
    let n = 0;
    if (!flags.json) io.stdout.write(`${env.texts.crawl.heading(url)}\n`);
    try {
      for await (const page of run) {
        n++;
        bar?.clear();
        io.stdout.write(
          flags.json
            ? `${JSON.stringify(page)}\n`
            : `\n${crawlPageText(page, n, env, false)}\n\n---\n`,
        );
      }
    } finally {
      bar?.clear();
    }
    const summary = await run.summary;
    io.stdout.write(
      flags.json ? `${JSON.stringify({ summary })}\n` : `\n${crawlSummaryText(summary, env)}\n`,
    );
    return summary.cancelled ? EXIT.interrupted : EXIT.ok;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
    await web.close();
  }
}

/** The progress line on a terminal, redrawn in place at most every PROGRESS_INTERVAL_MS. */
function progressLine(io: CliIO, t: CliTexts) {
  let drawn = 0;
  let shown = false;
  return {
    draw(p: CrawlProgress): void {
      const now = performance.now();
      if (now - drawn < PROGRESS_INTERVAL_MS) return;
      drawn = now;
      shown = true;
      const perSecond = p.elapsedMs > 0 ? (p.pages * 1000) / p.elapsedMs : 0;
      io.stderr.write(`\r\x1b[K${t.crawlProgress({ ...p, perSecond })}`);
    },
    clear(): void {
      if (shown) io.stderr.write("\r\x1b[K");
      shown = false;
      drawn = 0;
    },
  };
}

function crawlOptions(flags: CrawlFlags): CrawlOptions {
  return {
    ...callOptions(flags),
    ...(flags.limit === undefined ? {} : { limit: flags.limit }),
    ...(flags.maxDepth === undefined ? {} : { maxDepth: flags.maxDepth }),
    ...(flags.includePath ? { includePaths: flags.includePath } : {}),
    ...(flags.excludePath ? { excludePaths: flags.excludePath } : {}),
    ...(flags.allowSubdomains ? { allowSubdomains: true } : {}),
    ...(flags.allowExternal ? { allowExternal: true } : {}),
    ...(flags.query === undefined ? {} : { query: flags.query }),
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
  };
}
