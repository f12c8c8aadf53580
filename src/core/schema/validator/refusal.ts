/**
 * The typed refusal the compiled validator's static check (`checkValidator`)
 * throws for a schema it will not compile.
 *
 * @module
 */

/**
 * Why a schema was refused. `unsupported`: the schema may be fine but uses
 * something this validator does not implement, so the caller validates it
 * with another validator (cfworker). `invalid`: the schema itself is wrong
 * or too costly, so no validator should run it.
 */
export type SchemaRefusalKind = "unsupported" | "invalid";

/**
 * What a refusal is about: a `keyword` not implemented, a `malformed`
 * keyword value, a `reference` that cannot be resolved, a `duplicate` URI or
 * anchor that names two schemas, a `pattern` the
 * engine cannot express, a `format` not implemented, a `draft` not known,
 * a schema nested too `depth`ly, or a compiled size or an evaluation over
 * the `budget` (a schema that applies itself again to the same value: one
 * that would never end).
 */
export type SchemaRefusalReason =
  | "keyword"
  | "malformed"
  | "reference"
  | "duplicate"
  | "pattern"
  | "format"
  | "draft"
  | "depth"
  | "budget";

/**
 * A schema the validator refuses to compile, thrown by its static check,
 * `checkValidator`. It is a `TypeError` because the problem is in
 * the schema given, found before any value is validated.
 *
 * @example Route an unsupported schema to a fallback
 * ```ts
 * import { checkValidator } from "./_checked.ts";
 * import { SchemaRefusal } from "./refusal.ts";
 * import assert from "node:assert/strict";
 *
 * try {
 *   checkValidator({ $recursiveRef: "#" });
 *   assert.fail("expected a refusal");
 * } catch (error) {
 *   assert.ok(error instanceof SchemaRefusal);
 *   assert.equal(error.kind, "unsupported");
 *   assert.equal(error.keyword, "$recursiveRef");
 * }
 * ```
 */
export class SchemaRefusal extends TypeError {
  /** Whether to fall back to another validator or to refuse the schema. */
  readonly kind: SchemaRefusalKind;
  /** What the refusal is about. */
  readonly reason: SchemaRefusalReason;
  /** The keyword refused, or `""` when the refusal is about a whole schema. */
  readonly keyword: string;
  /**
   * Where in the schema: a JSON Pointer for the schema itself, prefixed by
   * the remote's URI and `#` for a remote.
   */
  readonly pointer: string;

  /**
   * Builds a refusal.
   *
   * @param kind Whether the caller may fall back.
   * @param reason What the refusal is about.
   * @param keyword The keyword, or `""`.
   * @param pointer Where in the schema.
   * @param message The sentence to show.
   */
  constructor(kind: SchemaRefusalKind, reason: SchemaRefusalReason, keyword: string, pointer: string, message: string) {
    super(message);
    this.name = "SchemaRefusal";
    this.kind = kind;
    this.reason = reason;
    this.keyword = keyword;
    this.pointer = pointer;
  }
}
