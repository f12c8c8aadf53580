/**
 * A compiled validator ready at once, for the validator's own tests and
 * benchmarks: the static check and the closures' build in one call. The
 * core and `compileSchema` do them apart (check when a schema is given,
 * build on its first validation).
 *
 * @module
 */

import { checkValidator, type ValidatorOptions } from "../../../src/core/schema/validator/_checked.ts";
import { buildValidator, type CompiledValidator } from "../../../src/core/schema/validator/_build.ts";
import type { FormatScanners } from "../../../src/core/schema/validator/_format_names.ts";

/**
 * Checks a JSON Schema (2020-12 or draft-07) and builds its closures.
 *
 * @param schema The schema: an object or a boolean. It is read, never changed.
 * @param options Draft, remotes, pattern engine, format assertion, budget; and the format scanners
 * (`FORMATS` of `_formats.ts`), which a schema that asserts a format needs.
 * @returns The compiled validator.
 * @throws {SchemaRefusal} As `checkValidator` does.
 * @throws {TypeError} When the schema asserts a format and `options.scanners` is absent.
 */
export function compileValidator(
  schema: unknown,
  options: ValidatorOptions & { readonly scanners?: FormatScanners } = {},
): CompiledValidator {
  return buildValidator(checkValidator(schema, options), options.scanners);
}
