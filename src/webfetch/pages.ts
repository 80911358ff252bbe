/**
 * The pages an instance has given ids to: a cut result's full content saved to `saveDir`, and
 * read and grep over a page's full content by id or URL. The content comes from the cache at any
 * age, else from the saved file, else from the network again with the options that made it.
 */
import { LIMITS } from "../limits.js";
import { hasScheme, normalizeUrl, parseTargetUrl } from "../net/url.js";
import { GREP_DEFAULTS, type GrepOptions, type ReadOptions } from "../options.js";
import { isPageId, type KeptPage, unknownPageId } from "../pages/kept.js";
import { readSaved, savePage } from "../pages/save.js";
import type { FetchResult, GrepResult, KeptPageInfo } from "../result.js";
import { grepContent } from "../shape/grep.js";
import { checkCall, resolveCall } from "./call.js";
import type { Loaded, PageLoader } from "./loader.js";
import type { Resources } from "./resources.js";
import { optional, toResult } from "./to-result.js";

export class Pages {
  readonly #resources: Resources;
  readonly #loader: PageLoader;

  constructor(resources: Resources, loader: PageLoader) {
    this.#resources = resources;
    this.#loader = loader;
  }

  /** Writes a cut result's full content to `saveDir` (once per page) and names the file. */
  async saveIfCut(result: FetchResult, { page, cached, kept }: Loaded): Promise<FetchResult> {
    const { saveDir } = this.#resources.resolved;
    // A cache hit that was saved before has its file already; fresh content is written anew.
    if (result.truncated && saveDir && !(cached && kept.savedPath)) {
      try {
        kept.savedPath = await savePage(saveDir, {
          id: kept.id,
          finalUrl: page.finalUrl,
          format: result.format,
          content: page.content,
        });
        this.#loader.kept.remember(kept);
      } catch (error) {
        // A directory that cannot be written costs the file, never the page: the cache keeps it.
        this.#resources.logger.warn(
          { dir: saveDir, error: (error as Error).message },
          "saveDir: could not write the full content",
        );
      }
    }
    if (kept.savedPath) result.savedPath = kept.savedPath;
    return result;
  }

  /** The pages kept, the most recently fetched or read first, `limit` at most. */
  list(limit: number): KeptPageInfo[] {
    const { format } = this.#resources.resolved;
    return this.#loader.kept.recent(limit).map((kept) => ({
      id: kept.id,
      url: kept.url,
      finalUrl: kept.meta.finalUrl,
      ...optional("title", kept.meta.title),
      format: kept.call.format ?? format,
      contentType: kept.meta.contentType,
      fetchedAt: kept.meta.fetchedAt,
    }));
  }

  async read(ref: string, options: ReadOptions = {}): Promise<FetchResult> {
    const { startIndex, length } = options;
    const window = {
      ...(startIndex === undefined ? {} : { startIndex }),
      ...(length === undefined ? {} : { maxLength: length }),
    };
    checkCall(window);
    const started = performance.now();
    const { page, cached, kept, timings } = await this.full(ref, options.signal);
    const call = resolveCall(this.#resources.resolved, { ...kept.call, ...window });
    const ms = performance.now() - started;
    const { locale } = this.#resources.resolved;
    const result = toResult(page, call, { id: kept.id, cached, ms, locale, phases: timings });
    if (kept.savedPath) result.savedPath = kept.savedPath;
    return result;
  }

  async grep(ref: string, pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    const contextLines = options.contextLines ?? GREP_DEFAULTS.contextLines;
    if (
      !Number.isInteger(contextLines) ||
      contextLines < 0 ||
      contextLines > LIMITS.grepMaxContext
    ) {
      throw new RangeError(
        `contextLines must be an integer from 0 to ${LIMITS.grepMaxContext}, got ${contextLines}`,
      );
    }
    if (
      typeof pattern !== "string" ||
      pattern.length === 0 ||
      pattern.length > LIMITS.grepMaxPattern
    ) {
      throw new RangeError(`pattern must be 1 to ${LIMITS.grepMaxPattern} characters`);
    }
    const { page, kept } = await this.full(ref, options.signal);
    return {
      id: kept.id,
      url: page.url,
      finalUrl: page.finalUrl,
      ...optional("title", page.title),
      pattern,
      ...grepContent(page.content, pattern, { contextLines }),
      ...optional("savedPath", kept.savedPath),
    };
  }

  /** The full content behind a page id or URL. An id this instance never gave is INVALID_INPUT. */
  async full(ref: string, signal?: AbortSignal): Promise<Loaded> {
    let kept: KeptPage | undefined;
    if (isPageId(ref)) {
      kept = this.#loader.kept.byId(ref);
      if (!kept) throw unknownPageId(ref);
    } else if (hasScheme(ref)) {
      kept = this.#loader.kept.byUrl(normalizeUrl(parseTargetUrl(ref).url));
    } else {
      // Without a scheme it was never a URL: a malformed id is as unknown as a forgotten one.
      throw unknownPageId(ref);
    }
    if (kept) {
      const entry = await this.#resources.cache.get(kept.key);
      if (entry) return { page: entry.page, cached: true, kept };
      const saved = kept.savedPath ? await readSaved(kept.savedPath) : undefined;
      if (saved !== undefined) {
        return { page: { ...kept.meta, content: saved }, cached: true, kept };
      }
    }
    const call = resolveCall(this.#resources.resolved, {
      ...kept?.call,
      ...(signal ? { signal } : {}),
    });
    return this.#loader.withPage(kept?.url ?? ref, call, (loaded) => loaded);
  }
}
