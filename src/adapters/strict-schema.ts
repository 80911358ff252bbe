/**
 * JSON Schema for OpenAI's strict mode (Structured Outputs), which accepts a subset: every
 * property listed in `required`, `additionalProperties: false` on every object, and only some
 * keywords. An optional property becomes nullable, so the model says "absent" with `null`, and
 * `withoutNulls()` turns that back into absent before the tool's own check. Bounds strict mode
 * refuses (string lengths) are dropped from the schema; the tool still checks them and names the
 * parameter.
 */
import type { JsonSchema } from "../tools/json-schema.js";

/** Keywords strict mode accepts; `properties`, `items` and `anyOf` are rebuilt below. */
const KEPT = new Set([
  "type",
  "description",
  "enum",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "pattern",
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A tool's input schema in strict mode's subset.
 *
 * @example
 * strictJsonSchema({ type: "object", properties: { n: { type: "integer" } } })
 * // → { type: "object", properties: { n: { type: ["integer", "null"] } },
 * //     required: ["n"], additionalProperties: false }
 */
export function strictJsonSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) if (KEPT.has(key)) out[key] = value;
  if (isRecord(schema.items)) out.items = strictJsonSchema(schema.items);
  if (Array.isArray(schema.anyOf)) {
    out.anyOf = schema.anyOf.filter(isRecord).map((branch) => strictJsonSchema(branch));
  }
  if (schema.type === "object" || isRecord(schema.properties)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    out.properties = Object.fromEntries(
      Object.entries(properties)
        .filter((entry): entry is [string, JsonSchema] => isRecord(entry[1]))
        .map(([name, property]) => {
          const strict = strictJsonSchema(property);
          return [name, required.has(name) ? strict : nullable(strict)];
        }),
    );
    out.required = Object.keys(out.properties as object);
    out.additionalProperties = false;
  }
  return out;
}

/** The same schema, `null` allowed too. */
function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type === "string" || Array.isArray(type)) {
    const types = Array.isArray(type) ? type : [type];
    return {
      ...schema,
      type: types.includes("null") ? types : [...types, "null"],
      // An enum lists every value the model may send, so null joins it.
      ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
    };
  }
  const { description, ...rest } = schema;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: "null" }] };
}

/**
 * Arguments with every `null` object property removed: in strict mode `null` is how a model
 * leaves an optional parameter out.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
