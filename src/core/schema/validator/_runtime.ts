// What one validation counts as it goes: the steps taken against the budget,
// charged by every part that does work (schema visits, loops, encodings,
// pattern tests). Its own file so that the leaf schemas and the parts can
// charge it without importing each other.

import { SchemaBudgetError } from "./budget.ts";

/** The per-validator state a validation updates: the steps taken, and the dynamic scope. */
export interface Runtime {
  steps: number;
  readonly limit: number;
  readonly label: string;
  /**
   * The URIs of the schema resources the validation is in, outermost first:
   * where a `$dynamicRef` looks for its `$dynamicAnchor`. Kept only for a
   * schema that has a `$dynamicRef`.
   */
  readonly scope: string[];
}

/**
 * Charges work to the validation's step budget. A schema visit is a step;
 * so is each member a loop reads (an item, a key) and each unit of work
 * that grows with the value (a pattern test, a canonical encoding), so that
 * a schema repeated over a large value runs out of budget, not of time.
 *
 * @throws {SchemaBudgetError} When the budget is spent.
 */
export function charge(runtime: Runtime, steps: number): void {
  if ((runtime.steps += steps) > runtime.limit) throw new SchemaBudgetError(runtime.label, runtime.limit);
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
 */
export function stackAsBudget(error: unknown, label: string, steps: number): unknown {
  return error instanceof RangeError && !(error instanceof SchemaBudgetError)
    ? new SchemaBudgetError(label, steps, "stack")
    : error;
}
