/**
 * The playground: `GET /` serves a page where a person tries a URL and the options of
 * `POST /v1/fetch` before writing code, with its script and stylesheet as files of their own so
 * the page runs under a strict Content-Security-Policy (nothing inline, nothing from elsewhere).
 * The three files are static and say nothing about the service, so they are served without the
 * token; the page asks for the token and sends it with its API calls, which need it as any
 * client's do. The host guard and the rate limit apply to them like any other route.
 */
import { readFileSync } from "node:fs";
import type { Context, Hono } from "hono";

/** The page's policy: its own script, style and API only; no frames, forms, base or plugins. */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The files, by route, with their types; read once, relative to this module (dist/ or src/). */
const FILES = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/playground.js": { file: "playground.js", type: "text/javascript; charset=utf-8" },
  "/playground.css": { file: "playground.css", type: "text/css; charset=utf-8" },
} as const;

/** A route of the playground. */
export type PlaygroundRoute = keyof typeof FILES;

/** The routes the playground serves, each a file of `playground/`. */
export const PLAYGROUND_ROUTES = Object.keys(FILES) as PlaygroundRoute[];

let loaded: Map<PlaygroundRoute, { body: string; type: string }> | undefined;

/** The files, read on first use and kept for the process. */
function playgroundFiles(): Map<PlaygroundRoute, { body: string; type: string }> {
  loaded ??= new Map(
    PLAYGROUND_ROUTES.map((route) => {
      const { file, type } = FILES[route];
      const body = readFileSync(new URL(`./playground/${file}`, import.meta.url), "utf8");
      return [route, { body, type }];
    }),
  );
  return loaded;
}

/** Headers every playground file is served with. */
const SECURITY_HEADERS = {
  "Content-Security-Policy": PLAYGROUND_CSP,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  // A new version of the service serves new files: check before reusing a copy.
  "Cache-Control": "no-cache",
} as const;

/**
 * Mounts `GET /`, `/playground.js` and `/playground.css` on `app`. Mounted before the bearer
 * check, so a browser can load the page that then asks for the token. The files are read here,
 * at startup, so a package missing them fails when the service starts, not on a visit.
 *
 * @example
 * mountPlayground(app);
 */
export function mountPlayground(app: Hono): void {
  const files = playgroundFiles();
  for (const route of PLAYGROUND_ROUTES) {
    const { body, type } = files.get(route)!;
    app.get(route, (c: Context) =>
      c.body(body, 200, { "Content-Type": type, ...SECURITY_HEADERS }),
    );
  }
}
