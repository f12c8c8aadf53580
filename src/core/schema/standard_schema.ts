/**
 * Standard Schema v1 (https://standardschema.dev), the interface zod,
 * ArkType, Valibot and others share, named structurally so no library's
 * types are needed: what {@linkcode defineTool} takes besides Valibot.
 *
 * @module
 */

import type { SchemaInput, SchemaOutput, ValibotSchema } from "./valibot_schema.ts";

/** One problem a Standard Schema reports. */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where: keys, or segments carrying a key. */
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What validating with a Standard Schema gives: the value, or the issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/** The JSON Schema conversion a Standard JSON Schema carries (optional). */
export interface StandardJsonSchemaConverter {
  /** The JSON Schema of what the schema accepts. */
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  /** The JSON Schema of what the schema produces. */
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/**
 * A Standard Schema v1: any schema whose `~standard` property validates,
 * sync or async.
 *
 * @typeParam Input The type the schema accepts.
 * @typeParam Output The type it produces.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  /** The standard interface. */
  readonly "~standard": {
    /** Always 1. */
    readonly version: 1;
    /** The library, e.g. `zod` or `arktype`. */
    readonly vendor: string;
    /** Validates a value. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Type-level only. */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** The schema's own JSON Schema conversion, when it offers one. */
    readonly jsonSchema?: StandardJsonSchemaConverter;
  };
}

/** A schema {@linkcode defineTool} takes: Valibot or any Standard Schema. */
export type ToolSchema = ValibotSchema | StandardSchema;

/** The type a tool schema accepts. */
export type ToolSchemaInput<Schema extends ToolSchema> = Schema extends ValibotSchema ? SchemaInput<Schema>
  : Schema extends StandardSchema ? NonNullable<Schema["~standard"]["types"]>["input"]
  : never;

/** The type a tool schema produces. */
export type ToolSchemaOutput<Schema extends ToolSchema> = Schema extends ValibotSchema ? SchemaOutput<Schema>
  : Schema extends StandardSchema ? NonNullable<Schema["~standard"]["types"]>["output"]
  : never;
