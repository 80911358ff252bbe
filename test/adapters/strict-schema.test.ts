/** OpenAI strict-mode schemas and null arguments, beyond the shapes today's tools use. */
import { describe, expect, it } from "vitest";
import { strictJsonSchema, withoutNulls } from "../../src/adapters/strict-schema.js";

describe("strictJsonSchema", () => {
  it("applies the rules to nested objects and array items, and drops refused keywords", () => {
    expect(
      strictJsonSchema({
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          filter: {
            type: "object",
            properties: { site: { type: "string", minLength: 1, format: "hostname" } },
          },
          tags: { type: "array", items: { type: "object", properties: { k: { type: "string" } } } },
        },
        required: ["tags"],
      }),
    ).toEqual({
      type: "object",
      properties: {
        filter: {
          type: ["object", "null"],
          properties: { site: { type: ["string", "null"] } },
          required: ["site"],
          additionalProperties: false,
        },
        tags: {
          type: "array",
          items: {
            type: "object",
            properties: { k: { type: ["string", "null"] } },
            required: ["k"],
            additionalProperties: false,
          },
        },
      },
      required: ["filter", "tags"],
      additionalProperties: false,
    });
  });

  it("makes a schema without a type nullable through anyOf, its description kept outside", () => {
    const schema = strictJsonSchema({
      type: "object",
      properties: {
        when: {
          description: "a date or a count",
          anyOf: [{ type: "string" }, { type: "integer" }],
        },
      },
    });
    expect((schema.properties as Record<string, unknown>).when).toEqual({
      description: "a date or a count",
      anyOf: [{ anyOf: [{ type: "string" }, { type: "integer" }] }, { type: "null" }],
    });
  });
});

describe("withoutNulls", () => {
  it("removes null object properties at every depth, and keeps nulls inside arrays", () => {
    expect(withoutNulls({ a: null, b: 1, c: { d: null, e: [null, { f: null }] } })).toEqual({
      b: 1,
      c: { e: [null, {}] },
    });
  });
});
