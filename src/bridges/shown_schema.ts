/**
 * A tool's input schema as the frameworks that check arguments themselves
 * take it: a Standard JSON Schema whose JSON Schema the model is shown and
 * whose check passes everything, so the set's own validation is the one
 * that runs, and the model reads its bounded diagnostics.
 *
 * @module
 */

import type { JsonSchema } from "../core/schema/schema.ts";
import type { StandardJsonSchemaConverter } from "../core/schema/standard_schema.ts";

/**
 * A Standard JSON Schema (Standard Schema v1 with its JSON Schema
 * conversion) that shows a tool's JSON Schema and lets every value through.
 * LangChain and Mastra validate a raw JSON Schema themselves before a tool
 * runs, with a message of their own and, in Mastra's case, after coercing
 * the arguments; handed this instead, they show the model the same JSON
 * Schema and leave the check to `ToolSet.stream`.
 */
export interface ShownSchema {
  /** The standard interface. */
  readonly "~standard": {
    /** Always 1. */
    readonly version: 1;
    /** Always `salvor`. */
    readonly vendor: "salvor";
    /** Passes every value through unchanged: the set validates when the call runs. */
    readonly validate: (value: unknown) => { readonly value: unknown };
    /** The tool's JSON Schema, whatever the target asked for: what the model is shown. */
    readonly jsonSchema: StandardJsonSchemaConverter;
  };
}

/**
 * Wraps a tool's input schema for a framework that checks arguments itself.
 *
 * @param schema The tool's input schema (its descriptor's `inputSchema`).
 * @returns The schema the framework shows the model, and a check that passes everything.
 *
 * @example The model sees the schema; the set does the checking
 * ```ts
 * import { shownSchema } from "./shown_schema.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { a: { type: "number" } }, required: ["a"] };
 * const shown = shownSchema(schema);
 * assert.equal(shown["~standard"].jsonSchema.input({ target: "draft-07" }), schema);
 * assert.deepEqual(shown["~standard"].validate({ a: "one" }), { value: { a: "one" } });
 * ```
 */
export function shownSchema(schema: JsonSchema): ShownSchema {
  // A tool's input schema is an object schema: specs refuse any other.
  const shown = schema as Record<string, unknown>;
  return {
    "~standard": {
      version: 1,
      vendor: "salvor",
      validate: (value) => ({ value }),
      jsonSchema: { input: () => shown, output: () => shown },
    },
  };
}
