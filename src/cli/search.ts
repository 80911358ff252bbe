/**
 * `webfetch search <query>` and `webfetch context <query>`: web.search() and web.context(),
 * printed in the layout of the web_search and web_context tools, or as the result object with
 * --json. The provider comes from --provider, else the configuration, else the first of tavily,
 * brave and searxng whose variable is set in the environment, else duckduckgo.
 */
import { type Command, Option } from "commander";
import { LIMITS } from "../limits.js";
import { type ContextOptions, DEFAULTS, SEARCH_DEFAULTS, type SearchOptions } from "../options.js";
import { SEARCH_PROVIDER_IDS, type SearchProviderId } from "../search/types.js";
import { contextText, searchText, type TextEnv } from "../tools/format.js";
import { textsFor } from "../tools/texts.js";
import { SEARCH_DEPTHS, type SearchDepth, TIME_RANGES } from "../values.js";
import type { WebFetch } from "../webfetch/index.js";
import { type CommandContext, collect, inSeconds } from "./flags.js";
import { type CliIO, EXIT, type GlobalFlags, withNewline } from "./io.js";
import { cliSetup } from "./setup.js";
import { keepBaselineWasm } from "./short-run.js";

interface SearchFlags extends GlobalFlags {
  provider?: SearchProviderId;
  maxResults?: number;
  depth?: SearchDepth;
  includeDomain?: string[];
  excludeDomain?: string[];
  timeRange?: "day" | "week" | "month" | "year";
  timeout?: number;
}

interface ContextFlags extends SearchFlags {
  maxTokens?: number;
}

/** Adds `search` and `context` to the program. */
export function addSearchCommands(program: Command, cli: CommandContext): void {
  searchFlags(
    program
      .command("search")
      .description("search the web through the configured provider")
      .argument("<query...>", `what to search for (at most ${LIMITS.queryMaxLength} characters)`),
    cli,
  ).action(cli.action<SearchFlags>((flags, words) => searchCommand(words, flags, cli.io, cli.env)));

  searchFlags(
    program
      .command("context")
      .description("a cited, token-budgeted context for RAG: search, fetch, rank, pack")
      .argument(
        "<query...>",
        `what the context should answer (at most ${LIMITS.queryMaxLength} characters)`,
      ),
    cli,
  )
    .option(
      "--max-tokens <n>",
      `token budget, source list included (default ${SEARCH_DEFAULTS.maxTokens})`,
      cli.parse.integer(1),
    )
    .action(
      cli.action<ContextFlags>((flags, words) => contextCommand(words, flags, cli.io, cli.env)),
    );
}

/** The flags search and context share. */
function searchFlags(command: Command, { parse }: CommandContext): Command {
  return command
    .addOption(
      new Option("--provider <id>", "search provider (default: config, then environment)").choices(
        SEARCH_PROVIDER_IDS,
      ),
    )
    .option(
      "--max-results <n>",
      `results, 1 to ${LIMITS.searchMaxResults} (default ${SEARCH_DEFAULTS.maxResults})`,
      parse.between(1, LIMITS.searchMaxResults),
    )
    .addOption(new Option("--depth <depth>", "search depth").choices(SEARCH_DEPTHS))
    .option("--include-domain <domain>", "only results from this domain (repeatable)", collect)
    .option("--exclude-domain <domain>", "no results from this domain (repeatable)", collect)
    .addOption(new Option("--time-range <range>", "only recent pages").choices(TIME_RANGES))
    .option(
      "--timeout <s>",
      `total deadline in seconds (default ${inSeconds(DEFAULTS.timeout)})`,
      parse.seconds,
    );
}

async function searchCommand(
  words: string[],
  flags: SearchFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  return withWeb(flags, io, env, async (web) => {
    const result = await web.search(words.join(" "), searchOptions(flags));
    return print(result, searchText, flags, web, io);
  });
}

async function contextCommand(
  words: string[],
  flags: ContextFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  return withWeb(flags, io, env, async (web) => {
    const options: ContextOptions = {
      ...searchOptions(flags),
      ...(flags.maxTokens === undefined ? {} : { maxTokens: flags.maxTokens }),
    };
    const result = await web.context(words.join(" "), options);
    return print(result, contextText, flags, web, io);
  });
}

/** The result as JSON with --json, else in the tool's layout and the instance's language. */
function print<R>(
  result: R,
  layout: (result: R, env: TextEnv) => string,
  flags: GlobalFlags,
  web: WebFetch,
  io: CliIO,
): number {
  const texts = textsFor(web.options.locale);
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(result, null, 2)}\n`
      : withNewline(layout(result, { texts, nameOf: () => undefined })),
  );
  return EXIT.ok;
}

async function withWeb(
  flags: SearchFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
  use: (web: WebFetch) => Promise<number>,
): Promise<number> {
  keepBaselineWasm();
  const { options } = await cliSetup(flags, io, env);
  if (flags.provider) options.search = { ...options.search, provider: flags.provider };
  const { createWebFetch } = await import("../webfetch/index.js");
  const web = createWebFetch(options);
  try {
    return await use(web);
  } finally {
    await web.close();
  }
}

function searchOptions(flags: SearchFlags): SearchOptions {
  return {
    ...(flags.maxResults === undefined ? {} : { maxResults: flags.maxResults }),
    ...(flags.depth ? { searchDepth: flags.depth } : {}),
    ...(flags.includeDomain ? { includeDomains: flags.includeDomain } : {}),
    ...(flags.excludeDomain ? { excludeDomains: flags.excludeDomain } : {}),
    ...(flags.timeRange ? { timeRange: flags.timeRange } : {}),
    ...(flags.timeout === undefined ? {} : { timeout: Math.round(flags.timeout * 1000) }),
  };
}
