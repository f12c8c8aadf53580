// Case 2 on Deno: raw JSON Schema dispatch (bench/_json_schema_case.ts) on
// the source, where a call's time goes (bench/_json_schema_costs.ts), what
// the linear-time pattern engine costs (bench/_pattern_costs.ts), then the
// time to compile one schema, for each validator.

import { compileSchema } from "../dyn.ts";
import { ajv, cfworker, jsonSchemaDispatchRows, type TicketSchemas } from "./_json_schema_case.ts";
import { jsonSchemaCostRows } from "./_json_schema_costs.ts";
import { patternCostRows } from "./_pattern_costs.ts";
import { compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { fileTicket } from "./_ticket.ts";
import { oursTool } from "./typed_dispatch.ts";

/**
 * The ticket tool's schemas as JSON Schema, derived from its Valibot schemas
 * as `defineTool` derives them.
 *
 * @returns The input and output schemas.
 */
export function ticketSchemas(): TicketSchemas {
  const { inputSchema, outputSchema } = oursTool(fileTicket).descriptor;
  return { inputSchema: inputSchema as Record<string, unknown>, outputSchema: outputSchema as Record<string, unknown> };
}

/**
 * Runs case 2 on Deno for the valid and the invalid input, where a call's time goes, what each pattern engine costs,
 * and the compile time of one schema.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function jsonSchemaDispatch(mode: Mode): Promise<Row[]> {
  const schemas = ticketSchemas();
  const rows = await jsonSchemaDispatchRows(schemas, `Deno ${Deno.version.deno}`, mode);
  rows.push(...await jsonSchemaCostRows(schemas, mode));
  rows.push(...await patternCostRows(schemas, mode));
  const { inputSchema } = schemas;
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
