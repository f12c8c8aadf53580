/**
 * The shape of a Valibot schema as the public API names it. It is
 * structural, so signatures refer to no type outside this module, and
 * every schema Valibot makes, sync or async, fits it.
 *
 * @module
 */

/**
 * A Valibot schema, sync or async: what {@linkcode defineTool} takes for
 * input and output, and {@linkcode suspend} for the answer it waits for.
 *
 * @typeParam Input The type the schema accepts.
 * @typeParam Output The type it produces, transforms applied.
 */
export interface ValibotSchema<Input = unknown, Output = Input> {
  /** Valibot's mark of a schema. */
  readonly kind: "schema";
  /** Whether parsing with it is asynchronous. */
  readonly async: boolean;
  /** Valibot's parse step. */
  readonly "~run": (...args: never[]) => unknown;
  /** Type-level only: the schema's input and output types. */
  readonly "~types"?: { readonly input: Input; readonly output: Output } | undefined;
}

/** The type a Valibot schema accepts. */
export type SchemaInput<Schema extends ValibotSchema> = NonNullable<Schema["~types"]>["input"];

/** The type a Valibot schema produces, transforms applied. */
export type SchemaOutput<Schema extends ValibotSchema> = NonNullable<Schema["~types"]>["output"];
