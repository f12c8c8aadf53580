import assert from "node:assert/strict";
import * as v from "valibot";
import { defineJsonTool, defineTool, InvalidSpecError, type JsonSchema, schedulerClass } from "../../../mod.ts";

const DEPTH = 200_000;

function deepJsonSchema(): JsonSchema {
  let schema: Record<string, unknown> = { type: "object" };
  for (let i = 0; i < DEPTH; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

const base = { name: "deep", description: "Deep.", effects: [], run: () => ({}) };

/** Asserts a definition fails as an InvalidSpecError with a message, never another error. */
function refused(define: () => unknown): void {
  assert.throws(define, (error: unknown) => {
    assert.ok(error instanceof InvalidSpecError, `threw ${(error as Error)?.constructor?.name}: ${error}`);
    assert.match(error.message, /^Cannot /);
    return true;
  });
}

Deno.test("defineJsonTool() refuses a 200,000-deep input or output schema as an InvalidSpecError", () => {
  refused(() => defineJsonTool({ ...base, inputSchema: deepJsonSchema() }));
  refused(() => defineJsonTool({ ...base, inputSchema: { type: "object" }, outputSchema: deepJsonSchema() }));
  refused(() => defineJsonTool({ ...base, inputSchema: { type: "object" }, hints: { ui: deepJsonSchema() } as never }));
});

Deno.test("defineTool() refuses a 200,000-deep Valibot schema as an InvalidSpecError", () => {
  let schema: v.GenericSchema = v.object({});
  for (let i = 0; i < DEPTH; i++) schema = v.object({ a: schema });
  refused(() => defineTool({ ...base, inputSchema: schema as v.ObjectSchema<v.ObjectEntries, undefined> }));
});

Deno.test("defineJsonTool() refuses semantics with prototype keys or inherited fields as an InvalidSpecError", () => {
  const cases: unknown[] = [
    { constructor: "x" },
    { toString: "never" },
    JSON.parse('{"__proto__": {"retry": "automatic"}}'),
    Object.create({ retry: "bogus" }),
    Object.create({ retry: "automatic" }),
  ];
  for (const semantics of cases) {
    refused(() => defineJsonTool({ ...base, inputSchema: { type: "object" }, semantics: semantics as never }));
  }
});

Deno.test("schedulerClass() reads only a declaration's own semantics, never inherited ones", () => {
  const inherited = Object.create({ concurrency: "exclusive" });
  assert.equal(schedulerClass({ effects: ["fs.read"], semantics: inherited }), "parallel_read_only");
});
