/**
 * `webfetch worker`: runs the pages of crawls queued in Redis (by a service started with a
 * Redis queue, or by QueuedCrawls), as many worker processes as wanted on as many machines.
 * The server comes from --redis, else the configuration's `queue.url`; fetches follow the
 * configuration like every other command. Logs go to stderr. On SIGTERM or SIGINT the worker
 * takes no new pages, finishes the ones it is fetching, closes its connections and exits.
 */
import type { Command } from "commander";
import { WebFetchError } from "../errors.js";
import { createLogger } from "../log.js";
import { QUEUE_DEFAULTS } from "../options.js";
import type { CommandContext } from "./flags.js";
import { EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

interface WorkerFlags extends GlobalFlags {
  redis?: string;
  concurrency?: number;
}

/** Signals that stop the worker. */
const STOP_SIGNALS = ["SIGTERM", "SIGINT"] as const;

/**
 * Lock of a job in ms, for tests that kill workers: a dead worker's jobs run again after about
 * this long instead of half a minute. Not documented for users.
 */
const LOCK_MS_VARIABLE = "WEBFETCH_QUEUE_LOCK_MS";

/** Adds `worker` to the program. */
export function addWorkerCommand(program: Command, cli: CommandContext): void {
  const { integer } = cli.parse;
  program
    .command("worker")
    .description(
      "run the pages of crawls queued in Redis (start several, on any machine; SIGTERM finishes the pages in hand and stops)",
    )
    .option(
      "--redis <url>",
      "the queue's Redis server, redis://host:port[/db] (default: queue.url)",
    )
    .option(
      "--concurrency <n>",
      `pages fetched at once by this process (default ${QUEUE_DEFAULTS.concurrency})`,
      integer(1),
    )
    .action(cli.action<WorkerFlags>((flags) => workerCommand(flags, cli)));
}

async function workerCommand(flags: WorkerFlags, cli: CommandContext): Promise<number> {
  const { io, env } = cli;
  // Loaded here so every other command starts without the queue's packages.
  const { startCrawlWorker } = await import("../queue/worker.js");
  const logger = createLogger(flags.verbose ? { level: "debug" } : {});
  const { options, queue } = await cliSetup(flags, io, env, logger);
  const redisUrl = flags.redis ?? queue.url;
  if (!redisUrl) {
    throw new WebFetchError(
      "INVALID_INPUT",
      "webfetch worker needs a Redis server: --redis redis://host:port, or queue.url in the configuration",
      { retryable: false },
    );
  }
  const lockMs = env[LOCK_MS_VARIABLE] ? Number(env[LOCK_MS_VARIABLE]) : undefined;
  // Listening before anything can say "ready": a signal that comes with no listener kills the
  // process at once, and one that comes while the worker starts stops it once it has started.
  let stop: (signal: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => {
    stop = resolve;
  });
  for (const name of STOP_SIGNALS) process.once(name, stop);
  const unlisten = () => {
    for (const name of STOP_SIGNALS) process.off(name, stop);
  };
  let worker: Awaited<ReturnType<typeof startCrawlWorker>>;
  try {
    worker = await startCrawlWorker({
      web: options,
      redisUrl,
      logger,
      ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
      ...(lockMs === undefined ? {} : { lockMs }),
    });
  } catch (error) {
    unlisten();
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new WebFetchError("INVALID_INPUT", error.message, { retryable: false });
    }
    throw error;
  }
  logger.info(
    { redis: redactUrl(redisUrl), concurrency: flags.concurrency ?? QUEUE_DEFAULTS.concurrency },
    "crawl worker ready",
  );
  const signal = await stopped;
  unlisten();
  logger.info({ signal }, "shutting down: finishing the pages in hand");
  await worker.close();
  logger.info({}, "crawl worker stopped");
  return EXIT.ok;
}

/** The URL without its password, for the log. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return url;
  }
}
