/**
 * A JSON Schema validator compiled once into a tree of closures: no `eval`,
 * no code built from strings, so it runs wherever code generation is
 * forbidden. A schema is checked first (`_checked.ts`: everything the
 * compiler would refuse is refused then) and its closures are built when it
 * is first needed (`_build.ts`, which the core loads apart from itself).
 * Schemas it does not implement are refused as `unsupported`, for the caller
 * to validate with cfworker instead. `compileValidator` does both at once,
 * for a validator wanted ready now (the validator's own tests and
 * benchmarks); `compileSchema` and the core check now and build later.
 *
 * @module
 */

import { checkValidator, type ValidatorOptions } from "./_checked.ts";
import { buildValidator, type CompiledValidator } from "./_build.ts";

/**
 * Compiles a JSON Schema (2020-12 or draft-07) into a validator: {@linkcode checkValidator}, then
 * {@linkcode buildValidator} with `options.scanners`.
 *
 * @param schema The schema: an object or a boolean. It is read, never changed, and must not change afterwards.
 * @param options Draft, remotes, pattern engine, format assertion, budget.
 * @returns The compiled validator.
 * @throws {SchemaRefusal} As {@linkcode checkValidator} does.
 * @throws {TypeError} When the schema asserts a format and `options.scanners` is absent.
 *
 * @example Validate and diagnose
 * ```ts
 * import { compileValidator } from "./validator.ts";
 * import assert from "node:assert/strict";
 *
 * const validator = compileValidator({
 *   type: "object",
 *   properties: { name: { type: "string" } },
 *   required: ["name"],
 * });
 * assert.equal(validator.isValid({ name: "a" }), true);
 * assert.deepEqual(validator.diagnose({}), [
 *   { path: "/name", keyword: "required", message: 'Missing required property "name".' },
 * ]);
 * ```
 */
export function compileValidator(schema: unknown, options: ValidatorOptions = {}): CompiledValidator {
  return buildValidator(checkValidator(schema, options), options.scanners);
}
