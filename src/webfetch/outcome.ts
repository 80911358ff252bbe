/**
 * One log line per operation (a fetch, a search), written after it whatever happened: its own
 * fields, the time it took and its outcome, `ok` or the error's code.
 */
import { isWebFetchError } from "../errors.js";
import type { Logger } from "../log.js";

/**
 * Runs `work` and logs `message` with `fields()` (read once it is over, a new object each time,
 * which gets `ms` and `outcome`).
 *
 * @example
 * await logOutcome(logger, "search", () => provider.search(q), () => ({ provider: "brave" }));
 */
export async function logOutcome<T>(
  logger: Logger,
  message: string,
  work: (started: number) => Promise<T>,
  fields: () => Record<string, unknown>,
): Promise<T> {
  const started = performance.now();
  let outcome = "ok";
  try {
    return await work(started);
  } catch (error) {
    outcome = isWebFetchError(error) ? error.code : "ERROR";
    throw error;
  } finally {
    const entry = fields();
    entry.ms = Math.round(performance.now() - started);
    entry.outcome = outcome;
    logger.info(entry, message);
  }
}
