/**
 * `webfetch config init [file]`: writes the commented example configuration (every key, each at
 * its default and commented out) to `file`, `./webfetch.config.yaml` by default. An existing file
 * is kept unless `--force`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { DEFAULT_CONFIG_FILE } from "../config/file.js";
import { WebFetchError } from "../errors.js";
import type { CommandContext } from "./flags.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";

/** The example shipped at the package's root, two levels above this module (src/ or dist/). */
const EXAMPLE = new URL("../../webfetch.config.example.yaml", import.meta.url);

interface InitFlags extends GlobalFlags {
  force?: boolean;
}

/** Adds `config init` to the program. */
export function addConfigCommand(program: Command, cli: CommandContext): void {
  program
    .command("config")
    .description("manage the configuration file")
    .command("init")
    .description("write the example configuration, every key commented out at its default")
    .argument("[file]", "where to write it", DEFAULT_CONFIG_FILE)
    .option("--force", "overwrite an existing file")
    .action(
      cli.action<InitFlags>(async (flags, [file]) =>
        initCommand(file ?? DEFAULT_CONFIG_FILE, flags, cli.io),
      ),
    );
}

function initCommand(file: string, flags: InitFlags, io: CliIO): number {
  const path = resolve(io.cwd ?? process.cwd(), file);
  if (existsSync(path) && !flags.force) {
    throw new WebFetchError("INVALID_INPUT", `${path} exists (--force overwrites it)`, {
      retryable: false,
    });
  }
  try {
    writeFileSync(path, readFileSync(EXAMPLE, "utf8"));
  } catch (error) {
    throw new WebFetchError("INVALID_INPUT", `Cannot write ${path}: ${(error as Error).message}`, {
      retryable: false,
    });
  }
  io.stderr.write(`Wrote ${path}\n`);
  return EXIT.ok;
}
