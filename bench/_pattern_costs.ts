// Case 2's price of trust, on Deno: what the linear-time pattern engine
// (`linearPatterns`, which every MCP tool's schema runs on) costs against
// the built-in RegExp for every pattern (`nativePatterns`; the host's own
// schemas run bounded patterns such as the ticket's there too), and against
// re2js for every pattern, as it ran before bounded patterns took the
// built-in RegExp.
// The ticket call each way, one ordinary pattern, and one catastrophic
// pattern short enough for RegExp to finish.

import { linearPatterns, nativePatterns, type PatternEngine } from "../dyn.ts";
import { compileRe2 } from "../src/core/schema/validator/_re2.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { type TicketSchemas, ticketTool } from "./_json_schema_case.ts";
import { type Dispatch, handWritten, USER, VALID_ARGUMENTS } from "./_ticket.ts";

const HAND = "hand-written: JSON.parse + a hand-written check in/out";
const NATIVE = "built-in RegExp for every pattern (nativePatterns)";
const RE2 = "re2js for every pattern";
const LINEAR = "linearPatterns (untrusted schemas, every MCP tool's)";
const RE2_ONLY: PatternEngine = { compile: compileRe2 };

/** A catastrophic pattern and an input RegExp still finishes on: each more `a` doubles its time. */
const CATASTROPHIC = "^(a+)+$";
const CATASTROPHIC_INPUT = `${"a".repeat(16)}!`;

/** The ticket call with its patterns on `patterns`: whether it produced an output. */
function ticketCall(schemas: TicketSchemas, patterns: PatternEngine): Dispatch {
  const call = ticketTool(schemas, patterns);
  return async (json) => (await call(json)).type === "output";
}

/**
 * Measures the ticket call with each engine against the hand-written
 * dispatch, then one ordinary and one catastrophic pattern with each engine,
 * after checking that the engines answer alike.
 *
 * @param schemas The ticket tool's schemas.
 * @param mode Full or smoke.
 * @returns Three groups of rows.
 * @throws {Error} When a contender does not behave as claimed.
 */
export async function patternCostRows(schemas: TicketSchemas, mode: Mode): Promise<Row[]> {
  const calls: [string, Dispatch][] = [
    [HAND, handWritten()],
    [`ours, ${NATIVE}`, ticketCall(schemas, nativePatterns)],
    [`ours, ${RE2}`, ticketCall(schemas, RE2_ONLY)],
    [`ours, ${LINEAR}`, ticketCall(schemas, linearPatterns)],
  ];
  for (const [name, dispatch] of calls) check(await dispatch(VALID_ARGUMENTS), `${name} refused the valid input`);
  const callNames = calls.map(([name]) => name);
  const callStats = await compare(
    calls.map(([name, dispatch]) => ({ name, run: () => dispatch(VALID_ARGUMENTS) })),
    mode,
  );
  const rows = ratioRows(
    "2. Raw JSON Schema dispatch on Deno, valid input, by pattern engine (per call)",
    callNames,
    callStats,
    "ns",
    HAND,
  );
  const cases = [
    ["2. One pattern: the ticket's user name on a matching value (per test)", USER.source, "dana.k", true],
    [
      `2. A catastrophic pattern: ${CATASTROPHIC} on ${CATASTROPHIC_INPUT.length} characters (per test)`,
      CATASTROPHIC,
      CATASTROPHIC_INPUT,
      false,
    ],
  ] as const;
  for (const [group, source, input, matches] of cases) {
    const engines = [[NATIVE, nativePatterns], [RE2, RE2_ONLY], [LINEAR, linearPatterns]] as const;
    const tests = engines.map(([name, engine]) => {
      const pattern = engine.compile(source);
      check(pattern.test(input) === matches, `${name} answered ${!matches} for ${source}`);
      return { name, run: () => pattern.test(input) };
    });
    rows.push(...ratioRows(group, tests.map(({ name }) => name), await compare(tests, mode), "ns", NATIVE));
  }
  return rows;
}
