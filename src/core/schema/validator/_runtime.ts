// What one validation counts as it goes: the steps taken against the budget,
// charged by every part that does work (schema visits, loops, encodings,
// pattern tests), and the time they took, read from the clock every so many
// steps. Its own file so that the leaf schemas and the parts can charge it
// without importing each other.

import { SchemaBudgetError } from "./budget.ts";

// Steps between two readings of the clock: well under a millisecond of work, and no reading at all for most values.
const CLOCK_EVERY = 16_384;

/** The per-validator state a validation updates: the steps taken, the time, and the dynamic scope. */
export interface Runtime {
  steps: number;
  /** The step count past which `charge` next checks the budget: its end of steps, or the next reading of the clock. */
  next: number;
  /** The clock's first reading in this validation; NaN until then. */
  since: number;
  readonly limit: number;
  readonly milliseconds: number;
  readonly label: string;
  /**
   * The URIs of the schema resources the validation is in, outermost first:
   * where a `$dynamicRef` looks for its `$dynamicAnchor`. Kept only for a
   * schema that has a `$dynamicRef`.
   */
  readonly scope: string[];
}

/**
 * A runtime for validations against one schema.
 *
 * @param label Names the schema in a budget error.
 * @param limit The step budget.
 * @param milliseconds The time budget.
 * @returns The runtime, ready for {@linkcode startValidation}.
 */
export function createRuntime(label: string, limit: number, milliseconds: number): Runtime {
  return { steps: 0, next: 0, since: NaN, limit, milliseconds, label, scope: [] };
}

/** Sets the runtime for a new validation: no steps taken, the clock not read. */
export function startValidation(runtime: Runtime): void {
  runtime.steps = 0;
  runtime.next = runtime.limit < CLOCK_EVERY ? runtime.limit : CLOCK_EVERY;
  runtime.since = NaN;
  // A validation stopped over budget may have left resources in the scope. (Setting the length is not free.)
  if (runtime.scope.length !== 0) runtime.scope.length = 0;
}

/**
 * Charges work to the validation's budget. A schema visit is a step;
 * so is each member a loop reads (an item, a key) and each unit of work
 * that grows with the value (a pattern test, a canonical encoding), so that
 * a schema repeated over a large value runs out of budget, not of time.
 * Every `CLOCK_EVERY` steps the clock is read too, since what a step costs
 * varies with the machine and the work.
 *
 * @throws {SchemaBudgetError} When the steps or the time are spent.
 */
export function charge(runtime: Runtime, steps: number): void {
  if ((runtime.steps += steps) > runtime.next) checkpoint(runtime);
}

function checkpoint(runtime: Runtime): void {
  const { steps, limit, milliseconds, label } = runtime;
  if (steps > limit) throw new SchemaBudgetError(label, limit);
  const now = performance.now();
  if (Number.isNaN(runtime.since)) runtime.since = now;
  else if (now - runtime.since > milliseconds) throw new SchemaBudgetError(label, limit, "time", milliseconds);
  runtime.next = limit - steps < CLOCK_EVERY ? limit : steps + CLOCK_EVERY;
}
