/**
 * Loads the YAML configuration file: `--config`, else WEBFETCH_CONFIG, else
 * webfetch.config.yaml in the working directory. `${VAR}` and `${VAR:-default}` are expanded
 * from the environment in string values (after parsing, so a value cannot inject YAML).
 * Errors name the key.
 */
import { existsSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { configPath, DEFAULT_CONFIG_FILE } from "./file.js";
import { configError } from "./options.js";
import { configSchema, type WebFetchConfig } from "./schema.js";

export { optionsFromConfig, toolsOptionsFromConfig } from "./options.js";
export { DEFAULT_CONFIG_FILE };

/** `${NAME}` or `${NAME:-default}`. */
const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface LoadConfigOptions {
  /** Explicit path (the CLI's --config). */
  path?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Finds, reads, expands and validates the config; `{}` when there is no file. */
export function loadConfig(options: LoadConfigOptions = {}): WebFetchConfig {
  const env = options.env ?? process.env;
  const { path, explicit } = configPath(options);
  if (!existsSync(path)) {
    if (explicit) throw configError(`Configuration file not found: ${path}`);
    return {};
  }
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw configError(`Configuration file ${path} is not valid YAML: ${(error as Error).message}`);
  }
  return parseConfig(raw ?? {}, env, path);
}

/** Validates an already parsed config object (after env expansion). */
export function parseConfig(
  raw: unknown,
  env: NodeJS.ProcessEnv = process.env,
  source = "config",
): WebFetchConfig {
  const expanded = expandEnv(raw, env);
  const result = configSchema.safeParse(expanded);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.path.join(".") || (issue.code === "unrecognized_keys" ? "" : "(root)");
    const keys =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((k) => [key, k].filter(Boolean).join(".")).join(", ")
        : "";
    const what =
      issue.code === "unrecognized_keys" ? `unknown key ${keys}` : `${key}: ${issue.message}`;
    throw configError(`Invalid configuration in ${source}: ${what}`);
  }
  return result.data;
}

/**
 * Replaces `${VAR}` / `${VAR:-default}` in every string of a parsed YAML value, and drops the
 * keys whose value is empty (null).
 */
export function expandEnv(value: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === "string") {
    return substitute(value, env);
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env));
  if (value && typeof value === "object") {
    // A key with nothing under it (`fetch:` whose lines are all commented out) is not set.
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, expandEnv(v, env)]),
    );
  }
  return value;
}

function substitute(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(ENV_REF, (_, name: string, fallback: string | undefined) => {
    const found = env[name];
    return found !== undefined && found !== "" ? found : (fallback ?? "");
  });
}
