/**
 * The command line, as a pure function of argv and streams: `run(argv, io)` returns the exit
 * status, so tests drive it without spawning. bin.ts is the only place that touches process.
 */
import { readFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { optionConflict } from "../checks.js";
import { loadConfig } from "../config/load.js";
import { convertHtml } from "../convert/html.js";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { FetchOptions } from "../options.js";
import type { FetchResult } from "../result.js";
import { SEARCH_PROVIDER_IDS } from "../search/types.js";
import { SERVER_DEFAULTS } from "../server/options.js";
import {
  LOCALES,
  type Locale,
  OUTPUT_FORMATS,
  REDIRECT_POLICIES,
  RENDER_MODES,
} from "../values.js";
import { VERSION } from "../version.js";
import { createWebFetch } from "../webfetch/index.js";
import { type ExtractFlags, extractCommand } from "./extract.js";
import {
  type CliIO,
  EXIT,
  errorJson,
  errorLine,
  type GlobalFlags,
  USAGE_CODES,
  withNewline,
} from "./io.js";
import { mcpCommand } from "./mcp.js";
import { type ContextFlags, contextCommand, type SearchFlags, searchCommand } from "./search.js";
import { type ServeFlags, serveCommand } from "./serve.js";
import { type CallFlags, callOptions, cliSetup } from "./setup.js";
import { type CliTexts, cliTexts } from "./texts.js";
import { type ToolsFlags, toolsCommand } from "./tools.js";

export type { CliIO } from "./io.js";
export { EXIT } from "./io.js";

interface FetchFlags extends CallFlags {
  startIndex?: number;
  query?: string;
  prompt?: string;
  redirects?: "follow" | "same-host" | "same-site";
  maxRedirects?: number;
  userAgent?: string;
  maxAge?: number;
  render?: "never" | "auto" | "always";
}

/** Parsers of flag values: a value out of range is a usage error naming the range. */
function parsers(t: CliTexts) {
  /** Longest deadline a flag may give, in whole seconds. */
  const maxSeconds = Math.floor(LIMITS.maxTimeout / 1000);
  return {
    integer: (min: number) => (value: string) => {
      const n = Number(value);
      if (value.trim() === "" || !Number.isInteger(n) || n < min)
        throw new InvalidArgumentError(t.reasons.integerFrom(min));
      return n;
    },
    between: (min: number, max: number) => (value: string) => {
      const n = Number(value);
      if (value.trim() === "" || !Number.isInteger(n) || n < min || n > max)
        throw new InvalidArgumentError(t.reasons.integerBetween(min, max));
      return n;
    },
    seconds: (value: string) => {
      const n = Number(value);
      // Below a millisecond the deadline would round to nothing; past the ceiling a timer fires at once.
      if (!Number.isFinite(n) || n < 0.001 || n > maxSeconds)
        throw new InvalidArgumentError(t.reasons.seconds(maxSeconds));
      return n;
    },
    nonNegativeSeconds: (value: string) => {
      const n = Number(value);
      if (value.trim() === "" || !Number.isFinite(n) || n < 0)
        throw new InvalidArgumentError(t.reasons.nonNegativeSeconds);
      return n;
    },
    httpUrl: (value: string) => {
      if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
        throw new InvalidArgumentError(t.reasons.httpUrl);
      return value;
    },
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * Runs the CLI. Never throws; returns the exit status.
 *
 * @example
 * const status = await run(["https://example.com"], { stdout: process.stdout, stderr: process.stderr });
 */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const env = io.env ?? process.env;
  let status: number = EXIT.ok;
  let jsonErrors = argv.includes("--json");
  const t = cliTexts(cliLocale(argv, io, env));
  const { integer, between, seconds, nonNegativeSeconds, httpUrl } = parsers(t);

  /** A command's action: its flags merged with the global ones, its operands, its status. */
  const action =
    <F extends GlobalFlags>(handler: (flags: F, operands: string[]) => Promise<number>) =>
    async (...params: unknown[]) => {
      const command = params.at(-1) as Command;
      const flags = command.optsWithGlobals<F>();
      jsonErrors = Boolean(flags.json);
      status = await handler(flags, command.args);
    };

  const program = new Command("webfetch")
    .description("Safe, fast and faithful web access for LLM agents: any URL to clean Markdown.")
    .version(VERSION, "-V, --version")
    .option("--json", "print the result object as JSON")
    .option(
      "--config <file>",
      "configuration file (default: $WEBFETCH_CONFIG or ./webfetch.config.yaml)",
    )
    .option(
      "--allow-address <cidr[:port]>",
      "open a hole in the address guard (repeatable; also WEBFETCH_ALLOW_ADDRESSES, comma-separated)",
      collect,
    )
    .addOption(
      new Option(
        "--locale <locale>",
        "language of messages, error lines and layouts (default: the configuration's, else en)",
      ).choices(LOCALES),
    )
    .option("--endpoint <url>", "remote mode: fetch through this webfetch or Crawl4AI service")
    .addOption(
      new Option("--endpoint-kind <kind>", "how to talk to --endpoint (default crawl4ai)").choices([
        "webfetch",
        "crawl4ai",
      ]),
    )
    .option("--verbose", "log each fetch to stderr")
    .exitOverride()
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`${t.usage(s.trimEnd().replace(/^error: /, ""))}\n`),
    })
    .showHelpAfterError(t.helpHint);

  program
    .command("fetch", { isDefault: true })
    .description("fetch URLs and print their main content as Markdown")
    .argument("<url...>", "http or https URLs")
    .addOption(new Option("--extract-mode <mode>", "output format").choices(OUTPUT_FORMATS))
    .option("--full", "the whole page, not only the main content")
    .option("--max-length <n>", "characters of content (default 20000)", integer(1))
    .option("--start-index <n>", "continue from this character offset", integer(0))
    .option("--query <q>", "keep only the passages relevant to this query")
    .option("--prompt <p>", "answer this prompt about the page with a model")
    .option(
      "--timeout <s>",
      "total deadline in seconds (default 30; 60 through an endpoint)",
      seconds,
    )
    .option("--no-cache", "fetch fresh, ignoring cached copies")
    .option(
      "--max-age <s>",
      "accept a cached copy up to this many seconds old (0 = fresh)",
      nonNegativeSeconds,
    )
    .addOption(
      new Option("--redirects <policy>", "which redirects to follow").choices(REDIRECT_POLICIES),
    )
    .option(
      "--max-redirects <n>",
      `redirect hops before giving up, 0 to ${LIMITS.maxRedirectsCeiling} (default 5)`,
      between(0, LIMITS.maxRedirectsCeiling),
    )
    .option("--ignore-robots", "do not obey robots.txt for this call")
    .option("--user-agent <s>", "User-Agent header (printable ASCII)")
    .addOption(new Option("--render <mode>", "JavaScript rendering").choices(RENDER_MODES))
    .action(action<FetchFlags>((flags, urls) => fetchCommand(urls, flags, io, env, t)));

  program
    .command("extract")
    .description("fetch many URLs at once; failures are listed, never fatal (progress on stderr)")
    .argument("<url...>", "http or https URLs (duplicates are merged)")
    .addOption(new Option("--extract-mode <mode>", "output format").choices(OUTPUT_FORMATS))
    .option("--full", "the whole page, not only the main content")
    .option("--max-length <n>", "characters of content per URL (default 20000)", integer(1))
    .option("--query <q>", "keep only the passages relevant to this query")
    .option(
      "--timeout <s>",
      "total deadline per URL in seconds (default 30; 60 through an endpoint)",
      seconds,
    )
    .option("--no-cache", "fetch fresh, ignoring cached copies")
    .option("--ignore-robots", "do not obey robots.txt for this call")
    .action(action<ExtractFlags>((flags, urls) => extractCommand(urls, flags, io, env)));

  /** The flags search and context share. */
  const searchFlags = (command: Command) =>
    command
      .addOption(
        new Option(
          "--provider <id>",
          "search provider (default: config, then environment)",
        ).choices(SEARCH_PROVIDER_IDS),
      )
      .option(
        "--max-results <n>",
        `results, 1 to ${LIMITS.searchMaxResults} (default 5)`,
        between(1, LIMITS.searchMaxResults),
      )
      .addOption(new Option("--depth <depth>", "search depth").choices(["basic", "advanced"]))
      .option("--include-domain <domain>", "only results from this domain (repeatable)", collect)
      .option("--exclude-domain <domain>", "no results from this domain (repeatable)", collect)
      .addOption(
        new Option("--time-range <range>", "only recent pages").choices([
          "day",
          "week",
          "month",
          "year",
        ]),
      )
      .option("--timeout <s>", "total deadline in seconds (default 30)", seconds);

  searchFlags(
    program
      .command("search")
      .description("search the web through the configured provider")
      .argument("<query...>", "what to search for (at most 1000 characters)"),
  ).action(action<SearchFlags>((flags, words) => searchCommand(words, flags, io, env)));

  searchFlags(
    program
      .command("context")
      .description("a cited, token-budgeted context for RAG: search, fetch, rank, pack")
      .argument("<query...>", "what the context should answer (at most 1000 characters)"),
  )
    .option("--max-tokens <n>", "token budget, source list included (default 4000)", integer(1))
    .action(action<ContextFlags>((flags, words) => contextCommand(words, flags, io, env)));

  program
    .command("mcp")
    .description("serve the tools over MCP on stdio (logs go to stderr)")
    .action(action<GlobalFlags>((flags) => mcpCommand(flags, io, env)));

  program
    .command("serve")
    .description("serve the HTTP API, Crawl4AI's /md and MCP over HTTP (SIGTERM drains and stops)")
    .option("--host <host>", `address to bind (default ${SERVER_DEFAULTS.host})`)
    .option(
      "--port <n>",
      `port (default ${SERVER_DEFAULTS.port}; 0 picks a free one)`,
      between(0, 65535),
    )
    .option(
      "--rate-limit <n>",
      `calls per client address a minute, each message of a JSON-RPC batch one (default ${SERVER_DEFAULTS.rateLimit})`,
      integer(1),
    )
    .option(
      "--trust-proxy",
      "behind one reverse proxy: count each client by the address the proxy appends to X-Forwarded-For (ignored otherwise)",
    )
    .option(
      "--allowed-host <name>",
      "another host name clients use to reach the service, accepted in Host and Origin (repeatable; without a token, only loopback names, the bound host and these are served)",
      collect,
    )
    .action(action<ServeFlags>((flags) => serveCommand(flags, io, env)));

  program
    .command("tools")
    .description("print the tool schemas as a JSON array")
    .addOption(
      new Option("--format <format>", "schema format")
        .choices(["mcp", "openai", "anthropic"])
        .default("mcp"),
    )
    .option("--strict", "with --format openai: strict mode (every property required, nullable)")
    .action(action<ToolsFlags>((flags) => toolsCommand(flags, io, env)));

  program
    .command("convert")
    .description("convert HTML you already have (a file, or - for stdin) to Markdown")
    .argument("<file>", "an HTML file, or - for standard input")
    .option("--url <url>", "base URL for relative links (http or https)", httpUrl)
    .addOption(new Option("--extract-mode <mode>", "output format").choices(OUTPUT_FORMATS))
    .option("--full", "the whole page, not only the main content")
    .action(async (file: string, _flags: unknown, command: Command) => {
      const flags = command.optsWithGlobals<
        GlobalFlags & { url?: string; extractMode?: "markdown" | "text"; full?: boolean }
      >();
      jsonErrors = Boolean(flags.json);
      const html = file === "-" ? await readStream(io.stdin) : await readInput(file);
      const doc = convertHtml(html, {
        ...(flags.url ? { url: flags.url } : {}),
        format: flags.extractMode ?? "markdown",
        extract: flags.full ? "full" : "main",
      });
      io.stdout.write(flags.json ? `${JSON.stringify(doc, null, 2)}\n` : withNewline(doc.content));
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit through here with code 0.
      if (error.exitCode === 0) return EXIT.ok;
      if (jsonErrors) {
        const message = error.message.replace(/^error: /, "");
        io.stdout.write(`${JSON.stringify({ error: { code: "INVALID_INPUT", message } })}\n`);
      }
      return EXIT.usage;
    }
    return reportError(error, jsonErrors, io, t);
  }
}

/**
 * The language of the CLI's own lines: `--locale`, else `locale` in the configuration, else
 * English. Read before the arguments are parsed, so usage errors follow it too; a
 * configuration that cannot be read leaves English (its error is reported later).
 */
function cliLocale(argv: readonly string[], io: CliIO, env: NodeJS.ProcessEnv): Locale {
  const flag = (name: string): string | undefined => {
    let value: string | undefined;
    argv.forEach((arg, i) => {
      if (arg === name) value = argv[i + 1];
      else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
    });
    return value;
  };
  const given = flag("--locale");
  if (given !== undefined) return isLocale(given) ? given : "en";
  try {
    const config = loadConfig({ path: flag("--config"), env, ...(io.cwd ? { cwd: io.cwd } : {}) });
    return config.locale ?? "en";
  } catch {
    return "en";
  }
}

function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

async function fetchCommand(
  urls: string[],
  flags: FetchFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
  t: CliTexts,
): Promise<number> {
  const conflict = optionConflict(flags, {
    prompt: "--prompt",
    query: "--query",
    startIndex: "--start-index",
  });
  if (conflict) throw new WebFetchError("INVALID_INPUT", conflict.message, { retryable: false });
  const { options } = cliSetup(flags, io, env);
  const web = createWebFetch(options);
  const call: FetchOptions = {
    ...callOptions(flags),
    ...(flags.query !== undefined ? { query: flags.query } : {}),
    ...(flags.prompt !== undefined ? { prompt: flags.prompt } : {}),
    ...(flags.startIndex !== undefined ? { startIndex: flags.startIndex } : {}),
    ...(flags.maxAge !== undefined ? { maxAge: flags.maxAge } : {}),
    ...(flags.render !== undefined ? { render: flags.render } : {}),
    ...(flags.redirects ? { redirects: flags.redirects } : {}),
    ...(flags.maxRedirects !== undefined ? { maxRedirects: flags.maxRedirects } : {}),
  };
  try {
    const settled = await Promise.allSettled(urls.map((url) => web.fetch(url, call)));
    const failed = settled.some((s) => s.status === "rejected");
    if (flags.json) {
      const entries = settled.map((s, i) =>
        s.status === "fulfilled" ? s.value : { url: urls[i], error: errorJson(s.reason) },
      );
      io.stdout.write(
        `${JSON.stringify(urls.length === 1 ? jsonSingle(entries[0]) : entries, null, 2)}\n`,
      );
    } else {
      settled.forEach((s, i) => {
        if (s.status === "fulfilled") {
          // No model configured: say on stderr that these are passages, not an answer.
          if (s.value.note) io.stderr.write(withNewline(t.note(s.value.note)));
          // Why the content is thinner than the page: on stderr, so stdout stays the content.
          for (const w of s.value.warnings ?? []) io.stderr.write(withNewline(t.warning(w)));
          io.stdout.write(urls.length === 1 ? withNewline(s.value.content) : section(s.value));
        } else {
          io.stderr.write(errorLine(s.reason, urls.length > 1 ? urls[i] : undefined, t));
        }
      });
    }
    if (!failed) return EXIT.ok;
    // One URL that failed for bad input is a usage error; a mix is a fetch failure.
    const only =
      settled.length === 1 && settled[0]?.status === "rejected" ? settled[0].reason : undefined;
    return only !== undefined && USAGE_CODES.has(errorJson(only).code) ? EXIT.usage : EXIT.failed;
  } finally {
    await web.close();
  }
}

/** A single URL with --json prints the object itself; an error prints {"error": ...}. */
function jsonSingle(entry: unknown): unknown {
  if (entry && typeof entry === "object" && "error" in entry)
    return { error: (entry as { error: unknown }).error };
  return entry;
}

function section(result: FetchResult): string {
  const heading = result.title ? `# ${result.title}\n\n` : "";
  return `<!-- ${result.finalUrl} -->\n${heading}${withNewline(result.content)}\n`;
}

function reportError(error: unknown, json: boolean, io: CliIO, t: CliTexts): number {
  const { code } = errorJson(error);
  if (json) io.stdout.write(`${JSON.stringify({ error: errorJson(error) })}\n`);
  else io.stderr.write(errorLine(error, undefined, t));
  // Unexpected errors (a file that cannot be read) are failures, not usage.
  return USAGE_CODES.has(code) ? EXIT.usage : EXIT.failed;
}

async function readInput(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const reason =
      (error as { code?: string }).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new WebFetchError("INVALID_INPUT", `Cannot read ${file}: ${reason}`, {
      retryable: false,
    });
  }
}

async function readStream(stream: AsyncIterable<Buffer | string> | undefined): Promise<string> {
  if (!stream)
    throw new WebFetchError("INVALID_INPUT", "No standard input to read", { retryable: false });
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
