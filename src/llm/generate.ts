/**
 * One model call with webfetch's rules around it: a deadline of its own (plus the caller's
 * signal), provider failures as typed errors, and a span with the model and token counts.
 */
import type { ModelMessage } from "ai";
import { inSpan, SPANS } from "../trace.js";
import { modelError } from "./errors.js";
import type { ChatModel } from "./model.js";

/** Token counts the provider reported; 0 when it reported none. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface GenerateOptions {
  model: ChatModel;
  system: string;
  messages: ModelMessage[];
  /** The page the call is about, for the span. */
  url?: string;
  signal?: AbortSignal | undefined;
}

/** The model's text answer and its usage. Throws WebFetchError. */
export async function generateAnswer(
  options: GenerateOptions,
): Promise<{ text: string; usage: Usage }> {
  const { model, system, messages } = options;
  return inSpan(SPANS.model, modelAttributes(model, options.url), async (span) => {
    const { generateText } = await import("ai");
    const deadline = AbortSignal.timeout(model.settings.timeout);
    try {
      const result = await generateText({
        model: model.model,
        system,
        messages,
        maxOutputTokens: model.settings.maxOutputTokens,
        // One retry of a transient failure; a rate limit is reported rather than waited out.
        maxRetries: 1,
        abortSignal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
      });
      const usage = toUsage(result.usage);
      span.setAttributes(usageAttributes(usage));
      return { text: result.text.trim(), usage };
    } catch (error) {
      throw modelError(error, model.provider, deadline.aborted);
    }
  });
}

/** The span attributes of a model call (OpenTelemetry's gen_ai conventions). */
export function modelAttributes(model: ChatModel, url?: string) {
  return {
    "gen_ai.system": model.provider,
    "gen_ai.request.model": model.name,
    ...(url ? { "url.full": url } : {}),
  };
}

export function usageAttributes(usage: Usage) {
  return {
    "gen_ai.usage.input_tokens": usage.inputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
  };
}

/** The SDK's usage (fields may be undefined) as plain counts. */
export function toUsage(usage: {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}): Usage {
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 };
}
