/**
 * A tool spec bound to an instance: its environment (the instance, its language, the names of
 * the other tools, its own settings), its input schema built from that environment, and a call
 * that runs it through the tool boundary. The registry binds the tools a host registers, the
 * fetch sub-agent the tools it hands its model; both bind here.
 */
import type { z } from "zod";
import type { ToolId } from "../values.js";
import type { WebFetch } from "../webfetch/index.js";
import { runTool } from "./run.js";
import type { Texts } from "./texts.js";
import {
  TOOL_ANNOTATIONS,
  type Tool,
  type ToolLogger,
  type ToolSettings,
  type ToolSpec,
} from "./types.js";

export interface BindToolOptions {
  web: WebFetch;
  texts: Texts;
  /** The registered name of a tool, undefined when it is not offered alongside this one. */
  nameOf(id: ToolId): string | undefined;
  settings: ToolSettings;
  /** Where each call's timing goes. */
  logger: ToolLogger;
  /** Narrows the input schema the spec builds (the sub-agent's web_fetch takes no prompt). */
  narrow?(input: z.ZodObject): z.ZodObject;
}

/**
 * `spec` as a Tool: named and described, its schemas built, its call never throwing.
 *
 * @example
 * const tool = bindTool(webFetchTool, { web, texts: textsFor("en"), nameOf: () => undefined,
 *   settings: { name: "web_fetch", maxLength: 20_000 }, logger: silentLogger });
 * const result = await tool.call({ url: "https://example.com" });
 */
export function bindTool(spec: ToolSpec, options: BindToolOptions): Tool {
  const { web, texts, nameOf, settings, logger } = options;
  const env = { web, texts, nameOf, settings };
  const built = spec.input(env);
  const inputSchema = options.narrow ? options.narrow(built) : built;
  const { title, description } = spec.texts(texts);
  return {
    id: spec.id,
    name: settings.name,
    title,
    description,
    inputSchema,
    outputSchema: spec.output,
    annotations: { ...TOOL_ANNOTATIONS },
    call: (args, call) => runTool({ spec, inputSchema, env, logger }, args, call),
  };
}
