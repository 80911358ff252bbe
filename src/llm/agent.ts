/**
 * The fetch sub-agent behind `web_fetch_agent`: a bounded tool loop over one page that answers a
 * prompt about it, so the main agent never sees the raw page.
 * Its only tools are the ones it is given (web_fetch without `prompt`, web_read, web_grep); it
 * stops at a step limit, a token budget and a deadline, and the step that reaches a limit is
 * offered no tools, so the loop always ends with the model's answer from what it has read.
 */
import { readFile } from "node:fs/promises";
import type { ModelMessage, StepResult, ToolSet } from "ai";
import type { z } from "zod";
import { WebFetchError } from "../errors.js";
import { inSpan, SPANS } from "../trace.js";
import { modelError } from "./errors.js";
import { modelAttributes, toUsage, type Usage, usageAttributes } from "./generate.js";
import type { ChatModel } from "./model.js";

/** The system prompt ships as Markdown next to this module (copied to dist/ by the build). */
const SYSTEM_PROMPT_FILE = new URL("./prompts/web-fetch-agent.md", import.meta.url);

let systemPrompt: Promise<string> | undefined;

/** The sub-agent's system prompt. */
export function agentSystemPrompt(): Promise<string> {
  systemPrompt ??= readFile(SYSTEM_PROMPT_FILE, "utf8");
  return systemPrompt;
}

/** A tool the sub-agent may call; `run` never throws (failures come back as `isError`). */
export interface AgentTool {
  name: string;
  description: string;
  inputSchema: z.ZodObject;
  run(input: unknown, signal: AbortSignal | undefined): Promise<{ text: string; isError: boolean }>;
}

export interface AgentInput {
  model: ChatModel;
  url: string;
  prompt: string;
  tools: readonly AgentTool[];
  signal?: AbortSignal | undefined;
}

export interface AgentAnswer {
  text: string;
  /** Model calls made. */
  steps: number;
  /** Tool calls made, by name, in order. */
  toolCalls: string[];
  usage: Usage;
  /** The limit that made the model answer early, if one did. */
  limit?: "steps" | "tokens";
}

/** Seed 001's prompt builder: the URL, then the task. */
export function agentTask(url: string, prompt: string): string {
  return `URL to fetch: ${url}\n\nTask: ${prompt}`;
}

/**
 * Runs the loop. Throws WebFetchError: TIMEOUT at the deadline, AUTH_ERROR / RATE_LIMITED /
 * PROVIDER_ERROR for the provider, PROVIDER_ERROR when the model ends without an answer.
 */
export function runFetchAgent(input: AgentInput): Promise<AgentAnswer> {
  const { model } = input;
  const limits = model.settings;
  return inSpan(SPANS.agent, modelAttributes(model, input.url), async (span) => {
    const { generateText, stepCountIs, tool } = await import("ai");
    const tools: ToolSet = Object.fromEntries(
      input.tools.map((t) => [
        t.name,
        tool({
          description: t.description,
          inputSchema: t.inputSchema,
          execute: (args: unknown, { abortSignal }) => t.run(args, abortSignal),
          toModelOutput: ({ output }) => ({
            type: output.isError ? "error-text" : "text",
            value: output.text,
          }),
        }),
      ]),
    );
    const deadline = AbortSignal.timeout(limits.agentTimeout);
    let limit: AgentAnswer["limit"];
    const messages: ModelMessage[] = [
      { role: "user", content: agentTask(input.url, input.prompt) },
    ];
    try {
      const result = await generateText({
        model: model.model,
        system: await agentSystemPrompt(),
        messages,
        tools,
        stopWhen: stepCountIs(limits.agentMaxSteps),
        // The step that reaches a limit gets no tools: the model must answer from what it read.
        prepareStep: ({ stepNumber, steps }) => {
          const used = spent(steps);
          if (stepNumber >= limits.agentMaxSteps - 1 || used >= limits.agentMaxTokens) {
            limit ??= used >= limits.agentMaxTokens ? "tokens" : "steps";
            return { activeTools: [], toolChoice: "none" };
          }
          return undefined;
        },
        maxOutputTokens: limits.maxOutputTokens,
        maxRetries: 1,
        abortSignal: input.signal ? AbortSignal.any([input.signal, deadline]) : deadline,
      });
      const usage = toUsage(result.totalUsage);
      span.setAttributes({
        ...usageAttributes(usage),
        "webfetch.agent.steps": result.steps.length,
      });
      const text = result.text.trim();
      if (!text) {
        throw new WebFetchError(
          "PROVIDER_ERROR",
          `The sub-agent's model (${model.provider}) ended without an answer after ${result.steps.length} steps`,
          { provider: model.provider },
        );
      }
      return {
        text,
        steps: result.steps.length,
        toolCalls: result.steps.flatMap((s) => s.toolCalls.map((c) => c.toolName)),
        usage,
        ...(limit ? { limit } : {}),
      };
    } catch (error) {
      throw modelError(error, model.provider, deadline.aborted);
    }
  });
}

/** Tokens spent by the steps so far, input and output. */
function spent(steps: readonly StepResult<ToolSet>[]): number {
  return steps.reduce((n, s) => n + (s.usage.inputTokens ?? 0) + (s.usage.outputTokens ?? 0), 0);
}
