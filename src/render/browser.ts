/**
 * The browser behind `render`: Debian's Chromium driven by playwright-core, both loaded on the
 * first render only. One browser serves every render of an instance (a fresh, cookie-less
 * context per page) and is closed with the instance; Playwright also kills it when the process
 * exits.
 *
 * Chromium itself never reaches the network. Every request a page makes is intercepted and
 * answered by our own client through the address guard (render/page.ts). As backstops, where
 * Linux allows it Chromium runs in a network namespace of its own with no interface at all
 * (Playwright speaks to it over a pipe), and in any case its proxy is a closed port on loopback
 * and its resolver answers nothing, so anything the interception missed (a WebSocket, WebRTC, a
 * prefetch, Chromium's own probes) fails closed.
 */
import { spawnSync } from "node:child_process";
import { access, chmod, constants, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebFetchError } from "../errors.js";
import { type Browser, type BrowserType, loadChromium } from "./playwright.js";

/** How to get a browser, in the error that says there is none. */
const INSTALL_HINT =
  "install it with `apt-get install chromium` (Debian/Ubuntu) or set fetch.browser_path";

/**
 * Flags: headless, no background traffic of Chromium's own (updates, sync, metrics), and the
 * fail-closed network backstop. `--no-sandbox` because containers and CI run as root.
 */
const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--metrics-recording-only",
  "--mute-audio",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  // The backstop: what interception does not answer goes to a closed port, never out.
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--host-resolver-rules=MAP * ~NOTFOUND",
];

export interface BrowserPoolOptions {
  /** Chromium's executable. @default "/usr/bin/chromium" */
  executablePath: string;
}

/** One lazily launched Chromium, shared by the renders of one instance. */
export class BrowserPool {
  readonly #options: BrowserPoolOptions;
  #browser: Promise<Browser> | undefined;
  #closed = false;
  /** The folder of the namespace wrapper, removed on close. */
  #wrapperDir: string | undefined;

  constructor(options: BrowserPoolOptions) {
    this.#options = options;
  }

  /** The browser, launched on first use; throws RENDER_FAILED when there is none to launch. */
  browser(): Promise<Browser> {
    if (this.#closed) {
      return Promise.reject(
        new WebFetchError("RENDER_FAILED", "The browser was closed with the instance", {
          retryable: false,
        }),
      );
    }
    this.#browser ??= this.#launch().catch((error: unknown) => {
      // A browser installed later gets another chance.
      this.#browser = undefined;
      throw error;
    });
    return this.#browser;
  }

  async #launch(): Promise<Browser> {
    const path = this.#options.executablePath;
    try {
      await access(path, constants.X_OK);
    } catch {
      throw new WebFetchError(
        "RENDER_FAILED",
        `JavaScript rendering needs Chromium, not found at ${path}: ${INSTALL_HINT}`,
        { retryable: false },
      );
    }
    let chromium: BrowserType;
    try {
      chromium = await loadChromium();
    } catch (error) {
      throw new WebFetchError(
        "RENDER_FAILED",
        "JavaScript rendering needs the optional package playwright-core: npm install playwright-core",
        { cause: error, retryable: false },
      );
    }
    const executablePath = (await this.#isolated(path)) ?? path;
    try {
      const browser = await chromium.launch({
        executablePath,
        args: CHROMIUM_ARGS,
        headless: true,
        timeout: 30_000,
      });
      browser.on("disconnected", () => {
        this.#browser = undefined;
      });
      return browser;
    } catch (error) {
      throw new WebFetchError(
        "RENDER_FAILED",
        `Could not start Chromium at ${path}: ${firstLine(error)}`,
        { cause: error, retryable: true },
      );
    }
  }

  /**
   * A wrapper that starts Chromium in a new network namespace, where it has no network at all;
   * undefined where namespaces are not available (not Linux, no `unshare`, not permitted).
   */
  async #isolated(path: string): Promise<string | undefined> {
    const flags = namespaceFlags();
    if (!flags) return undefined;
    this.#wrapperDir ??= await mkdtemp(join(tmpdir(), "webfetch-chromium-"));
    const wrapper = join(this.#wrapperDir, "chromium");
    await writeFile(wrapper, `#!/bin/sh\nexec unshare ${flags} -- ${shellQuote(path)} "$@"\n`);
    await chmod(wrapper, 0o700);
    return wrapper;
  }

  /** Closes the browser, if it was started; later renders fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#browser;
    this.#browser = undefined;
    if (pending) {
      const browser = await pending.catch(() => undefined);
      await browser?.close().catch(() => {});
    }
    if (this.#wrapperDir) await rm(this.#wrapperDir, { recursive: true, force: true });
  }
}

/** Whether `unshare` can give a process a network namespace here: its flags, once per process. */
let namespaceSupport: string | null | undefined;

function namespaceFlags(): string | undefined {
  if (namespaceSupport === undefined) {
    namespaceSupport = null;
    if (process.platform === "linux") {
      // Root can make a network namespace directly; others need a user namespace for it.
      for (const flags of process.getuid?.() === 0 ? ["-n", "-rn"] : ["-rn"]) {
        const probe = spawnSync("unshare", [...flags.split(" "), "--", "true"], {
          stdio: "ignore",
          timeout: 5_000,
        });
        if (probe.status === 0) {
          namespaceSupport = flags;
          break;
        }
      }
    }
  }
  return namespaceSupport ?? undefined;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The first line of an error's message (Playwright's go on with call logs). */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0] ?? message;
}
