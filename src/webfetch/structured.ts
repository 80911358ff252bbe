/**
 * `schema`: the page's content as usual, and `data` filled from it by the configured model. The
 * data is cached by (model, schema, prompt, page key) for the copy of the page it was read from,
 * in the instance's cache store, so the same question about the same copy spends no tokens.
 */
import type { CachedPage } from "../cache/store.js";
import { WebFetchError } from "../errors.js";
import type { ResolvedSchema } from "../llm/schema.js";
import { schemaCheck } from "../llm/schema.js";
import { fillSchema } from "../llm/structured.js";
import type { FetchResult } from "../result.js";
import { warningText } from "../warnings.js";
import type { ResolvedCall } from "./call.js";
import type { PageLoader } from "./loader.js";
import type { Pages } from "./pages.js";
import type { Resources } from "./resources.js";
import { toResult } from "./to-result.js";

/** What the cache keeps of filled data, as the content of its entry. */
interface Kept {
  raw: unknown;
  model: string;
  usage: { inputTokens: number; outputTokens: number };
  inputTruncated: boolean;
}

export class StructuredData {
  readonly #resources: Resources;
  readonly #loader: PageLoader;
  readonly #pages: Pages;

  constructor(resources: Resources, loader: PageLoader, pages: Pages) {
    this.#resources = resources;
    this.#loader = loader;
    this.#pages = pages;
  }

  /**
   * The page at `url` with `data` filled from it. Without a model, INVALID_INPUT naming the
   * settings to give; a JSON Schema ajv cannot compile is INVALID_INPUT; both before any fetch.
   */
  async fetch(url: string, call: ResolvedCall, schema: ResolvedSchema): Promise<FetchResult> {
    const model = await this.#resources.model();
    if (!model) throw noModel();
    const check = await schemaCheck(schema);
    const { cache, resolved } = this.#resources;
    const prompt = call.prompt?.trim();
    return this.#loader.withPage(url, call, async (loaded, started) => {
      const { page, cached, kept } = loaded;
      const how = { id: kept.id, cached, locale: resolved.locale };
      const key = `data|${model.id}|${schema.hash}|${JSON.stringify(prompt ?? "")}|${kept.key}`;
      let filled = call.cache ? await this.#hit(key, page, check) : undefined;
      if (!filled) {
        const fresh = await fillSchema({
          model,
          schema,
          check,
          prompt,
          content: page.content,
          url: page.finalUrl,
          title: page.title,
          signal: call.signal,
        });
        filled = { ...fresh, model: model.name };
        await cache.put(key, entry(page, filled));
      }
      const base = await this.#pages.saveIfCut(
        toResult(page, call, { ...how, ms: performance.now() - started }),
        loaded,
      );
      const warnings = filled.inputTruncated
        ? [warningText({ kind: "model-input-cut" }, resolved.locale)]
        : [];
      return {
        ...base,
        data: filled.data,
        model: filled.model,
        usage: filled.usage,
        inputTruncated: filled.inputTruncated,
        ...(warnings.length > 0 || base.warnings
          ? { warnings: [...warnings, ...(base.warnings ?? [])] }
          : {}),
      };
    });
  }

  /** Data filled earlier from this same copy of the page, checked again (a zod schema's output). */
  async #hit(
    key: string,
    page: CachedPage,
    check: (value: unknown) => { ok: true; data: unknown } | { ok: false; message: string },
  ): Promise<(Kept & { data: unknown }) | undefined> {
    const hit = await this.#resources.cache.get(key);
    if (!hit || hit.page.fetchedAt !== page.fetchedAt || hit.page.url !== page.url) {
      return undefined;
    }
    let kept: Kept;
    try {
      kept = JSON.parse(hit.page.content) as Kept;
    } catch {
      return undefined;
    }
    const checked = check(kept.raw);
    return checked.ok ? { ...kept, data: checked.data } : undefined;
  }
}

/** Filled data as a cache entry: page-shaped, its content the JSON of what is kept. */
function entry(page: CachedPage, filled: Kept): CachedPage {
  const kept: Kept = {
    raw: filled.raw,
    model: filled.model,
    usage: filled.usage,
    inputTruncated: filled.inputTruncated,
  };
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    redirects: [],
    status: page.status,
    contentType: "application/json",
    content: JSON.stringify(kept),
    fetchedAt: page.fetchedAt,
  };
}

/** `schema` without a model: what to configure. */
function noModel(): WebFetchError {
  return new WebFetchError(
    "INVALID_INPUT",
    "schema needs a model: configure llm.provider and llm.model (and the provider's key, llm.api_key or OPENAI_API_KEY / ANTHROPIC_API_KEY)",
    { retryable: false },
  );
}
