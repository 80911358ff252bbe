/**
 * OpenTelemetry spans, each with the URL it is about, through `@opentelemetry/api` only: without
 * an SDK installed by the host every call here is a no-op, so tracing costs nothing by default.
 */
import { type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { VERSION } from "./version.js";

/** Span names, one per pipeline stage that takes time. */
export const SPANS = {
  fetch: "webfetch.fetch",
  convert: "webfetch.convert",
  model: "webfetch.model",
  agent: "webfetch.agent",
} as const;

/**
 * Runs `work` inside an active span: failures are recorded with their code, and the span always
 * ends. `work` may add attributes it learns late (final URL, token usage).
 *
 * @example
 * await inSpan(SPANS.fetch, { "url.full": url }, (span) => fetchIt(span));
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return trace
    .getTracer("webfetch", VERSION)
    .startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await work(span);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        if (typeof code === "string") span.setAttribute("error.type", code);
        throw error;
      } finally {
        span.end();
      }
    });
}
