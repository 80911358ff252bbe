/** Input parameters several tools share: snake_case as agent tools name them, LIMITS's bounds. */
import { z } from "zod";
import { type ExclusiveNames, optionConflict } from "../checks.js";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { SCREENSHOT_DEFAULTS, type ScreenshotOptions } from "../options.js";
import { OUTPUT_FORMATS, SEARCH_DEPTHS, TIME_RANGES } from "../values.js";
import type { Texts } from "./texts.js";

/**
 * A URL as a plain string: the URL policy checks it in the handler, so a bad one is an
 * `INVALID_URL` result in the tool's language rather than a schema error.
 */
export const urlParam = (t: Texts) => z.string().min(1).describe(t.params.url);

/** A list of path patterns, bounded as the library bounds them. */
export const pathsParam = (describe: string) =>
  z
    .array(z.string().min(1).max(LIMITS.pathPatternMaxLength))
    .max(LIMITS.pathPatternsMax)
    .optional()
    .describe(describe);

export const extractModeParam = (t: Texts) =>
  z.enum(OUTPUT_FORMATS).optional().describe(t.params.extract_mode);

/** A question or instruction for a model, 1 to 4,000 characters. */
export const promptParam = () => z.string().trim().min(1).max(LIMITS.promptMaxLength);

export const queryParam = (t: Texts) =>
  z.string().trim().min(1).max(LIMITS.queryMaxLength).optional().describe(t.params.query);

/** An optional query of 1 to 1,000 characters (trimmed), described with its bound. */
export const optionalQueryParam = (describe: (max: number) => string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.queryMaxLength)
    .optional()
    .describe(describe(LIMITS.queryMaxLength));

/** What a search (or a context) is about, described with its bound (`describe(max)`). */
export const searchQueryParam = (describe: (max: number) => string) =>
  z.string().trim().min(1).max(LIMITS.queryMaxLength).describe(describe(LIMITS.queryMaxLength));

/** A window length a model may ask for. */
export const lengthParam = (describe: string) =>
  z.number().int().min(1).max(LIMITS.toolMaxLength).optional().describe(describe);

export const startIndexParam = (t: Texts) =>
  z.number().int().min(0).optional().describe(t.params.start_index);

/** A page fetched earlier: its id, or its URL. */
export const pageRefParams = (t: Texts) => ({
  url: z.string().min(1).optional().describe(t.params.url),
  id: z.string().min(1).max(64).optional().describe(t.params.id),
});

/** web_search's narrowing parameters, shared with web_context. */
export const searchParams = (t: Texts) => ({
  search_depth: z.enum(SEARCH_DEPTHS).optional().describe(t.params.search_depth),
  include_domains: z
    .array(z.string().min(1).max(253))
    .max(LIMITS.searchMaxDomains)
    .optional()
    .describe(t.params.include_domains),
  exclude_domains: z
    .array(z.string().min(1).max(253))
    .max(LIMITS.searchMaxDomains)
    .optional()
    .describe(t.params.exclude_domains),
  time_range: z.enum(TIME_RANGES).optional().describe(t.params.time_range),
});

/** The tools' spelling of the library's options that exclude each other. */
export const PARAM_NAMES: ExclusiveNames = {
  prompt: "prompt",
  query: "query",
  startIndex: "start_index",
  format: "extract_mode",
  includeSelectors: "include_selectors",
  excludeSelectors: "exclude_selectors",
  screenshot: "screenshot",
  render: 'render: "never"',
};

/**
 * Parameters that cannot go together are INVALID_INPUT named by the parameter to change, as
 * schema errors are (`param: problem`).
 */
export function refuseConflicts(input: {
  prompt?: string | undefined;
  query?: string | undefined;
  start_index?: number | undefined;
  extract_mode?: string | undefined;
  include_selectors?: string[] | undefined;
  exclude_selectors?: string[] | undefined;
}): void {
  const conflict = optionConflict(
    {
      prompt: input.prompt,
      query: input.query,
      startIndex: input.start_index,
      format: input.extract_mode,
      ...selectorOptions(input),
    },
    PARAM_NAMES,
  );
  if (conflict) {
    const param = PARAM_NAMES[conflict.field];
    throw new WebFetchError("INVALID_INPUT", `${param}: ${conflict.message}`, {
      retryable: false,
    });
  }
}

/** CSS selectors scoping the page (web_fetch, web_extract). */
export const selectorParams = (t: Texts) => {
  const list = (describe: string) =>
    z
      .array(z.string().min(1).max(LIMITS.selectorMaxLength))
      .max(LIMITS.maxSelectors)
      .optional()
      .describe(describe);
  return {
    include_selectors: list(t.params.include_selectors),
    exclude_selectors: list(t.params.exclude_selectors),
  };
};

/** The library's selector options from the tool's parameters. */
export function selectorOptions(input: {
  include_selectors?: string[] | undefined;
  exclude_selectors?: string[] | undefined;
}): { includeSelectors?: string[]; excludeSelectors?: string[] } {
  return {
    ...(input.include_selectors?.length ? { includeSelectors: input.include_selectors } : {}),
    ...(input.exclude_selectors?.length ? { excludeSelectors: input.exclude_selectors } : {}),
  };
}

/** Lists of the page's links and images after its content (web_fetch, web_extract). */
export const listParams = (t: Texts) => ({
  links: z.boolean().optional().describe(t.params.links),
  images: z.boolean().optional().describe(t.params.images),
});

/** The library's `links` and `images` of the list parameters. */
export function listOptions(input: { links?: boolean | undefined; images?: boolean | undefined }): {
  links?: true;
  images?: true;
} {
  return {
    ...(input.links ? { links: true } : {}),
    ...(input.images ? { images: true } : {}),
  };
}

/**
 * A screenshot of the rendered page (web_fetch): true for the default viewport, or the
 * viewport's size and whether the whole page, snake_case as the tools name parameters.
 */
export const screenshotParam = (t: Texts) => {
  const side = z.number().int().min(LIMITS.screenshotMinSide).max(LIMITS.screenshotMaxSide);
  return z
    .union([
      z.boolean(),
      z.strictObject({
        full_page: z.boolean().optional(),
        width: side.optional(),
        height: side.optional(),
      }),
    ])
    .optional()
    .describe(
      t.params.screenshot(
        SCREENSHOT_DEFAULTS.width,
        SCREENSHOT_DEFAULTS.height,
        LIMITS.screenshotMaxSide,
        LIMITS.screenshotMaxPageHeight,
      ),
    );
};

/** The library's `screenshot` from the tool's parameter. */
export function screenshotOption(
  shot:
    | boolean
    | { full_page?: boolean | undefined; width?: number | undefined; height?: number | undefined }
    | undefined,
): { screenshot?: ScreenshotOptions | true } {
  if (shot === undefined || shot === false) return {};
  if (shot === true) return { screenshot: true };
  return {
    screenshot: {
      ...(shot.full_page === undefined ? {} : { fullPage: shot.full_page }),
      ...(shot.width === undefined ? {} : { width: shot.width }),
      ...(shot.height === undefined ? {} : { height: shot.height }),
    },
  };
}
