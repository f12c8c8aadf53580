// Case 2's dispatch rows, in any runtime: raw JSON Schema dispatch, the path
// MCP tools take. Ours (a defineJsonTool in a ToolSet: JSON.parse, the
// compiled validator in and out, the handler), and our validator alone
// around JSON.parse and the handler, against a hand-written
// dispatch of the same 9-property schema, against bare @cfworker/json-schema
// and against Ajv (code generation), each with its validators compiled once
// and reused. The package is imported by its name, so Deno measures the
// source and Node.js and Bun the npm build (bench/_json_schema_probe.ts).

import { type Schema, Validator } from "@cfworker/json-schema";
import { defineJsonTool, type TerminalEvent, ToolSet } from "@salvor/tools";
import { compileSchema, type PatternEngine } from "@salvor/tools/dyn";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import {
  DESCRIPTION,
  type Dispatch,
  fileTicket,
  handWritten,
  INVALID_ARGUMENTS,
  NAME,
  through,
  type Ticket,
  VALID_ARGUMENTS,
} from "./_ticket.ts";
import { Ajv } from "./_validators.ts";

const HAND = "hand-written: JSON.parse + a hand-written check in/out";
const OURS = "ours: ToolSet.call (defineJsonTool)";
const VALIDATOR = "ours, the validator alone: JSON.parse + compileSchema validate in/out";
const BARE = "bare cfworker: JSON.parse + validate in/out";
const AJV = "Ajv (code generation): JSON.parse + validate in/out";

/** The ticket tool's input and output schemas, as JSON Schema: the ones every contender compiles. */
export interface TicketSchemas {
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
}

/** A cfworker validator with the settings ours falls back to: Draft 2020-12, every error collected. */
export function cfworker(schema: Record<string, unknown>): (value: unknown) => boolean {
  const validator = new Validator(structuredClone(schema) as Schema, "2020-12", false);
  return (value) => validator.validate(value).valid;
}

/** Our compiled validator alone, with no dispatch around it: like for like with the bare cfworker and Ajv rows. */
function validates(schema: Record<string, unknown>): (value: unknown) => boolean {
  const compiled = compileSchema(schema);
  return (value) => compiled.validate(value).ok;
}

/** An Ajv validator collecting every error, as ours and cfworker do; no `$schema`, so no meta-schema is needed. */
export function ajv(schema: Record<string, unknown>): (value: unknown) => boolean {
  const { $schema: _, ...rest } = schema;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(rest);
  return (value) => validate(value) as boolean;
}

/**
 * The ticket tool defined from its JSON Schemas, alone in a ToolSet: what
 * every "ours" row of case 2 calls.
 *
 * @param schemas The ticket tool's schemas.
 * @param patterns The engine its patterns run on; the built-in RegExp when absent.
 * @returns A call of the tool with a JSON arguments string, resolving to its terminal event.
 */
export function ticketTool(schemas: TicketSchemas, patterns?: PatternEngine): (json: string) => Promise<TerminalEvent> {
  const tools = new ToolSet().register(defineJsonTool<Ticket>({
    name: NAME,
    description: DESCRIPTION,
    ...schemas,
    ...(patterns === undefined ? {} : { patterns }),
    effects: ["external.mutation"],
    run: fileTicket,
  }));
  return (json) => tools.call({ id: "call_1", name: NAME, arguments: json });
}

/**
 * Measures raw JSON Schema dispatch of the valid and the invalid input, after
 * checking that every contender accepts the one and refuses the other.
 *
 * @param schemas The ticket tool's schemas.
 * @param runtime The runtime measured, as the rows name it, e.g. `Deno 2.9.6`.
 * @param mode Full or smoke.
 * @returns Two groups of rows, the valid input's and the invalid input's.
 * @throws {Error} When a contender does not behave as claimed, or ours does not compile the schema.
 */
export async function jsonSchemaDispatchRows(schemas: TicketSchemas, runtime: string, mode: Mode): Promise<Row[]> {
  const { inputSchema, outputSchema } = schemas;
  check(compileSchema(inputSchema).engine === "compiled", "ours did not compile the ticket schema");
  const call = ticketTool(schemas);
  const ours: Dispatch = async (json) => (await call(json)).type === "output";
  const contenders = [
    [HAND, handWritten()],
    [OURS, ours],
    [VALIDATOR, through(validates(inputSchema), validates(outputSchema))],
    [BARE, through(cfworker(inputSchema), cfworker(outputSchema))],
    [AJV, through(ajv(inputSchema), ajv(outputSchema))],
  ] as const;
  for (const [name, dispatch] of contenders) {
    check(await dispatch(VALID_ARGUMENTS), `${name} refused the valid input on ${runtime}`);
    check(!await dispatch(INVALID_ARGUMENTS), `${name} accepted the invalid input on ${runtime}`);
  }
  const names = contenders.map(([name]) => name);
  const rows: Row[] = [];
  for (const [label, json, limit] of [["valid", VALID_ARGUMENTS, 1.3], ["invalid", INVALID_ARGUMENTS, 3]] as const) {
    const stats = await compare(contenders.map(([name, dispatch]) => ({ name, run: () => dispatch(json) })), mode);
    rows.push(
      ...ratioRows(`2. Raw JSON Schema dispatch on ${runtime}, ${label} input (per call)`, names, stats, "ns", HAND, {
        [OURS]: (ratio) => ({ text: `≤ ${limit}× hand-written`, met: ratio <= limit }),
      }),
    );
  }
  return rows;
}
