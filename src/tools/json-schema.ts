/**
 * Zod → JSON Schema, in one place: `webfetch tools --format mcp` and the adapters print the
 * tools' schemas through here. Draft-07, as the MCP SDK serves them, so a printed schema and a
 * listed one are the same.
 */
import { z } from "zod";
import type { Tool, ToolAnnotations } from "./types.js";

export type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema: `input` for what a caller sends, `output` for what comes back. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, target: "draft-7" }) as JsonSchema;
}

/**
 * A tool's input schema as the model APIs and agent frameworks take it: the same JSON Schema
 * without `$schema`, as each API names its own dialect (OpenAI's strict mode refuses keywords
 * it does not know).
 */
export function inputJsonSchema(tool: Pick<Tool, "inputSchema">): JsonSchema {
  const { $schema: _dialect, ...schema } = toJsonSchema(tool.inputSchema, "input");
  return schema;
}

/** A tool as MCP lists it (`tools/list`). */
export interface McpToolSchema {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

export function mcpToolSchema(tool: Tool): McpToolSchema {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonSchema(tool.inputSchema, "input"),
    outputSchema: toJsonSchema(tool.outputSchema, "output"),
    annotations: tool.annotations,
  };
}
