/**
 * createWebFetch(): the library entry point. It runs the pipeline
 * request → policy → cache → transport → decode → convert → shape → result,
 * shares one guarded connection pool, one cache and one concurrency limit per instance.
 */
import type { Agent } from "undici";
import { openCache } from "./cache/open.js";
import type { CachedPage, CacheEntry, CacheStore } from "./cache/store.js";
import { type ContextPage, type ContextResult, packContext } from "./context/build.js";
import type { ConvertedBody, ConvertOptions } from "./convert/index.js";
import { ConvertPool } from "./convert/pool.js";
import { providerFetch } from "./endpoint/client.js";
import { fetchRemote } from "./endpoint/remote.js";
import { isWebFetchError, WebFetchError } from "./errors.js";
import { Deadline } from "./fetch/deadline.js";
import { Fetcher, firstHeader, type RawResponse } from "./fetch/fetcher.js";
import { LIMITS } from "./limits.js";
import { answerPrompt, NO_MODEL_NOTE } from "./llm/answer.js";
import { type ChatModel, loadModel } from "./llm/model.js";
import { createLogger, type Logger, silentLogger } from "./log.js";
import { createAgent } from "./net/agent.js";
import { redirectAllowed } from "./net/domains.js";
import { Semaphore } from "./net/semaphore.js";
import { hasScheme, normalizeUrl, type ParsedTarget, parseTargetUrl } from "./net/url.js";
import {
  type ContextOptions,
  checkTimeout as checkDeadline,
  checkHeaders,
  EXTRACT_MODES,
  type ExtractOptions,
  type FetchOptions,
  type GrepOptions,
  OUTPUT_FORMATS,
  oneOf,
  optionConflict,
  REDIRECT_POLICIES,
  RENDER_MODES,
  type ReadOptions,
  type RedirectPolicy,
  type RenderMode,
  type ResolvedOptions,
  ROBOTS_POLICIES,
  resolveOptions,
  SEARCH_DEFAULTS,
  type SearchOptions,
  TOOL_DEFAULTS,
  type WebFetchOptions,
} from "./options.js";
import { type ExtractResult, extractMany } from "./pages/extract.js";
import { isPageId, type KeptPage, KeptPages, pageId, unknownPageId } from "./pages/kept.js";
import { readSaved, savePage } from "./pages/save.js";
import { BrowserPool } from "./render/browser.js";
import { renderPage } from "./render/page.js";
import { looksLikeAppShell } from "./render/shell.js";
import type { FetchResult, GrepResult } from "./result.js";
import { chooseProvider, tavilySettings } from "./search/choose.js";
import { runSearch } from "./search/run.js";
import { tavilyExtract } from "./search/tavily.js";
import type { SearchProvider, SearchResponse } from "./search/types.js";
import { checkQuery, checkSearch } from "./search/validate.js";
import { focusContent } from "./shape/focus.js";
import { grepContent } from "./shape/grep.js";
import { tokenCounter } from "./shape/tokens.js";
import { shapeContent } from "./shape/truncate.js";
import { inSpan, SPANS } from "./trace.js";
import { limitWarnings, type Warning, warningText } from "./warnings.js";

/** `notRendered` of an app shell fetched with rendering turned off. */
const RENDER_OFF = "off";

/** Characters of a render failure's reason kept for the result's warning. */
const MAX_REASON_CHARS = 200;

/** The library's spelling of the options that exclude each other. */
const LIBRARY_NAMES = { prompt: "prompt", query: "query", startIndex: "startIndex" } as const;

/** Words of the context's source list, by locale. */
const SOURCES_LABEL = { en: "Sources:", ja: "出典:" } as const;

export interface WebFetch {
  /** Fetches one URL: its main content as Markdown (or text) with metadata. Throws WebFetchError. */
  fetch(url: string, options?: FetchOptions): Promise<FetchResult>;
  /**
   * Fetches many URLs concurrently: duplicates merged, invalid URLs and failed fetches listed in
   * `failed` (never thrown), both lists in input order.
   *
   * @example
   * const { results, failed } = await web.extract(["https://a.example", "https://b.example"]);
   */
  extract(urls: readonly string[], options?: ExtractOptions): Promise<ExtractResult>;
  /**
   * A window of a page's full content, by the `id` of an earlier result or by URL (fetched if
   * it is not kept). Same result object as `fetch`.
   *
   * @example
   * const more = await web.read(page.id, { startIndex: page.nextStartIndex, length: 20_000 });
   */
  read(ref: string, options?: ReadOptions): Promise<FetchResult>;
  /**
   * The lines of a page's full content that match `pattern` (a regular expression, or literal
   * text when it is not a valid one), with line numbers and context.
   *
   * @example
   * const { matches } = await web.grep(page.id, "install(ation)?", { contextLines: 1 });
   */
  grep(ref: string, pattern: string, options?: GrepOptions): Promise<GrepResult>;
  /**
   * Searches the web through the configured provider (SPEC §5). Throws WebFetchError:
   * `INVALID_INPUT` naming the field, `AUTH_ERROR`, `RATE_LIMITED` (after retries), `PROVIDER_ERROR`.
   *
   * @example
   * const { results } = await web.search("node 20 release date", { maxResults: 3 });
   */
  search(query: string, options?: SearchOptions): Promise<SearchResponse>;
  /**
   * A cited context for retrieval-augmented generation: search, fetch the top results, keep
   * their passages most relevant to the query within `maxTokens` (source list included).
   *
   * @example
   * const { context, sources } = await web.context("what is BM25", { maxTokens: 2000 });
   */
  context(query: string, options?: ContextOptions): Promise<ContextResult>;
  /**
   * The configured model (`llm`), made on first use; undefined when none is configured.
   * Throws WebFetchError (AUTH_ERROR) when a hosted provider has no API key.
   */
  model(): Promise<ChatModel | undefined>;
  /** The resolved instance options. */
  readonly options: Readonly<ResolvedOptions>;
  /** Where the instance logs (the `logger` option); tools made from it log there too. */
  readonly logger: Logger;
  /** Closes pooled connections and the cache store. */
  close(): Promise<void>;
}

/**
 * Creates a webfetch instance.
 *
 * @example
 * const web = createWebFetch();
 * const page = await web.fetch("https://example.com");
 * console.log(page.title, page.content);
 */
export function createWebFetch(options: WebFetchOptions = {}): WebFetch {
  const resolved = resolveOptions(options);
  const instance = options;
  const logger: Logger =
    options.logger === false ? silentLogger : (options.logger ?? createLogger());
  /** The built-in store the options name, unless the caller gave one (or none). */
  const opened =
    options.cache === undefined
      ? openCache({
          store: resolved.cacheStore,
          maxBytes: resolved.cacheMaxBytes,
          ...(resolved.cachePath ? { path: resolved.cachePath } : {}),
          url: resolved.cacheUrl,
          originLimit: resolved.maxConnectionsPerOrigin,
          onLimiterError: throttled(60_000, (error) =>
            logger.warn(
              { error: (error as Error).message },
              "politeness: the shared per-origin limit is unavailable; counting in this process",
            ),
          ),
        })
      : undefined;
  const cache: CacheStore | undefined =
    options.cache === false ? undefined : (options.cache ?? opened?.store);
  const fetcher = new Fetcher(resolved, {
    lookup: options.lookup,
    connect: options.connect,
    limiter: opened?.limiter,
  });
  const limit = new Semaphore(resolved.maxConcurrency);
  const converter = new ConvertPool();
  /** The browser for `render`, launched on the first page that needs it. */
  let browsers: BrowserPool | undefined;
  const renders = new Semaphore(LIMITS.maxRenders);
  /** Pages a 304 confirmed: served from the cache, so `cached: true`. */
  const revalidated = new WeakSet<CachedPage>();
  /** Fetches in flight by cache key: concurrent callers of one URL share one request. */
  const inflight = new Map<string, Promise<CachedPage>>();
  /** Ids of fetched pages, for read and grep; their content stays in the cache or saveDir. */
  const pages = new KeptPages(LIMITS.keptPages);
  /**
   * Connections to search providers: operator-configured endpoints, outside the address guard
   * (SPEC §3.1), but through the injected socket opener when there is one. Made on first use.
   */
  let providerAgent: Agent | undefined;
  /** Connections to the remote mode endpoint, operator-configured like the providers'. */
  let provider: SearchProvider | undefined;
  /** The model, made on first use (its SDK is loaded then, not at import). */
  let chat: Promise<ChatModel> | undefined;

  function load(
    target: ParsedTarget,
    call: FetchOptions,
    key: string,
    stale: CachedPage | undefined,
  ): Promise<CachedPage> {
    return inSpan(SPANS.fetch, { "url.full": target.url.href }, async (span) => {
      const page = await loadUntraced(target, call, key, stale);
      span.setAttributes({
        "webfetch.final_url": page.finalUrl,
        "http.response.status_code": page.status,
        "webfetch.content_length": page.content.length,
      });
      return page;
    });
  }

  async function loadUntraced(
    target: ParsedTarget,
    call: FetchOptions,
    key: string,
    stale: CachedPage | undefined,
  ): Promise<CachedPage> {
    // A fetch through the endpoint has the endpoint's own default deadline, not a direct fetch's.
    const remote = call.via !== "tavily" ? resolved.endpoint : undefined;
    const deadline = new Deadline(call.timeout ?? remote?.timeout ?? resolved.timeout, call.signal);
    const release = await deadline.slot((signal) => limit.acquire(signal));
    try {
      if (call.via === "tavily") return await loadTavily(target, call, key, deadline);
      if (resolved.endpoint)
        return await loadRemote(resolved.endpoint, target, call, key, deadline);
      return await loadDirect(target, call, key, stale, deadline);
    } finally {
      release();
    }
  }

  /**
   * This process fetches and converts: a stale cached copy with validators is revalidated (a
   * 304 refreshes it), and an HTML page may be rendered in the browser (`render`).
   */
  async function loadDirect(
    target: ParsedTarget,
    call: FetchOptions,
    key: string,
    stale: CachedPage | undefined,
    deadline: Deadline,
  ): Promise<CachedPage> {
    const raw = await fetcher.fetch(
      target,
      {
        redirects: call.redirects ?? resolved.redirects,
        maxRedirects: call.maxRedirects ?? resolved.maxRedirects,
        robots: call.robots ?? resolved.robots,
        headers: call.headers ?? {},
        validators: stale ? { etag: stale.etag, lastModified: stale.lastModified } : undefined,
      },
      deadline,
    );
    if (raw.status === 304 && stale) {
      const refreshed = await store(key, { ...stale, fetchedAt: new Date().toISOString() });
      revalidated.add(refreshed);
      return refreshed;
    }
    const headerType = firstHeader(raw.headers["content-type"]);
    const options = {
      url: raw.finalUrl,
      format: call.format ?? resolved.format,
      extract: call.extract ?? resolved.extract,
    };
    const converted = await convertIn(deadline, raw.body, headerType, options);
    const page: CachedPage = {
      url: normalizeUrl(target.url),
      finalUrl: raw.finalUrl,
      redirects: raw.redirects,
      status: raw.status,
      ...converted,
      fetchedAt: new Date().toISOString(),
    };
    const mode = call.render ?? resolved.render;
    const shell =
      isHtml(converted.contentType) &&
      mode !== "always" &&
      looksLikeAppShell(raw.body, converted.content);
    if (mode === "always" || (mode === "auto" && shell)) {
      const rendered = await renderIn(deadline, mode, raw, headerType, options, call.signal);
      // `auto` keeps the static result unless the browser found more.
      if ("notRendered" in rendered) {
        page.notRendered = rendered.notRendered;
      } else if (mode === "always" || rendered.content.length > converted.content.length) {
        // The rendered document's own limits, not the static one's.
        const { limits: _static, ...unlimited } = page;
        return store(key, { ...unlimited, ...rendered, contentType: converted.contentType });
      }
    } else if (shell) {
      page.notRendered = RENDER_OFF;
    }
    // A page that could not be rendered is fetched again once stale, not revalidated: a 304
    // would keep the unrendered copy (and its warning) after the browser becomes available.
    const etag = page.notRendered ? undefined : firstHeader(raw.headers.etag);
    const lastModified = page.notRendered ? undefined : firstHeader(raw.headers["last-modified"]);
    return store(key, {
      ...page,
      ...(etag ? { etag } : {}),
      ...(lastModified ? { lastModified } : {}),
    });
  }

  /** Conversion runs on a thread, inside the same deadline as the fetch. */
  function convertIn(
    deadline: Deadline,
    body: Uint8Array,
    headerType: string | undefined,
    options: ConvertOptions,
  ) {
    return inSpan(SPANS.convert, { "url.full": options.url }, () =>
      deadline.race(converter.convert(body, headerType, options, deadline.signal)),
    );
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
  ): Promise<
    | (ConvertedBody & { finalUrl: string; rendered: true; blockedRequests: number })
    | { notRendered: string }
  > {
    const releaseRender = await deadline.slot((signal) => renders.acquire(signal));
    try {
      browsers ??= new BrowserPool({ executablePath: resolved.browserPath });
      const rendered = await renderPage(browsers, {
        url: raw.finalUrl,
        body: raw.body,
        contentType: headerType ?? "text/html",
        deadline,
        maxBytes: resolved.maxBytes,
        fetch: (req, d, maxBytes) => fetcher.resource(req, d, maxBytes),
      });
      if (rendered.blockedRequests > 0) {
        logger.warn(
          { url: raw.finalUrl, blocked: rendered.blockedRequests },
          "render: requests of the page refused by the address guard or domain lists",
        );
      }
      const converted = await convertIn(
        deadline,
        Buffer.from(rendered.html, "utf8"),
        "text/html; charset=utf-8",
        { ...options, url: rendered.finalUrl },
      );
      return {
        ...converted,
        finalUrl: rendered.finalUrl,
        rendered: true,
        blockedRequests: rendered.blockedRequests,
      };
    } catch (error) {
      if (mode === "always" || signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ url: raw.finalUrl, error: reason }, "render failed; the static result is used");
      return { notRendered: reason.split("\n")[0]!.slice(0, MAX_REASON_CHARS) };
    } finally {
      releaseRender();
    }
  }

  /**
   * Puts a freshly loaded page in the cache, if there is one, and hands it on. A page with
   * validators is kept past its freshness, so that it can be revalidated instead of fetched.
   */
  async function store(key: string, page: CachedPage): Promise<CachedPage> {
    if (!cache) return page;
    const keep =
      page.etag || page.lastModified
        ? resolved.cacheTtl + LIMITS.revalidateWindow
        : resolved.cacheTtl;
    try {
      await cache.set(key, { page, storedAt: Date.now() }, keep);
    } catch (error) {
      // A cache that fails (a Redis server down, a full disk) costs speed, never the page.
      logger.warn({ error: (error as Error).message }, "cache: could not store the page");
    }
    return page;
  }

  /**
   * Tavily's extract API fetches and converts the page (`via: "tavily"`); this process checks
   * the URL policy and domain lists but never resolves or contacts the target.
   */
  async function loadTavily(
    target: ParsedTarget,
    call: FetchOptions,
    key: string,
    deadline: Deadline,
  ): Promise<CachedPage> {
    const settings = tavilySettings(instance.search);
    const extracted = await tavilyExtract(target.url.href, call.format ?? resolved.format, {
      ...settings,
      fetch: providerFetch({
        dispatcher: providerDispatcher(),
        userAgent: resolved.userAgent,
        retries: resolved.retries,
        deadline,
        name: "Tavily",
      }),
    });
    return store(key, {
      url: normalizeUrl(target.url),
      finalUrl: extracted.url,
      redirects: [],
      status: 200,
      contentType: (call.format ?? resolved.format) === "text" ? "text/plain" : "text/markdown",
      content: extracted.content,
      fetchedAt: new Date().toISOString(),
    });
  }

  /** The pool for endpoints the operator configures (search, Tavily extract, remote mode). */
  function providerDispatcher(): Agent {
    providerAgent ??= createAgent({
      connections: resolved.maxConnectionsPerOrigin,
      connect: instance.connect,
    });
    return providerAgent;
  }

  /**
   * Remote mode: the service fetches and converts; this process never resolves or contacts the
   * target. Redirect, robots and header options are the service's own policy there.
   */
  async function loadRemote(
    endpoint: NonNullable<ResolvedOptions["endpoint"]>,
    target: ParsedTarget,
    call: FetchOptions,
    key: string,
    deadline: Deadline,
  ): Promise<CachedPage> {
    const remote = await fetchRemote(
      endpoint,
      target.url.href,
      { format: call.format ?? resolved.format, extract: call.extract ?? resolved.extract },
      { dispatcher: providerDispatcher(), userAgent: resolved.userAgent, deadline },
    );
    return store(key, { url: normalizeUrl(target.url), ...remote });
  }

  /** A page and how it was had: from the cache or the network, and what is kept of it. */
  interface Loaded {
    page: CachedPage;
    cached: boolean;
    kept: KeptPage;
  }

  /** The full converted page for `url`: from the cache when fresh enough, else fetched. */
  async function loadPage(url: string, call: FetchOptions): Promise<Loaded> {
    const target = parseTargetUrl(url);
    if (resolved.network === "none") {
      throw new WebFetchError(
        "NETWORK_DISABLED",
        'Web fetch requires network access (network is "none")',
        {
          retryable: false,
        },
      );
    }
    fetcher.checkTarget(target);
    const format = call.format ?? resolved.format;
    const extract = call.extract ?? resolved.extract;
    const key = cacheKey(
      normalizeUrl(target.url),
      format,
      extract,
      { ...call, render: call.render ?? resolved.render },
      resolved.endpoint,
    );
    let stale: CachedPage | undefined;
    if (cache && call.cache !== false) {
      const entry = await readCache(cache, key, logger);
      // A page reached through redirects this call would not follow is not an answer for it.
      if (
        entry &&
        withinPolicy(
          entry.page,
          call.redirects ?? resolved.redirects,
          call.maxRedirects ?? resolved.maxRedirects,
        )
      ) {
        const maxAge = call.maxAge ?? resolved.cacheTtl;
        if (maxAge > 0 && Date.now() - entry.storedAt <= maxAge * 1000) {
          return { page: entry.page, cached: true, kept: keep(key, entry.page, call) };
        }
        if (entry.page.etag || entry.page.lastModified) stale = entry.page;
      }
    }
    // Callers share a request only under the same network policy; a caller with its own
    // signal does not share at all, so its cancel cannot fail the others.
    const flight = `${key}|${policyKey(call, resolved)}`;
    let pending = call.signal ? undefined : inflight.get(flight);
    if (!pending) {
      pending = load(target, call, key, stale);
      if (!call.signal) {
        inflight.set(flight, pending);
        void pending.then(
          () => inflight.delete(flight),
          () => inflight.delete(flight),
        );
      }
    }
    const page = await pending;
    return { page, cached: revalidated.has(page), kept: keep(key, page, call) };
  }

  /** Remembers a page's id, and how to fetch the same content again. */
  function keep(key: string, page: CachedPage, call: FetchOptions): KeptPage {
    const { content: _content, ...meta } = page;
    const kept: KeptPage = {
      id: pageId(key),
      key,
      url: page.url,
      call: {
        format: call.format ?? resolved.format,
        extract: call.extract ?? resolved.extract,
        ...(call.robots ? { robots: call.robots } : {}),
        ...(call.headers ? { headers: call.headers } : {}),
      },
      meta,
    };
    pages.remember(kept);
    return pages.byId(kept.id) ?? kept;
  }

  /** Loads a page and logs one line for it, whatever `use` then does with it. */
  async function withPage<T>(
    url: string,
    call: FetchOptions,
    use: (loaded: Loaded, started: number) => T | Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    let outcome = "ok";
    let loaded: Loaded | undefined;
    try {
      loaded = await loadPage(url, call);
      return await use(loaded, started);
    } catch (error) {
      outcome = isWebFetchError(error) ? error.code : "ERROR";
      throw error;
    } finally {
      logger.info(
        {
          url,
          finalUrl: loaded?.page.finalUrl,
          status: loaded?.page.status,
          bytes: loaded?.page.content.length,
          ms: Math.round(performance.now() - started),
          cached: loaded?.cached ?? false,
          outcome,
        },
        "fetch",
      );
    }
  }

  async function fetchPage(url: string, call: FetchOptions = {}): Promise<FetchResult> {
    checkCallOptions(call);
    if (call.prompt !== undefined) return promptPage(url, call, call.prompt.trim());
    return withPage(url, call, (loaded, started) => resultOf(loaded, call, started));
  }

  /** The result of a loaded page for `call`, its full content saved when it is cut. */
  function resultOf(loaded: Loaded, call: FetchOptions, started: number): Promise<FetchResult> {
    const { page, cached, kept } = loaded;
    const ms = performance.now() - started;
    return saveIfCut(toResult(page, call, resolved, cached, ms, kept.id), loaded);
  }

  /** Writes a cut result's full content to `saveDir` (once per page) and names the file. */
  async function saveIfCut(
    result: FetchResult,
    { page, cached, kept }: Loaded,
  ): Promise<FetchResult> {
    // A cache hit that was saved before has its file already; fresh content is written anew.
    if (result.truncated && resolved.saveDir && !(cached && kept.savedPath)) {
      try {
        kept.savedPath = await savePage(resolved.saveDir, {
          id: kept.id,
          finalUrl: page.finalUrl,
          format: result.format,
          content: page.content,
        });
        pages.remember(kept);
      } catch (error) {
        // A directory that cannot be written costs the file, never the page: the cache keeps it.
        logger.warn(
          { dir: resolved.saveDir, error: (error as Error).message },
          "saveDir: could not write the full content",
        );
      }
    }
    if (kept.savedPath) result.savedPath = kept.savedPath;
    return result;
  }

  function getModel(): Promise<ChatModel | undefined> {
    if (!resolved.llm) return Promise.resolve(undefined);
    chat ??= loadModel(resolved.llm).catch((error: unknown) => {
      // A key set later (or a fixed config) gets another chance.
      chat = undefined;
      throw error;
    });
    return chat;
  }

  /**
   * `prompt` (SPEC §3.6): the model's answer from the page, cached by (URL, prompt, model) in
   * the cache store;
   * without a model, the passages most relevant to the prompt, and a note saying so.
   */
  async function promptPage(url: string, call: FetchOptions, prompt: string): Promise<FetchResult> {
    const { prompt: _prompt, ...rest } = call;
    const model = await getModel();
    if (!model) {
      const note = NO_MODEL_NOTE[resolved.locale];
      const query = prompt.slice(0, LIMITS.queryMaxLength);
      return withPage(url, rest, async (loaded, started) => {
        const { page, cached, kept } = loaded;
        const ms = () => performance.now() - started;
        const focused = toResult(page, { ...rest, query }, resolved, cached, ms(), kept.id);
        if (focused.chunks?.returned !== 0) {
          return { ...(await saveIfCut(focused, loaded)), prompt, note };
        }
        // Nothing matched: the start of the same page is a better answer than nothing.
        const start = await saveIfCut(
          toResult(page, rest, resolved, cached, ms(), kept.id),
          loaded,
        );
        const warnings = [warningText({ kind: "prompt-start" }, resolved.locale)];
        return { ...start, prompt, note, warnings: [...warnings, ...(start.warnings ?? [])] };
      });
    }
    const started = performance.now();
    const format = rest.format ?? resolved.format;
    const extract = rest.extract ?? resolved.extract;
    const key = `answer|${model.id}|${format}|${extract}|${normalizeUrl(parseTargetUrl(url).url)}|${prompt}`;
    const maxAge = rest.cache === false ? 0 : (rest.maxAge ?? resolved.cacheTtl);
    const hit = cache && maxAge > 0 ? await readCache(cache, key, logger) : undefined;
    const answered = hit?.page as (FetchResult & { prompt?: unknown }) | undefined;
    if (hit && answered?.prompt === prompt && Date.now() - hit.storedAt <= maxAge * 1000) {
      const totalMs = Math.round((performance.now() - started) * 100) / 100;
      return { ...answered, cached: true, timings: { totalMs } };
    }
    return withPage(url, rest, async ({ page, kept }) => {
      const answer = await answerPrompt({
        model,
        prompt,
        content: page.content,
        url: page.finalUrl,
        title: page.title,
        signal: rest.signal,
      });
      const base = toResult(
        page,
        { ...rest, maxLength: page.content.length + 1 },
        resolved,
        false,
        0,
        kept.id,
      );
      const result: FetchResult = {
        ...base,
        content: `${answer.text}\n\nSource: ${page.finalUrl}`,
        totalLength: page.content.length,
        startIndex: 0,
        truncated: false,
        prompt,
        model: model.name,
        usage: answer.usage,
        inputTruncated: answer.inputTruncated,
        timings: { totalMs: Math.round((performance.now() - started) * 100) / 100 },
      };
      // Kept in the page cache (a result carries every field of a cached page), so answers
      // outlive the process and are shared with a SQLite or Redis store.
      await store(key, result);
      return result;
    });
  }

  /**
   * The full content behind a page id or URL: the cache (at any age it still holds), else the
   * saved file, else the network again with the options it was first fetched with.
   */
  async function fullPage(ref: string, signal?: AbortSignal): Promise<Loaded> {
    let kept: KeptPage | undefined;
    if (isPageId(ref)) {
      kept = pages.byId(ref);
      if (!kept) throw unknownPageId(ref);
    } else if (hasScheme(ref)) {
      kept = pages.byUrl(normalizeUrl(parseTargetUrl(ref).url));
    } else {
      // Without a scheme it was never a URL: a malformed id is as unknown as a forgotten one.
      throw unknownPageId(ref);
    }
    if (kept) {
      const entry = cache ? await readCache(cache, kept.key, logger) : undefined;
      if (entry) return { page: entry.page, cached: true, kept };
      const saved = kept.savedPath ? await readSaved(kept.savedPath) : undefined;
      if (saved !== undefined)
        return { page: { ...kept.meta, content: saved }, cached: true, kept };
    }
    const call: FetchOptions = { ...kept?.call, ...(signal ? { signal } : {}) };
    return withPage(kept?.url ?? ref, call, (loaded) => loaded);
  }

  async function readPage(ref: string, options: ReadOptions = {}): Promise<FetchResult> {
    const { startIndex, length } = options;
    checkCallOptions({
      ...(startIndex === undefined ? {} : { startIndex }),
      ...(length === undefined ? {} : { maxLength: length }),
    });
    const started = performance.now();
    const { page, cached, kept } = await fullPage(ref, options.signal);
    const call: FetchOptions = {
      ...kept.call,
      ...(startIndex === undefined ? {} : { startIndex }),
      ...(length === undefined ? {} : { maxLength: length }),
    };
    const result = toResult(page, call, resolved, cached, performance.now() - started, kept.id);
    if (kept.savedPath) result.savedPath = kept.savedPath;
    return result;
  }

  async function grepPage(
    ref: string,
    pattern: string,
    options: GrepOptions = {},
  ): Promise<GrepResult> {
    const contextLines = options.contextLines ?? TOOL_DEFAULTS.grepContextLines;
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
    const { page, kept } = await fullPage(ref, options.signal);
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

  async function searchWeb(query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const started = performance.now();
    let outcome = "ok";
    let response: SearchResponse | undefined;
    try {
      const request = checkSearch(query, options);
      checkTimeout(options.timeout);
      provider ??= chooseProvider(instance.search);
      response = await runSearch(
        provider,
        request,
        { timeout: options.timeout ?? resolved.timeout, signal: options.signal },
        {
          dispatcher: providerDispatcher(),
          userAgent: resolved.userAgent,
          retries: resolved.retries,
        },
      );
      return response;
    } catch (error) {
      outcome = isWebFetchError(error) ? error.code : "ERROR";
      throw error;
    } finally {
      logger.info(
        {
          provider: provider?.id,
          results: response?.results.length,
          ms: Math.round(performance.now() - started),
          outcome,
        },
        "search",
      );
    }
  }

  async function buildContext(query: string, options: ContextOptions = {}): Promise<ContextResult> {
    const started = performance.now();
    const text = checkQuery(query);
    const maxTokens = options.maxTokens ?? SEARCH_DEFAULTS.maxTokens;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new WebFetchError("INVALID_INPUT", "max_tokens must be a positive integer", {
        retryable: false,
      });
    }
    checkTimeout(options.timeout);
    const deadline = new Deadline(options.timeout ?? resolved.timeout, options.signal);
    const { maxTokens: _budget, ...searchOptions } = options;
    const search = await searchWeb(text, {
      ...searchOptions,
      timeout: Math.max(1, deadline.remaining()),
      signal: deadline.signal,
    });
    // The pages come through the whole pipeline, concurrently; one that fails leaves its snippet.
    const pagesOf = await Promise.all(
      search.results.map((result) =>
        withPage(
          result.url,
          { timeout: Math.max(1, deadline.remaining()), signal: deadline.signal },
          ({ page }): ContextPage => ({ content: page.content, title: page.title }),
        ).catch((error: unknown) => {
          if (!isWebFetchError(error) && !deadline.signal.aborted) throw error;
          return undefined;
        }),
      ),
    );
    const packed = packContext({
      query: text,
      search,
      pages: pagesOf,
      maxTokens,
      count: await tokenCounter(),
      labels: { sources: SOURCES_LABEL[resolved.locale] },
    });
    const totalMs = Math.round((performance.now() - started) * 100) / 100;
    logger.info(
      {
        provider: search.provider,
        results: search.results.length,
        pages: pagesOf.filter(Boolean).length,
        sources: packed.sources.length,
        tokens: packed.tokens,
        ms: Math.round(totalMs),
      },
      "context",
    );
    return { ...packed, provider: search.provider, timings: { totalMs } };
  }

  async function extractPages(
    urls: readonly string[],
    options: ExtractOptions = {},
  ): Promise<ExtractResult> {
    if (!Array.isArray(urls) || urls.length === 0) {
      throw new RangeError("urls must be a non-empty array of URLs");
    }
    const { onProgress, ...own } = options;
    const via = own.via ?? instance.search?.extract;
    const call: FetchOptions = via ? { ...own, via } : own;
    checkCallOptions(call);
    return extractMany(urls, {
      fetch: (url) => fetchPage(url, call),
      onInsecure: (url) => logger.warn({ url }, "plain http: the page travels unencrypted"),
      ...(onProgress ? { onProgress } : {}),
    });
  }

  return {
    fetch: fetchPage,
    extract: extractPages,
    read: readPage,
    grep: grepPage,
    search: searchWeb,
    context: buildContext,
    model: getModel,
    options: withoutSecrets(resolved),
    logger,
    async close() {
      await fetcher.close();
      await providerAgent?.close();
      await converter.close();
      await browsers?.close();
      if (opened) await opened.close();
      else await cache?.close?.();
    },
  };
}

/** Every option that changes the converted content is part of the key. */
function cacheKey(
  url: string,
  format: string,
  extract: string,
  call: FetchOptions,
  endpoint: ResolvedOptions["endpoint"],
): string {
  const headers = call.headers ? JSON.stringify(Object.entries(call.headers).sort()) : "";
  // A page fetched while ignoring robots.txt is not served to a caller who respects it.
  const robots = call.robots === "ignore" ? "ignore" : "";
  // Rendering changes what a page yields (the instance's mode counts, for a shared store); the
  // default mode keeps the plain key.
  const render = call.render && call.render !== "auto" ? call.render : "";
  // Tavily's extraction of a page is not ours, nor an endpoint's (whose `/md` filter shapes it):
  // each has its own entry in a store that other instances may share.
  const remote = endpoint?.kind === "crawl4ai" ? `crawl4ai:${endpoint.filter}` : endpoint?.kind;
  const via = call.via === "tavily" ? "tavily" : (remote ?? "");
  return `v1|${format}|${extract}|${robots}|${headers}|${via}|${render}|${url}`;
}

/** Programmer errors in per-call options throw at once, before any network work. */
function checkCallOptions(call: FetchOptions): void {
  const { maxLength, startIndex, maxRedirects, timeout, maxAge, query, prompt } = call;
  if (prompt !== undefined) checkPrompt(prompt);
  if (query !== undefined) checkQuery(query);
  const conflict = optionConflict(call, LIBRARY_NAMES);
  if (conflict) throw new RangeError(conflict.message);
  if (call.via !== undefined && call.via !== "fetch" && call.via !== "tavily") {
    throw new RangeError(`via must be "fetch" or "tavily", got ${JSON.stringify(call.via)}`);
  }
  if (call.format !== undefined) oneOf("format", call.format, OUTPUT_FORMATS);
  if (call.extract !== undefined) oneOf("extract", call.extract, EXTRACT_MODES);
  if (call.redirects !== undefined) oneOf("redirects", call.redirects, REDIRECT_POLICIES);
  if (call.robots !== undefined) oneOf("robots", call.robots, ROBOTS_POLICIES);
  if (call.render !== undefined) oneOf("render", call.render, RENDER_MODES);
  if (call.headers !== undefined) checkHeaders(call.headers);
  if (maxLength !== undefined && (!Number.isInteger(maxLength) || maxLength < 1)) {
    throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`);
  }
  if (startIndex !== undefined && (!Number.isInteger(startIndex) || startIndex < 0)) {
    throw new RangeError(`startIndex must be a non-negative integer, got ${startIndex}`);
  }
  if (
    maxRedirects !== undefined &&
    (!Number.isInteger(maxRedirects) ||
      maxRedirects < 0 ||
      maxRedirects > LIMITS.maxRedirectsCeiling)
  ) {
    throw new RangeError(
      `maxRedirects must be an integer from 0 to ${LIMITS.maxRedirectsCeiling}, got ${maxRedirects}`,
    );
  }
  checkTimeout(timeout);
  if (maxAge !== undefined && (!Number.isFinite(maxAge) || maxAge < 0)) {
    throw new RangeError(`maxAge must be a number of seconds >= 0, got ${maxAge}`);
  }
}

/** A prompt is untrusted text from a model or a user: 1 to 4,000 characters. */
function checkPrompt(prompt: unknown): void {
  const text = typeof prompt === "string" ? prompt.trim() : "";
  if (text === "" || text.length > LIMITS.promptMaxLength) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `prompt must be 1 to ${LIMITS.promptMaxLength} characters (got ${text.length})`,
      { retryable: false },
    );
  }
}

function checkTimeout(timeout: number | undefined): void {
  if (timeout !== undefined) checkDeadline(timeout);
}

/** The options that change how the network is used, not what the content is. */
function policyKey(call: FetchOptions, resolved: ResolvedOptions): string {
  const redirects = call.redirects ?? resolved.redirects;
  const max = call.maxRedirects ?? resolved.maxRedirects;
  return `${redirects}|${max}|${call.robots ?? resolved.robots}|${call.timeout ?? resolved.timeout}`;
}

/** Marks a secret in the options an instance shows. */
const REDACTED = "[redacted]";

/**
 * The options an instance shows (`web.options`), which callers log and print: the endpoint's
 * token, the model's API key and the cache server's password are replaced, so they never leave
 * through them.
 */
function withoutSecrets(resolved: ResolvedOptions): Readonly<ResolvedOptions> {
  const { endpoint, llm } = resolved;
  return Object.freeze({
    ...resolved,
    cacheUrl: withoutPassword(resolved.cacheUrl),
    ...(endpoint?.token ? { endpoint: { ...endpoint, token: REDACTED } } : {}),
    ...(llm?.apiKey ? { llm: { ...llm, apiKey: REDACTED } } : {}),
  });
}

/** A URL with its password (a Redis server's) replaced. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = REDACTED;
    return parsed.href;
  } catch {
    return url;
  }
}

/** Whether a cached page's redirect chain is one this call's redirect policy would follow. */
function withinPolicy(page: CachedPage, policy: RedirectPolicy, maxRedirects: number): boolean {
  if (page.redirects.length > maxRedirects) return false;
  if (policy === "follow" || page.redirects.length === 0) return true;
  const start = new URL(page.url);
  return page.redirects.every((hop) => redirectAllowed(policy, start, new URL(hop.to)));
}

/** The entry under `key`, at any age; a store that fails is a miss (and a warning), never an error. */
async function readCache(
  cache: CacheStore,
  key: string,
  logger: Logger,
): Promise<CacheEntry | undefined> {
  try {
    return await cache.get(key);
  } catch (error) {
    logger.warn({ error: (error as Error).message }, "cache: could not read; fetching instead");
    return undefined;
  }
}

/** `fn`, called at most once per `ms`: for warnings that would otherwise repeat per request. */
function throttled<A extends unknown[]>(
  ms: number,
  fn: (...args: A) => void,
): (...args: A) => void {
  let last = -Infinity;
  return (...args) => {
    const now = Date.now();
    if (now - last < ms) return;
    last = now;
    fn(...args);
  };
}

/** HTML types, the ones a browser can render. */
function isHtml(contentType: string): boolean {
  return contentType === "text/html" || contentType === "application/xhtml+xml";
}

/** The result object of SPEC §3.7, shaped for this call; unknown optional values omitted. */
function toResult(
  page: CachedPage,
  call: FetchOptions,
  resolved: ResolvedOptions,
  cached: boolean,
  ms: number,
  id: string,
): FetchResult {
  const maxLength = call.maxLength ?? resolved.maxLength;
  const startIndex = call.startIndex ?? 0;
  if (startIndex > 0 && startIndex >= page.content.length) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `start_index ${startIndex} is past the end of the content (${page.content.length} characters)`,
      { retryable: false },
    );
  }
  const query = call.query ? call.query.trim() : undefined;
  const focused = query !== undefined ? focusContent(page.content, query, maxLength) : undefined;
  const shaped = focused
    ? {
        content: focused.content,
        totalLength: page.content.length,
        startIndex: 0,
        truncated: false,
      }
    : shapeContent(page.content, { startIndex, maxLength });
  const result: FetchResult = {
    url: page.url,
    id,
    finalUrl: page.finalUrl,
    redirects: page.redirects,
    status: page.status,
    contentType: page.contentType,
    ...optional("charset", page.charset),
    ...optional("title", page.title),
    ...optional("description", page.description),
    ...optional("author", page.author),
    ...optional("siteName", page.siteName),
    ...optional("publishedAt", page.publishedAt),
    ...optional("lang", page.lang),
    ...optional("canonicalUrl", page.canonicalUrl),
    ...optional("pages", page.pages),
    ...(page.rendered ? { rendered: true, blockedRequests: page.blockedRequests ?? 0 } : {}),
    format: call.format ?? resolved.format,
    content: shaped.content,
    totalLength: shaped.totalLength,
    startIndex: shaped.startIndex,
    truncated: shaped.truncated,
    ...optional("nextStartIndex", "nextStartIndex" in shaped ? shaped.nextStartIndex : undefined),
    ...(query !== undefined && focused ? { query, chunks: focused.chunks } : {}),
    cached,
    fetchedAt: page.fetchedAt,
    timings: { totalMs: Math.round(ms * 100) / 100 },
  };
  const warnings = pageWarnings(
    page,
    query !== undefined && focused ? { query, ...focused.chunks, maxLength } : undefined,
  );
  if (page.limits?.length) result.truncated = true;
  if (warnings.length > 0) result.warnings = warnings.map((w) => warningText(w, resolved.locale));
  return result;
}

/** Why a result of `page` (focused on a query, if given) is thinner than the page. */
function pageWarnings(
  page: CachedPage,
  focus: { query: string; matched: number; returned: number; maxLength: number } | undefined,
): Warning[] {
  const warnings = limitWarnings(page.limits);
  if (page.notRendered === RENDER_OFF) warnings.push({ kind: "render-off" });
  else if (page.notRendered) warnings.push({ kind: "not-rendered", reason: page.notRendered });
  if (page.content.trim() === "") {
    if (warnings.length === 0) warnings.push({ kind: "empty" });
  } else if (focus?.matched === 0) {
    warnings.push({ kind: "no-passage", query: focus.query });
  } else if (focus?.returned === 0) {
    warnings.push({ kind: "no-room", maxLength: focus.maxLength });
  }
  return warnings;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined || value === "" ? {} : { [key]: value }) as { [P in K]?: V };
}
