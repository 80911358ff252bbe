/**
 * Builds the tools a host registers from the specs and the tool options: disabled tools left
 * out entirely, names prefixed or renamed, each tool bound to the webfetch instance and its
 * language. MCP, the adapters and `webfetch tools` all start from `createTools()`.
 */

import type { ToolId } from "../values.js";
import type { WebFetch } from "../webfetch/index.js";
import { bindTool } from "./bind.js";
import { BUILTIN_TOOLS } from "./catalog.js";
import { TOOL_DEFAULTS, type ToolsOptions } from "./options.js";
import { textsFor } from "./texts.js";
import type { Tool, ToolLogger, ToolSpec } from "./types.js";

/** Tool names every host accepts (MCP, OpenAI and Anthropic alike). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface CreateToolsOptions extends ToolsOptions {
  /** The instance the tools fetch with; its `locale` chooses the tools' language. */
  web: WebFetch;
  /** Where each call's timing goes. @default the instance's logger (`web.logger`) */
  logger?: ToolLogger;
  /** The specs to build. @default every built-in tool */
  specs?: readonly ToolSpec[];
}

/**
 * The enabled tools, ready for a host.
 *
 * @example
 * const tools = createTools({ web: createWebFetch(), prefix: "wf_" });
 * const result = await tools[0].call({ url: "https://example.com" });
 */
export function createTools(options: CreateToolsOptions): Tool[] {
  const { web } = options;
  const texts = textsFor(web.options.locale);
  const logger = options.logger ?? web.logger;
  const specs = (options.specs ?? BUILTIN_TOOLS).filter(
    (spec) =>
      (options.tools?.[spec.id]?.enabled ?? TOOL_DEFAULTS.enabled) &&
      (spec.available?.(web) ?? true),
  );
  const names = toolNames(
    specs.map((spec) => spec.id),
    options,
  );
  const nameOf = (id: ToolId) => names.get(id);

  return specs.map((spec) => {
    const own = options.tools?.[spec.id] ?? {};
    return bindTool(spec, {
      web,
      texts,
      nameOf,
      logger,
      settings: {
        name: names.get(spec.id)!,
        maxLength: own.maxLength ?? web.options.maxLength,
        ...(own.timeout === undefined ? {} : { timeout: own.timeout }),
      },
    });
  });
}

/**
 * The registered name of each tool: prefix, then the configured name or the canonical one.
 * Throws RangeError for a name hosts refuse or two tools with one name.
 */
export function toolNames(ids: readonly ToolId[], options: ToolsOptions): Map<ToolId, string> {
  const names = new Map<ToolId, string>();
  for (const id of ids) {
    const name = toolName(id, options);
    const clash = [...names].find(([, other]) => other === name);
    if (clash) throw new RangeError(`Tools ${clash[0]} and ${id} are both named ${name}`);
    names.set(id, name);
  }
  return names;
}

function toolName(id: ToolId, options: ToolsOptions): string {
  const name = `${options.prefix ?? TOOL_DEFAULTS.prefix}${options.tools?.[id]?.name ?? id}`;
  if (!TOOL_NAME.test(name)) {
    throw new RangeError(`Tool name ${JSON.stringify(name)} must be 1-64 letters, digits, _ or -`);
  }
  return name;
}
