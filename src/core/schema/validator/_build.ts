// The compiled validator's closures, built from a checked schema on its first
// validation: the compiler and everything its closures run, most of the
// validator's code. The core loads this module apart from itself, the first
// time it compiles a schema; `compileSchema` of `@salvor/tools/dyn` imports
// it up front, so that its schemas validate at once.

import type { Diagnostic } from "../../common/diagnostics.ts";
import { DEFAULT_VALIDATOR_BUDGET, stackAsBudget } from "./budget.ts";
import { Compiler } from "./_compile.ts";
import { createRuntime, startValidation } from "./_runtime.ts";
import type { FormatScanners } from "./_format_names.ts";
import { ROOT_BASE } from "./_refs.ts";
import { type CheckedValidator, indexSchema, type ValidatorDraft } from "./_checked.ts";

/** A compiled schema. Neither method is reentrant: validations run one at a time. */
export interface CompiledValidator {
  /** The draft the schema was compiled as. */
  readonly draft: ValidatorDraft;
  /**
   * Whether a JSON value is valid. It allocates nothing for most schemas.
   *
   * @param value Plain JSON data within the caller's size and depth limits.
   * @returns The verdict.
   * @throws {SchemaBudgetError} When the value takes more steps than the budget.
   */
  isValid(value: unknown): boolean;
  /**
   * Checks a value, then walks it again to say what is wrong with it: at
   * most `maxDiagnostics`, unsorted (sort and bound them with
   * `boundDiagnostics`). The check and the walk spend one step budget.
   *
   * @param value The value.
   * @returns The diagnostics; empty for a valid value.
   * @throws {SchemaBudgetError} When the value takes more steps than the budget.
   */
  diagnose(value: unknown): Diagnostic[];
  /**
   * As `diagnose`, for a value `isValid` has just refused: it is not checked again first, and its steps
   * count on from that check's, so that checking and diagnosing one value spend one budget between them.
   *
   * @param value The value `isValid` refused; for any other the diagnostics mean nothing.
   * @returns The diagnostics.
   * @throws {SchemaBudgetError} When the check and the diagnostics together take more steps than the budget.
   */
  diagnoseRefused(value: unknown): Diagnostic[];
}

/**
 * Builds a checked schema's closures; call it once, when the first value is to be validated.
 *
 * @param checked The schema, as `checkValidator` passed it.
 * @param scanners The format scanners, when the schema asserts a format.
 * @returns The compiled validator.
 * @throws {TypeError} When the schema asserts a format and no scanners are given.
 *
 * @example Build once, validate many values
 * ```ts
 * import { checkValidator } from "./_checked.ts";
 * import { buildValidator } from "./_build.ts";
 * import assert from "node:assert/strict";
 *
 * const validator = buildValidator(checkValidator({ type: "object", required: ["name"] }));
 * assert.equal(validator.isValid({ name: "a" }), true);
 * assert.deepEqual(validator.diagnose({}), [
 *   { path: "/name", keyword: "required", message: 'Missing required property "name".' },
 * ]);
 * ```
 */
export function buildValidator(checked: CheckedValidator, scanners?: FormatScanners): CompiledValidator {
  const { schema, options, draft } = checked;
  if (checked.assertsFormats && scanners === undefined) {
    throw new TypeError("Cannot compile the schema as it asserts a format: current value is no format scanners");
  }
  const registry = indexSchema(schema, draft, options);
  const runtime = createRuntime(
    options.label ?? "schema",
    options.budget?.stepsPerValue ?? DEFAULT_VALIDATOR_BUDGET.stepsPerValue,
    options.budget?.millisecondsPerValue ?? DEFAULT_VALIDATOR_BUDGET.millisecondsPerValue,
  );
  const compiler = new Compiler({
    draft,
    registry,
    patterns: checked.patterns,
    compiledPatterns: checked.compiledPatterns,
    assertFormats: options.formats === "assert",
    scanners,
    runtime,
  });
  const root = compiler.compile(schema, registry.bases.get(schema as object) ?? ROOT_BASE, "");
  const check = root.check;
  const maxDiagnostics = options.maxDiagnostics ?? 64;
  return {
    draft,
    isValid(value: unknown): boolean {
      startValidation(runtime);
      try {
        return check(value, undefined);
      } catch (error) {
        throw stackAsBudget(error, runtime.label, runtime.limit);
      }
    },
    diagnose(value: unknown): Diagnostic[] {
      // A node reports only what its check refused.
      return this.isValid(value) ? [] : this.diagnoseRefused(value);
    },
    diagnoseRefused(value: unknown): Diagnostic[] {
      // No reset: the check that refused the value and its diagnostics spend one budget between them.
      const sink = { out: [] as Diagnostic[], max: maxDiagnostics };
      try {
        root.report(value, "", sink, undefined);
      } catch (error) {
        throw stackAsBudget(error, runtime.label, runtime.limit);
      }
      return sink.out;
    },
  };
}
