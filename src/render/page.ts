/**
 * Renders one page in Chromium and returns its DOM once its scripts have settled, and a
 * screenshot when one is asked for. The page's
 * first document is the response webfetch already fetched (robots.txt, redirects and the guard
 * were checked for it); every other request the page makes (scripts, XHR, fetch, frames, a
 * navigation of its own) is answered by `fetch`, which goes through the address guard, the
 * domain lists, the deadline and the byte budget. Refused requests are counted.
 */
import { isWebFetchError, WebFetchError } from "../errors.js";
import type { ResourceRequest, ResourceResponse } from "../fetch/fetcher.js";
import type { Deadline } from "../net/deadline.js";
import { type BrowserPool, firstLine } from "./browser.js";
import type { BrowserContext, Page, Route } from "./playwright.js";
import { type Captured, captureScreenshot, type ShotRequest } from "./screenshot.js";

/** Resource types a text extraction never needs: not fetched at all. */
const SKIPPED_TYPES = new Set(["image", "media", "font", "stylesheet", "manifest", "texttrack"]);
/**
 * Resource types a screenshot does without. Its images, fonts and stylesheets are fetched like
 * every other request of the page: through `fetch`, so through the guard and the byte budget.
 */
const SHOT_SKIPPED_TYPES = new Set(["media", "manifest", "texttrack"]);
/** Codes of a request the policy refused (as opposed to one that failed). */
const REFUSED_CODES = new Set(["BLOCKED_ADDRESS", "BLOCKED_DOMAIN", "INVALID_URL"]);
/** Longest wait for the page's network to go quiet after its document loaded. */
const SETTLE_MS = 10_000;
/** A page whose text has not changed for this long has settled, network or not. */
const STABLE_MS = 1_500;
/** How often the text is looked at while settling. */
const STABLE_POLL_MS = 250;
/** Time kept back from the deadline to read the DOM and convert it. */
const RESERVE_MS = 1_000;

export interface RenderRequest {
  /** The URL the document was fetched from (after redirects). */
  url: string;
  /** The document as fetched. */
  body: Buffer;
  /** Its Content-Type header. */
  contentType: string;
  deadline: Deadline;
  /** Bytes the page's own requests may bring in, all together, and the rendered DOM's bound. */
  maxBytes: number;
  /** Answers one request of the page (guarded, capped, one hop). */
  fetch: (req: ResourceRequest, deadline: Deadline, maxBytes: number) => Promise<ResourceResponse>;
  /** A screenshot to take once the page has settled, in a viewport of its size. */
  screenshot?: ShotRequest;
}

export interface Rendered {
  /** The rendered DOM, serialized. */
  html: string;
  /** Where the page ended (a script may navigate). */
  finalUrl: string;
  /** Requests of the page the policy refused (private addresses, blocked domains). */
  blockedRequests: number;
  /** Requests of the page answered from the network. */
  requests: number;
  /** The screenshot asked for. */
  screenshot?: Captured;
}

/** Renders `req.url` in a fresh browser context of `pool`'s browser. */
export async function renderPage(pool: BrowserPool, req: RenderRequest): Promise<Rendered> {
  const { deadline } = req;
  let context: BrowserContext | undefined;
  try {
    const browser = await deadline.race(pool.browser());
    const opening = browser.newContext({
      serviceWorkers: "block",
      acceptDownloads: false,
      javaScriptEnabled: true,
      ...(req.screenshot
        ? { viewport: { width: req.screenshot.width, height: req.screenshot.height } }
        : {}),
    });
    // A context that opens after the deadline passed is closed all the same.
    void opening.then(
      (opened) => {
        context = opened;
        if (deadline.signal.aborted) void opened.close().catch(() => {});
      },
      () => {},
    );
    context = await deadline.race(opening);
    const state = { blocked: 0, requests: 0, bytes: 0, documentServed: false };
    return await deadline.race(run(context, req, state));
  } catch (error) {
    throw renderError(error, deadline);
  } finally {
    // Closing the context ends its page and every request still pending inside it.
    void context?.close().catch(() => {});
  }
}

/** A failure of the render as a WebFetchError: ours as they are, the browser's RENDER_FAILED. */
function renderError(error: unknown, deadline: Deadline): unknown {
  if (isWebFetchError(error)) return error;
  if (deadline.expired) return deadline.timeoutError(error);
  if (deadline.cancelled) return error;
  // The browser's own failures (a crash, its navigation timeout) as one code.
  return new WebFetchError("RENDER_FAILED", `Could not render the page: ${firstLine(error)}`, {
    cause: error,
    retryable: true,
  });
}

interface RenderState {
  blocked: number;
  requests: number;
  bytes: number;
  documentServed: boolean;
}

async function run(context: BrowserContext, req: RenderRequest, state: RenderState) {
  const { deadline } = req;
  // WebSockets have their own route; a rendered page has no use for one.
  await context.routeWebSocket(/.*/, (ws) => ws.close());
  await context.route("**/*", (route) => answer(route, req, state));
  const page = await context.newPage();
  context.on("page", (other) => {
    if (other !== page) void other.close().catch(() => {});
  });
  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  await page.goto(req.url, {
    waitUntil: "domcontentloaded",
    timeout: Math.max(1, deadline.remaining() - RESERVE_MS),
  });
  await settle(page, deadline);
  const html = await page.content();
  if (Buffer.byteLength(html) > req.maxBytes) {
    throw new WebFetchError("TOO_LARGE", "The rendered page exceeds the size cap", {
      retryable: false,
    });
  }
  let screenshot: Captured | undefined;
  if (req.screenshot) {
    // Images may still be loading after the text settled; their load event is waited for
    // within the settle time.
    const budget = Math.min(SETTLE_MS, deadline.remaining() - RESERVE_MS);
    if (budget > 0) await page.waitForLoadState("load", { timeout: budget }).catch(() => {});
    screenshot = await captureScreenshot(context, page, req.screenshot);
  }
  return {
    html,
    finalUrl: page.url(),
    blockedRequests: state.blocked,
    requests: state.requests,
    ...(screenshot ? { screenshot } : {}),
  } satisfies Rendered;
}

/**
 * Waits until the page has settled: its network quiet, or its text unchanged for a while (a
 * page that polls or streams never goes quiet), or the settle time or the deadline runs out.
 */
async function settle(page: Page, deadline: Deadline): Promise<void> {
  const budget = Math.min(SETTLE_MS, deadline.remaining() - RESERVE_MS);
  if (budget <= 0) return;
  let done = false;
  const quiet = page.waitForLoadState("networkidle", { timeout: budget }).catch(() => {});
  const stable = (async () => {
    const ends = Date.now() + budget;
    let last = -1;
    let since = Date.now();
    while (!done && Date.now() < ends) {
      await new Promise((resolve) => setTimeout(resolve, STABLE_POLL_MS));
      const length = await page
        .evaluate<number>("document.body ? document.body.innerText.length : 0")
        .catch(() => -1);
      if (length !== last) {
        last = length;
        since = Date.now();
      } else if (length > 0 && Date.now() - since >= STABLE_MS) {
        return;
      }
    }
  })();
  await Promise.race([quiet, stable]);
  done = true;
}

/** Answers one request of the page: the fetched document, our client, or a refusal. */
async function answer(route: Route, req: RenderRequest, state: RenderState): Promise<void> {
  const request = route.request();
  const url = request.url();
  try {
    if (!state.documentServed && request.isNavigationRequest() && sameUrl(url, req.url)) {
      state.documentServed = true;
      await route.fulfill({
        status: 200,
        headers: { "content-type": req.contentType },
        body: req.body,
      });
      return;
    }
    const skipped = req.screenshot ? SHOT_SKIPPED_TYPES : SKIPPED_TYPES;
    if (skipped.has(request.resourceType()) || !/^https?:/i.test(url)) {
      await route.abort("aborted");
      return;
    }
    const budget = req.maxBytes - state.bytes;
    if (budget <= 0) {
      await route.abort("failed");
      return;
    }
    const response = await req.fetch(
      {
        url,
        method: request.method(),
        headers: await request.allHeaders(),
        body: request.postDataBuffer() ?? undefined,
      },
      req.deadline,
      budget,
    );
    state.requests++;
    state.bytes += response.body.length;
    await route.fulfill({
      status: response.status,
      headers: response.headers,
      body: response.body,
    });
  } catch (error) {
    if (isWebFetchError(error) && REFUSED_CODES.has(error.code)) state.blocked++;
    await route.abort(refusal(error)).catch(() => {});
  }
}

/** The network error Chromium reports for a request we did not answer. */
function refusal(error: unknown): string {
  if (!isWebFetchError(error)) return "failed";
  if (REFUSED_CODES.has(error.code)) return "blockedbyclient";
  if (error.code === "TIMEOUT") return "timedout";
  return "failed";
}

/** The same resource, ignoring the fragment. */
function sameUrl(a: string, b: string): boolean {
  return a.split("#", 1)[0] === b.split("#", 1)[0];
}
