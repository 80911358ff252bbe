/**
 * Options of the tool layer (`createTools()`, the MCP server, the adapters) and their defaults.
 */
import type { ToolId } from "../values.js";

/** Options of the tool layer (`createTools()`, the MCP server, the adapters). */
export interface ToolsOptions {
  /** Prefix of every tool name ("wf_" → wf_web_fetch). @default "" */
  prefix?: string;
  /** Settings by canonical tool name; a tool left out keeps its defaults. */
  tools?: Partial<Record<ToolId, ToolOptions>>;
  /**
   * Tokens (o200k) one MCP tool result may take, its text and its `structuredContent` as JSON
   * counted together (image blocks apart): a longer page is cut to fit, the rest linked as a
   * resource. Below the 25,000 tokens Claude Code accepts. At least 1,000. Only the MCP server
   * applies it. @default 20_000
   */
  maxResultTokens?: number;
}

/** Settings of one tool (`tools.<name>` in the configuration file). */
export interface ToolOptions {
  /** `false`: the tool is registered nowhere. @default true */
  enabled?: boolean;
  /** Its name, before the prefix. @default the canonical name */
  name?: string;
  /** Total deadline of the fetches this tool makes, ms. @default the instance's timeout (`endpointTimeout` in remote mode) */
  timeout?: number;
  /** Characters of content the tool returns when the model asks for no length. @default the instance's maxLength */
  maxLength?: number;
}

/** Defaults of the tool layer. */
export const TOOL_DEFAULTS = {
  prefix: "",
  enabled: true,
  maxResultTokens: 20_000,
  /** Pages web_crawl fetches when the call names no limit: a model reads every one. */
  crawlLimit: 10,
} as const;
