/**
 * The `schema` of a call: a JSON Schema object or a zod 4 schema, told apart by shape (a zod
 * schema carries `_zod`), bounded in size, and turned into what the model reads (JSON Schema
 * text) and what checks its reply (ajv for JSON Schema, zod itself for zod). Ajv is loaded on
 * the first schema, and zod with the first zod schema (whose caller has loaded it already), so
 * importing webfetch loads neither.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";
import type { z } from "zod";
import { WebFetchError } from "../errors.js";
import { LIMITS } from "../limits.js";

/** A JSON Schema object, as a caller writes it. */
export type JsonSchemaObject = Record<string, unknown>;

/** What `schema` accepts: JSON Schema, or a zod 4 schema. */
export type DataSchema = JsonSchemaObject | z.ZodType;

/** A checked schema: its JSON Schema text for the model and a hash for cache keys. */
export interface ResolvedSchema {
  /** The JSON Schema, serialized: what the model is shown. */
  json: string;
  /** SHA-256 of `json`, hex: the schema's part of a cache key. */
  hash: string;
  /** The zod schema, when one was given: it validates the reply itself. */
  zod?: z.ZodType;
}

/** The outcome of checking a reply: the data, or the validator's message. */
export type Checked = { ok: true; data: unknown } | { ok: false; message: string };

/** Checks a reply's parsed JSON against the schema. */
export type CheckData = (value: unknown) => Checked;

/** Validators compiled from JSON Schema text, so a schema used again is not compiled again. */
const COMPILED = new LRUCache<string, CheckData>({ max: 100 });

/** Loads zod at once, for the one step that cannot wait (a zod schema without its own converter). */
const load = createRequire(import.meta.url);

/** A leading and trailing Markdown code fence around a reply (```json … ```). */
const FENCE = /^```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

const invalid = (message: string) =>
  new WebFetchError("INVALID_INPUT", message, { retryable: false });

/** True for a zod 4 schema: every one carries its internals under `_zod`. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}

/**
 * Checks `schema` and serializes it. Not an object, a zod schema JSON Schema cannot express, or
 * one longer than LIMITS.schemaMaxLength once serialized is INVALID_INPUT naming `field`.
 *
 * @example
 * resolveSchema({ type: "object", properties: { price: { type: "number" } } }).json
 * // '{"type":"object","properties":{"price":{"type":"number"}}}'
 */
export function resolveSchema(schema: unknown, field = "schema"): ResolvedSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw invalid(`${field} must be a JSON Schema object or a zod schema`);
  }
  let json: string;
  if (isZodSchema(schema)) {
    try {
      json = JSON.stringify(zodJsonSchema(schema));
    } catch (error) {
      throw invalid(`${field}: this zod schema has no JSON Schema form (${message(error)})`);
    }
  } else if ("_def" in schema && "safeParse" in schema) {
    throw invalid(`${field}: a zod 3 schema; give a zod 4 schema or JSON Schema`);
  } else {
    try {
      json = JSON.stringify(schema);
    } catch (error) {
      throw invalid(`${field} cannot be serialized as JSON (${message(error)})`);
    }
  }
  if (json.length > LIMITS.schemaMaxLength) {
    throw invalid(
      `${field} is ${json.length} characters as JSON; at most ${LIMITS.schemaMaxLength} are accepted`,
    );
  }
  const hash = createHash("sha256").update(json).digest("hex");
  return { json, hash, ...(isZodSchema(schema) ? { zod: schema } : {}) };
}

/**
 * A zod schema's JSON Schema, showing its input side (before transforms): the model writes what
 * the schema parses. A schema made with zod's full API converts itself; one from zod/mini
 * through zod's function.
 */
function zodJsonSchema(schema: z.ZodType): unknown {
  const params = { target: "draft-7", io: "input" } as const;
  if (typeof schema.toJSONSchema === "function") return schema.toJSONSchema(params);
  return (load("zod") as typeof import("zod")).z.toJSONSchema(schema, params);
}

/**
 * The check of a reply against the schema: zod's own parse for a zod schema (its output is the
 * data), else ajv's validator, compiled once per schema. A JSON Schema ajv cannot compile is
 * INVALID_INPUT, before any page is fetched.
 */
export async function schemaCheck(schema: ResolvedSchema): Promise<CheckData> {
  const { zod } = schema;
  if (zod) {
    const { z } = await import("zod");
    return (value) => {
      const parsed = zod.safeParse(value);
      return parsed.success
        ? { ok: true, data: parsed.data }
        : { ok: false, message: z.prettifyError(parsed.error) };
    };
  }
  const known = COMPILED.get(schema.json);
  if (known) return known;
  const check = await compile(JSON.parse(schema.json) as JsonSchemaObject);
  COMPILED.set(schema.json, check);
  return check;
}

/** Ajv's validator for `schema`, in the draft its `$schema` names (draft-07 when none). */
async function compile(schema: JsonSchemaObject): Promise<CheckData> {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const [{ Ajv, Ajv2019, Ajv2020 }, { default: addFormats }] = await Promise.all([
    loadAjv(),
    import("ajv-formats"),
  ]);
  const Validator = dialect.includes("2020-12")
    ? Ajv2020
    : dialect.includes("2019-09")
      ? Ajv2019
      : Ajv;
  // One instance per schema: a schema's `$id` cannot then clash with another caller's.
  const ajv = new Validator({ allErrors: true, strict: false, logger: false });
  addFormats.default(ajv);
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw invalid(`schema is not a valid JSON Schema: ${message(error)}`);
  }
  return (value) =>
    validate(value)
      ? { ok: true, data: value }
      : { ok: false, message: ajv.errorsText(validate.errors, { dataVar: "data" }) };
}

/** Ajv's classes (a CommonJS package: its class is the module's `default`). */
async function loadAjv() {
  const [plain, y2019, y2020] = await Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
  ]);
  return {
    Ajv: plain.default.default,
    Ajv2019: y2019.default.default,
    Ajv2020: y2020.default.default,
  };
}

/**
 * A model's reply as JSON: the whole reply, or the inside of one Markdown code fence around it.
 * Anything else is a failed check, with the parser's message.
 */
export function parseReply(text: string): Checked {
  const trimmed = text.trim();
  const fenced = FENCE.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  try {
    return { ok: true, data: JSON.parse(body) };
  } catch (error) {
    return { ok: false, message: `the reply is not JSON (${message(error)})` };
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A JSON Schema given as JSON text (a file, a tool's string parameter): text that is not JSON,
 * or JSON that is not an object, is INVALID_INPUT naming `source`.
 */
export function schemaFromJson(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new WebFetchError(
      "INVALID_INPUT",
      `${source} is not valid JSON (${(error as Error).message})`,
      { retryable: false },
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new WebFetchError("INVALID_INPUT", `${source} must be a JSON Schema object`, {
      retryable: false,
    });
  }
  return value as Record<string, unknown>;
}
