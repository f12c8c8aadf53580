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
  /** Of an output: a transformation that changes the type after its pipe's last schema, whose result no JSON Schema shows. */
  readonly retyped: readonly string[];
  /** Transforms and checks that run after validation but are not in the schema. */
  readonly warnings: readonly string[];
  /** Whether a tuple in it may leave off its last items, which Valibot's output then holds as `undefined`. */
  readonly shortTuples: boolean;
}

interface PipeItem {
  readonly kind: string;
  readonly type: string;
  readonly pipe?: readonly PipeItem[];
}

interface SchemaNode extends PipeItem {
  readonly entries?: Record<string, SchemaNode>;
  readonly item?: SchemaNode;
  readonly items?: readonly SchemaNode[];
  readonly wrapped?: SchemaNode;
  readonly options?: readonly SchemaNode[];
  readonly key?: SchemaNode;
  readonly value?: SchemaNode;
  readonly rest?: SchemaNode;
  readonly getter?: (input: unknown) => SchemaNode;
  /** Set by `fallback()`: what replaces a value the schema refuses. */
  readonly fallback?: unknown;
}

// The transformations after which a value has another type, as the converter lists them: the JSON Schema of an input
// stops before the first, and that of an output cannot follow one that comes after its pipe's last schema.
const RETYPING = new Set([
  "find_item",
  "parse_json",
  "raw_transform",
  "reduce_items",
  "stringify_json",
  "to_bigint",
  "to_boolean",
  "to_date",
  "to_number",
  "to_string",
  "transform",
]);

// The schemas that take `undefined`, which a tuple reads for an item past the array's end: such items may be left off.
const TAKES_UNDEFINED = new Set(["any", "nullish", "optional", "undefinedable", "unknown"]);

/** How many items a tuple's array must hold: up to its last one that does not take `undefined`. */
function requiredItems(items: readonly SchemaNode[]): number {
  return items.findLastIndex((item) => !TAKES_UNDEFINED.has(item.type)) + 1;
}

/** A pipe with the pipes it nests laid out in one list, as the converter reads it. */
function flattened(pipe: readonly PipeItem[]): PipeItem[] {
  return pipe.flatMap((item) => item.pipe ? flattened(item.pipe) : [item]);
}

/** What a walk of a schema tree finds that the derived JSON Schema does not show. */
interface Unshown {
  readonly side: "input" | "output";
  readonly seen: Set<unknown>;
  readonly retyped: string[];
  readonly warnings: string[];
}

/** Walks a schema tree for what JSON Schema cannot show: transformations, and what the side's schema leaves out. */
function collectUnshown(node: SchemaNode, path: string[], found: Unshown): void {
  if (found.seen.has(node)) return;
  found.seen.add(node);
  const at = toPointer(path) || "/";
  // As Valibot reads it: a fallback of `undefined` is none.
  if (node.fallback !== undefined) {
    found.warnings.push(
      `The fallback at ${at} takes the place of any value its schema refuses; the JSON Schema does not show it`,
    );
  }
  const pipe = flattened(node.pipe ?? []);
  // Where the side's JSON Schema stops (an input's) or starts (an output's) reading the pipe.
  const inputStop = pipe.findIndex((item, i) => i > 0 && (item.kind === "schema" || RETYPING.has(item.type)));
  const outputStart = pipe.findLastIndex((item) => item.kind === "schema");
  pipe.forEach((item, i) => {
    if (item.kind === "transformation") {
      if (found.side === "output" && i > outputStart && RETYPING.has(item.type)) {
        found.retyped.push(
          `the "${item.type}" transformation at ${at} changes the type after its pipe's last schema: end the pipe with a schema of what it returns`,
        );
      }
      found.warnings.push(
        `The "${item.type}" transformation at ${at} runs after validation; the JSON Schema does not show it`,
      );
    } else if (found.side === "input" && inputStop !== -1 && i > inputStop && item.kind === "validation") {
      found.warnings.push(
        `The "${item.type}" check at ${at} follows a transformation or a second schema in its pipe; the JSON Schema does not show it`,
      );
    }
    if (item.kind === "schema" && item !== node) collectUnshown(item as SchemaNode, path, found);
  });
  for (const [key, entry] of Object.entries(node.entries ?? {})) collectUnshown(entry, [...path, key], found);
  for (const child of [node.item, node.rest, node.key, node.value]) {
    if (child) collectUnshown(child, [...path, "*"], found);
  }
  (node.items ?? []).forEach((child, i) => collectUnshown(child, [...path, String(i)], found));
  for (const child of node.options ?? []) collectUnshown(child, path, found);
  if (node.wrapped) collectUnshown(node.wrapped, path, found);
  // A lazy schema, read as the converter reads it (with no input); each getter once, as a recursive one returns a new
  // schema on every read.
  if (node.type === "lazy" && node.getter && !found.seen.has(node.getter)) {
    found.seen.add(node.getter);
    collectUnshown(node.getter(undefined), path, found);
  }
}

/**
 * Converts a Valibot schema to the Draft 2020-12 JSON Schema of its input
 * (what a model sends, or a person answers) or of its output (what a
 * handler's result becomes). Nothing is printed: what cannot be converted
 * comes back as data.
 */
export function deriveJsonSchema(schema: ValibotSchema, side: "input" | "output"): DerivedSchema {
  const refusals: string[] = [];
  const warnings: string[] = [];
  let shortTuples = false;
  const jsonSchema = toJsonSchema(schema as v.GenericSchema, {
    target: "draft-2020-12",
    typeMode: side,
    errorMode: "throw",
    overrideSchema(context) {
      // The converter counts every item of a tuple as required, one that takes `undefined` too.
      const items = (context.valibotSchema as unknown as SchemaNode).items;
      if (items) {
        context.jsonSchema.minItems = requiredItems(items);
        shortTuples ||= context.jsonSchema.minItems < items.length;
      }
      if (!context.errors) return undefined;
      for (const error of context.errors) refusals.push(error);
      return context.jsonSchema;
    },
    overrideAction(context) {
      if (!context.errors) return undefined;
      const action = context.valibotAction;
      const flags = action.type === "regex" ? (action as v.RegexAction<string, undefined>).requirement.flags : "";
      // The converter shows a flagged regex's source as the pattern (its one error, unless an earlier action set the
      // pattern), which refuses what the flags accept (/abc/i takes "ABC"): it is left out.
      if (flags && context.errors.length === 1) delete context.jsonSchema.pattern;
      if (action.kind === "validation") {
        const why = flags ? `, as a JSON Schema pattern takes no flags (${flags})` : "";
        warnings.push(`The "${action.type}" check runs after validation; the JSON Schema does not show it${why}`);
      }
      return context.jsonSchema;
    },
  }) as JsonSchema;
  const found: Unshown = { side, seen: new Set(), retyped: [], warnings };
  collectUnshown(schema as unknown as SchemaNode, [], found);
  return { jsonSchema, refusals, retyped: found.retyped, warnings: [...new Set(warnings)], shortTuples };
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

/**
 * Parses a value with a Valibot schema into a {@linkcode ParseResult}. With `shortTuples`, the items a tuple's value
 * left off are left off its output too, where Valibot holds them as `undefined` (as JSON, `null`, which the tuple's
 * JSON Schema may refuse).
 */
export function parseWithValibot(
  schema: ValibotSchema,
  value: unknown,
  shortTuples = false,
): ParseResult | Promise<ParseResult> {
  const settled = (outcome: v.SafeParseResult<AnySchema>) => settle(outcome, shortTuples);
  if (schema.async) return v.safeParseAsync(schema as v.GenericSchemaAsync, value).then(settled);
  return settled(v.safeParse(schema as v.GenericSchema, value));
}

/** Drops the `undefined` items at the end of every array in a value Valibot output, in place. */
function dropTrailingUndefined(value: unknown, seen: Set<object>): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    while (value.length > 0 && value[value.length - 1] === undefined) value.length--;
  }
  for (const item of Object.values(value)) dropTrailingUndefined(item, seen);
}

function settle(outcome: v.SafeParseResult<AnySchema>, shortTuples: boolean): ParseResult {
  if (outcome.success) {
    if (shortTuples) dropTrailingUndefined(outcome.output, new Set());
    return { ok: true, value: outcome.output };
  }
  const report = boundDiagnostics(diagnosticsFromValibot(outcome.issues));
  return { ok: false, diagnostics: report.diagnostics, omitted: report.omitted };
}
