/**
 * Where the configuration file is: its name, looked for in the working directory, and the path a
 * run reads. Light on purpose: a command finds out whether there is a file before it loads the
 * reader.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export const DEFAULT_CONFIG_FILE = "webfetch.config.yaml";

export interface ConfigPathOptions {
  /** Explicit path (the CLI's --config). */
  path?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * The file a run reads: `path`, else WEBFETCH_CONFIG (both `explicit`: a missing one is an
 * error), else webfetch.config.yaml in the working directory.
 */
export function configPath(options: ConfigPathOptions = {}): { path: string; explicit: boolean } {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.path ?? env.WEBFETCH_CONFIG;
  return explicit
    ? { path: resolve(cwd, explicit), explicit: true }
    : { path: resolve(cwd, DEFAULT_CONFIG_FILE), explicit: false };
}

/** Whether a run has a file to read (an explicit path counts even when missing: its reader says so). */
export function hasConfigFile(options: ConfigPathOptions = {}): boolean {
  const { path, explicit } = configPath(options);
  return explicit || existsSync(path);
}
