/**
 * OpenTelemetry spans, each with the URL it is about, through `@opentelemetry/api` only: without
 * an SDK installed by the host every call here is a no-op, so tracing costs nothing by default;
 * the API itself is loaded only once a host has registered something with it.
 */
import type { Attributes, Span } from "@opentelemetry/api";
import { VERSION } from "./version.js";

/**
 * Where `@opentelemetry/api` 1.x keeps what a host registered (a tracer provider, a context
 * manager). Absent, every span would be the API's no-op one.
 */
const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/** The span `work` gets when nothing is registered: it records nothing, as the API's would. */
const NOOP_SPAN: Span = {
  spanContext: () => ({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 }),
  setAttribute: () => NOOP_SPAN,
  setAttributes: () => NOOP_SPAN,
  addEvent: () => NOOP_SPAN,
  addLink: () => NOOP_SPAN,
  addLinks: () => NOOP_SPAN,
  setStatus: () => NOOP_SPAN,
  updateName: () => NOOP_SPAN,
  end: () => {},
  isRecording: () => false,
  recordException: () => {},
};

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
  // Without a registered host, `work`'s own promise is the answer: no wrapper, no extra turn.
  if (!(OTEL_GLOBAL in globalThis)) return work(NOOP_SPAN);
  return inRecordedSpan(name, attributes, work);
}

/** inSpan once a host has registered something with the OpenTelemetry API. */
async function inRecordedSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { SpanStatusCode, trace } = await import("@opentelemetry/api");
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
