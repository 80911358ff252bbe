/**
 * `prompt`: the configured model's answer from a page, cached by (model, URL, prompt) in the
 * instance's cache store so answers outlive the process and are shared with a SQLite or Redis
 * store. Without a model, the passages most relevant to the prompt, and a note saying so.
 */
import { LIMITS } from "../limits.js";
import { answerPrompt, NO_MODEL_NOTE } from "../llm/answer.js";
import { normalizeUrl, parseTargetUrl } from "../net/url.js";
import type { FetchResult, PhaseTimings } from "../result.js";
import { warningText } from "../warnings.js";
import type { ResolvedCall } from "./call.js";
import type { PageLoader } from "./loader.js";
import { answerKey } from "./page-cache.js";
import type { Pages } from "./pages.js";
import type { Resources } from "./resources.js";
import { roundMs, toResult } from "./to-result.js";

export class PromptAnswers {
  readonly #resources: Resources;
  readonly #loader: PageLoader;
  readonly #pages: Pages;

  constructor(resources: Resources, loader: PageLoader, pages: Pages) {
    this.#resources = resources;
    this.#loader = loader;
    this.#pages = pages;
  }

  /** The answer to `prompt` (trimmed, checked) about the page at `url`. */
  async answer(url: string, call: ResolvedCall, prompt: string): Promise<FetchResult> {
    const { prompt: _prompt, ...rest } = call;
    const model = await this.#resources.model();
    if (!model) return this.#passages(url, rest, prompt);
    const started = performance.now();
    const { cache } = this.#resources;
    const key = answerKey(model.id, normalizeUrl(parseTargetUrl(url).url), prompt, rest);
    const maxAge = rest.cache ? rest.maxAge : 0;
    const hit = cache.enabled && maxAge > 0 ? await cache.get(key) : undefined;
    const answered = hit?.page as (FetchResult & { prompt?: unknown }) | undefined;
    if (hit && answered?.prompt === prompt && Date.now() - hit.storedAt <= maxAge * 1000) {
      return {
        ...answered,
        cached: true,
        timings: { totalMs: roundMs(performance.now() - started) },
      };
    }
    return this.#loader.withPage(url, rest, async ({ page, kept, timings }) => {
      const answer = await answerPrompt({
        model,
        prompt,
        content: page.content,
        url: page.finalUrl,
        title: page.title,
        signal: rest.signal,
      });
      const whole = { ...rest, maxLength: page.content.length + 1 };
      const base = toResult(page, whole, this.#how(kept.id, false, 0, timings));
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
        timings: { ...base.timings, totalMs: roundMs(performance.now() - started) },
      };
      // Kept in the page cache: a result carries every field of a cached page.
      await cache.put(key, result);
      return result;
    });
  }

  /** Without a model: the passages most relevant to the prompt, else the page's start. */
  #passages(url: string, call: ResolvedCall, prompt: string): Promise<FetchResult> {
    const { locale } = this.#resources.resolved;
    const note = NO_MODEL_NOTE[locale];
    const query = prompt.slice(0, LIMITS.queryMaxLength);
    return this.#loader.withPage(url, call, async (loaded, started) => {
      const { page, cached, kept, timings } = loaded;
      const ms = () => performance.now() - started;
      const how = () => this.#how(kept.id, cached, ms(), timings);
      const focused = toResult(page, { ...call, query }, how());
      if (focused.chunks?.returned !== 0) {
        return { ...(await this.#pages.saveIfCut(focused, loaded)), prompt, note };
      }
      // Nothing matched: the start of the same page is a better answer than nothing.
      const start = await this.#pages.saveIfCut(toResult(page, call, how()), loaded);
      const warnings = [warningText({ kind: "prompt-start" }, locale)];
      return { ...start, prompt, note, warnings: [...warnings, ...(start.warnings ?? [])] };
    });
  }

  #how(id: string, cached: boolean, ms: number, phases?: PhaseTimings) {
    return { id, cached, ms, locale: this.#resources.resolved.locale, phases };
  }
}
