/**
 * `webfetch map <url>`: web.map(), a site's URLs one a line (a tab, then the title when known),
 * so the list pipes into `cut`, `grep` or a crawl; warnings and a cut list are said on stderr.
 * --json prints the result object.
 */
import { type Command, Option } from "commander";
import { LIMITS } from "../limits.js";
import { DEFAULTS, MAP_DEFAULTS, type MapOptions } from "../options.js";
import type { MapResult } from "../result.js";
import { SITEMAP_MODES, type SitemapMode } from "../values.js";
import { type CommandContext, collect, inSeconds } from "./flags.js";
import { EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";
import { keepBaselineWasm } from "./short-run.js";
import type { CliTexts } from "./texts.js";

interface MapFlags extends GlobalFlags {
  limit?: number;
  search?: string;
  sitemap?: SitemapMode;
  includeSubdomains?: boolean;
  includePath?: string[];
  excludePath?: string[];
  timeout?: number;
}

/** Adds `map` to the program. */
export function addMapCommand(program: Command, cli: CommandContext): void {
  const { parse } = cli;
  program
    .command("map")
    .description("list a site's URLs from its sitemaps and the start page's links")
    .argument("<url>", "the site's start URL")
    .option(
      "--limit <n>",
      `URLs to list, 1 to ${LIMITS.mapMaxLinks} (default ${MAP_DEFAULTS.limit})`,
      parse.between(1, LIMITS.mapMaxLinks),
    )
    .option("--search <query>", "rank the URLs by this query, best first; others are left out")
    .addOption(
      new Option(
        "--sitemap <mode>",
        `sitemaps and the start page (include), sitemaps only, or the start page only (skip) (default ${MAP_DEFAULTS.sitemap})`,
      ).choices(SITEMAP_MODES),
    )
    .option("--include-subdomains", "also list URLs on the other hosts of the site's domain")
    .option(
      "--include-path <regex>",
      "keep only URLs whose path matches this regular expression (repeatable)",
      collect,
    )
    .option(
      "--exclude-path <regex>",
      "leave out URLs whose path matches this regular expression (repeatable)",
      collect,
    )
    .option(
      "--timeout <s>",
      `total deadline in seconds (default ${inSeconds(DEFAULTS.timeout)})`,
      parse.seconds,
    )
    .action(cli.action<MapFlags>((flags, [url]) => mapCommand(url!, flags, cli)));
}

async function mapCommand(url: string, flags: MapFlags, cli: CommandContext): Promise<number> {
  const { io, env, t } = cli;
  keepBaselineWasm();
  const { options } = await cliSetup(flags, io, env);
  const { createWebFetch } = await import("../webfetch/index.js");
  const web = createWebFetch(options);
  try {
    const result = await web.map(url, mapOptions(flags));
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      for (const warning of result.warnings ?? []) io.stderr.write(`${t.warning(warning)}\n`);
      io.stdout.write(listText(result));
      if (result.truncated) io.stderr.write(`${truncatedNote(t, flags.limit)}\n`);
    }
    return EXIT.ok;
  } finally {
    await web.close();
  }
}

/** One URL a line, a tab and the title after it when known. */
function listText(result: MapResult): string {
  return result.links
    .map((link) =>
      link.title ? `${link.url}\t${link.title.replace(/\s+/g, " ").trim()}\n` : `${link.url}\n`,
    )
    .join("");
}

function truncatedNote(t: CliTexts, limit: number = MAP_DEFAULTS.limit): string {
  return t.note(t.mapTruncated(limit));
}

function mapOptions(flags: MapFlags): MapOptions {
  return {
    ...(flags.limit === undefined ? {} : { limit: flags.limit }),
    ...(flags.search === undefined ? {} : { search: flags.search }),
    ...(flags.sitemap ? { sitemap: flags.sitemap } : {}),
    ...(flags.includeSubdomains ? { includeSubdomains: true } : {}),
    ...(flags.includePath ? { includePaths: flags.includePath } : {}),
    ...(flags.excludePath ? { excludePaths: flags.excludePath } : {}),
    ...(flags.timeout === undefined ? {} : { timeout: Math.round(flags.timeout * 1000) }),
  };
}
