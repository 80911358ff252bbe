/**
 * OpenTelemetry spans through `@opentelemetry/api`: with a tracer provider installed by the host
 * (here a minimal recording one, standing in for an SDK), fetch, convert and model calls each leave
 * a span with the URL, the model and the token counts.
 */
import {
  type Attributes,
  type AttributeValue,
  context,
  ROOT_CONTEXT,
  type Span,
  type SpanStatus,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPANS } from "../../src/trace.js";
import { modelSuite, modelWeb, openaiReply } from "../helpers/model-server.js";

interface Recorded {
  name: string;
  attributes: Attributes;
  status?: SpanStatus;
  ended: boolean;
}

const spans: Recorded[] = [];

function recordingSpan(name: string, attributes: Attributes = {}): Span {
  const record: Recorded = { name, attributes: { ...attributes }, ended: false };
  spans.push(record);
  const span: Span = {
    spanContext: () => ({ traceId: "1".repeat(32), spanId: "1".repeat(16), traceFlags: 1 }),
    setAttribute: (key: string, value: AttributeValue) => {
      record.attributes[key] = value;
      return span;
    },
    setAttributes: (values: Attributes) => {
      Object.assign(record.attributes, values);
      return span;
    },
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: (status: SpanStatus) => {
      record.status = status;
      return span;
    },
    updateName: () => span,
    end: () => {
      record.ended = true;
    },
    isRecording: () => true,
    recordException: () => {},
  };
  return span;
}

const tracer: Tracer = {
  startSpan: (name, options) => recordingSpan(name, options?.attributes),
  startActiveSpan: ((name: string, ...rest: unknown[]) => {
    const fn = rest.at(-1) as (span: Span) => unknown;
    const options = (rest.length > 1 ? rest[0] : {}) as { attributes?: Attributes };
    const span = recordingSpan(name, options.attributes);
    return context.with(trace.setSpan(ROOT_CONTEXT, span), () => fn(span));
  }) as Tracer["startActiveSpan"],
};

const servers = modelSuite((_req, res) => openaiReply(res, "traced answer", [42, 7]));

beforeAll(async () => {
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
});
afterAll(async () => {
  trace.disable();
});

describe("spans", () => {
  it("cover fetch, convert and the model call, with url, model and token attributes", async () => {
    const { web } = modelWeb(servers.pages, {
      provider: "openai",
      baseUrl: `${servers.model.url}/v1`,
    });
    const url = servers.pages.url("/article");
    await web.fetch(url, { prompt: "What is it?" });
    await web.close();
    const byName = (name: string) => spans.find((s) => s.name === name);
    expect(byName(SPANS.fetch)?.attributes).toMatchObject({
      "url.full": url,
      "webfetch.final_url": url,
      "http.response.status_code": 200,
    });
    expect(byName(SPANS.convert)?.attributes).toMatchObject({ "url.full": url });
    expect(byName(SPANS.model)?.attributes).toEqual({
      "gen_ai.system": "openai",
      "gen_ai.request.model": "test-model",
      "url.full": url,
      "gen_ai.usage.input_tokens": 42,
      "gen_ai.usage.output_tokens": 7,
    });
    expect(spans.filter((s) => s.name.startsWith("webfetch.")).every((s) => s.ended)).toBe(true);
  });

  it("record a failure's code", async () => {
    const { web } = modelWeb(servers.pages, {
      provider: "openai",
      baseUrl: `${servers.model.url}/v1`,
    });
    await expect(web.fetch(servers.pages.url("/status?code=404"))).rejects.toThrow();
    await web.close();
    const failed = spans.findLast((s) => s.name === SPANS.fetch);
    expect(failed?.attributes["error.type"]).toBe("HTTP_ERROR");
    expect(failed?.status?.code).toBe(2);
  });
});
