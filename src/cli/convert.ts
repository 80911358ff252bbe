/**
 * `webfetch convert <file|->`: HTML the user already has (a file, or standard input) through the
 * same conversion as a fetch, with no network: the content on stdout, or the converted document
 * with --json.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { WebFetchError } from "../errors.js";
import { type CommandContext, callFlags } from "./flags.js";
import { EXIT, type GlobalFlags, titleLine, wholeMainContent, withNewline } from "./io.js";
import { type CallFlags, refuseConflicts, selectorOptions } from "./setup.js";

interface ConvertFlags
  extends GlobalFlags,
    Pick<CallFlags, "extractMode" | "full" | "includeSelector" | "excludeSelector"> {
  url?: string;
}

/** Adds `convert` to the program. */
export function addConvertCommand(program: Command, cli: CommandContext): void {
  const call = callFlags(cli.parse);
  program
    .command("convert")
    .description("convert HTML you already have (a file, or - for stdin) to Markdown")
    .argument("<file>", "an HTML file, or - for standard input")
    .option("--url <url>", "base URL for relative links (http or https)", cli.parse.httpUrl)
    .addOption(call.extractMode)
    .addOption(call.full)
    .addOption(call.includeSelector)
    .addOption(call.excludeSelector)
    .action(
      cli.action<ConvertFlags>(async (flags, [file]) => {
        refuseConflicts(flags);
        const html = file === "-" ? await readStream(cli.io.stdin) : await readInput(file!);
        const { convertHtml } = await import("../convert/html.js");
        const doc = convertHtml(html, {
          ...(flags.url ? { url: flags.url } : {}),
          format: flags.extractMode ?? "markdown",
          extract: flags.full ? "full" : "main",
          ...selectorOptions(flags),
        });
        // The whole main content prints under its title, which it leaves out.
        const whole = wholeMainContent(flags) && doc.content !== "";
        const text =
          (whole ? titleLine(doc.title, flags.extractMode ?? "markdown") : "") + doc.content;
        cli.io.stdout.write(flags.json ? `${JSON.stringify(doc, null, 2)}\n` : withNewline(text));
        return EXIT.ok;
      }),
    );
}

/** A file's text; a file that cannot be read is bad input naming it. */
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

/** Standard input, read to its end as UTF-8. */
async function readStream(stream: AsyncIterable<Buffer | string> | undefined): Promise<string> {
  if (!stream)
    throw new WebFetchError("INVALID_INPUT", "No standard input to read", { retryable: false });
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
