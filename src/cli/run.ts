/**
 * The command line, as a pure function of argv and streams: `run(argv, io)` returns the exit
 * status, so tests drive it without spawning. bin.ts is the only place that touches process.
 * This module wires the program: its global flags, its commands (each defined, with its flags,
 * in a module of its own), and how a failure becomes an exit status.
 */
import { Command, CommanderError, Option } from "commander";
import { DEFAULT_CONFIG_FILE } from "../config/file.js";
import { DEFAULTS, ENDPOINT_DEFAULTS } from "../options.js";
import { ENDPOINT_KINDS, LOCALES, type Locale } from "../values.js";
import { VERSION } from "../version.js";
import { addConfigCommand } from "./config.js";
import { addConvertCommand } from "./convert.js";
import { addCrawlCommand } from "./crawl.js";
import { addExtractCommand } from "./extract.js";
import { addFetchCommand } from "./fetch.js";
import { type CommandContext, collect, flagParsers } from "./flags.js";
import { type CliIO, EXIT, errorJson, errorLine, type GlobalFlags, USAGE_CODES } from "./io.js";
import { addMapCommand } from "./map.js";
import { addMcpCommand } from "./mcp.js";
import { addSearchCommands } from "./search.js";
import { addServeCommand } from "./serve.js";
import { type CliTexts, cliTexts } from "./texts.js";
import { addToolsCommand } from "./tools.js";
import { addWorkerCommand } from "./worker.js";

export type { CliIO } from "./io.js";
export { EXIT } from "./io.js";

/** The commands, in the order --help lists them; `fetch` is the one a bare URL runs. */
const COMMANDS = [
  addFetchCommand,
  addExtractCommand,
  addSearchCommands,
  addMapCommand,
  addCrawlCommand,
  addMcpCommand,
  addServeCommand,
  addWorkerCommand,
  addToolsCommand,
  addConvertCommand,
  addConfigCommand,
] as const;

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
  // The version alone needs nothing read: no configuration, no command.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const t = cliTexts(await cliLocale(argv, io, env));

  const cli: CommandContext = {
    io,
    env,
    t,
    parse: flagParsers(t),
    action:
      <F extends GlobalFlags>(handler: (flags: F, operands: string[]) => Promise<number>) =>
      async (...params: unknown[]) => {
        const command = params.at(-1) as Command;
        const flags = command.optsWithGlobals<F>();
        jsonErrors = Boolean(flags.json);
        status = await handler(flags, command.args);
      },
  };

  const program = new Command("webfetch")
    .description("Safe, fast and faithful web access for LLM agents: any URL to clean Markdown.")
    .version(VERSION, "-V, --version")
    .option("--json", "print the result object as JSON")
    .option(
      "--config <file>",
      `configuration file (default: $WEBFETCH_CONFIG or ./${DEFAULT_CONFIG_FILE})`,
    )
    .option(
      "--allow-address <cidr[:port]>",
      "open a hole in the address guard (repeatable; also WEBFETCH_ALLOW_ADDRESSES, comma-separated)",
      collect,
    )
    .addOption(
      new Option(
        "--locale <locale>",
        `language of messages, error lines and layouts (default: the configuration's, else ${DEFAULTS.locale})`,
      ).choices(LOCALES),
    )
    .option("--endpoint <url>", "remote mode: fetch through this webfetch or Crawl4AI service")
    .addOption(
      new Option(
        "--endpoint-kind <kind>",
        `how to talk to --endpoint (default ${ENDPOINT_DEFAULTS.kind})`,
      ).choices(ENDPOINT_KINDS),
    )
    .option(
      "--endpoint-token <token>",
      "remote mode: the service's bearer token (default: the configuration's, else $WEBFETCH_API_TOKEN)",
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
  for (const add of COMMANDS) add(program, cli);

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
 * The language of the CLI's own lines: `--locale`, else `locale` in the configuration, else the
 * library's default (English). Read before the arguments are parsed, so usage errors follow it
 * too; a configuration that cannot be read leaves the default (its error is reported later).
 */
async function cliLocale(
  argv: readonly string[],
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<Locale> {
  const flag = (name: string): string | undefined => {
    let value: string | undefined;
    argv.forEach((arg, i) => {
      if (arg === name) value = argv[i + 1];
      else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
    });
    return value;
  };
  const given = flag("--locale");
  if (given !== undefined) return isLocale(given) ? given : DEFAULTS.locale;
  try {
    // Loaded only when no --locale says it, and read only when there is a file.
    const { readConfig } = await import("./setup.js");
    const config = await readConfig({ config: flag("--config") }, io, env);
    return config.locale ?? DEFAULTS.locale;
  } catch {
    return DEFAULTS.locale;
  }
}

function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

function reportError(error: unknown, json: boolean, io: CliIO, t: CliTexts): number {
  const { code } = errorJson(error);
  if (json) io.stdout.write(`${JSON.stringify({ error: errorJson(error) })}\n`);
  else io.stderr.write(errorLine(error, undefined, t));
  // Unexpected errors (a file that cannot be read) are failures, not usage.
  return USAGE_CODES.has(code) ? EXIT.usage : EXIT.failed;
}
