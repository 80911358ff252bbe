/**
 * The parts of undici that webfetch uses (the connection pool, the socket opener and
 * `request`), loaded from their own modules. undici's index loads every part it has (mock
 * agents, caches, cookies, WebSocket, its fetch, and through its cookies Node's own bundled
 * copy of undici) before it returns, which is most of what a short command spends starting.
 * The values are undici's own, with undici's types; `request` is undici's top-level one. These
 * module paths are undici's internals, so package.json pins undici's exact version.
 */
import { createRequire } from "node:module";
import type * as Undici from "undici";

const require = createRequire(import.meta.url);

// Dispatchers carry the request API as methods (`agent.request(…)`), which undici's index adds
// to the base class; the same is done here, so an agent made here has them too.
const DispatcherClass = require("undici/lib/dispatcher/dispatcher.js") as {
  prototype: object;
};
const api = require("undici/lib/api/index.js") as { request: RequestMethod };
Object.assign(DispatcherClass.prototype, api);

type RequestMethod = (this: Undici.Dispatcher, options: object) => ReturnType<typeof request>;

interface UndiciUtil {
  parseURL(url: string | URL | object): URL;
  parseOrigin(url: string | URL | object): URL;
}
const util = require("undici/lib/core/util.js") as UndiciUtil;
const { InvalidArgumentError } = require("undici/lib/core/errors.js") as typeof Undici.errors;

/** undici's keep-alive connection pool across origins. */
export const Agent = require("undici/lib/dispatcher/agent.js") as typeof Undici.Agent;
export type Agent = Undici.Agent;

/** undici's socket opener (TCP or TLS, with its connect timeout). */
export const buildConnector = require("undici/lib/core/connect.js") as typeof Undici.buildConnector;
export declare namespace buildConnector {
  type connector = Undici.buildConnector.connector;
  type BuildOptions = Undici.buildConnector.BuildOptions;
  type Options = Undici.buildConnector.Options;
  type Callback = Undici.buildConnector.Callback;
}

export type { Dispatcher } from "undici";

/**
 * undici's `request(url, options)`: one request on `options.dispatcher` (undici's global one
 * when none is given), as undici's index defines it.
 *
 * @example
 * const res = await request("https://example.com/", { dispatcher: agent });
 */
export const request = ((url: string | URL | object, opts?: Record<string, unknown> | null) => {
  if (!url || (typeof url !== "string" && typeof url !== "object")) {
    throw new InvalidArgumentError("invalid url");
  }
  if (opts != null && typeof opts !== "object") {
    throw new InvalidArgumentError("invalid opts");
  }
  let target: URL;
  let options = opts;
  if (options && options.path != null) {
    if (typeof options.path !== "string") throw new InvalidArgumentError("invalid opts.path");
    const path = options.path.startsWith("/") ? options.path : `/${options.path}`;
    target = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!options) options = typeof url === "object" ? (url as Record<string, unknown>) : {};
    target = util.parseURL(url);
  }
  if (options.agent) {
    throw new InvalidArgumentError("unsupported opts.agent. Did you mean opts.client?");
  }
  const dispatcher = (options.dispatcher ?? globalDispatcher()) as Undici.Dispatcher;
  return api.request.call(dispatcher, {
    ...options,
    origin: target.origin,
    path: target.search ? `${target.pathname}${target.search}` : target.pathname,
    method: options.method || (options.body ? "PUT" : "GET"),
  });
}) as typeof Undici.request;

/** undici's global dispatcher, loaded (and made) only by a request that names none. */
function globalDispatcher(): Undici.Dispatcher {
  const global = require("undici/lib/global.js") as {
    getGlobalDispatcher(): Undici.Dispatcher;
  };
  return global.getGlobalDispatcher();
}
