// Case 2: raw JSON Schema dispatch, the path MCP tools take. Ours (a
// defineJsonTool in a ToolSet: JSON.parse, the compiled validator in and
// out, the handler) against a hand-written dispatch of the same 9-property
// schema, against bare @cfworker/json-schema and against Ajv (code
// generation), each with its validators compiled once and reused. Then the
// time to compile one schema, for each validator.

import { type Schema, Validator } from "@cfworker/json-schema";
import { defineJsonTool, ToolSet } from "../mod.ts";
import { compileSchema } from "../dyn.ts";
import { DESCRIPTION, fileTicket, INVALID_ARGUMENTS, NAME, type Ticket, VALID_ARGUMENTS } from "./_fixture.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { Ajv } from "./_peers.ts";
import { handWritten, oursTool } from "./typed_dispatch.ts";

const HAND = "hand-written: JSON.parse + a hand-written check in/out";
const OURS = "ours: ToolSet.call (defineJsonTool)";
const BARE = "bare cfworker: JSON.parse + validate in/out";
const AJV = "Ajv (code generation): JSON.parse + validate in/out";

/** The ticket tool's schemas, as JSON Schema: the same ones every contender compiles. */
function schemas(): { inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown> } {
  const { inputSchema, outputSchema } = oursTool(fileTicket).descriptor;
  return { inputSchema: inputSchema as Record<string, unknown>, outputSchema: outputSchema as Record<string, unknown> };
}

/** A dispatch through two compiled validators: parse, check in, run, check out. */
function through(input: (value: unknown) => boolean, output: (value: unknown) => boolean) {
  return async (json: string) => {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return false;
    }
    if (!input(value)) return false;
    return output(await fileTicket(value as Ticket));
  };
}

function cfworker(schema: Record<string, unknown>): (value: unknown) => boolean {
  // The settings ours falls back to: Draft 2020-12, every error collected.
  const validator = new Validator(structuredClone(schema) as Schema, "2020-12", false);
  return (value) => validator.validate(value).valid;
}

function ajv(schema: Record<string, unknown>): (value: unknown) => boolean {
  // allErrors, as ours and cfworker report every problem; no $schema, so the 2020-12 meta-schema is not needed.
  const { $schema: _, ...rest } = schema;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(rest);
  return (value) => validate(value) as boolean;
}

/**
 * Runs case 2 for the valid and the invalid input, and the compile time of one schema.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function jsonSchemaDispatch(mode: Mode): Promise<Row[]> {
  const { inputSchema, outputSchema } = schemas();
  const compiled = compileSchema(inputSchema);
  check(compiled.engine === "compiled", "ours did not compile the ticket schema");
  const tools = new ToolSet().register(defineJsonTool<Ticket>({
    name: NAME,
    description: DESCRIPTION,
    inputSchema,
    outputSchema,
    effects: ["external.mutation"],
    run: fileTicket,
  }));
  const ours = async (json: string) =>
    (await tools.call({ id: "call_1", name: NAME, arguments: json })).type === "output";
  const contenders = [
    [HAND, handWritten()],
    [OURS, ours],
    [BARE, through(cfworker(inputSchema), cfworker(outputSchema))],
    [AJV, through(ajv(inputSchema), ajv(outputSchema))],
  ] as const;
  for (const [name, dispatch] of contenders) {
    check(await dispatch(VALID_ARGUMENTS), `${name} refused the valid input`);
    check(!await dispatch(INVALID_ARGUMENTS), `${name} accepted the invalid input`);
  }
  const names = contenders.map(([name]) => name);
  const rows: Row[] = [];
  for (const [label, json, limit] of [["valid", VALID_ARGUMENTS, 1.3], ["invalid", INVALID_ARGUMENTS, 3]] as const) {
    const stats = await compare(contenders.map(([name, dispatch]) => ({ name, run: () => dispatch(json) })), mode);
    rows.push(...ratioRows(`2. Raw JSON Schema dispatch, ${label} input (per call)`, names, stats, "ns", HAND, {
      [OURS]: (ratio) => ({ text: `≤ ${limit}× hand-written`, met: ratio <= limit }),
    }));
  }
  const compileNames = ["ours: compileSchema", "cfworker: new Validator", "Ajv: compile"];
  const compileStats = await compare([
    { name: compileNames[0], run: () => compileSchema(inputSchema) },
    { name: compileNames[1], run: () => cfworker(inputSchema) },
    { name: compileNames[2], run: () => ajv(inputSchema) },
  ], mode);
  rows.push(
    ...ratioRows("2. Compile one schema (the ticket input)", compileNames, compileStats, "ns", compileNames[0]),
  );
  return rows;
}
