/**
 * A screenshot of a rendered page that fits a byte cap. The page is captured as a PNG through
 * the DevTools Protocol (`Page.captureScreenshot`), whose `clip.scale` shrinks the image without
 * touching the page's layout: a capture over the cap is taken again at a smaller scale, chosen
 * from how far over it was, until one fits or the tries run out. A full-page capture covers the
 * document from its top to its height, at most LIMITS.screenshotMaxPageHeight CSS pixels.
 */
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { BrowserContext, Page } from "./playwright.js";

/** What to capture: the viewport's size (CSS pixels), the whole page or not, the byte cap. */
export interface ShotRequest {
  fullPage: boolean;
  width: number;
  height: number;
  maxBytes: number;
}

/** A capture that fits, and what was left out of it. */
export interface Captured {
  /** The PNG (base64) and its size in pixels; absent when no capture fitted the cap. */
  image?: { data: string; width: number; height: number };
  /** The height of a full page that was taller than the cap, CSS pixels. */
  cutFrom?: number;
}

/** The document's height, CSS pixels: the taller of the root's and the body's scroll heights. */
const PAGE_HEIGHT =
  "Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0)";

/**
 * PNG bytes grow with the pixels, that is with the square of the scale: the next scale is the
 * square root of how far over the cap a capture was, times this margin, and at most this much
 * of the last one, so every retry is clearly smaller.
 */
const SCALE_MARGIN = 0.9;

/** The eight bytes every PNG starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Captures `page`, shown in a viewport of `shot.width` × `shot.height`, under `shot.maxBytes`.
 *
 * @example
 * const { image } = await captureScreenshot(context, page, { fullPage: false, width: 1280, height: 800, maxBytes: 1_572_864 });
 */
export async function captureScreenshot(
  context: BrowserContext,
  page: Page,
  shot: ShotRequest,
): Promise<Captured> {
  let height = shot.height;
  let cutFrom: number | undefined;
  if (shot.fullPage) {
    const pageHeight = Math.ceil(await page.evaluate<number>(PAGE_HEIGHT));
    height = Math.max(1, Math.min(pageHeight, LIMITS.screenshotMaxPageHeight));
    if (pageHeight > LIMITS.screenshotMaxPageHeight) cutFrom = pageHeight;
  }
  const cut = cutFrom === undefined ? {} : { cutFrom };
  const session = await context.newCDPSession(page);
  try {
    let scale = 1;
    for (let tries = 0; tries < LIMITS.screenshotCaptures; tries++) {
      const { data } = await session.send("Page.captureScreenshot", {
        format: "png",
        clip: { x: 0, y: 0, width: shot.width, height, scale },
        captureBeyondViewport: shot.fullPage,
      });
      if (typeof data !== "string") throw new Error("Chromium returned no image");
      const png = Buffer.from(data, "base64");
      if (png.length <= shot.maxBytes) return { image: { data, ...pngSize(png) }, ...cut };
      scale *= Math.min(SCALE_MARGIN, Math.sqrt(shot.maxBytes / png.length) * SCALE_MARGIN);
    }
    return cut;
  } finally {
    void session.detach().catch(() => {});
  }
}

/**
 * A PNG's width and height in pixels, from its header (the IHDR chunk comes first).
 *
 * @example
 * pngSize(png) // { width: 1280, height: 800 }
 */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new WebFetchError("RENDER_FAILED", "The screenshot is not a PNG", { retryable: true });
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
