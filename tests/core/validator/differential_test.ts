// Differential fuzzing: on random schemas from every keyword the compiled
// validator implements (2020-12 and draft-07) and on values generated near
// them, the compiled verdict equals @cfworker/json-schema's, corrected for
// its known deviations (./_cfworker_deviations.ts, each pinned in
// cfworker_deviations_test.ts); the linear-time pattern engine decides as
// the built-in one; and the diagnostics agree with the verdict.

import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { compileSchema } from "../../../src/core/schema/compile_schema.ts";
import type { JsonSchema } from "../../../src/core/schema/schema.ts";
import { compileFallback } from "../../../src/core/schema/_cfworker.ts";
import { compileValidator } from "./_compile_validator.ts";
import { linearPatterns } from "../../../src/core/schema/validator/linear_patterns.ts";
import type { CompiledPattern, PatternEngine } from "../../../src/core/schema/validator/patterns.ts";
import { boundDiagnostics, type Diagnostic, MAX_DIAGNOSTICS } from "../../../src/core/common/diagnostics.ts";
import { type FuzzSchema, rootSchema } from "./_fuzz_schemas.ts";
import { valuesNear } from "./_fuzz_values.ts";
import {
  LATER_KEYWORDS_IN_DRAFT_07,
  oracleView,
  SHARED_ANNOTATIONS,
  UNINDEXED_DEPENDENCIES,
  withoutSharedUnevaluated,
} from "./_cfworker_deviations.ts";

const SEED = 20_260_611;
const RUNS = 1500;
const VALUES_PER_SCHEMA = 6;

// The generated schemas share a few patterns: each is translated for re2js once.
const compiledLinear = new Map<string, CompiledPattern>();
const cachedLinearPatterns: PatternEngine = {
  compile(source) {
    let compiled = compiledLinear.get(source);
    if (compiled === undefined) compiledLinear.set(source, compiled = linearPatterns.compile(source));
    return compiled;
  },
};

const fuzzCase = fc.oneof(rootSchema("2020-12"), rootSchema("7")).chain((generated) =>
  fc.tuple(
    fc.constant(generated),
    fc.array(valuesNear(generated), { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA }),
  )
);

/**
 * cfworker's verdict on the schema, corrected for its known deviations in that draft. As the fallback validator, it
 * says why it refuses a value.
 */
function oracle(source: unknown, draft: FuzzSchema["draft"]): (value: unknown) => boolean {
  const validate = compileFallback(oracleView(source, draft), draft, {}, false);
  return (value) => {
    const verdict = validate(value);
    assert.ok(
      verdict.ok || verdict.diagnostics.length > 0,
      `the fallback refused ${JSON.stringify(value)} saying nothing`,
    );
    return verdict.ok;
  };
}

/** Whether a JSON Pointer names a place in `value`. */
function resolves(value: unknown, pointer: string): boolean {
  let node = value;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return false;
    node = (node as Record<string, unknown>)[token];
  }
  return true;
}

/** Every key of a JSON value, at any depth: a superset of the keywords a schema uses. */
function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) keysOf(item, into.add(key));
  }
  return into;
}

// Keywords reported at the property they miss, which the value does not hold.
const MISSING = new Set(["required", "dependentRequired", "dependencies"]);
// compileValidator's default bound on what diagnose() collects.
const DIAGNOSE_LIMIT = 64;

/**
 * Every diagnostic of a refused value points into it (or, for a missing
 * property, into its parent), names a keyword of the schema and says
 * something; the public report is bounded and sorted.
 */
function checkDiagnostics(
  schema: unknown,
  value: unknown,
  found: Diagnostic[],
  reported: ReturnType<typeof boundDiagnostics>,
): void {
  assert.ok(found.length > 0 && found.length <= DIAGNOSE_LIMIT, `${found.length} diagnostics`);
  const keywords = keysOf(schema).add("false");
  for (const { path, keyword, message } of found) {
    assert.ok(path === "" || path.startsWith("/"), `path ${path}`);
    const parent = path.slice(0, path.lastIndexOf("/"));
    assert.ok(resolves(value, path) || (MISSING.has(keyword) && resolves(value, parent)), `${keyword} at ${path}`);
    assert.ok(keywords.has(keyword), `keyword ${keyword}`);
    assert.ok(message.length > 0);
  }
  assert.ok(reported.diagnostics.length > 0 && reported.diagnostics.length <= MAX_DIAGNOSTICS);
  assert.deepEqual(boundDiagnostics(reported.diagnostics).diagnostics, reported.diagnostics);
}

Deno.test("compiled verdicts equal cfworker's on random schemas and values near them", () => {
  const counts = { schemas: { "2020-12": 0, "7": 0 }, valid: 0, invalid: 0, corrected: 0, excused: 0 };
  fc.assert(
    fc.property(fuzzCase, ([{ schema, draft }, values]) => {
      const compiled = compileSchema(schema as JsonSchema);
      assert.equal(compiled.engine, "compiled");
      assert.equal(compiled.draft, draft);
      const validator = compileValidator(schema);
      // The linear-time pattern engine, for untrusted schemas, must decide as the built-in one does.
      const linear = JSON.stringify(schema).includes('"pattern')
        ? compileValidator(schema, { patterns: cachedLinearPatterns })
        : validator;
      const cfworker = oracle(schema, draft);
      if (JSON.stringify(oracleView(schema, draft)) !== JSON.stringify(schema)) counts.corrected++;
      const shared = draft === "2020-12" ? withoutSharedUnevaluated(schema) : { schema, removed: 0 };
      const compiledWithout = shared.removed > 0 ? compileValidator(shared.schema) : undefined;
      const cfworkerWithout = shared.removed > 0 ? oracle(shared.schema, draft) : undefined;
      counts.schemas[draft]++;
      for (const value of values) {
        const context = `${JSON.stringify(schema)} on ${JSON.stringify(value)}`;
        const verdict = validator.isValid(value);
        assert.equal(linear.isValid(value), verdict, `linear patterns: ${context}`);
        if (verdict !== cfworker(value)) {
          // Excused only where cfworker leaks annotations, and only if all else agrees.
          assert.ok(compiledWithout && cfworkerWithout, `verdict ${verdict} differs from cfworker's: ${context}`);
          assert.equal(
            compiledWithout.isValid(value),
            cfworkerWithout(value),
            `${SHARED_ANNOTATIONS.name}: ${context}`,
          );
          counts.excused++;
        }
        const result = compiled.validate(value);
        assert.equal(result.ok, verdict, context);
        if (verdict) {
          counts.valid++;
          assert.deepEqual(validator.diagnose(value), [], context);
        } else {
          counts.invalid++;
          if (!result.ok) checkDiagnostics(schema, value, validator.diagnose(value), result);
        }
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  const total = counts.valid + counts.invalid;
  const percent = (part: number) => `${(100 * part / total).toFixed(1)}%`;
  console.log(
    `seed ${SEED}: ${RUNS} schemas (${counts.schemas["2020-12"]} 2020-12, ${counts.schemas["7"]} draft-07), ` +
      `${total} values: ${percent(counts.valid)} valid, ${percent(counts.invalid)} invalid; ` +
      `${counts.corrected} schemas corrected for cfworker ("${LATER_KEYWORDS_IN_DRAFT_07.name}", ` +
      `"${UNINDEXED_DEPENDENCIES.name}"), ${counts.excused} values excused as "${SHARED_ANNOTATIONS.name}"`,
  );
  // Both verdicts must be common, or the comparison proves little.
  assert.ok(counts.valid > total / 5 && counts.invalid > total / 5);
});
