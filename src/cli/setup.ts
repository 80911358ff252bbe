/**
 * Options of a CLI run: the configuration file, then the environment, then the flags (later
 * wins). One loader for every command, so `fetch`, `extract`, `mcp` and `tools` read the same
 * file the same way.
 */

import { checkHeader, type ExclusiveNames, optionConflict } from "../checks.js";
import { hasConfigFile } from "../config/file.js";
import { optionsFromConfig, toolsOptionsFromConfig } from "../config/options.js";
import type { WebFetchConfig } from "../config/schema.js";
import { WebFetchError } from "../errors.js";
import { createLogger, type Logger, silentLogger } from "../log.js";
import { parseAddressRules } from "../net/allowlist.js";
import { type FetchOptions, resolveOptions, type WebFetchOptions } from "../options.js";
import type { ToolsOptions } from "../tools/options.js";
import { type OutputFormat, TOOL_IDS } from "../values.js";
import type { CliIO, GlobalFlags } from "./io.js";

export interface CliSetup {
  options: WebFetchOptions;
  tools: ToolsOptions;
  /** The configuration's `server` section (`webfetch serve`). */
  server: NonNullable<WebFetchConfig["server"]>;
  /** The configuration's `queue` section (`webfetch worker`). */
  queue: NonNullable<WebFetchConfig["queue"]>;
}

/**
 * The instance and tool options of a run. Fetches log only with --verbose unless `logger` is
 * given (the MCP server logs to stderr always).
 */
export async function cliSetup(
  flags: GlobalFlags & { userAgent?: string },
  io: CliIO,
  env: NodeJS.ProcessEnv,
  logger?: Logger,
): Promise<CliSetup> {
  const config = await readConfig(flags, io, env);
  const options = optionsFromConfig(config);
  const tools = toolsOptionsFromConfig(config);
  const fromEnv = (env.WEBFETCH_ALLOW_ADDRESSES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const allow = [...(options.allowAddresses ?? []), ...fromEnv, ...(flags.allowAddress ?? [])];
  if (allow.length > 0) options.allowAddresses = allow;
  if (flags.userAgent)
    options.userAgent = checkHeader("user-agent", flags.userAgent, "--user-agent");
  if (flags.locale) options.locale = flags.locale;
  if (flags.endpoint) options.endpoint = flags.endpoint;
  if (flags.endpointKind) options.endpointKind = flags.endpointKind;
  // The flag, else the file's token, else the variable a service is run with: one variable
  // serves both ends.
  if (flags.endpointToken) {
    options.endpointToken = checkHeader("authorization", flags.endpointToken, "--endpoint-token");
  } else if (!options.endpointToken && env.WEBFETCH_API_TOKEN) {
    options.endpointToken = checkHeader(
      "authorization",
      env.WEBFETCH_API_TOKEN,
      "WEBFETCH_API_TOKEN",
    );
  }
  // Provider keys come from the run's environment (tests pass their own), never another's.
  options.search = { ...options.search, env };
  if (options.llm) options.llm = { ...options.llm, env };
  options.logger = logger ?? (flags.verbose ? createLogger({ level: "info" }) : silentLogger);
  try {
    // Validate now so a bad --allow-address is a usage error, not a crash later.
    resolveOptions(options);
    parseAddressRules(options.allowAddresses ?? []);
    // Only a configured prefix or tool name can make a bad name; the tools load only then.
    if (tools.prefix !== undefined || tools.tools !== undefined) {
      const { toolNames } = await import("../tools/registry.js");
      toolNames(
        TOOL_IDS.filter((id) => tools.tools?.[id]?.enabled !== false),
        tools,
      );
    }
  } catch (error) {
    throw new WebFetchError("INVALID_INPUT", (error as Error).message, { retryable: false });
  }
  return { options, tools, server: config.server ?? {}, queue: config.queue ?? {} };
}

/**
 * The run's configuration; `{}` without a file. The reader (a YAML parser and the schema) is
 * loaded only when there is a file to read, so --help, --version and a run without a file start
 * without it.
 */
export async function readConfig(
  flags: { config?: string | undefined },
  io: Pick<CliIO, "cwd">,
  env: NodeJS.ProcessEnv,
): Promise<WebFetchConfig> {
  const where = { path: flags.config, env, ...(io.cwd ? { cwd: io.cwd } : {}) };
  if (!hasConfigFile(where)) return {};
  const { loadConfig } = await import("../config/load.js");
  return loadConfig(where);
}

/** Flags that `fetch` and `extract` share, each a per-call option. */
export interface CallFlags extends GlobalFlags {
  extractMode?: OutputFormat;
  full?: boolean;
  maxLength?: number;
  timeout?: number;
  cache?: boolean;
  ignoreRobots?: boolean;
  includeSelector?: string[];
  excludeSelector?: string[];
  links?: boolean;
  images?: boolean;
}

/** The per-call options those flags set; flags not given leave the instance's defaults. */
export function callOptions(flags: CallFlags): FetchOptions {
  return {
    ...(flags.extractMode ? { format: flags.extractMode } : {}),
    ...(flags.full ? { extract: "full" as const } : {}),
    ...(flags.maxLength !== undefined ? { maxLength: flags.maxLength } : {}),
    ...(flags.timeout !== undefined ? { timeout: Math.round(flags.timeout * 1000) } : {}),
    ...(flags.cache === false ? { cache: false } : {}),
    ...(flags.ignoreRobots ? { robots: "ignore" as const } : {}),
    ...selectorOptions(flags),
    ...(flags.links ? { links: true } : {}),
    ...(flags.images ? { images: true } : {}),
  };
}

/** The flags' spelling of the library's options that exclude each other. */
export const FLAG_NAMES: ExclusiveNames = {
  prompt: "--prompt",
  query: "--query",
  startIndex: "--start-index",
  format: "--extract-mode",
  includeSelectors: "--include-selector",
  excludeSelectors: "--exclude-selector",
  screenshot: "--screenshot",
  render: "--render never",
};

/** Flags that cannot go together are INVALID_INPUT in the flags' own names, before any fetch. */
export function refuseConflicts(
  flags: Partial<CallFlags> & {
    prompt?: string;
    query?: string;
    startIndex?: number;
    schema?: unknown;
    screenshot?: string;
    render?: string;
  },
): void {
  const conflict = optionConflict(
    {
      schema: flags.schema,
      screenshot: flags.screenshot,
      render: flags.render,
      prompt: flags.prompt,
      query: flags.query,
      startIndex: flags.startIndex,
      format: flags.extractMode,
      ...selectorOptions(flags),
    },
    FLAG_NAMES,
  );
  if (conflict) throw new WebFetchError("INVALID_INPUT", conflict.message, { retryable: false });
}

/** The CSS selectors of the repeatable selector flags. */
export function selectorOptions(
  flags: Pick<CallFlags, "includeSelector" | "excludeSelector">,
): Pick<FetchOptions, "includeSelectors" | "excludeSelectors"> {
  return {
    ...(flags.includeSelector ? { includeSelectors: flags.includeSelector } : {}),
    ...(flags.excludeSelector ? { excludeSelectors: flags.excludeSelector } : {}),
  };
}
