// The Standard Schema adapter: validate through `~standard.validate`, turn
// the issues into diagnostics, and find the schema's own JSON Schema.

import { boundDiagnostics, type Diagnostic } from "../common/diagnostics.ts";
import type { ParseResult } from "./schema.ts";
import type { JsonSchema } from "./schema.ts";
import type { StandardIssue, StandardResult, StandardSchema } from "./standard_schema.ts";
import { toPointer } from "../common/_json_pointer.ts";
import { walkSubschemas } from "./_subschemas.ts";

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

/** Tells whether a value is a Standard Schema v1 (a zod or ArkType schema, ...). */
export function isStandardSchema(value: unknown): value is StandardSchema {
  const standard = isObjectLike(value) ? value["~standard"] : undefined;
  return isObjectLike(standard) && standard.version === 1 && typeof standard.validate === "function";
}

/** Which side of the schema: what it accepts, or what it produces. */
export type SchemaSide = "input" | "output";

// The conversions a schema may offer, in order: the Standard JSON Schema
// interface, then the methods zod 4 (`toJSONSchema`) and ArkType
// (`toJsonSchema`) had before it.
const TARGET = "draft-2020-12";

/**
 * Reads the JSON Schema a Standard Schema converts itself to. Returns
 * `undefined` when it offers no conversion; throws what the conversion
 * throws (a shape JSON Schema cannot carry).
 */
export function ownJsonSchema(schema: StandardSchema, side: SchemaSide): JsonSchema | undefined {
  const converter: unknown = schema["~standard"].jsonSchema;
  if (isObjectLike(converter) && typeof converter[side] === "function") {
    return (converter[side] as (options: { target: string }) => JsonSchema)({ target: TARGET });
  }
  const own = schema as unknown as Record<string, unknown>;
  if (typeof own.toJSONSchema === "function") {
    return (own.toJSONSchema as (options: object) => JsonSchema).call(schema, { target: TARGET, io: side });
  }
  if (typeof own.toJsonSchema === "function") return (own.toJsonSchema as () => JsonSchema).call(schema);
  return undefined;
}

/**
 * Where a JSON Schema shows binary data, which no JSON value is (zod converts `z.file()` to `format: "binary"`): the
 * JSON Pointer of the first such subschema, or `undefined`. For a schema already known to be bounded JSON.
 */
export function binaryAt(schema: JsonSchema): string | undefined {
  let found: string | undefined;
  walkSubschemas(schema, undefined, (node, path) => {
    if (found === undefined && node.format === "binary") found = path;
  });
  return found;
}

// Issue codes of zod 4 and ArkType, as the JSON Schema keyword they break.
const KEYWORD_OF_CODE: Readonly<Record<string, string>> = {
  invalid_type: "type",
  domain: "type",
  proto: "type",
  not_multiple_of: "multipleOf",
  pattern: "pattern",
  invalid_union: "anyOf",
  unit: "const",
  invalid_key: "propertyNames",
  invalid_element: "items",
  unrecognized_keys: "additionalProperties",
  required: "required",
};
const PATTERN_FORMATS = new Set(["regex", "starts_with", "ends_with", "includes"]);

function lengthKeyword(data: unknown, bound: "min" | "max"): string {
  if (Array.isArray(data)) return `${bound}Items`;
  if (typeof data === "string") return `${bound}Length`;
  return isObjectLike(data) ? `${bound}Properties` : bound === "min" ? "minimum" : "maximum";
}

/** The JSON Schema keyword an issue breaks, read from its library's own fields. */
function keywordOf(issue: Record<string, unknown>, data: unknown): string {
  const code = typeof issue.code === "string" ? issue.code : "";
  const exclusive = issue.inclusive === false || issue.exclusive === true;
  switch (code) {
    case "too_small":
    case "min":
    case "minLength":
      return typeof data === "number" || typeof data === "bigint"
        ? exclusive ? "exclusiveMinimum" : "minimum"
        : lengthKeyword(data, "min");
    case "too_big":
    case "max":
    case "maxLength":
      return typeof data === "number" || typeof data === "bigint"
        ? exclusive ? "exclusiveMaximum" : "maximum"
        : lengthKeyword(data, "max");
    case "exactLength": {
      const length = Array.isArray(data) || typeof data === "string" ? data.length : 0;
      return lengthKeyword(data, length < Number(issue.rule) ? "min" : "max");
    }
    case "invalid_format":
      return PATTERN_FORMATS.has(String(issue.format)) ? "pattern" : "format";
    case "invalid_value":
      return Array.isArray(issue.values) && issue.values.length === 1 ? "const" : "enum";
    case "divisor":
      return issue.rule === 1 ? "type" : "multipleOf";
    case "union": {
      // ArkType reports a failed literal union (an enum) as a union of units.
      const units = Array.isArray(issue.errors) &&
        issue.errors.every((child) => isObjectLike(child) && child.code === "unit");
      return units ? "enum" : "anyOf";
    }
    default:
      return (Object.hasOwn(KEYWORD_OF_CODE, code) ? KEYWORD_OF_CODE[code] : undefined) ?? (code || "custom");
  }
}

function keysOf(issue: StandardIssue): string[] {
  return [...(issue.path ?? [])].map((segment) => {
    const key = isObjectLike(segment) ? segment.key : segment;
    return typeof key === "symbol" ? key.description ?? "" : String(key);
  });
}

/** Reads the value at a path, and whether the last key is missing from its object. */
function locate(value: unknown, keys: readonly string[]): { data: unknown; missing: boolean } {
  let node = value;
  for (const [i, key] of keys.entries()) {
    if (!isObjectLike(node) || !Object.hasOwn(node, key)) {
      return { data: undefined, missing: i === keys.length - 1 && isObjectLike(node) && !Array.isArray(node) };
    }
    node = node[key];
  }
  return { data: node, missing: false };
}

/**
 * Turns Standard Schema issues into diagnostics of the same shape as
 * Valibot's and cfworker's: a JSON Pointer, the JSON Schema keyword, a
 * message. A missing property reads as `required` and an unknown one as
 * `additionalProperties` whatever the library calls them.
 */
export function diagnosticsFromStandard(issues: readonly StandardIssue[], value: unknown): Diagnostic[] {
  return issues.flatMap((issue): Diagnostic[] => {
    const keys = keysOf(issue);
    const fields = issue as unknown as Record<string, unknown>;
    if (fields.code === "predicate" && fields.expected === "removed") {
      // ArkType's undeclared key, with `"+": "reject"`.
      return [{
        path: toPointer(keys),
        keyword: "additionalProperties",
        message: `Property "${keys.at(-1)}" is not allowed.`,
      }];
    }
    if (fields.code === "unrecognized_keys" && Array.isArray(fields.keys)) {
      return fields.keys.map((key) => ({
        path: toPointer([...keys, String(key)]),
        keyword: "additionalProperties",
        message: `Property "${String(key)}" is not allowed.`,
      }));
    }
    const { data, missing } = locate(value, keys);
    if (missing) {
      return [{
        path: toPointer(keys),
        keyword: "required",
        message: `Missing required property "${keys.at(-1)}".`,
      }];
    }
    return [{ path: toPointer(keys), keyword: keywordOf(fields, data), message: String(issue.message) }];
  });
}

/** Parses a value with a Standard Schema into a parse result, sync or async as the schema is. */
export function parseWithStandard(schema: StandardSchema, value: unknown): ParseResult | Promise<ParseResult> {
  const settle = (result: StandardResult<unknown>): ParseResult => {
    if (!isObjectLike(result) || (result.issues !== undefined && !Array.isArray(result.issues))) {
      throw new TypeError(
        `Cannot read the ${
          String(schema["~standard"].vendor)
        } schema's result as it must be { value } or { issues: [...] }: current value is ${
          result === null ? "null" : typeof result
        }`,
      );
    }
    return result.issues === undefined
      ? { ok: true, value: result.value }
      : { ok: false, ...boundDiagnostics(diagnosticsFromStandard(result.issues, value)) };
  };
  const result: unknown = schema["~standard"].validate(value);
  if (isObjectLike(result) && typeof result.then === "function") {
    return Promise.resolve(result as unknown as PromiseLike<StandardResult<unknown>>).then(settle);
  }
  return settle(result as StandardResult<unknown>);
}
