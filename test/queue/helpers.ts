/**
 * Shared parts of the crawl queue tests: instance options wired to the crawl site through the
 * guard (injected lookup, the site's port opened, a loopback-only socket opener), reading a
 * queued crawl to its end, and worker processes of the built CLI.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { silentLogger } from "../../src/log.js";
import type { WebFetchOptions } from "../../src/options.js";
import type { CrawlJobState } from "../../src/queue/contract.js";
import type { QueuedCrawls } from "../../src/queue/crawls.js";
import type { CrawlPage } from "../../src/result.js";
import { CRAWL_DUPLICATES } from "../helpers/crawl-site.js";
import { testLookup } from "../helpers/fixture-server.js";
import { newRecorder, type Recorder, safetyConnector } from "../helpers/web.js";

/** Instance options that reach the crawl site on `port` and nothing else. */
export function siteOptions(port: number): { options: WebFetchOptions; recorder: Recorder } {
  const recorder = newRecorder();
  return {
    recorder,
    options: {
      lookup: testLookup(),
      connect: safetyConnector(recorder),
      logger: silentLogger,
      allowAddresses: [`127.0.0.1:${port}`],
      retries: 1,
    },
  };
}

/** Polls a crawl until it has ended; returns its state and every page, read by cursor. */
export async function readToEnd(
  crawls: QueuedCrawls,
  id: string,
  onPoll?: (state: CrawlJobState) => void | Promise<void>,
): Promise<{ state: CrawlJobState; pages: CrawlPage[] }> {
  const pages: CrawlPage[] = [];
  let cursor: string | undefined;
  for (;;) {
    const state = await crawls.get(id, { cursor, limit: 50 });
    if (!state) throw new Error(`crawl ${id} is unknown`);
    pages.push(...state.pages);
    cursor = state.next ?? cursor;
    await onPoll?.(state);
    if (state.status !== "running" && state.next === undefined) return { state, pages };
    if (state.pages.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The built CLI. */
export const CLI = fileURLToPath(new URL("../../dist/bin/webfetch.js", import.meta.url));

/** A `webfetch worker` child process. */
export interface WorkerProcess {
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM, then waits for the exit; SIGKILL after 20 s. */
  stop(): Promise<number | null>;
}

/** Starts `node dist/bin/webfetch.js worker` against `redisUrl`, the site's port opened. */
export function startWorkerProcess(
  redisUrl: string,
  sitePort: number,
  options: { concurrency?: number; lockMs?: number } = {},
): WorkerProcess {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "worker",
      "--redis",
      redisUrl,
      "--concurrency",
      String(options.concurrency ?? 4),
      "--allow-address",
      `127.0.0.1:${sitePort}`,
    ],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        PATH: process.env.PATH,
        WEBFETCH_LOG_LEVEL: "warn",
        ...(options.lockMs ? { WEBFETCH_QUEUE_LOCK_MS: String(options.lockMs) } : {}),
      },
    },
  );
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return {
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return child.exitCode;
    },
  };
}

/**
 * The paths of pages, sorted, each duplicate under its first spelling: which spelling of a
 * duplicate a crawl returns depends on which was fetched first, and pages run side by side.
 */
export function pathsOf(pages: readonly { url: string }[]): string[] {
  return pages
    .map((page) => {
      const url = new URL(page.url);
      const path = url.pathname + url.search;
      return CRAWL_DUPLICATES[path] ?? path;
    })
    .sort();
}
