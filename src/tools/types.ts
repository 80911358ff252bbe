/**
 * The shape of a tool, defined once: name, texts, zod input and output, annotations
 * and a handler. The registry builds hosts' tools from these specs; MCP and the adapters only
 * translate a built `Tool`, so a new tool (web_search, web_context, web_fetch_agent) is one more
 * spec and nothing else changes.
 */
import type { z } from "zod";
import type { Logger } from "../log.js";
import type { CountTokens } from "../shape/tokens.js";
import type { OutputFormat, ToolId } from "../values.js";
import type { WebFetch } from "../webfetch/index.js";
import type { Texts, ToolTexts } from "./texts.js";

/** MCP tool annotations; every webfetch tool reads the open web and changes nothing. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Every tool reads the open web and changes nothing: read-only, open-world, idempotent. */
export const TOOL_ANNOTATIONS: Readonly<ToolAnnotations> = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/** A tool's own settings, resolved from ToolsOptions over the instance's options. */
export interface ToolSettings {
  /** The registered name (prefix included). */
  name: string;
  /** Characters of content when the model asks for no length. */
  maxLength: number;
  /** Deadline of this tool's fetches, ms; undefined: the instance's. */
  timeout?: number;
}

/** What a handler works with. */
export interface ToolEnv {
  web: WebFetch;
  texts: Texts;
  settings: ToolSettings;
  /** The registered name of a tool, undefined when it is disabled. */
  nameOf(id: ToolId): string | undefined;
  signal?: AbortSignal;
  /** Reports how far a long call has come (web_extract: each URL finished); absent: nobody asked. */
  progress?(progress: ToolProgress): void;
}

/** How far a long call has come: `progress` of `total` steps, and what the last one was. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a call of a built tool may carry besides its arguments. */
export interface ToolCallOptions {
  signal?: AbortSignal;
  /** Called as a long tool makes progress (an MCP client's progress token). */
  onProgress?(progress: ToolProgress): void;
  /**
   * Tokens the result may take, its text and its object as JSON together; a longer result is
   * cut to fit (an MCP client with an output limit). Absent: no budget.
   */
  maxTokens?: number;
}

/** A token budget a result is cut to, and the counter it is measured with. */
export interface ToolBudget {
  maxTokens: number;
  count: CountTokens;
}

/** The rest of a page whose content was cut to a budget: where it goes on, for a host to link. */
export interface PageRest {
  id: string;
  url: string;
  title?: string;
  format: OutputFormat;
  contentType: string;
  /** Character of the page's full content the rest starts at. */
  start: number;
  /** Characters of the page's full content. */
  total: number;
}

/** An image a tool returns beside its text (a page's screenshot), base64. */
export interface ToolImage {
  data: string;
  mimeType: string;
}

/** What a handler returns: text for the model, the result object, and any images. */
export interface ToolOutput {
  text: string;
  structured: Record<string, unknown>;
  /** Images for the model, in hosts that take them; the text says each was taken. */
  images?: ToolImage[];
  /** Pages cut to a token budget, where each goes on (a host links them as resources). */
  rest?: PageRest[];
}

/** A tool's answer. An error carries `structured: { error: { code, message } }`. */
export interface ToolResult extends ToolOutput {
  isError: boolean;
}

/** One tool, defined once. */
export interface ToolSpec<Input extends z.ZodObject = z.ZodObject> {
  /** Canonical name, also its key in the configuration. */
  id: ToolId;
  texts(texts: Texts): ToolTexts;
  /** The input schema; its bounds and descriptions may follow settings and language. */
  input(env: Omit<ToolEnv, "signal">): Input;
  /** The structured result's schema. */
  output: z.ZodObject;
  /** Its AUTH_ERROR / RATE_LIMITED / PROVIDER_ERROR are a search provider's, and say so. */
  providerErrors?: boolean;
  /** Whether the instance can offer it at all (a model or a provider may be missing). */
  available?(web: WebFetch): boolean;
  /** Runs the tool; throws on failure (the runner turns every throw into an error result). */
  handle(input: z.output<Input>, env: ToolEnv): Promise<ToolOutput>;
  /**
   * Cuts a result over a token budget the way the tool's content allows (a page's window, each
   * page of many). Without it, or when it is not enough, long strings and lists are shortened.
   */
  fit?(output: ToolOutput, budget: ToolBudget, env: ToolEnv): ToolOutput | Promise<ToolOutput>;
}

/** A spec with its input type checked, stored as a plain ToolSpec. */
export function defineTool<Input extends z.ZodObject>(spec: ToolSpec<Input>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** A tool ready for a host: named, described, schemas built. `call` never throws. */
export interface Tool {
  id: ToolId;
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: ToolAnnotations;
  call(args: unknown, options?: ToolCallOptions): Promise<ToolResult>;
}

/** Logger the runner times calls with. */
export type ToolLogger = Pick<Logger, "info" | "debug">;
