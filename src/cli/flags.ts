/**
 * What the command modules share to define their flags: the parsers of flag values (a value out
 * of range is a usage error naming the range), the definitions of flags several commands take,
 * and the context each command is added to the program with.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { LIMITS } from "../limits.js";
import { DEFAULTS, ENDPOINT_DEFAULTS } from "../options.js";
import { OUTPUT_FORMATS } from "../values.js";
import type { CliIO, GlobalFlags } from "./io.js";
import type { CliTexts } from "./texts.js";

/** Parsers of flag values, with their reasons in the CLI's language. */
export type FlagParsers = ReturnType<typeof flagParsers>;

/** What a command module needs from the program to add its command. */
export interface CommandContext {
  io: CliIO;
  env: NodeJS.ProcessEnv;
  t: CliTexts;
  parse: FlagParsers;
  /**
   * A command's action: `handler` gets the command's flags merged with the global ones and its
   * operands, and returns the exit status.
   */
  action<F extends GlobalFlags>(
    handler: (flags: F, operands: string[]) => Promise<number>,
  ): (...params: unknown[]) => Promise<void>;
}

/** Parsers of flag values: a value out of range is a usage error naming the range. */
export function flagParsers(t: CliTexts) {
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

/** The parser of a repeatable flag: every value, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A default given in milliseconds, as the help of a flag in seconds shows it. */
export function inSeconds(ms: number): number {
  return ms / 1000;
}

/**
 * Adds the flags that choose what of a page is printed (format, full page, selectors, links,
 * images), in the order `fetch`, `extract` and `crawl` list them.
 */
export function addContentFlags(command: Command, call: ReturnType<typeof callFlags>): Command {
  return command
    .addOption(call.extractMode)
    .addOption(call.full)
    .addOption(call.includeSelector)
    .addOption(call.excludeSelector)
    .addOption(call.links)
    .addOption(call.images);
}

/**
 * The flags of a fetch that `fetch`, `extract` and `convert` share (CallFlags in setup.ts), new
 * for each command that adds them, described per URL (`extract`) or not. Each command adds those
 * it takes, in its own order.
 */
export function callFlags(parse: FlagParsers, each = "") {
  return {
    extractMode: new Option(
      "--extract-mode <mode>",
      "output format: markdown (default), text, html (the content as clean HTML) or raw (the document as served)",
    ).choices(OUTPUT_FORMATS),
    full: new Option("--full", "the whole page, not only the main content"),
    maxLength: new Option(
      "--max-length <n>",
      `characters of content${each} (default ${DEFAULTS.maxLength})`,
    ).argParser(parse.integer(1)),
    query: new Option("--query <q>", "keep only the passages relevant to this query"),
    timeout: new Option(
      "--timeout <s>",
      `total deadline${each} in seconds (default ${inSeconds(DEFAULTS.timeout)}; ${inSeconds(ENDPOINT_DEFAULTS.timeout)} through an endpoint)`,
    ).argParser(parse.seconds),
    noCache: new Option("--no-cache", "fetch fresh, ignoring cached copies"),
    ignoreRobots: new Option("--ignore-robots", "do not obey robots.txt for this call"),
    includeSelector: new Option(
      "--include-selector <css>",
      "keep only what this CSS selector matches (repeatable)",
    ).argParser(collect),
    excludeSelector: new Option(
      "--exclude-selector <css>",
      "remove what this CSS selector matches first (repeatable)",
    ).argParser(collect),
    links: new Option("--links", `list the page's links after the content${each}`),
    images: new Option("--images", `list the page's images after the content${each}`),
  };
}
