/**
 * The connection pools of an instance: one for pages, behind the address guard, and one for the
 * endpoints the operator configured (search providers, Tavily, the remote fetch service), which
 * are trusted by configuration and do not pass the guard. Both are made here, so they differ
 * only in the guard.
 */
import type { AddressGuard } from "./guard.js";
import { Agent, buildConnector } from "./undici.js";

/** How long an idle pooled connection is kept for the next request. */
const KEEP_ALIVE_MS = 4_000;
/** Connect timeout of the default socket opener; a call's own deadline usually ends sooner. */
const CONNECT_TIMEOUT_MS = 10_000;

export interface AgentOptions {
  /** Connections per origin. */
  connections: number;
  /** The socket opener (tests inject one). @default undici's, with a 10 s connect timeout */
  connect?: buildConnector.connector | undefined;
  /** When given, every socket goes through it: only checked, pinned addresses are reached. */
  guard?: AddressGuard | undefined;
}

/**
 * A keep-alive connection pool.
 *
 * @example
 * const guard = new AddressGuard({ allowPrivateNetwork: false });
 * const pages = createAgent({ connections: 6, guard });
 * const endpoints = createAgent({ connections: 6 });
 */
export function createAgent(options: AgentOptions): Agent {
  const connect = options.connect ?? buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  return new Agent({
    connections: options.connections,
    connect: options.guard ? options.guard.connector(connect) : connect,
    keepAliveTimeout: KEEP_ALIVE_MS,
  });
}
