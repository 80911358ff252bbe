/**
 * `webfetch search <query>` and `webfetch context <query>`: web.search() and web.context(),
 * printed in the layout of the web_search and web_context tools (seed 002 §2.4, §4.4), or as
 * the result object with --json. The provider comes from --provider, else the configuration,
 * else the environment (SPEC §5).
 */
import type { ContextOptions, SearchOptions } from "../options.js";
import type { SearchProviderId } from "../search/types.js";
import { contextText, searchText, type TextEnv } from "../tools/format.js";
import { textsFor } from "../tools/texts.js";
import { createWebFetch, type WebFetch } from "../webfetch/index.js";
import { type CliIO, EXIT, type GlobalFlags, withNewline } from "./io.js";
import { cliSetup } from "./setup.js";

export interface SearchFlags extends GlobalFlags {
  provider?: SearchProviderId;
  maxResults?: number;
  depth?: "basic" | "advanced";
  includeDomain?: string[];
  excludeDomain?: string[];
  timeRange?: "day" | "week" | "month" | "year";
  timeout?: number;
}

export interface ContextFlags extends SearchFlags {
  maxTokens?: number;
}

export async function searchCommand(
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

export async function contextCommand(
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
  const { options } = cliSetup(flags, io, env);
  if (flags.provider) options.search = { ...options.search, provider: flags.provider };
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
