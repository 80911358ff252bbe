/** Tools over a test instance, by name, with their timing log lines captured. */
import type { ToolsOptions } from "../../src/tools/options.js";
import { createTools } from "../../src/tools/registry.js";
import type { Tool } from "../../src/tools/types.js";
import type { WebFetch } from "../../src/webfetch/index.js";

/** Every built-in tool, in the order hosts list them. */
export const ALL_TOOLS = [
  "web_fetch",
  "web_extract",
  "web_search",
  "web_context",
  "web_read",
  "web_grep",
  "web_map",
  "web_crawl",
] as const;

export interface ToolBox {
  tool(name: string): Tool;
  names: string[];
  logs: Record<string, unknown>[];
}

export function toolBox(web: WebFetch, options: ToolsOptions = {}): ToolBox {
  const logs: Record<string, unknown>[] = [];
  const logger = { info: (o: object) => logs.push(o as Record<string, unknown>), debug() {} };
  const tools = createTools({ web, logger, ...options });
  return {
    tool(name) {
      const found = tools.find((t) => t.name === name);
      if (!found) throw new Error(`no tool ${name}`);
      return found;
    },
    names: tools.map((t) => t.name),
    logs,
  };
}
