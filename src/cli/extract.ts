/**
 * `webfetch extract <url...>`: many URLs through web.extract(), printed in the web_extract tool's
 * layout (a section per URL, then the failed URLs; `{results, failed}` with --json), progress on
 * stderr when it is a terminal.
 */
import type { Command } from "commander";
import type { ExtractOptions } from "../options.js";
import type { ExtractProgress } from "../pages/extract.js";
import { extractText } from "../tools/format.js";
import { textsFor } from "../tools/texts.js";
import { addContentFlags, type CommandContext, callFlags } from "./flags.js";
import { type CliIO, EXIT, withNewline } from "./io.js";
import { type CallFlags, callOptions, cliSetup, refuseConflicts } from "./setup.js";
import { keepBaselineWasm } from "./short-run.js";

interface ExtractFlags extends CallFlags {
  query?: string;
}

/** Adds `extract` to the program. */
export function addExtractCommand(program: Command, cli: CommandContext): void {
  const call = callFlags(cli.parse, " per URL");
  addContentFlags(
    program
      .command("extract")
      .description("fetch many URLs at once; failures are listed, never fatal (progress on stderr)")
      .argument("<url...>", "http or https URLs (duplicates are merged)"),
    call,
  )
    .addOption(call.maxLength)
    .addOption(call.query)
    .addOption(call.timeout)
    .addOption(call.noCache)
    .addOption(call.ignoreRobots)
    .action(
      cli.action<ExtractFlags>((flags, urls) => extractCommand(urls, flags, cli.io, cli.env)),
    );
}

async function extractCommand(
  urls: string[],
  flags: ExtractFlags,
  io: CliIO,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  refuseConflicts(flags);
  keepBaselineWasm();
  const { options } = await cliSetup(flags, io, env);
  const { createWebFetch } = await import("../webfetch/index.js");
  const web = createWebFetch(options);
  const call: ExtractOptions = {
    ...callOptions(flags),
    ...(flags.query !== undefined ? { query: flags.query } : {}),
    ...(io.stderr.isTTY ? { onProgress: (p: ExtractProgress) => progress(p, io) } : {}),
  };
  try {
    const result = await web.extract(urls, call);
    if (flags.json) {
      io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const texts = textsFor(web.options.locale);
      io.stdout.write(withNewline(extractText(result, { texts, nameOf: () => undefined })));
    }
    return result.failed.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await web.close();
  }
}

/** One line per finished URL: `[2/5] ok https://…` or `[3/5] HTTP_ERROR https://…`. */
function progress(p: ExtractProgress, io: CliIO): void {
  io.stderr.write(`[${p.done}/${p.total}] ${p.error ? p.error.code : "ok"} ${p.url}\n`);
}
