/**
 * Zod schemas of the tools' structured results, shared by every tool that returns them. The
 * result objects are `looseObject`s: a field a later version adds must not make an older
 * client's validation fail.
 */
import { z } from "zod";

const text = () => z.string().optional();

/** SPEC §3.7, the result object of one fetch. */
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
  format: z.enum(["markdown", "text"]),
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
  inputTruncated: z.boolean().optional(),
  note: text(),
  warnings: z.array(z.string()).optional(),
  savedPath: text(),
  cached: z.boolean(),
  fetchedAt: z.string(),
  timings: z.object({ totalMs: z.number() }),
});

/** A URL that gave no result. */
const failureSchema = z.object({ url: z.string(), code: z.string(), message: z.string() });

/** `web.extract()`'s answer. */
export const extractResultSchema = z.looseObject({
  results: z.array(fetchResultSchema),
  failed: z.array(failureSchema),
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

/** `web.context()`'s answer. */
export const contextResultSchema = z.looseObject({
  query: z.string(),
  context: z.string(),
  sources: z.array(z.object({ n: z.number(), url: z.string(), title: z.string() })),
  tokens: z.number(),
  provider: z.string(),
  timings: z.object({ totalMs: z.number() }),
});

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
