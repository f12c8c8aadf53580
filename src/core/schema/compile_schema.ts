// `compileSchema`, as `@salvor/tools/dyn` exports it: the compiled
// validator's code, the format scanners and the engine for a host schema's
// patterns (with re2js, which `linearPatterns` of the same entrypoint loads
// anyway) imported up front, so that a schema it runs validates as soon as
// it is compiled. The core compiles its tools' schemas with
// `compileSchemaApart` instead, which loads them on first need.

import { present } from "../common/_apart.ts";
import { buildValidator } from "./validator/_build.ts";
import { FORMATS } from "./validator/_formats.ts";
import * as HostPatterns from "./validator/_host_patterns.ts";
import { compileRe2 } from "./validator/_re2.ts";
import {
  type CompiledSchema,
  type CompileSchemaOptions,
  compileSchemaWith,
  type JsonSchema,
  type ValidatorParts,
} from "./schema.ts";

const PARTS_UP_FRONT: ValidatorParts = {
  build: present(buildValidator),
  scanners: present(FORMATS),
  hostPatterns: present(HostPatterns),
  re2: present(compileRe2),
};

/**
 * Checks a JSON Schema for validation now, and compiles it on its first
 * validation: it and each of its remotes must be a JSON Schema object (or
 * boolean) within the limits, and every `$ref` must resolve inside them. A
 * 2020-12 or draft-07 schema is compiled into closures (`engine:
 * "compiled"`), and so is a draft-04 or 2019-09 one, as draft-07 or 2020-12,
 * where its keywords mean the same there; a malformed one (an invalid
 * regular expression, `enum: 5`, `required: "name"`, ...) is refused now,
 * as is everything the compiler would refuse, so compiling it later cannot
 * fail. A schema using what the compiled validator does not implement
 * (another draft, a keyword draft-04 or 2019-09 reads otherwise than the
 * nearer draft, `$recursiveRef`, `$vocabulary`, a pattern valid only
 * without the `u` flag) is validated by `@cfworker/json-schema` (`engine: "fallback"`),
 * which reads malformed keywords leniently; it loads apart from the core
 * the first time a schema needs it, so await `loading` before the first
 * `validate` of such a schema (any other validates at once). A `$dynamicRef` in a draft-07 schema, and an
 * asserted format neither implements, are refused: the fallback would accept
 * values the schema forbids. Compilation reads no file and no network; the schema
 * given is copied, never changed.
 *
 * @param schema The schema.
 * @param options Remotes, draft, limits, a label for messages, the pattern
 * engine, format assertion and the budget.
 * @returns The compiled schema.
 * @throws {InvalidSpecError} When the schema or one of its remotes (named by
 * its URI) is too large or deep, not JSON, not a schema, malformed, over the
 * compiled-size budget, has an external reference, uses `$dynamicRef` in
 * draft-07 or asserts a format not implemented; or, for an untrusted
 * schema (see `patterns`), holds a pattern the engine cannot express or
 * would need the fallback validator.
 *
 * @example Validate a value and read the diagnostics
 * ```ts
 * import { compileSchema } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { path: { type: "string" } },
 *   required: ["path"],
 * });
 * assert.equal(schema.engine, "compiled");
 * assert.deepEqual(schema.validate({ path: "a.txt" }), { ok: true });
 * const result = schema.validate({});
 * assert.equal(result.ok, false);
 * if (!result.ok) assert.equal(result.diagnostics[0].path, "/path");
 * ```
 *
 * @example A malformed schema is refused, not ignored
 * ```ts
 * import { compileSchema } from "@salvor/tools/dyn";
 * import { InvalidSpecError } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => compileSchema({ type: "object", required: "name" }), InvalidSpecError);
 * ```
 *
 * @example A draft-04 schema with a `$id` (which draft-04 ignores) runs on the fallback, once it has loaded
 * ```ts
 * import { compileSchema } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const below5 = { $schema: "http://json-schema.org/draft-04/schema#", maximum: 5, exclusiveMaximum: true };
 * assert.equal(compileSchema(below5).engine, "compiled");
 * const schema = compileSchema({ ...below5, $id: "urn:below-5" });
 * assert.equal(schema.engine, "fallback");
 * await schema.loading;
 * assert.equal(schema.validate(5).ok, false);
 * assert.deepEqual(schema.validate(4), { ok: true });
 * ```
 */
export function compileSchema(schema: JsonSchema, options: CompileSchemaOptions = {}): CompiledSchema {
  return compileSchemaWith(schema, options, PARTS_UP_FRONT);
}
