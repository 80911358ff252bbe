/**
 * The part of playwright-core that rendering uses, typed here and loaded at run time. The
 * package is an optional dependency: an install without it (`npm install --omit=optional`) must
 * still compile, so no module of ours names it in a type position; only `loadChromium` reaches
 * it, through an import the compiler does not resolve.
 */

export interface LaunchOptions {
  executablePath: string;
  args: string[];
  headless: boolean;
  /** ms */
  timeout: number;
}

export interface BrowserType {
  launch(options: LaunchOptions): Promise<Browser>;
}

export interface Browser {
  newContext(options: {
    serviceWorkers: "allow" | "block";
    acceptDownloads: boolean;
    javaScriptEnabled: boolean;
    /** CSS pixels; Playwright's default is 1280 × 720. */
    viewport?: { width: number; height: number };
  }): Promise<BrowserContext>;
  isConnected(): boolean;
  on(event: "disconnected", listener: () => void): unknown;
  close(): Promise<void>;
}

export interface BrowserContext {
  route(url: string, handler: (route: Route) => unknown): Promise<void>;
  routeWebSocket(url: RegExp, handler: (ws: { close(): Promise<void> }) => unknown): Promise<void>;
  newPage(): Promise<Page>;
  /** A Chrome DevTools Protocol session attached to `page`. */
  newCDPSession(page: Page): Promise<CDPSession>;
  on(event: "page", listener: (page: Page) => void): unknown;
  close(): Promise<void>;
}

export interface Page {
  goto(
    url: string,
    options: { waitUntil: "load" | "domcontentloaded" | "networkidle"; timeout: number },
  ): Promise<unknown>;
  waitForLoadState(state: "load" | "networkidle", options: { timeout: number }): Promise<void>;
  /** Evaluates a script expression in the page. */
  evaluate<T>(expression: string): Promise<T>;
  content(): Promise<string>;
  url(): string;
  on(event: "dialog", listener: (dialog: { dismiss(): Promise<void> }) => void): unknown;
  close(): Promise<void>;
}

/** The DevTools Protocol: one method call with its parameters, answered by its result. */
export interface CDPSession {
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  detach(): Promise<void>;
}

export interface Route {
  request(): Request;
  fulfill(response: {
    status: number;
    headers: Record<string, string>;
    body: string | Buffer;
  }): Promise<void>;
  abort(errorCode?: string): Promise<void>;
}

export interface Request {
  url(): string;
  method(): string;
  allHeaders(): Promise<Record<string, string>>;
  postDataBuffer(): Buffer | null;
  resourceType(): string;
  isNavigationRequest(): boolean;
}

/** The package's name, held in a variable so that compiling never needs its types. */
const PACKAGE: string = "playwright-core";

/**
 * playwright-core's Chromium launcher; rejects when the package is not installed.
 *
 * @example
 * const chromium = await loadChromium();
 * const browser = await chromium.launch({ executablePath, args: [], headless: true, timeout: 30_000 });
 */
export async function loadChromium(): Promise<BrowserType> {
  const module = (await import(PACKAGE)) as { chromium: BrowserType };
  return module.chromium;
}
