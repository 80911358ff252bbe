/**
 * Builds webfetch instances for tests: names resolve through an injected lookup, only the
 * fixture server's port is opened in the guard, and the socket opener is wrapped by a safety net
 * that refuses (and records) anything but loopback, so no test can send a packet elsewhere even
 * if the guard had a bug.
 */
import { isIP } from "node:net";
import { buildConnector } from "undici";
import { afterAll, beforeAll, expect } from "vitest";
import { isWebFetchError, type WebFetchError } from "../../src/errors.js";
import { silentLogger } from "../../src/log.js";
import type { WebFetchOptions } from "../../src/options.js";
import { createWebFetch, type WebFetch } from "../../src/webfetch/index.js";
import { type FixtureServer, startFixtureServer, testLookup } from "./fixture-server.js";

/** Loopback only: 127.0.0.0/8 and ::1. */
export function isLoopback(ip: string): boolean {
  return (isIP(ip) === 4 && ip.startsWith("127.")) || ip === "::1";
}

export interface Recorder {
  /** Every address the guard let through to the socket opener. */
  attempts: { hostname: string; port: string }[];
  /** Addresses that were not loopback: must stay empty. */
  refused: { hostname: string; port: string }[];
}

/**
 * A connector that opens real sockets only to loopback; with `recordOnly`, it opens nothing
 * and fails every connection after recording it.
 */
export function safetyConnector(recorder: Recorder, recordOnly = false): buildConnector.connector {
  const real = buildConnector({ timeout: 5_000 });
  return (options, callback) => {
    recorder.attempts.push({ hostname: options.hostname, port: options.port });
    if (recordOnly || !isLoopback(options.hostname)) {
      if (!isLoopback(options.hostname))
        recorder.refused.push({ hostname: options.hostname, port: options.port });
      const error = Object.assign(
        new Error(`connect ECONNREFUSED ${options.hostname} (recorded, not sent)`),
        {
          code: "ECONNREFUSED",
        },
      );
      queueMicrotask(() => callback(error, null));
      return;
    }
    real(options, callback);
  };
}

export function newRecorder(): Recorder {
  return { attempts: [], refused: [] };
}

export interface TestWeb {
  web: WebFetch;
  recorder: Recorder;
  lookup: ReturnType<typeof testLookup>;
}

/** A webfetch instance wired to the fixture server. */
export function testWeb(
  server: FixtureServer | undefined,
  options: WebFetchOptions & {
    names?: Record<string, string | string[]>;
    recordOnly?: boolean;
  } = {},
): TestWeb {
  const { names, recordOnly, ...rest } = options;
  const recorder = newRecorder();
  const lookup = testLookup(names);
  const web = createWebFetch({
    lookup,
    connect: safetyConnector(recorder, recordOnly),
    logger: silentLogger,
    allowAddresses: server ? [`127.0.0.1:${server.port}`] : [],
    retries: 1,
    ...rest,
  });
  return { web, recorder, lookup };
}

/** The fixture server and a webfetch instance wired to it, filled in before the suite runs. */
export interface FixtureSuite {
  server: FixtureServer;
  t: TestWeb;
}

/**
 * Starts a fixture server and an instance for the enclosing test file, closes both after it,
 * and checks that no socket was ever aimed outside loopback.
 */
export function fixtureSuite(
  options: Parameters<typeof testWeb>[1] = {},
  before?: () => void,
): FixtureSuite {
  const suite = {} as FixtureSuite;
  beforeAll(async () => {
    suite.server = await startFixtureServer();
    before?.();
    suite.t = testWeb(suite.server, options);
  });
  afterAll(async () => {
    await suite.t.web.close();
    await suite.server.close();
    expect(suite.t.recorder.refused).toEqual([]);
  });
  return suite;
}

/** Awaits a promise that must fail with a WebFetchError, and returns that error. */
export async function failure(promise: Promise<unknown>): Promise<WebFetchError> {
  try {
    await promise;
  } catch (error) {
    if (isWebFetchError(error)) return error;
    throw error;
  }
  throw new Error("expected a WebFetchError");
}
