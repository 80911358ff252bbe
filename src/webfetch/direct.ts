/**
 * The direct source: this process fetches through the address guard and converts on a thread. A
 * stale cached copy with validators is revalidated (a 304 refreshes it), and an HTML page may be
 * rendered in the browser (`render`).
 */
import type { CachedPage } from "../cache/store.js";
import type { ConvertedBody, ConvertOptions } from "../convert/index.js";
import { convertInline } from "../convert/plain.js";
import { firstHeader, type RawResponse } from "../fetch/fetcher.js";
import { LIMITS } from "../limits.js";
import type { Deadline } from "../net/deadline.js";
import { normalizeUrl } from "../net/url.js";
import { renderPage } from "../render/page.js";
import type { Captured } from "../render/screenshot.js";
import { looksLikeAppShell } from "../render/shell.js";
import type { PhaseTimings } from "../result.js";
import { inSpan, SPANS } from "../trace.js";
import { HTML_MEDIA_TYPES, type RenderMode } from "../values.js";
import type { ScreenshotWarning } from "../warnings.js";
import type { ResolvedCall, ScreenshotCall } from "./call.js";
import type { Resources } from "./resources.js";
import type { PageSource, Sourced } from "./sources.js";

/** `notRendered` of an app shell fetched with rendering turned off. */
export const RENDER_OFF = "off";

/** Characters of a render failure's reason kept for the result's warning. */
const MAX_REASON_CHARS = 200;

/** A page as the browser left it, converted, and its screenshot when one was asked for. */
type Rendered = ConvertedBody & {
  finalUrl: string;
  rendered: true;
  blockedRequests: number;
} & Pick<CachedPage, "screenshot" | "screenshotWarnings">;

export function directSource(resources: Resources): PageSource {
  const { resolved, fetcher } = resources;

  /**
   * Conversion runs on a thread, inside the same deadline as the fetch, except a small plain-text
   * body's, which converts at once; the time it took, the hand-off to the thread and back
   * included, is added to `clock.convertMs`.
   */
  async function convertIn(
    deadline: Deadline,
    body: Uint8Array,
    headerType: string | undefined,
    options: ConvertOptions,
    clock: PhaseTimings,
  ) {
    const started = performance.now();
    try {
      return await inSpan(SPANS.convert, { "url.full": options.url }, async () => {
        const { url, format } = options;
        const plain = convertInline(body, headerType, url, format, LIMITS.inlineTextBytes);
        if (plain) return plain;
        return deadline.race(
          resources.converter.convert(body, headerType, options, deadline.events),
        );
      });
    } finally {
      clock.convertMs = (clock.convertMs ?? 0) + performance.now() - started;
    }
  }

  /**
   * The page rendered in the browser and converted. With `auto`, a failed render (no Chromium,
   * a crash, the time running out) leaves the static result: the reason comes back instead, and
   * the result names it in its warnings.
   */
  async function renderIn(
    deadline: Deadline,
    mode: RenderMode,
    raw: RawResponse,
    headerType: string | undefined,
    options: ConvertOptions,
    signal: AbortSignal | undefined,
    screenshot: ScreenshotCall | undefined,
    clock: PhaseTimings,
  ): Promise<Rendered | { notRendered: string }> {
    const release = await deadline.slot((signal) => resources.renders.acquire(signal));
    try {
      const rendered = await renderPage(resources.browsers(), {
        url: raw.finalUrl,
        body: raw.body,
        contentType: headerType ?? "text/html",
        deadline,
        maxBytes: resolved.maxBytes,
        fetch: (req, d, maxBytes) => fetcher.resource(req, d, maxBytes),
        ...(screenshot ? { screenshot } : {}),
      });
      if (rendered.blockedRequests > 0) {
        resources.logger.warn(
          { url: raw.finalUrl, blocked: rendered.blockedRequests },
          "render: requests of the page refused by the address guard or domain lists",
        );
      }
      const converted = await convertIn(
        deadline,
        Buffer.from(rendered.html, "utf8"),
        "text/html; charset=utf-8",
        { ...options, url: rendered.finalUrl },
        clock,
      );
      return {
        ...converted,
        finalUrl: rendered.finalUrl,
        rendered: true,
        blockedRequests: rendered.blockedRequests,
        ...(rendered.screenshot ? shotOf(rendered.screenshot, screenshot) : {}),
      };
    } catch (error) {
      if (mode === "always" || signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      resources.logger.warn(
        { url: raw.finalUrl, error: reason },
        "render failed; the static result is used",
      );
      return { notRendered: reason.split("\n")[0]!.slice(0, MAX_REASON_CHARS) };
    } finally {
      release();
    }
  }

  return {
    async load(target, call: ResolvedCall, stale, deadline): Promise<Sourced> {
      const raw = await fetcher.fetch(
        target,
        {
          redirects: call.redirects,
          maxRedirects: call.maxRedirects,
          robots: call.robots,
          headers: call.headers ?? {},
          validators: stale ? { etag: stale.etag, lastModified: stale.lastModified } : undefined,
        },
        deadline,
      );
      // When the response was read (taken before the conversion, during which this thread waits:
      // after the wait, making a date costs ten times as long).
      const fetchedAt = new Date().toISOString();
      const timings: PhaseTimings = { ...raw.timings };
      if (raw.status === 304 && stale) {
        return {
          page: { ...stale, fetchedAt },
          revalidated: true,
          timings,
        };
      }
      const headerType = firstHeader(raw.headers["content-type"]);
      const options: ConvertOptions = {
        url: raw.finalUrl,
        format: call.format,
        extract: call.extract,
        ...(call.includeSelectors ? { includeSelectors: call.includeSelectors } : {}),
        ...(call.excludeSelectors ? { excludeSelectors: call.excludeSelectors } : {}),
        ...(call.links ? { links: true } : {}),
        ...(call.images ? { images: true } : {}),
      };
      const converted = await convertIn(deadline, raw.body, headerType, options, timings);
      const page: CachedPage = {
        url: normalizeUrl(target.url),
        finalUrl: raw.finalUrl,
        redirects: raw.redirects,
        status: raw.status,
        ...converted,
        fetchedAt,
      };
      // A screenshot renders an HTML page whatever the mode, and a failed render is an error,
      // as with `always`; another type gets no screenshot and says why.
      const html = isHtml(converted.contentType);
      const shot = html ? call.screenshot : undefined;
      if (call.screenshot && !html) {
        page.screenshotWarnings = [
          { kind: "screenshot-not-html", contentType: converted.contentType },
        ];
      }
      const mode = shot ? "always" : call.render;
      // `raw` is the document as served: only `render: "always"` gives the browser's instead.
      const shell =
        html &&
        mode !== "always" &&
        call.format !== "raw" &&
        looksLikeAppShell(raw.body, readableText(converted.content, call.format));
      if (mode === "always" || (mode === "auto" && shell)) {
        const rendered = await renderIn(
          deadline,
          mode,
          raw,
          headerType,
          options,
          call.signal,
          shot,
          timings,
        );
        // `auto` keeps the static result unless the browser found more.
        if ("notRendered" in rendered) {
          page.notRendered = rendered.notRendered;
        } else if (mode === "always" || rendered.content.length > converted.content.length) {
          // The rendered document's own limits, not the static one's.
          const { limits: _static, ...unlimited } = page;
          return {
            page: { ...unlimited, ...rendered, contentType: converted.contentType },
            timings,
          };
        }
      } else if (shell) {
        page.notRendered = RENDER_OFF;
      }
      // A page that could not be rendered is fetched again once stale, not revalidated: a 304
      // would keep the unrendered copy (and its warning) after the browser becomes available.
      const etag = page.notRendered ? undefined : firstHeader(raw.headers.etag);
      const lastModified = page.notRendered ? undefined : firstHeader(raw.headers["last-modified"]);
      return {
        page: {
          ...page,
          ...(etag ? { etag } : {}),
          ...(lastModified ? { lastModified } : {}),
        },
        timings,
      };
    },
  };
}

/** Markup tags, left out when the clean HTML's text is measured. */
const TAG = /<[^>]*>/g;

/** The text of converted content a reader sees: clean HTML without its tags. */
function readableText(content: string, format: ResolvedCall["format"]): string {
  return format === "html" ? content.replace(TAG, " ") : content;
}

/** A capture as the page keeps it: the PNG, and why it shows less than the page or is missing. */
function shotOf(
  captured: Captured,
  shot: ScreenshotCall | undefined,
): Pick<CachedPage, "screenshot" | "screenshotWarnings"> {
  const warnings: ScreenshotWarning[] = [];
  if (captured.cutFrom !== undefined) {
    warnings.push({
      kind: "screenshot-cut",
      pageHeight: captured.cutFrom,
      maxHeight: LIMITS.screenshotMaxPageHeight,
    });
  }
  if (!captured.image && shot) {
    warnings.push({ kind: "screenshot-too-large", maxBytes: shot.maxBytes });
  }
  return {
    ...(captured.image ? { screenshot: { mimeType: "image/png", ...captured.image } } : {}),
    ...(warnings.length > 0 ? { screenshotWarnings: warnings } : {}),
  };
}

/** HTML types, the ones a browser can render. */
function isHtml(contentType: string): boolean {
  return HTML_MEDIA_TYPES.has(contentType);
}
