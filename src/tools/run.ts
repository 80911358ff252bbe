/**
 * The tool boundary: input validated with the tool's schema, the handler run, every failure
 * turned into an error result (a tool never throws into its host), and one log line per call
 * with the tool, its outcome and `execution_time_ms`.
 */
import type { z } from "zod";
import { isWebFetchError, PROVIDER_CODES, WebFetchError } from "../errors.js";
import { tokenCounter } from "../shape/tokens.js";
import { fitOutput } from "./budget.js";
import { errorText } from "./format.js";
import type { ErrorInfo, Texts } from "./texts.js";
import type { ToolCallOptions, ToolEnv, ToolLogger, ToolResult, ToolSpec } from "./types.js";

export interface RunToolOptions {
  spec: ToolSpec;
  inputSchema: z.ZodObject;
  env: Omit<ToolEnv, "signal" | "progress">;
  logger: ToolLogger;
}

/**
 * Runs one call of a tool. Never throws. With `maxTokens` the result is cut to that budget (see
 * budget.ts); with `onProgress` a long tool reports how far it has come.
 */
export async function runTool(
  tool: RunToolOptions,
  args: unknown,
  call: ToolCallOptions = {},
): Promise<ToolResult> {
  const { signal, onProgress, maxTokens } = call;
  const started = performance.now();
  const name = tool.env.settings.name;
  tool.logger.debug({ tool: name }, "tool start");
  let result: ToolResult;
  let code: string | undefined;
  try {
    const parsed = tool.inputSchema.safeParse(args ?? {});
    if (!parsed.success) {
      throw new WebFetchError("INVALID_INPUT", describeIssues(parsed.error), { retryable: false });
    }
    const env: ToolEnv = {
      ...tool.env,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { progress: onProgress } : {}),
    };
    let output = await tool.spec.handle(parsed.data, env);
    if (maxTokens !== undefined) {
      const budget = { maxTokens, count: await tokenCounter() };
      output = await fitOutput(output, budget, env, tool.spec.fit);
    }
    result = { ...output, isError: false };
  } catch (error) {
    const info = errorInfo(error);
    code = info.code;
    result = errorResult(info, tool.env.texts, tool.spec.providerErrors);
  }
  // Every call is timed, in its log line and in its result object.
  const ms = Math.round((performance.now() - started) * 100) / 100;
  result.structured = { ...result.structured, execution_time_ms: ms };
  tool.logger.info(
    {
      tool: name,
      outcome: result.isError ? "failed" : "success",
      ...(code ? { code } : {}),
      execution_time_ms: ms,
    },
    "tool",
  );
  return result;
}

/**
 * An error result: the message in the tool's language and the code; the object for programs.
 * A tool that calls a search provider says a failure is the provider's: "Search provider error:
 * {message}", then the code.
 */
export function errorResult(info: ErrorInfo, texts: Texts, providerErrors = false): ToolResult {
  const provider = providerErrors && PROVIDER_CODES.has(info.code as never);
  return {
    text: errorText(info, texts, provider),
    structured: { error: { code: info.code, message: info.message } },
    isError: true,
  };
}

/** Runtime failures keep their code; a RangeError is a bad argument the schema let through. */
function errorInfo(error: unknown): ErrorInfo {
  if (isWebFetchError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.location ? { location: error.location } : {}),
      ...(error.provider ? { provider: error.provider } : {}),
    };
  }
  if (error instanceof RangeError) return { code: "INVALID_INPUT", message: error.message };
  return {
    code: "INTERNAL_ERROR",
    message: error instanceof Error ? error.message : String(error),
  };
}

/** Zod issues as `param: problem`, the form a model (or a program) can act on. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ` : "") + issue.message)
    .join("; ");
}
