/**
 * The Gemini projection: a descriptor as a Gemini API function
 * declaration, whose parameters are an OpenAPI 3.0 style schema.
 *
 * @module
 */

import { type Projection, ProjectionError, type ProjectionWarning } from "../projection.ts";
import type { JsonSchema } from "../../core/schema/schema.ts";
import type { ToolDescriptor } from "../../core/contract/spec.ts";
import {
  checkDescriptor,
  Findings,
  type KeywordTable,
  projectKeywords,
  resolveLocalRef,
  type SchemaNode,
  typesOf,
} from "../_projection.ts";
import { appendPointer } from "../../core/common/_json_pointer.ts";
import { isRecord } from "../../core/common/_is_record.ts";

/** The value types of a Gemini schema. */
export type GeminiType = "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT" | "NULL";

/** A Gemini API schema: the OpenAPI 3.0 subset function declarations take. */
export interface GeminiSchema {
  /** The value type. */
  type?: GeminiType;
  /** `enum` or `date-time` for strings, `float` or `double` for numbers, `int32` or `int64` for integers. */
  format?: string;
  /** A short title. */
  title?: string;
  /** What the value means. */
  description?: string;
  /** Whether `null` is accepted too. */
  nullable?: boolean;
  /** The allowed strings (with `format: "enum"`). */
  enum?: string[];
  /** The most items, as an int64 string. */
  maxItems?: string;
  /** The fewest items, as an int64 string. */
  minItems?: string;
  /** The properties of an object. */
  properties?: Record<string, GeminiSchema>;
  /** The required property names. */
  required?: string[];
  /** The fewest properties, as an int64 string. */
  minProperties?: string;
  /** The most properties, as an int64 string. */
  maxProperties?: string;
  /** The shortest string, as an int64 string. */
  minLength?: string;
  /** The longest string, as an int64 string. */
  maxLength?: string;
  /** A regular expression a string must match. */
  pattern?: string;
  /** An example value. */
  example?: unknown;
  /** Schemas of which the value matches at least one. */
  anyOf?: GeminiSchema[];
  /** The default value. */
  default?: unknown;
  /** The schema of every item of an array. */
  items?: GeminiSchema;
  /** The least number. */
  minimum?: number;
  /** The greatest number. */
  maximum?: number;
}

/** A Gemini API function declaration. */
export interface GeminiFunctionDeclaration {
  /** The function's name. */
  name: string;
  /** What the function does. */
  description: string;
  /** The parameters; absent for a function that takes none. */
  parameters?: GeminiSchema;
}

// The rules, from the Schema and FunctionDeclaration references:
// https://ai.google.dev/api/caching#Schema and
// https://ai.google.dev/api/caching#FunctionDeclaration (an OpenAPI 3.0
// subset: no references, no const, one type per schema with `nullable`,
// string enums only, int64 counts written as strings). What the table drops
// widens the schema; dispatch still checks it against the tool's own.
const WIDENS = "Gemini function declarations do not support it; dispatch still checks it";
const ANNOTATION = "Gemini has no such field, and it changes no validation";
const GEMINI_TABLE: KeywordTable = {
  rules: {
    type: "special",
    format: "special",
    enum: "special",
    const: "special",
    examples: "special",
    oneOf: "special",
    anyOf: "special",
    $ref: "special",
    $defs: "special",
    definitions: "special",
    items: "special",
    description: "keep",
    title: "keep",
    default: "keep",
    pattern: "keep",
    minimum: "keep",
    maximum: "keep",
    required: "keep",
    minLength: "special",
    maxLength: "special",
    minItems: "special",
    maxItems: "special",
    minProperties: "special",
    maxProperties: "special",
    properties: "schema_map",
    $schema: { drop: ANNOTATION },
    $id: { drop: ANNOTATION },
    $comment: { drop: ANNOTATION },
    deprecated: { drop: ANNOTATION },
    readOnly: { drop: ANNOTATION },
    writeOnly: { drop: ANNOTATION },
  },
  otherwise: { drop: WIDENS },
};
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ["enum", "date-time"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};
const JSON_TYPES: Readonly<Record<string, GeminiType>> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
  null: "NULL",
};
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
// Inlining references can multiply a schema; past this many nodes it is refused.
const MAX_NODES = 10_000;

interface Walk {
  readonly root: JsonSchema;
  readonly findings: Findings;
  readonly stack: readonly string[];
  nodes: { count: number };
}

function constOf(value: unknown, path: string, walk: Walk): GeminiSchema {
  if (typeof value === "string") return { type: "STRING", format: "enum", enum: [value] };
  if (typeof value === "number") {
    return { type: Number.isInteger(value) ? "INTEGER" : "NUMBER", minimum: value, maximum: value };
  }
  if (value === null) return { type: "NULL" };
  walk.findings.warn(
    appendPointer(path, "const"),
    "const",
    `Dropped "const" as Gemini has no constant of this type; dispatch still checks it: current value is ${
      JSON.stringify(value)
    }`,
  );
  return typeof value === "boolean" ? { type: "BOOLEAN" } : {};
}

/** Maps `type` (a name or a list) to one Gemini type, `nullable`, or a union. */
function typeOf(node: SchemaNode, out: GeminiSchema): void {
  const types = typesOf(node);
  const nonNull = types.filter((type) => type !== "null");
  if (types.includes("null") && nonNull.length > 0) out.nullable = true;
  if (nonNull.length === 1) out.type = JSON_TYPES[nonNull[0]];
  else if (nonNull.length > 1) out.anyOf = nonNull.map((type) => ({ type: JSON_TYPES[type] }));
  else if (types.length === 1) out.type = "NULL";
}

function enumOf(node: SchemaNode, path: string, out: GeminiSchema, walk: Walk): void {
  if (!Array.isArray(node.enum)) return;
  const values = node.enum.filter((value) => value !== null);
  if (values.length < node.enum.length) out.nullable = true;
  if (values.every((value) => typeof value === "string")) {
    out.type ??= "STRING";
    out.format = "enum";
    out.enum = values as string[];
    return;
  }
  walk.findings.warn(
    appendPointer(path, "enum"),
    "enum",
    'Dropped "enum" as Gemini enums hold only strings; dispatch still checks it',
  );
}

function formatOf(node: SchemaNode, path: string, out: GeminiSchema, walk: Walk): void {
  if (node.format === undefined || out.format !== undefined) return;
  if (typeof node.format === "string" && out.type && FORMATS[out.type]?.includes(node.format)) {
    out.format = node.format;
    return;
  }
  walk.findings.warn(
    appendPointer(path, "format"),
    "format",
    `Dropped "format" as Gemini supports only enum and date-time for strings, float and double for numbers, int32 and int64 for integers; dispatch still checks it: current value is ${
      JSON.stringify(node.format)
    }`,
  );
}

/** Unions: `oneOf` becomes `anyOf`, and a `null` branch becomes `nullable`. */
function unionOf(node: SchemaNode, path: string, out: GeminiSchema, walk: Walk): void {
  const branches: GeminiSchema[] = [];
  for (const keyword of ["anyOf", "oneOf"]) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    if (keyword === "oneOf") {
      walk.findings.warn(
        appendPointer(path, "oneOf"),
        "oneOf",
        "Sent oneOf as anyOf, as Gemini has no oneOf; dispatch still checks that exactly one branch matches",
      );
    }
    list.forEach((child, i) =>
      branches.push(geminiNode(child, appendPointer(appendPointer(path, keyword), `${i}`), walk))
    );
  }
  if (branches.length === 0) return;
  const real = branches.filter((branch) => !(branch.type === "NULL" && Object.keys(branch).length === 1));
  if (real.length < branches.length) out.nullable = true;
  // One branch left is merged into the node, unless that would overwrite what the node says itself (its own
  // properties, required or description): then it stays a union, which Gemini reads beside them.
  const merges = real.length === 1 && out.type === undefined && out.anyOf === undefined &&
    Object.keys(real[0]).every((keyword) => !Object.hasOwn(out, keyword));
  if (merges) Object.assign(out, real[0]);
  else out.anyOf = [...(out.anyOf ?? []), ...real];
}

function referenced(node: SchemaNode, path: string, walk: Walk): GeminiSchema {
  const ref = node.$ref as string;
  const target = resolveLocalRef(walk.root, ref);
  if (target === undefined) {
    throw new ProjectionError(
      `Cannot project for Gemini as the reference at ${path} does not resolve inside the schema: current value is ${
        JSON.stringify(ref)
      }`,
      [{ path, keyword: "$ref", message: "The reference does not resolve inside the schema." }],
    );
  }
  if (walk.stack.includes(ref)) {
    const stop: GeminiSchema = {};
    if (isRecord(target)) typeOf(target, stop);
    walk.findings.warn(
      path,
      "$ref",
      `Stopped the recursive reference ${
        JSON.stringify(ref)
      } here, as Gemini schemas cannot refer back: below this point any ${
        stop.type ?? "value"
      } is accepted by the declaration; dispatch still checks the full schema`,
    );
    return stop;
  }
  const inlined = geminiNode(target, ref.slice(1) === "" ? "/inputSchema" : `/inputSchema${ref.slice(1)}`, {
    ...walk,
    stack: [...walk.stack, ref],
  });
  const siblings = Object.keys(node).filter((keyword) => keyword !== "$ref");
  if (siblings.length === 0) return inlined;
  return { ...inlined, ...geminiNode(Object.fromEntries(siblings.map((k) => [k, node[k]])), path, walk) };
}

function geminiNode(schema: unknown, path: string, walk: Walk): GeminiSchema {
  if (++walk.nodes.count > MAX_NODES) {
    throw new ProjectionError(
      `Cannot project for Gemini as inlining its references grows the schema past ${MAX_NODES} nodes: current value is over ${MAX_NODES} at ${path}`,
      [{ path, keyword: "$ref", message: `Inlined references grow the schema past ${MAX_NODES} nodes.` }],
    );
  }
  if (!isRecord(schema)) {
    walk.findings.warn(
      path,
      "type",
      `Sent the boolean schema ${
        JSON.stringify(schema)
      } as an unconstrained one, as Gemini has none; dispatch still checks it`,
    );
    return {};
  }
  if (typeof schema.$ref === "string") return referenced(schema, path, walk);
  const project = (child: unknown, at: string) => geminiNode(child, at, walk);
  const out = projectKeywords(schema, path, GEMINI_TABLE, walk.findings, project) as GeminiSchema;
  typeOf(schema, out);
  if ("const" in schema) Object.assign(out, constOf(schema.const, path, walk));
  enumOf(schema, path, out, walk);
  formatOf(schema, path, out, walk);
  unionOf(schema, path, out, walk);
  for (const keyword of COUNTS) {
    if (typeof schema[keyword] === "number") (out as Record<string, unknown>)[keyword] = String(schema[keyword]);
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    out.example = structuredClone(schema.examples[0]);
    if (schema.examples.length > 1) {
      walk.findings.warn(
        appendPointer(path, "examples"),
        "examples",
        "Sent only the first of the examples, as Gemini takes one example",
      );
    }
  }
  if (Array.isArray(schema.items) || schema.items === false) {
    walk.findings.warn(appendPointer(path, "items"), "items", `Dropped "items" as Gemini has no tuples; ${WIDENS}`);
  } else if (schema.items !== undefined) {
    out.items = project(schema.items, appendPointer(path, "items"));
  }
  // The type leads, as in Gemini's own examples.
  return out.type === undefined ? out : { type: out.type, ...out };
}

function dedupe(warnings: readonly ProjectionWarning[]): ProjectionWarning[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = `${warning.path}\u0000${warning.keyword}\u0000${warning.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Projects a tool for the Gemini API as a function declaration. Local
 * references are inlined (a recursive one stops with a warning), `const`
 * becomes a one-value enum (strings) or equal bounds (numbers), a list of
 * types becomes `nullable` or an `anyOf`, and every keyword Gemini does not
 * support is dropped with a warning naming it. A tool without parameters
 * gets none.
 *
 * @param descriptor The tool's descriptor.
 * @returns The function declaration and the warnings.
 * @throws {ProjectionError} When Gemini cannot take the tool's name or a
 * parameter name, or inlining references makes the schema too large.
 * @throws {TypeError} When `descriptor` is not a descriptor.
 *
 * @example References are inlined and const mapped
 * ```ts
 * import { describeTool } from "@salvor/tools/dyn";
 * import { toGeminiFunction } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const descriptor = describeTool({
 *   name: "move",
 *   description: "Moves a piece.",
 *   inputSchema: {
 *     type: "object",
 *     properties: { to: { $ref: "#/$defs/square" }, kind: { const: "pawn" } },
 *     required: ["to"],
 *     $defs: { square: { type: "string", pattern: "^[a-h][1-8]$" } },
 *   },
 *   effects: [],
 * });
 * const { tool } = toGeminiFunction(descriptor);
 * assert.deepEqual(tool.parameters, {
 *   type: "OBJECT",
 *   properties: {
 *     to: { type: "STRING", pattern: "^[a-h][1-8]$" },
 *     kind: { type: "STRING", format: "enum", enum: ["pawn"] },
 *   },
 *   required: ["to"],
 * });
 * ```
 */
export function toGeminiFunction(descriptor: ToolDescriptor): Projection<GeminiFunctionDeclaration> {
  checkDescriptor(descriptor, "Gemini");
  if (!FUNCTION_NAME.test(descriptor.name)) {
    throw new ProjectionError(
      `Cannot project "${descriptor.name}" for Gemini as a function name must start with a letter or underscore: current value is ${
        JSON.stringify(descriptor.name)
      }`,
      [{ path: "/name", keyword: "name", message: "A Gemini function name must start with a letter or underscore." }],
    );
  }
  const walk: Walk = {
    root: descriptor.inputSchema,
    findings: new Findings(),
    stack: ["#"],
    nodes: { count: 0 },
  };
  const parameters = geminiNode(descriptor.inputSchema, "/inputSchema", walk);
  const names = Object.keys(parameters.properties ?? {});
  const badName = names.find((name) => !PARAMETER_NAME.test(name));
  if (badName !== undefined) {
    throw new ProjectionError(
      `Cannot project "${descriptor.name}" for Gemini as a parameter name must be letters, digits and underscores, not starting with a digit: current value is ${
        JSON.stringify(badName)
      }`,
      [{
        path: appendPointer("/inputSchema/properties", badName),
        keyword: "properties",
        message: "A Gemini parameter name must match ^[A-Za-z_][A-Za-z0-9_]{0,63}$.",
      }],
    );
  }
  const tool: GeminiFunctionDeclaration = {
    name: descriptor.name,
    description: descriptor.description,
    ...(names.length > 0 ? { parameters } : {}),
  };
  return { tool, warnings: dedupe(walk.findings.warnings) };
}
