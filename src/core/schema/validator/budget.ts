/**
 * The bounds on compiling a schema and on validating one value.
 *
 * @module
 */

/**
 * Bounds on the work a schema may cost: counts, which mean the same on every
 * machine, and one time, which holds where a count's cost varies with the
 * machine and with what each step does.
 */
export interface ValidatorBudget {
  /**
   * The most schemas the schema and its remotes may hold, every subschema
   * counted once whether a reference reaches it or not. Defining and
   * compiling a schema takes time in proportion to it, in one synchronous
   * stretch, and the size limits alone do not bound it: 256 KiB holds 80,000
   * empty schemas. Counted in the first walk, which stops past it, so a
   * schema over it is refused as `invalid` with reason `budget` before any
   * costlier work. Default {@linkcode DEFAULT_VALIDATOR_BUDGET}.schemaNodes.
   */
  readonly schemaNodes?: number;
  /**
   * The most schema nodes the schema may expand to, counting each `$ref`
   * target once per place that reaches it (a recursive reference counts
   * once). An untrusted schema's distinct pattern (any engine but the
   * built-in RegExp) counts as 400, and 60 more for each repetition a
   * counted quantifier asks for: compiling it in linear time costs that
   * much. Above it the schema is refused as `invalid` with reason `budget`.
   * Default {@linkcode DEFAULT_VALIDATOR_BUDGET}.compiledNodes.
   */
  readonly compiledNodes?: number;
  /**
   * The most schema-node visits validating one value may take. Above it
   * validation stops with a {@linkcode SchemaBudgetError}. A leaf schema (a
   * type and its bounds, no subschema) is not counted: it cannot multiply
   * the work, the schema holding it is counted. So is the work that grows
   * with the value: each item or key a loop reads, each format scan, code
   * point count and canonical encoding (`uniqueItems`, `enum` and `const` of
   * composites) by the length it reads, and each pattern test, by its text's
   * length and its engine's `PatternCost`.
   * Default {@linkcode DEFAULT_VALIDATOR_BUDGET}.stepsPerValue.
   */
  readonly stepsPerValue?: number;
  /**
   * The most milliseconds validating one value may run. The clock is read
   * every 16,384 steps, first after that many (so a validation that takes
   * fewer never reads it), and above it validation stops with a
   * {@linkcode SchemaBudgetError}: a step's time varies with the machine and
   * with the work a step stands for, and this bounds how long the host is
   * held on any machine. Where the clock stands still while code runs (Cloudflare
   * Workers), only the step count bounds a validation. `Infinity` leaves the
   * steps alone to bound it, the same on every machine.
   * Default {@linkcode DEFAULT_VALIDATOR_BUDGET}.millisecondsPerValue.
   */
  readonly millisecondsPerValue?: number;
}

/** The default budget: 1,000 schemas held, 100,000 compiled nodes, 1,000,000 steps and 30 ms per value. */
export const DEFAULT_VALIDATOR_BUDGET: Required<ValidatorBudget> = Object.freeze({
  schemaNodes: 1_000,
  compiledNodes: 100_000,
  stepsPerValue: 1_000_000,
  millisecondsPerValue: 30,
});

/** What a validation over its budget ran out of: its steps, its time, or the call stack. */
export type SpentBudget = "steps" | "time" | "stack";

/**
 * Thrown by `isValid` and `diagnose` when validating one value takes more
 * steps or more time than the budget allows, or nests its evaluation deeper than the
 * call stack allows (a long chain of references, applied again at each
 * level of a nested value). The schema is to blame, not the value: a
 * bounded value (the caller's limits) only exceeds the budget under a schema
 * whose cost multiplies, so the caller should stop trusting the schema.
 *
 * @example Catch the budget error
 * ```ts
 * import { checkValidator } from "./_checked.ts";
 * import { buildValidator } from "./_build.ts";
 * import { SchemaBudgetError } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const schema = { items: { anyOf: [{ type: "string" }, { type: "number" }] } };
 * const validator = buildValidator(checkValidator(schema, { budget: { stepsPerValue: 10 } }));
 * assert.throws(() => validator.isValid(new Array(100).fill(1)), SchemaBudgetError);
 * ```
 */
export class SchemaBudgetError extends RangeError {
  /** The step budget in force. */
  readonly steps: number;
  /** What ran out first. */
  readonly spent: SpentBudget;

  /**
   * Builds the error.
   *
   * @param label Names the schema in the message.
   * @param steps The step budget in force.
   * @param spent What ran out: the steps (the default), the time or the call stack.
   * @param milliseconds The time budget, named in the message when the time ran out.
   */
  constructor(label: string, steps: number, spent: SpentBudget = "steps", milliseconds?: number) {
    super(
      `Cannot validate against the ${label} as one value took ${
        took(spent, steps, milliseconds)
      }: the schema's cost multiplies`,
    );
    this.name = "SchemaBudgetError";
    this.steps = steps;
    this.spent = spent;
  }
}

function took(spent: SpentBudget, steps: number, milliseconds: number | undefined): string {
  if (spent === "steps") return `more than ${steps} steps`;
  if (spent === "time") return `more than ${milliseconds} ms`;
  return "its evaluation deeper than the call stack allows";
}

/**
 * What a validation threw, with a stack overflow read as the schema's cost, as an exhausted step budget is:
 * references are bounded in length when a schema is checked, but a recursive schema applies them again at each
 * level of a nested value.
 *
 * @param error What the validation threw.
 * @param label Names the schema.
 * @param steps The step budget in force; 0 where there is none.
 * @returns What to throw.
 *
 * @example A stack overflow is the schema's cost
 * ```ts
 * import { SchemaBudgetError, stackAsBudget } from "./budget.ts";
 * import assert from "node:assert/strict";
 *
 * const error = stackAsBudget(new RangeError("Maximum call stack size exceeded"), "inputSchema", 1_000_000);
 * assert.ok(error instanceof SchemaBudgetError);
 * assert.equal(error.spent, "stack");
 * ```
 */
export function stackAsBudget(error: unknown, label: string, steps: number): unknown {
  return error instanceof RangeError && !(error instanceof SchemaBudgetError)
    ? new SchemaBudgetError(label, steps, "stack")
    : error;
}
