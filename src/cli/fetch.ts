/**
 * `webfetch fetch <url...>`, the default command: each URL through web.fetch(), its content on
 * stdout (one section per URL when there are several), notes, warnings and errors on stderr; or
 * the result object (an array of them for several URLs) with --json. `--screenshot FILE` writes
 * the rendered page's PNG to FILE (one URL only); the JSON then names the file instead of
 * carrying the image's base64.
 */
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { type Command, Option } from "commander";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { DEFAULTS, type FetchOptions } from "../options.js";
import type { FetchResult, Screenshot } from "../result.js";
import { listsText } from "../tools/format.js";
import { textsFor } from "../tools/texts.js";
import {
  HTML_MEDIA_TYPES,
  REDIRECT_POLICIES,
  RENDER_MODES,
  type RedirectPolicy,
  type RenderMode,
} from "../values.js";
import { addContentFlags, type CommandContext, callFlags } from "./flags.js";
import {
  type CliIO,
  EXIT,
  errorJson,
  errorLine,
  titleLine,
  USAGE_CODES,
  wholeMainContent,
  withNewline,
} from "./io.js";
import { type CallFlags, callOptions, cliSetup, refuseConflicts } from "./setup.js";
import { keepBaselineWasm } from "./short-run.js";
import type { CliTexts } from "./texts.js";

interface FetchFlags extends CallFlags {
  startIndex?: number;
  query?: string;
  prompt?: string;
  redirects?: RedirectPolicy;
  maxRedirects?: number;
  userAgent?: string;
  maxAge?: number;
  render?: RenderMode;
  schema?: string;
  screenshot?: string;
  fullPage?: boolean;
}

/** Adds `fetch` to the program, as the command a bare URL runs. */
export function addFetchCommand(program: Command, cli: CommandContext): void {
  const { integer, between, nonNegativeSeconds } = cli.parse;
  const call = callFlags(cli.parse);
  addContentFlags(
    program
      .command("fetch", { isDefault: true })
      .description("fetch URLs and print their main content as Markdown")
      .argument("<url...>", "http or https URLs"),
    call,
  )
    .option(
      "--screenshot <file>",
      "render the page in Chromium and write a PNG of it to <file> (one URL; the content comes from the rendered page)",
    )
    .option(
      "--full-page",
      "with --screenshot: the whole page (up to 10,000 px tall), not the viewport",
    )
    .addOption(call.maxLength)
    .option("--start-index <n>", "continue from this character offset", integer(0))
    .addOption(call.query)
    .option("--prompt <p>", "answer this prompt about the page with a model")
    .option(
      "--schema <file>",
      "a JSON Schema file: a model fills it from the page and the data is printed as JSON instead of the content (--prompt then instructs it)",
    )
    .addOption(call.timeout)
    .addOption(call.noCache)
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
      `redirect hops before giving up, 0 to ${LIMITS.maxRedirectsCeiling} (default ${DEFAULTS.maxRedirects})`,
      between(0, LIMITS.maxRedirectsCeiling),
    )
    .addOption(call.ignoreRobots)
    .option("--user-agent <s>", "User-Agent header (printable ASCII)")
    .addOption(new Option("--render <mode>", "JavaScript rendering").choices(RENDER_MODES))
    .action(
      cli.action<FetchFlags>((flags, urls) => fetchCommand(urls, flags, cli.io, cli.env, cli.t)),
    );
}

async function fetchCommand(
  urls: string[],
  flags: FetchFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
  t: CliTexts,
): Promise<number> {
  const schema = flags.schema === undefined ? undefined : await readSchemaFile(flags.schema);
  refuseConflicts({ ...flags, schema });
  if (flags.screenshot !== undefined && urls.length > 1) {
    throw new WebFetchError("INVALID_INPUT", "--screenshot takes one URL", { retryable: false });
  }
  if (flags.fullPage && flags.screenshot === undefined) {
    throw new WebFetchError("INVALID_INPUT", "--full-page needs --screenshot <file>", {
      retryable: false,
    });
  }
  // The page will convert on a thread: it starts and loads its modules on another core while
  // this one loads the library and fetches (not for a remote endpoint, which converts there).
  if (flags.endpoint === undefined) (await import("../convert/pool.js")).warmConvertThread();
  keepBaselineWasm();
  const { options } = await cliSetup(flags, io, env);
  const { createWebFetch } = await import("../webfetch/index.js");
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
    ...(schema ? { schema } : {}),
    ...(flags.screenshot !== undefined
      ? { screenshot: flags.fullPage ? { fullPage: true } : true }
      : {}),
  };
  const { labels } = textsFor(web.options.locale);
  try {
    const settled = await Promise.allSettled(
      urls.map(async (url) => {
        const result = await web.fetch(url, call);
        if (result.screenshot && flags.screenshot !== undefined) {
          await writePng(result.screenshot, flags.screenshot);
        }
        return result;
      }),
    );
    const failed = settled.some((s) => s.status === "rejected");
    if (flags.json) {
      const entries = settled.map((s, i) =>
        s.status === "fulfilled"
          ? jsonResult(s.value, flags.screenshot)
          : { url: urls[i], error: errorJson(s.reason) },
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
          // With a schema the data is the answer: printed as JSON instead of the content.
          const text = schema
            ? JSON.stringify(s.value.data, null, 2)
            : s.value.content + listsText(s.value, labels);
          const single = wholePage(s.value, flags)
            ? titleLine(s.value.title, s.value.format) + text
            : text;
          io.stdout.write(urls.length === 1 ? withNewline(single) : section(s.value, text));
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

/** Writes a screenshot's PNG to `file`; a file that cannot be written is the caller's error. */
async function writePng(shot: Screenshot, file: string): Promise<void> {
  try {
    await writeFile(file, Buffer.from(shot.data, "base64"));
  } catch (error) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `--screenshot: could not write ${file}: ${(error as Error).message}`,
      { retryable: false, cause: error },
    );
  }
}

/**
 * A result as --json prints it: with --screenshot, the screenshot names the file it was written
 * to (`path`) instead of carrying the image's base64, which a terminal has no use for.
 */
function jsonResult(result: FetchResult, file: string | undefined): unknown {
  if (!result.screenshot || file === undefined) return result;
  const { data: _data, ...shot } = result.screenshot;
  return { ...result, screenshot: { ...shot, path: file } };
}

/** A single URL with --json prints the object itself; an error prints {"error": ...}. */
function jsonSingle(entry: unknown): unknown {
  if (entry && typeof entry === "object" && "error" in entry)
    return { error: (entry as { error: unknown }).error };
  return entry;
}

/**
 * True when one URL's output is its page's whole main content from the start, printed as a
 * document under its title: not the whole page (`--full`), selected parts, passages, an answer,
 * data, a later slice, no content at all, or content that is not an HTML page's.
 */
function wholePage(result: FetchResult, flags: FetchFlags): boolean {
  return (
    wholeMainContent(flags) &&
    flags.query === undefined &&
    flags.prompt === undefined &&
    flags.schema === undefined &&
    result.startIndex === 0 &&
    result.content !== "" &&
    HTML_MEDIA_TYPES.has(result.contentType)
  );
}

/** One URL's section when there are several: its final URL as a comment, its title, its text. */
function section(result: FetchResult, text: string): string {
  const heading = result.title ? `# ${result.title}\n\n` : "";
  return `<!-- ${result.finalUrl} -->\n${heading}${withNewline(text)}\n`;
}

/** The JSON Schema in `path`: a file that cannot be read or is not JSON is INVALID_INPUT naming it. */
async function readSchemaFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `--schema: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { retryable: false },
    );
  }
  const { schemaFromJson } = await import("../llm/schema.js");
  return schemaFromJson(text, `--schema: ${path}`);
}
