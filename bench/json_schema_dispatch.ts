// Case 2: raw JSON Schema dispatch, the path MCP tools take. Ours (a
// defineJsonTool in a ToolSet) against bare @cfworker/json-schema with a
// validator compiled once and reused: parse, validate input, run, validate
// output. Both use the same schemas, derived from the fixture.

import { type Schema, Validator } from "@cfworker/json-schema";
import { defineJsonTool, ToolSet } from "../mod.ts";
import { DESCRIPTION, fileTicket, INVALID_ARGUMENTS, NAME, type Ticket, VALID_ARGUMENTS } from "./_fixture.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { oursTool } from "./typed_dispatch.ts";

const BARE = "bare cfworker: JSON.parse + validate in/out";
const OURS = "ours: ToolSet.call (defineJsonTool)";

/**
 * Runs case 2 for the valid and the invalid input.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function jsonSchemaDispatch(mode: Mode): Promise<Row[]> {
  const { inputSchema, outputSchema } = oursTool(fileTicket).descriptor;
  // The same settings ours uses: Draft 2020-12, every error collected.
  const input = new Validator(structuredClone(inputSchema) as Schema, "2020-12", false);
  const output = new Validator(structuredClone(outputSchema) as Schema, "2020-12", false);
  const bare = async (json: string) => {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return false;
    }
    if (!input.validate(value).valid) return false;
    return output.validate(await fileTicket(value as Ticket)).valid;
  };
  const tools = new ToolSet().register(defineJsonTool<Ticket>({
    name: NAME,
    description: DESCRIPTION,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    effects: ["external.mutation"],
    run: fileTicket,
  }));
  const ours = async (json: string) =>
    (await tools.call({ id: "call_1", name: NAME, arguments: json })).type === "output";
  for (const [name, dispatch] of [[BARE, bare], [OURS, ours]] as const) {
    check(await dispatch(VALID_ARGUMENTS), `${name} refused the valid input`);
    check(!await dispatch(INVALID_ARGUMENTS), `${name} accepted the invalid input`);
  }
  const rows: Row[] = [];
  for (const [label, json] of [["valid", VALID_ARGUMENTS], ["invalid", INVALID_ARGUMENTS]] as const) {
    const stats = await compare([{ name: BARE, run: () => bare(json) }, { name: OURS, run: () => ours(json) }], mode);
    rows.push(...ratioRows(`2. Raw JSON Schema dispatch, ${label} input (per call)`, [BARE, OURS], stats, "ns", BARE, {
      [OURS]: (ratio) => ({ text: "≤ 1.2× bare cfworker", met: ratio <= 1.2 }),
    }));
  }
  return rows;
}
