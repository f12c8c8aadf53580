// Case 2's account of where a raw-schema call's time goes, on Deno: the
// hand-written dispatch, then the pieces ToolSet.call runs, added one step a
// row, then ToolSet.call itself. Each row does what the row above it does and
// one step more, so the difference between two rows is that step's price,
// measured side by side in one run.

import { type CompiledSchema, compileSchema } from "../dyn.ts";
import { copyJsonValue, DEFAULT_LIMITS } from "../src/core/common/limits.ts";
import { outputAsText } from "../src/core/contract/_output_text.ts";
import { readArguments } from "../src/core/dispatch/_arguments.ts";
import { invalidInput } from "../src/core/dispatch/_dispatch_failures.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { type TicketSchemas, ticketTool } from "./_json_schema_case.ts";
import {
  type Dispatch,
  fileTicket,
  handWritten,
  INVALID_ARGUMENTS,
  NAME,
  type Ticket,
  VALID_ARGUMENTS,
} from "./_ticket.ts";

const HAND = "hand-written: JSON.parse + a hand-written check in/out";

/** The steps of a valid call, in the order ToolSet.call takes them; each row runs the steps up to its own. */
const VALID_STEPS = [
  "JSON.parse alone",
  "+ the argument checks: size, depth, finite numbers",
  "+ the compiled input validation",
  "+ the handler and the compiled output validation",
  "+ the output's private copy, validated in its place",
  "+ the output as the JSON text a model reads",
] as const;

/** The steps of an invalid call. */
const INVALID_STEPS = [
  "JSON.parse alone",
  "+ the argument checks: size, depth, finite numbers",
  "+ the compiled validation and its diagnostics",
  "+ the invalid_input failure and its model text",
] as const;

/** Runs a valid call's steps up to `last`; true when every step passed. */
function validUpTo(last: number, input: CompiledSchema, output: CompiledSchema): Dispatch {
  return async (json) => {
    if (last === 0) return JSON.parse(json) !== undefined;
    const read = readArguments(json, DEFAULT_LIMITS);
    if (!read.ok) return false;
    if (last === 1) return true;
    if (!input.validate(read.value).ok) return false;
    if (last === 2) return true;
    let out: unknown = await fileTicket(read.value as unknown as Ticket);
    if (last >= 4) {
      const copied = copyJsonValue(out, DEFAULT_LIMITS);
      if (!copied.ok) return false;
      out = copied.value;
    }
    if (!output.validate(out).ok) return false;
    return last < 5 || outputAsText(out).length === 1;
  };
}

/** Runs an invalid call's steps up to `last`; true when the call was refused as it should be. */
function invalidUpTo(last: number, input: CompiledSchema): Dispatch {
  const refused = (json: string): boolean => {
    if (last === 0) return JSON.parse(json) !== undefined;
    const read = readArguments(json, DEFAULT_LIMITS);
    if (!read.ok) return false;
    if (last === 1) return true;
    const validation = input.validate(read.value);
    if (validation.ok) return false;
    return last === 2 || invalidInput(NAME, validation).modelText.length > 0;
  };
  // A promise, as every dispatch answers with.
  return (json) => Promise.resolve(refused(json));
}

/**
 * Measures the account of a valid and an invalid call, after checking that
 * every row takes its input the way the whole call does.
 *
 * @param schemas The ticket tool's schemas.
 * @param mode Full or smoke.
 * @returns Two groups of rows, the valid input's and the invalid input's.
 * @throws {Error} When a row does not behave as claimed.
 */
export async function jsonSchemaCostRows(schemas: TicketSchemas, mode: Mode): Promise<Row[]> {
  const input = compileSchema(schemas.inputSchema);
  const output = compileSchema(schemas.outputSchema);
  await Promise.all([input.loading, output.loading]);
  const call = ticketTool(schemas);
  const accounts = [
    {
      label: "valid",
      json: VALID_ARGUMENTS,
      steps: VALID_STEPS.map((step, i) => [step, validUpTo(i, input, output)] as const),
      ours: async (json: string) => (await call(json)).type === "output",
    },
    {
      label: "invalid",
      json: INVALID_ARGUMENTS,
      steps: INVALID_STEPS.map((step, i) => [step, invalidUpTo(i, input)] as const),
      ours: async (json: string) => (await call(json)).type === "failed",
    },
  ];
  const rows: Row[] = [];
  for (const { label, json, steps, ours } of accounts) {
    const contenders: (readonly [string, Dispatch])[] = [
      [HAND, handWritten()],
      ...steps,
      ["ours: ToolSet.call, all of the above and the dispatch", ours],
    ];
    for (const [name, dispatch] of contenders.slice(1)) {
      check(await dispatch(json), `"${name}" did not take the ${label} input as the whole call does`);
    }
    const names = contenders.map(([name]) => name);
    const stats = await compare(contenders.map(([name, dispatch]) => ({ name, run: () => dispatch(json) })), mode);
    rows.push(
      ...ratioRows(
        `2. Where a raw-schema call's time goes on Deno, ${label} input (per call)`,
        names,
        stats,
        "ns",
        HAND,
      ),
    );
  }
  return rows;
}
