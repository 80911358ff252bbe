/**
 * The tools webfetch offers, in the order hosts list them. A new tool (web_search, web_context,
 * web_fetch_agent) is a spec module and one line here; the registry, the runner and every
 * adapter pick it up unchanged.
 */
import type { ToolSpec } from "./types.js";
import { webContextTool } from "./web-context.js";
import { webCrawlTool } from "./web-crawl.js";
import { webExtractTool } from "./web-extract.js";
import { webFetchTool } from "./web-fetch.js";
import { webFetchAgentTool } from "./web-fetch-agent.js";
import { webFetchStructuredTool } from "./web-fetch-structured.js";
import { webGrepTool } from "./web-grep.js";
import { webMapTool } from "./web-map.js";
import { webReadTool } from "./web-read.js";
import { webSearchTool } from "./web-search.js";

export const BUILTIN_TOOLS: readonly ToolSpec[] = [
  webFetchTool,
  webExtractTool,
  webSearchTool,
  webContextTool,
  webReadTool,
  webGrepTool,
  webMapTool,
  webCrawlTool,
  webFetchAgentTool,
  webFetchStructuredTool,
];
