/**
 * `webfetch serve`: the HTTP service. Flags over the configuration's `server` section
 * over the defaults; the token from `server.token`, else WEBFETCH_API_TOKEN. With --redis (or
 * `queue.url`) its crawls are queued for `webfetch worker` processes instead of run here. Runs
 * until SIGTERM or SIGINT, then drains in-flight requests before it returns.
 */
import type { Command } from "commander";
import { WebFetchError } from "../errors.js";
import { createLogger, type Logger } from "../log.js";
import { isLoopbackHost, isWildcardHost } from "../server/hosts.js";
import { SERVER_DEFAULTS } from "../server/options.js";
import type { WebFetchServer } from "../server/serve.js";
import type { WebFetch } from "../webfetch/index.js";
import { type CommandContext, collect } from "./flags.js";
import { type CliIO, EXIT, type GlobalFlags } from "./io.js";
import { cliSetup } from "./setup.js";

interface ServeFlags extends GlobalFlags {
  redis?: string;
  host?: string;
  port?: number;
  rateLimit?: number;
  trustProxy?: boolean;
  allowedHost?: string[];
}

/** Signals that stop the service. */
const STOP_SIGNALS = ["SIGTERM", "SIGINT"] as const;

/** Adds `serve` to the program. */
export function addServeCommand(program: Command, cli: CommandContext): void {
  const { integer, between } = cli.parse;
  program
    .command("serve")
    .description("serve the HTTP API, Crawl4AI's /md and MCP over HTTP (SIGTERM drains and stops)")
    .option("--host <host>", `address to bind (default ${SERVER_DEFAULTS.host})`)
    .option(
      "--port <n>",
      `port (default ${SERVER_DEFAULTS.port}; 0 picks a free one)`,
      between(0, 65535),
    )
    .option(
      "--rate-limit <n>",
      `calls per client address a minute, each message of a JSON-RPC batch one (default ${SERVER_DEFAULTS.rateLimit})`,
      integer(1),
    )
    .option(
      "--trust-proxy",
      "behind one reverse proxy: count each client by the address the proxy appends to X-Forwarded-For (ignored otherwise)",
    )
    .option(
      "--redis <url>",
      "queue crawls in this Redis server for `webfetch worker` processes, redis://host:port[/db] (default: queue.url; without either, crawls run in this process)",
    )
    .option(
      "--allowed-host <name>",
      "another host name clients use to reach the service, accepted in Host and Origin (repeatable; without a token, only loopback names, the bound host and these are served)",
      collect,
    )
    .action(cli.action<ServeFlags>((flags) => serveCommand(flags, cli.io, cli.env)));
}

async function serveCommand(flags: ServeFlags, io: CliIO, env: NodeJS.ProcessEnv): Promise<number> {
  // Loaded here so every other command starts without the HTTP stack.
  const { createServer } = await import("../server/serve.js");
  const logger = createLogger(flags.verbose ? { level: "debug" } : {});
  const { options, tools, server: config, queue } = await cliSetup(flags, io, env, logger);
  const host = flags.host ?? config.host ?? SERVER_DEFAULTS.host;
  const port = flags.port ?? config.port ?? SERVER_DEFAULTS.port;
  // A service may hand its fetches to another one (remote mode), never to itself: every
  // request would come back to it until the deadline.
  if (options.endpoint !== undefined && pointsAt(options.endpoint, host, port)) {
    io.stderr.write(
      `webfetch: INVALID_INPUT: the fetch endpoint ${options.endpoint} is this service itself; remove tools.web_fetch.api_endpoint (or --endpoint) from its configuration\n`,
    );
    return EXIT.usage;
  }
  const token = config.token || env.WEBFETCH_API_TOKEN || undefined;
  const { createWebFetch } = await import("../webfetch/index.js");
  const web = createWebFetch(options);
  const redisUrl = flags.redis ?? queue.url;
  // With a queue, this service only starts and reads crawls; `webfetch worker`s run them, and
  // any replica that shares the server answers for every crawl.
  const crawlJobs = redisUrl ? await queuedCrawls(redisUrl, web, logger) : undefined;
  let server: WebFetchServer;
  try {
    server = createServer({
      web,
      logger,
      ...(crawlJobs ? { crawlJobs } : {}),
      ...tools,
      host,
      port,
      token,
      rateLimit: flags.rateLimit ?? config.rate_limit ?? SERVER_DEFAULTS.rateLimit,
      trustProxy: flags.trustProxy ?? config.trust_proxy ?? SERVER_DEFAULTS.trustProxy,
      allowedHosts: [...(config.allowed_hosts ?? []), ...(flags.allowedHost ?? [])],
    });
  } catch (error) {
    await crawlJobs?.close();
    await web.close();
    // A setting the service cannot take (an allowed host that is no host name) is bad input.
    throw new WebFetchError("INVALID_INPUT", (error as Error).message, { retryable: false });
  }
  try {
    const { url } = await server.listen();
    logger.info(
      { url, auth: token ? "bearer" : "none", crawls: redisUrl ? "queued in Redis" : "in process" },
      "http service ready",
    );
    if (!token && !isLoopbackHost(host)) {
      logger.warn(
        { host },
        "listening beyond loopback without WEBFETCH_API_TOKEN: anyone who reaches this port can fetch through it",
      );
    }
    const signal = await new Promise<string>((resolve) => {
      for (const name of STOP_SIGNALS) process.once(name, () => resolve(name));
    });
    logger.info({ signal }, "shutting down: draining in-flight requests");
    await server.close();
    return EXIT.ok;
  } finally {
    await server.close();
    await crawlJobs?.close();
    await web.close();
  }
}

/** The crawl jobs of a service whose crawls are queued in Redis (a bad URL is bad input). */
async function queuedCrawls(redisUrl: string, web: WebFetch, logger: Logger) {
  const { QueuedCrawls } = await import("../queue/crawls.js");
  try {
    return new QueuedCrawls({ redisUrl, web, locale: web.options.locale, logger });
  } catch (error) {
    await web.close();
    if (error instanceof RangeError || error instanceof TypeError) {
      throw new WebFetchError("INVALID_INPUT", error.message, { retryable: false });
    }
    throw error;
  }
}

/** True when `endpoint` names this service: its port, on its host or on a loopback name. */
function pointsAt(endpoint: string, host: string, port: number): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const endpointPort = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const name = url.hostname.replace(/^\[|\]$/g, "");
  const local = isLoopbackHost(name) || isWildcardHost(name);
  return (
    endpointPort === port &&
    (name === host || (local && (isWildcardHost(host) || isLoopbackHost(host))))
  );
}
