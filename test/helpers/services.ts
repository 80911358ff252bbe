/**
 * The programs some suites need besides Node: Chromium (rendering) and redis-server (the Redis
 * store and the shared politeness limit). A suite that needs a missing one is skipped, and the
 * run says once per program what is missing and how to install it (services-setup.ts). CI sets
 * WEBFETCH_REQUIRE_SERVICES=1, which turns a missing program into a failed run, so CI never
 * skips these suites.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { DEFAULTS } from "../../src/options.js";

export type Service = "chromium" | "redis-server";

/** Set to 1 (CI does) to fail the run when a service is missing instead of skipping its suites. */
export const REQUIRE_SERVICES = "WEBFETCH_REQUIRE_SERVICES";

/** How to get each service, in the line printed when it is missing. */
const INSTALL: Record<Service, string> = {
  chromium: "install it with `apt-get install chromium` (or set WEBFETCH_CHROMIUM_PATH)",
  "redis-server": "install it with `apt-get install redis-server` (or set REDIS_SERVER)",
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Chromium for the rendering tests: WEBFETCH_CHROMIUM_PATH, else the library's default. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.WEBFETCH_CHROMIUM_PATH || DEFAULTS.browserPath;
}

/** redis-server: REDIS_SERVER, else the first one on PATH; undefined when there is none. */
export function redisServerPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.REDIS_SERVER) return env.REDIS_SERVER;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && executable(join(dir, "redis-server"))) return join(dir, "redis-server");
  }
  return undefined;
}

/** Whether `service` can be started here. */
export function hasService(service: Service, env: NodeJS.ProcessEnv = process.env): boolean {
  const path = service === "chromium" ? chromiumPath(env) : redisServerPath(env);
  return path !== undefined && executable(path);
}

/** The services that are missing here, each with the line that says how to install it. */
export function missingServices(
  env: NodeJS.ProcessEnv = process.env,
): { service: Service; line: string }[] {
  return (Object.keys(INSTALL) as Service[])
    .filter((service) => !hasService(service, env))
    .map((service) => ({
      service,
      line: `skipped: ${service} not found; ${INSTALL[service]} to run the tests that need it`,
    }));
}

/** Whether a missing service must fail the run (CI) rather than skip its suites. */
export function servicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[REQUIRE_SERVICES];
  return value !== undefined && value !== "" && value !== "0";
}
