/**
 * The options an instance shows (`web.options`), which callers log and print: the endpoint's
 * token, the model's API key and the cache server's password are replaced, so they never leave
 * through them.
 */
import type { ResolvedOptions } from "../options.js";

/** Marks a secret in the options an instance shows. */
const REDACTED = "[redacted]";

/** `resolved`, frozen, with every secret replaced. */
export function withoutSecrets(resolved: ResolvedOptions): Readonly<ResolvedOptions> {
  const { endpoint, llm } = resolved;
  return Object.freeze({
    ...resolved,
    cacheUrl: withoutPassword(resolved.cacheUrl),
    ...(endpoint?.token ? { endpoint: { ...endpoint, token: REDACTED } } : {}),
    ...(llm?.apiKey ? { llm: { ...llm, apiKey: REDACTED } } : {}),
  });
}

/** A URL with its password (a Redis server's) replaced. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = REDACTED;
    return parsed.href;
  } catch {
    return url;
  }
}
