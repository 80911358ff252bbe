/**
 * Zod schemas of the tools' structured results, shared by every tool that returns them. The
 * result objects are `looseObject`s: a field a later version adds must not make an older
 * client's validation fail. The compiler holds each schema to the library's type of the same
 * object, so neither can gain a field the other lacks.
 */
import { z } from "zod";
import type { ContextResult } from "../context/build.js";
import type { CrawlPage, FetchResult, GrepResult, MapResult } from "../result.js";
import type { SearchResponse } from "../search/types.js";
import { OUTPUT_FORMATS } from "../values.js";

const text = () => z.string().optional();

/**
 * `T` in the form the check compares, at every depth: no index signature (a loose object's), and
 * no `| undefined` on optional fields (zod's output adds it; the library's interfaces, under
 * exactOptionalPropertyTypes, leave it out).
 */
type Fields<T> = T extends readonly (infer E)[]
  ? Fields<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Fields<Exclude<T[K], undefined>> }
    : T;

/** `true` when A and B are the same type, optional fields included. */
type Same<A, B> =
  (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * `true` when `schema`'s output is `T` field for field; else the fields one has and the other
 * lacks, which the compiler prints in its error.
 */
type Matches<Schema extends z.ZodType, T> =
  Same<Fields<z.output<Schema>>, Fields<T>> extends true
    ? true
    : {
        schemaLacks: Exclude<keyof Fields<T>, keyof Fields<z.output<Schema>>>;
        typeLacks: Exclude<keyof Fields<z.output<Schema>>, keyof Fields<T>>;
      };

/** The result object of one fetch, as `FetchResult` declares it. */
export const fetchResultSchema = z.looseObject({
  url: z.string(),
  id: z.string(),
  finalUrl: z.string(),
  redirects: z.array(z.object({ from: z.string(), to: z.string(), status: z.number() })),
  status: z.number(),
  contentType: z.string(),
  charset: text(),
  title: text(),
  description: text(),
  author: text(),
  siteName: text(),
  publishedAt: text(),
  lang: text(),
  canonicalUrl: text(),
  format: z.enum(OUTPUT_FORMATS),
  content: z.string(),
  totalLength: z.number(),
  startIndex: z.number(),
  truncated: z.boolean(),
  nextStartIndex: z.number().optional(),
  query: text(),
  chunks: z.object({ total: z.number(), matched: z.number(), returned: z.number() }).optional(),
  prompt: text(),
  model: text(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  data: z.unknown().optional(),
  inputTruncated: z.boolean().optional(),
  note: text(),
  warnings: z.array(z.string()).optional(),
  pages: z.number().optional(),
  rendered: z.boolean().optional(),
  blockedRequests: z.number().optional(),
  links: z
    .array(
      z.object({ url: z.string(), text: z.string(), internal: z.boolean(), inMain: z.boolean() }),
    )
    .optional(),
  images: z.array(z.object({ url: z.string(), alt: z.string() })).optional(),
  screenshot: z
    .object({
      mimeType: z.literal("image/png"),
      data: z.string(),
      width: z.number(),
      height: z.number(),
    })
    .optional(),
  savedPath: text(),
  cached: z.boolean(),
  fetchedAt: z.string(),
  timings: z.object({
    totalMs: z.number(),
    dnsMs: z.number().optional(),
    connectMs: z.number().optional(),
    firstByteMs: z.number().optional(),
    convertMs: z.number().optional(),
  }),
});
true satisfies Matches<typeof fetchResultSchema, FetchResult>;

/**
 * A page as a tool returns it: FetchResult, except that a screenshot's base64 may be left out of
 * the object to fit a host's token budget (the image block beside the text still carries it).
 */
export const pageResultSchema = fetchResultSchema.extend({
  screenshot: z
    .object({
      mimeType: z.literal("image/png"),
      data: z.string().optional(),
      width: z.number(),
      height: z.number(),
    })
    .optional(),
});

/** A URL that gave no result. */
const failureSchema = z.object({ url: z.string(), code: z.string(), message: z.string() });

/** `web.extract()`'s answer. Not held to ExtractResult: a failure's code is any string here. */
export const extractResultSchema = z.looseObject({
  results: z.array(pageResultSchema),
  failed: z.array(failureSchema),
});

/** One crawled page: a fetch's result with where the crawl found it. */
export const crawlPageSchema = fetchResultSchema.extend({
  depth: z.number(),
  parent: text(),
});
true satisfies Matches<typeof crawlPageSchema, CrawlPage>;

/** A crawl's summary. Not held to CrawlSummary: a failure's code is any string here. */
export const crawlSummarySchema = z.looseObject({
  url: z.string(),
  pages: z.number(),
  failed: z.array(failureSchema),
  skipped: z.object({
    robots: z.number(),
    filtered: z.number(),
    duplicate: z.number(),
    limit: z.number(),
  }),
  cancelled: z.boolean(),
  elapsedMs: z.number(),
  warnings: z.array(z.string()).optional(),
});

/** web_crawl's answer: the pages, the pages left out to fit a token budget, the summary. */
export const crawlResultSchema = z.looseObject({
  results: z.array(crawlPageSchema),
  more: z.array(z.object({ url: z.string(), id: z.string(), title: text() })).optional(),
  summary: crawlSummarySchema,
});

/** `web.grep()`'s answer. */
export const grepResultSchema = z.looseObject({
  id: z.string(),
  url: z.string(),
  finalUrl: z.string(),
  title: text(),
  pattern: z.string(),
  mode: z.enum(["regex", "literal"]),
  fallback: z.enum(["invalid-regex", "slow-regex"]).optional(),
  totalLines: z.number(),
  matchCount: z.number(),
  matches: z.array(
    z.object({
      line: z.number(),
      text: z.string(),
      before: z.array(z.string()),
      after: z.array(z.string()),
    }),
  ),
  incomplete: z.boolean(),
  savedPath: text(),
});
true satisfies Matches<typeof grepResultSchema, GrepResult>;

/** `web.search()`'s answer. */
export const searchResultSchema = z.looseObject({
  query: z.string(),
  provider: z.string(),
  results: z.array(
    z.object({
      title: z.string(),
      url: z.string(),
      snippet: z.string(),
      score: z.number(),
      publishedAt: text(),
    }),
  ),
  timings: z.object({ totalMs: z.number() }),
});
true satisfies Matches<typeof searchResultSchema, SearchResponse>;

/** `web.map()`'s answer: a site's URLs. */
export const mapResultSchema = z.looseObject({
  url: z.string(),
  links: z.array(z.object({ url: z.string(), title: text(), lastmod: text() })),
  truncated: z.boolean(),
  warnings: z.array(z.string()).optional(),
});
true satisfies Matches<typeof mapResultSchema, MapResult>;

/** `web.context()`'s answer. */
export const contextResultSchema = z.looseObject({
  query: z.string(),
  context: z.string(),
  sources: z.array(z.object({ n: z.number(), url: z.string(), title: z.string() })),
  tokens: z.number(),
  provider: z.string(),
  timings: z.object({ totalMs: z.number() }),
});
true satisfies Matches<typeof contextResultSchema, ContextResult>;

/** web_fetch_agent's answer: the sub-agent's final text, never the page. */
export const agentResultSchema = z.looseObject({
  url: z.string(),
  prompt: z.string(),
  description: z.string(),
  content: z.string(),
  model: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  steps: z.number(),
  toolCalls: z.array(z.string()),
  limit: z.enum(["steps", "tokens"]).optional(),
});

/**
 * web_fetch_structured's answer: the page's identity and the data filled from it, not its
 * content (the model asked for data, and the page would fill its context).
 */
export const dataResultSchema = z.looseObject({
  url: z.string(),
  id: z.string(),
  finalUrl: z.string(),
  title: text(),
  data: z.unknown(),
  model: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  inputTruncated: z.boolean(),
  warnings: z.array(z.string()).optional(),
  cached: z.boolean(),
  fetchedAt: z.string(),
});
