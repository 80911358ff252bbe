/**
 * `/v1/crawl`: a crawl as a job. `POST /v1/crawl` starts one (202 with its id), `GET
 * /v1/crawl/{id}` answers its state and its pages from a cursor on, `DELETE /v1/crawl/{id}` stops
 * it (its pages so far stay readable). The body is the service's snake_case spelling of
 * `web.crawl()`'s options, checked with zod at this edge; the jobs themselves live behind
 * `CrawlJobs`.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { type ExclusiveNames, LIBRARY_NAMES, optionConflict } from "../checks.js";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";
import { CRAWL_DEFAULTS, CRAWL_JOB_LIMITS, type CrawlOptions } from "../options.js";
import { CRAWL_JOB_STATUSES, type CrawlJobs, CrawlJobsFull } from "../queue/contract.js";
import { checkPathPatterns } from "../site/scope.js";
import { optionalQueryParam, pathsParam } from "../tools/params.js";
import { describeIssues } from "../tools/run.js";
import { crawlPageSchema, crawlSummarySchema } from "../tools/schemas.js";
import { OUTPUT_FORMATS, RENDER_MODES } from "../values.js";
import { errorResponse } from "./errors.js";

/** An integer field from `min` to `max`, its bounds in the message a client sees. */
const intIn = (min: number, max: number) =>
  z
    .number()
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);

/** CSS selectors, bounded as a fetch bounds them. */
const selectorsField = (describe: string) =>
  z
    .array(z.string().min(1).max(LIMITS.selectorMaxLength))
    .max(LIMITS.maxSelectors)
    .optional()
    .describe(describe);

/** `POST /v1/crawl`'s body. */
export const crawlRequestSchema = z.object({
  url: z.string().min(1).describe("The start URL: the crawl follows its links from there"),
  limit: intIn(1, LIMITS.crawlMaxPages)
    .optional()
    .describe(
      `Pages fetched at most, 1 to ${LIMITS.crawlMaxPages} (failures and duplicates count). Default ${CRAWL_DEFAULTS.limit}`,
    ),
  max_depth: intIn(0, LIMITS.crawlMaxDepth)
    .optional()
    .describe(
      `Links followed from the start URL at most, 0 to ${LIMITS.crawlMaxDepth} (0: the start page alone). Default ${CRAWL_DEFAULTS.maxDepth}`,
    ),
  include_paths: pathsParam(
    `Regular expressions on a link's path: only links whose path matches one are followed (at most ${LIMITS.pathPatternsMax}, each at most ${LIMITS.pathPatternMaxLength} characters)`,
  ),
  exclude_paths: pathsParam(
    "Regular expressions on a link's path: matching links are not followed",
  ),
  allow_subdomains: z
    .boolean()
    .optional()
    .describe("Follow links to every host of the start URL's registrable domain. Default false"),
  allow_external: z.boolean().optional().describe("Follow links to other sites too. Default false"),
  query: optionalQueryParam(
    () => "Fetch the pages most relevant to this query first (best-first instead of breadth-first)",
  ),
  concurrency: intIn(1, LIMITS.crawlMaxConcurrency)
    .optional()
    .describe(
      `Pages fetched at once, 1 to ${LIMITS.crawlMaxConcurrency}. Default ${CRAWL_DEFAULTS.concurrency}`,
    ),
  format: z
    .enum(OUTPUT_FORMATS)
    .optional()
    .describe("Each page's content format. Default markdown"),
  max_length: intIn(1, LIMITS.toolMaxLength)
    .optional()
    .describe("Characters of content kept per page. Default the service's max length"),
  include_selectors: selectorsField("CSS selectors: keep only what they match on each page"),
  exclude_selectors: selectorsField("CSS selectors: remove what they match on each page"),
  links: z.boolean().optional().describe("List each page's links"),
  images: z.boolean().optional().describe("List each page's images"),
  render: z
    .enum(RENDER_MODES)
    .optional()
    .describe("JavaScript rendering of each page: never, auto or always"),
});
export type CrawlRequest = z.infer<typeof crawlRequestSchema>;

/** `GET /v1/crawl/{id}`'s query. */
const readQuerySchema = z.object({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().pipe(intIn(1, CRAWL_JOB_LIMITS.pagesPerReadMax)).optional(),
});

/** The body's spelling of the page options that exclude each other. */
const BODY_NAMES: ExclusiveNames = {
  ...LIBRARY_NAMES,
  format: "format",
  includeSelectors: "include_selectors",
  excludeSelectors: "exclude_selectors",
  render: "render",
};

/** What the route applies to every crawl: the web_crawl tool's settings. */
export interface CrawlSettings {
  /** Characters of content per page when the body asks for no `max_length`. */
  maxLength: number;
  /** Total deadline of each page's fetch, ms. */
  timeout?: number | undefined;
}

/**
 * `web.crawl()`'s options from a checked body. Path patterns that are no regular expression and
 * page options that exclude each other are INVALID_INPUT naming the body's field.
 */
export function crawlOptionsOf(body: CrawlRequest, settings: CrawlSettings): CrawlOptions {
  const options: CrawlOptions = {
    maxLength: body.max_length ?? settings.maxLength,
    ...(settings.timeout === undefined ? {} : { timeout: settings.timeout }),
    ...(body.limit === undefined ? {} : { limit: body.limit }),
    ...(body.max_depth === undefined ? {} : { maxDepth: body.max_depth }),
    ...(body.include_paths?.length
      ? { includePaths: checkPathPatterns(body.include_paths, "include_paths") }
      : {}),
    ...(body.exclude_paths?.length
      ? { excludePaths: checkPathPatterns(body.exclude_paths, "exclude_paths") }
      : {}),
    ...(body.allow_subdomains === undefined ? {} : { allowSubdomains: body.allow_subdomains }),
    ...(body.allow_external === undefined ? {} : { allowExternal: body.allow_external }),
    ...(body.query === undefined ? {} : { query: body.query }),
    ...(body.concurrency === undefined ? {} : { concurrency: body.concurrency }),
    ...(body.format === undefined ? {} : { format: body.format }),
    ...(body.include_selectors?.length ? { includeSelectors: body.include_selectors } : {}),
    ...(body.exclude_selectors?.length ? { excludeSelectors: body.exclude_selectors } : {}),
    ...(body.links ? { links: true } : {}),
    ...(body.images ? { images: true } : {}),
    ...(body.render === undefined ? {} : { render: body.render }),
  };
  const conflict = optionConflict(options, BODY_NAMES);
  if (conflict) {
    throw new WebFetchError("INVALID_INPUT", `${BODY_NAMES[conflict.field]}: ${conflict.message}`, {
      retryable: false,
    });
  }
  return options;
}

/** Mounts `POST /v1/crawl`, `GET /v1/crawl/{id}` and `DELETE /v1/crawl/{id}` on the app. */
export function mountCrawlRoutes(
  app: Hono,
  jobs: CrawlJobs,
  settings: CrawlSettings,
  readBody: (c: Context) => Promise<unknown>,
): void {
  app.post("/v1/crawl", async (c) => {
    const parsed = crawlRequestSchema.safeParse(await readBody(c));
    if (!parsed.success) return errorResponse(c, "INVALID_INPUT", describeIssues(parsed.error));
    const options = crawlOptionsOf(parsed.data, settings);
    let id: string;
    try {
      ({ id } = await jobs.start(parsed.data.url, options));
    } catch (error) {
      if (error instanceof CrawlJobsFull) return errorResponse(c, "TOO_MANY_CRAWLS", error.message);
      // The crawl's own check of its options: the caller's to fix.
      if (error instanceof RangeError || error instanceof TypeError) {
        return errorResponse(c, "INVALID_INPUT", error.message);
      }
      throw error;
    }
    return c.json({ id, status: "running" as const, url: parsed.data.url }, 202);
  });

  app.get("/v1/crawl/:id", async (c) => {
    const parsed = readQuerySchema.safeParse(c.req.query());
    if (!parsed.success) return errorResponse(c, "INVALID_INPUT", describeIssues(parsed.error));
    const id = c.req.param("id");
    const state = await jobs.get(id, parsed.data);
    return state ? c.json(state) : unknownJob(c, id);
  });

  app.delete("/v1/crawl/:id", async (c) => {
    const id = c.req.param("id");
    const state = await jobs.cancel(id);
    return state ? c.json(state) : unknownJob(c, id);
  });
}

function unknownJob(c: Context, id: string): Response {
  return errorResponse(
    c,
    "NOT_FOUND",
    `No crawl job ${JSON.stringify(id)} (ended jobs are kept an hour)`,
  );
}

/** Where a crawl stands. */
const progressSchema = z.object({
  pages: z.number(),
  failed: z.number(),
  queued: z.number(),
  skipped: z.number(),
  elapsedMs: z.number(),
});

/** `POST /v1/crawl`'s answer. */
export const crawlStartedSchema = z.object({
  id: z.string(),
  status: z.literal("running"),
  url: z.string(),
});

/** `GET` and `DELETE /v1/crawl/{id}`'s answer: the job's state and a run of its pages. */
export const crawlJobSchema = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(CRAWL_JOB_STATUSES),
  progress: progressSchema,
  pages: z.array(crawlPageSchema),
  next: z
    .string()
    .optional()
    .describe("The cursor of the pages after these: present while more exist or may still come"),
  summary: crawlSummarySchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

/** `GET /v1/crawl/{id}`'s query parameters, as the document lists them. */
export const CRAWL_READ_PARAMETERS = [
  {
    name: "cursor",
    description: "The `next` of an earlier answer: the pages after those (default: the first)",
    schema: { type: "string" },
  },
  {
    name: "limit",
    description: `Pages answered at most, 1 to ${CRAWL_JOB_LIMITS.pagesPerReadMax} (default ${CRAWL_JOB_LIMITS.pagesPerRead})`,
    schema: { type: "integer", minimum: 1, maximum: CRAWL_JOB_LIMITS.pagesPerReadMax },
  },
] as const;
