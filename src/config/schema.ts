/**
 * The configuration file's shape, validated with zod at the edge. Every key is
 * optional; defaults live in options.ts, not here.
 */
import { z } from "zod";
import { LIMITS } from "../limits.js";
import { SEARCH_PROVIDER_IDS } from "../search/types.js";
import {
  ENDPOINT_FILTERS,
  LLM_PROVIDER_IDS,
  LOCALES,
  REDIRECT_POLICIES,
  RENDER_MODES,
  ROBOTS_POLICIES,
  TOOL_IDS,
  type ToolId,
} from "../values.js";

/**
 * Numbers and booleans may come from `${VAR}` expansion, which yields text: "30" and "true"
 * are read as the values they spell; anything else fails validation as usual.
 */
const fromText = (value: unknown): unknown => {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "true" || text === "false") return text === "true";
  return text !== "" && Number.isFinite(Number(text)) ? Number(text) : value;
};
const number = () => z.preprocess(fromText, z.number());
const boolean = () => z.preprocess(fromText, z.boolean());
const blankIsUnset = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
const seconds = number().pipe(z.number().positive());
const bytes = number().pipe(z.number().int().positive());

const toolSchema = z
  .object({
    enabled: boolean(),
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -"),
    api_endpoint: z.string(),
    // Remote mode's protocol and the service's token, beyond the keys a Crawl4AI endpoint needs.
    api_endpoint_kind: blankIsUnset(z.enum(["webfetch", "crawl4ai"])),
    api_token: blankIsUnset(z.string()),
    // The `/md` filter a Crawl4AI endpoint is asked for (its clients send `llm`, the default).
    filter: blankIsUnset(z.enum(ENDPOINT_FILTERS)),
    timeout_seconds: seconds,
    max_content_length: number().pipe(z.number().int().positive()),
  })
  .partial()
  .strict();

/** One section per known tool, so a misspelt name is an error rather than silently ignored. */
const toolSections = Object.fromEntries(TOOL_IDS.map((id) => [id, toolSchema])) as Record<
  ToolId,
  typeof toolSchema
>;

export const configSchema = z
  .object({
    locale: z.enum(LOCALES),
    fetch: z
      .object({
        timeout_seconds: seconds,
        max_bytes: bytes,
        max_redirects: number().pipe(z.number().int().min(0).max(20)),
        redirects: z.enum(REDIRECT_POLICIES),
        user_agent: z.string().min(1),
        robots: z.enum(ROBOTS_POLICIES),
        render: z.enum(RENDER_MODES),
        browser_path: z.string().min(1),
        screenshot_max_bytes: bytes,
        network: z.enum(["enabled", "none"]),
        allow_private_network: boolean(),
        allow_addresses: z.array(z.string()),
        allowed_domains: z.array(z.string()),
        blocked_domains: z.array(z.string()),
        max_length: number().pipe(z.number().int().positive()),
        save_dir: z.string(),
      })
      .partial()
      .strict(),
    cache: z
      .object({
        store: z.enum(["memory", "sqlite", "redis"]),
        ttl_seconds: number().pipe(z.number().int().min(0)),
        max_bytes: bytes,
        path: z.string(),
        url: z.string(),
      })
      .partial()
      .strict(),
    // Keys and addresses stay in the environment (TAVILY_API_KEY, …), not in the file.
    search: z
      .object({
        // `${SEARCH_PROVIDER:-}` with nothing set means "choose from the environment".
        provider: z.preprocess(
          (v) => (v === "" ? undefined : v),
          z.enum(SEARCH_PROVIDER_IDS).optional(),
        ),
        // Who fetches web_extract's pages: this process, or Tavily's extract API.
        extract: z.preprocess(
          (v) => (v === "" ? undefined : v),
          z.enum(["fetch", "tavily"]).optional(),
        ),
      })
      .partial()
      .strict(),
    // `${VAR:-}` that expands to nothing means "not set" for every llm key.
    llm: z
      .object({
        provider: blankIsUnset(z.enum(LLM_PROVIDER_IDS)),
        base_url: blankIsUnset(z.string()),
        model: blankIsUnset(z.string()),
        api_key: blankIsUnset(z.string()),
        max_input_tokens: number().pipe(z.number().int().positive()),
        max_output_tokens: number().pipe(z.number().int().positive()),
        timeout_seconds: seconds,
        agent_max_steps: number().pipe(z.number().int().min(1).max(50)),
        agent_max_tokens: number().pipe(z.number().int().positive()),
        agent_timeout_seconds: seconds,
      })
      .partial()
      .strict(),
    server: z
      .object({
        host: z.string(),
        port: number().pipe(z.number().int().min(0).max(65535)),
        token: z.string(),
        rate_limit: number().pipe(z.number().int().positive()),
        trust_proxy: boolean(),
        allowed_hosts: z.array(z.string()),
      })
      .partial()
      .strict(),
    queue: z
      .object({
        url: z.string(),
      })
      .partial()
      .strict(),
    tools: z
      .object({
        prefix: z
          .string()
          .regex(/^[A-Za-z0-9_-]{0,32}$/, "must be at most 32 letters, digits, _ or -"),
        max_result_tokens: number().pipe(z.number().int().min(LIMITS.minResultTokens)),
        ...toolSections,
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type WebFetchConfig = z.infer<typeof configSchema>;
