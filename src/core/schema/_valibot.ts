// The Valibot adapter: derive the JSON Schema a model sees from a Valibot
// schema, and turn Valibot issues into diagnostics.

import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { boundDiagnostics, type Diagnostic } from "../common/diagnostics.ts";
import type { ParseResult } from "./schema.ts";
import type { JsonSchema } from "./schema.ts";
import type { ValibotSchema } from "./valibot_schema.ts";
import { appendPointer, toPointer } from "../common/_json_pointer.ts";

type AnySchema = v.GenericSchema | v.GenericSchemaAsync;

/** The JSON Schema derived from a Valibot schema, and what it cannot show. */
export interface DerivedSchema {
  readonly jsonSchema: JsonSchema;
  /** Shapes JSON cannot carry (Date, Map, function, ...): the definition is refused. */
  readonly refusals: readonly string[];
  /** Transforms and checks that run after validation but are not in the schema. */
  readonly warnings: readonly string[];
}

interface SchemaNode {
  readonly type?: string;
  readonly pipe?: readonly { readonly kind: string; readonly type: string }[];
  readonly entries?: Record<string, SchemaNode>;
  readonly item?: SchemaNode;
  readonly items?: readonly SchemaNode[];
  readonly wrapped?: SchemaNode;
  readonly options?: readonly SchemaNode[];
  readonly key?: SchemaNode;
  readonly value?: SchemaNode;
  readonly rest?: SchemaNode;
}

/** Lists every transformation in a schema tree: JSON Schema has no word for them. */
function collectTransformations(
  node: SchemaNode,
  path: string[],
  seen: Set<SchemaNode>,
  found: string[],
): void {
  if (seen.has(node)) return;
  seen.add(node);
  const at = toPointer(path) || "/";
  for (const item of node.pipe ?? []) {
    if (item.kind === "transformation") {
      found.push(
        `The "${item.type}" transformation at ${at} runs after validation; the JSON Schema does not show it`,
      );
    } else if (item.kind === "schema" && item !== node) {
      collectTransformations(item as SchemaNode, path, seen, found);
    }
  }
  for (const [key, entry] of Object.entries(node.entries ?? {})) {
    collectTransformations(entry, [...path, key], seen, found);
  }
  for (const child of [node.item, node.rest, node.key, node.value]) {
    if (child) collectTransformations(child, [...path, "*"], seen, found);
  }
  (node.items ?? []).forEach((child, i) => collectTransformations(child, [...path, String(i)], seen, found));
  for (const child of node.options ?? []) {
    collectTransformations(child, path, seen, found);
  }
  if (node.wrapped) collectTransformations(node.wrapped, path, seen, found);
}

/**
 * Converts a Valibot schema to the Draft 2020-12 JSON Schema of its input.
 * Nothing is printed: what cannot be converted comes back as data.
 */
export function deriveJsonSchema(schema: ValibotSchema): DerivedSchema {
  const refusals: string[] = [];
  const warnings: string[] = [];
  const jsonSchema = toJsonSchema(schema as v.GenericSchema, {
    target: "draft-2020-12",
    typeMode: "input",
    errorMode: "throw",
    overrideSchema(context) {
      if (!context.errors) return undefined;
      for (const error of context.errors) refusals.push(error);
      return context.jsonSchema;
    },
    overrideAction(context) {
      if (!context.errors) return undefined;
      if (context.valibotAction.kind === "validation") {
        warnings.push(
          `The "${context.valibotAction.type}" check runs after validation; the JSON Schema does not show it`,
        );
      }
      return context.jsonSchema;
    },
  }) as JsonSchema;
  collectTransformations(schema as SchemaNode, [], new Set(), warnings);
  return { jsonSchema, refusals, warnings: [...new Set(warnings)] };
}

const TYPE_ISSUES = new Set([
  "string",
  "number",
  "boolean",
  "null",
  "array",
  "object",
  "integer",
  "bigint",
  "tuple",
  "strict_tuple",
  "loose_tuple",
  "record",
]);
const OBJECT_ISSUES = new Set([
  "object",
  "strict_object",
  "loose_object",
  "object_with_rest",
]);
const KEYWORD_OF: Record<string, string> = {
  min_length: "minLength",
  max_length: "maxLength",
  length: "length",
  min_value: "minimum",
  max_value: "maximum",
  gt_value: "exclusiveMinimum",
  lt_value: "exclusiveMaximum",
  multiple_of: "multipleOf",
  regex: "pattern",
  email: "format",
  url: "format",
  uuid: "format",
  iso_date: "format",
  iso_date_time: "format",
  iso_time: "format",
  ipv4: "format",
  ipv6: "format",
  ip: "format",
  picklist: "enum",
  enum: "enum",
  literal: "const",
  value: "const",
  union: "anyOf",
  variant: "anyOf",
  min_items: "minItems",
  max_items: "maxItems",
  min_entries: "minProperties",
  max_entries: "maxProperties",
};

function keywordOf(issue: v.BaseIssue<unknown>): string {
  if (OBJECT_ISSUES.has(issue.type) && issue.path?.length) {
    if (issue.expected === "never") return "additionalProperties";
    if (issue.received === "undefined") return "required";
  }
  if (TYPE_ISSUES.has(issue.type)) return "type";
  return KEYWORD_OF[issue.type] ?? issue.type;
}

/** Turns Valibot issues into diagnostics with JSON Pointer paths. */
export function diagnosticsFromValibot(
  issues: readonly v.BaseIssue<unknown>[],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const issue of issues) {
    const keyword = keywordOf(issue);
    let path = "";
    let name: unknown;
    for (const item of issue.path ?? []) {
      name = item.key;
      path = appendPointer(path, String(name));
    }
    const message = keyword === "required"
      ? `Missing required property "${String(name)}".`
      : keyword === "additionalProperties"
      ? `Property "${String(name)}" is not allowed.`
      : issue.message;
    diagnostics.push({ path, keyword, message });
  }
  return diagnostics;
}

/** Parses a value with a Valibot schema into a {@linkcode ParseResult}. */
export function parseWithValibot(
  schema: ValibotSchema,
  value: unknown,
): ParseResult | Promise<ParseResult> {
  if (schema.async) return v.safeParseAsync(schema as v.GenericSchemaAsync, value).then(settle);
  return settle(v.safeParse(schema as v.GenericSchema, value));
}

function settle(outcome: v.SafeParseResult<AnySchema>): ParseResult {
  if (outcome.success) return { ok: true, value: outcome.output };
  const report = boundDiagnostics(diagnosticsFromValibot(outcome.issues));
  return { ok: false, diagnostics: report.diagnostics, omitted: report.omitted };
}
