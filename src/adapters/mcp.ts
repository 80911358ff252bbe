/**
 * The MCP server (`webfetch/mcp`): every enabled tool registered with its input and output
 * schemas and annotations; a result's object goes in `structuredContent`, a failure is an
 * `isError` result whose text names the code. Every result is cut to a token budget
 * (`maxResultTokens`, text and structuredContent counted together), since some clients refuse
 * longer ones; a page cut to it is linked as a `webfetch://page/` resource, and those resources
 * read the rest within the same budget. A call that carries a progress token gets progress
 * notifications from the tools that report progress (web_extract: each URL finished). The
 * factory binds no transport: `webfetch mcp` connects the stdio transport exported here (it
 * answers a malformed or over-long line with an error instead of going quiet), the HTTP
 * service connects streamable HTTP to servers from the same factory.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LIMITS } from "../limits.js";
import { TOOL_DEFAULTS, type ToolsOptions } from "../tools/options.js";
import { createTools } from "../tools/registry.js";
import { type Texts, textsFor } from "../tools/texts.js";
import type { ToolLogger, ToolProgress, ToolResult } from "../tools/types.js";
import { VERSION } from "../version.js";
import type { WebFetch } from "../webfetch/index.js";
import { registerPageResources, restLink } from "./mcp-resources.js";

export { PAGE_URI_PREFIX, pageUri } from "./mcp-resources.js";
export { createStdioTransport, type StdioTransportOptions } from "./mcp-stdio.js";

export interface McpServerOptions extends ToolsOptions {
  /** The instance the tools fetch with (shared by every server made from it). */
  web: WebFetch;
  /** Where each call's timing goes. @default the instance's logger (`web.logger`) */
  logger?: ToolLogger;
}

/**
 * An MCP server offering webfetch's tools, and the pages they fetched as resources; connect it
 * to any transport. Throws RangeError for a `maxResultTokens` under 1,000.
 *
 * @example
 * const server = createMcpServer({ web: createWebFetch(), maxResultTokens: 20_000 });
 * await server.connect(createStdioTransport());
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { web } = options;
  const maxTokens = options.maxResultTokens ?? TOOL_DEFAULTS.maxResultTokens;
  if (!Number.isInteger(maxTokens) || maxTokens < LIMITS.minResultTokens) {
    throw new RangeError(
      `maxResultTokens must be an integer of at least ${LIMITS.minResultTokens}, got ${maxTokens}`,
    );
  }
  const texts = textsFor(web.options.locale);
  const server = new McpServer({ name: "webfetch", title: "webfetch", version: VERSION });
  for (const tool of createTools(options)) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      async (args, extra) => {
        const token = extra._meta?.progressToken;
        const sent: Promise<void>[] = [];
        // Progress goes to the client only when its request asked for it with a token.
        const onProgress =
          token === undefined
            ? undefined
            : (progress: ToolProgress) => {
                const notification = extra.sendNotification({
                  method: "notifications/progress",
                  params: { progressToken: token, ...progress },
                });
                sent.push(
                  notification.catch(() => {
                    // A client gone before the result cannot take its progress either.
                  }),
                );
              };
        const result = await tool.call(args, {
          signal: extra.signal,
          maxTokens,
          ...(onProgress ? { onProgress } : {}),
        });
        // The result goes out after the progress it ends: a client stops listening for a
        // request's progress once its result is in, and a notification still on its way was lost.
        await Promise.all(sent);
        return toCallToolResult(result, texts);
      },
    );
  }
  registerPageResources(server, web, texts, maxTokens);
  return server;
}

/**
 * An error result carries no `structuredContent`: clients check it against the output schema,
 * which describes results, so the code travels in the text (and in `_meta` for programs). A
 * result's links to the rest of pages it cut follow its text, then its images (a page's
 * screenshot) as image blocks.
 */
function toCallToolResult(result: ToolResult, texts: Texts): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: result.text }];
  for (const rest of result.rest ?? []) content.push(restLink(rest, texts));
  for (const image of result.images ?? []) {
    content.push({ type: "image", data: image.data, mimeType: image.mimeType });
  }
  if (result.isError) {
    return { content, isError: true, _meta: { "webfetch/error": result.structured.error } };
  }
  return { content, structuredContent: result.structured };
}
