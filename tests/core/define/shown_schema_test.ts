import assert from "node:assert/strict";
import * as v from "valibot";
import { z } from "../../dev_deps.ts";
import { defineTool, InvalidSpecError, suspend, type ToolSchema, ToolSet } from "../../../mod.ts";
import { compileSchema } from "../../../dyn.ts";

const meta = { description: "Shows a schema.", effects: [], run: () => ({}) } as const;

/**
 * Asserts that the JSON Schema a tool shows of `schema` takes each value the schema itself takes, and, when `exact`,
 * refuses each value it refuses.
 */
function assertShownAgrees(schema: v.GenericSchema, values: readonly unknown[], exact: boolean) {
  const tool = defineTool({ ...meta, name: "shown", inputSchema: v.object({ field: schema }) });
  const shown = compileSchema(tool.descriptor.inputSchema);
  for (const value of values) {
    const checked = v.safeParse(schema, value).success;
    const taken = shown.validate({ field: value }).ok;
    assert.ok(exact ? taken === checked : taken || !checked, `${JSON.stringify(value)}: the check says ${checked}`);
  }
  return tool;
}

Deno.test("defineTool() shows a tuple's trailing optional items as ones its array may leave off", () => {
  const tool = assertShownAgrees(
    v.tuple([v.string(), v.optional(v.number()), v.nullish(v.boolean()), v.unknown()]),
    [["a"], ["a", 1], ["a", 1, null], ["a", 1, true, "x"], [], [1], ["a", "b"]],
    true,
  );
  assert.equal(
    (tool.descriptor.inputSchema as { properties: { field: { minItems: number } } }).properties.field.minItems,
    1,
  );
  // An optional item before a required one must still be there: JSON has no `undefined` to hold its place.
  assertShownAgrees(v.strictTuple([v.optional(v.string()), v.number()]), [["a", 1], [1], [null, 1]], true);
  assertShownAgrees(v.tupleWithRest([v.optional(v.string())], v.number()), [[], ["a"], ["a", 1], [1]], true);
});

Deno.test("a typed output's optional members and tuple items left undefined are left out: the model reads JSON its shown schema takes", async () => {
  const outputSchema = v.object({
    pair: v.tuple([v.string(), v.optional(v.number()), v.optional(v.boolean())]),
    rows: v.array(v.tuple([v.number(), v.optional(v.string())])),
    note: v.optional(v.string()),
  });
  const tool = defineTool({
    ...meta,
    name: "short_tuples",
    inputSchema: v.object({}),
    outputSchema,
    // As the output's type asks: each item there, an optional one as undefined.
    run: (): v.InferInput<typeof outputSchema> => ({
      pair: ["a", 1, undefined],
      rows: [[1, undefined], [2, "b"]],
      note: undefined,
    }),
  });
  const end = await new ToolSet().register(tool).call({ id: "c", name: "short_tuples", arguments: {} });
  assert.equal(end.type, "output", JSON.stringify(end));
  if (end.type !== "output") return;
  // They were refused as JSON cannot carry undefined, though the output's type asks for them; and Valibot's own
  // output holds a tuple's item left off as undefined, which JSON writes as null: ["a",1,null].
  assert.deepEqual(end.result.output, { pair: ["a", 1], rows: [[1], [2, "b"]] });
  const shown = compileSchema(tool.descriptor.outputSchema!);
  const text = (end.result.content[0] as { text: string }).text;
  assert.equal(text, '{"pair":["a",1],"rows":[[1],[2,"b"]]}');
  assert.equal(shown.validate(JSON.parse(text)).ok, true);
});

Deno.test("defineTool() leaves out the pattern of a regex with flags, and warns it is not shown", () => {
  const tool = assertShownAgrees(v.pipe(v.string(), v.regex(/^abc$/i)), ["abc", "ABC", "aBc", "abd"], false);
  assert.deepEqual(tool.descriptor.inputSchema, {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { field: { type: "string" } },
    required: ["field"],
  });
  assert.deepEqual(tool.warnings, [
    'The "regex" check runs after validation; the JSON Schema does not show it, as a JSON Schema pattern takes no flags (i)',
  ]);
  // A pattern shown before or after the flagged regex stays.
  const shownPattern = (schema: v.GenericSchema) => {
    const input = defineTool({ ...meta, name: "p", inputSchema: v.object({ field: schema }) }).descriptor.inputSchema;
    return (input as { properties: { field: { pattern?: string } } }).properties.field.pattern;
  };
  assert.equal(shownPattern(v.pipe(v.string(), v.startsWith("x"), v.regex(/y/s))), "^x");
  assert.equal(shownPattern(v.pipe(v.string(), v.regex(/y/m), v.regex(/^x/))), "^x");
  assert.equal(shownPattern(v.pipe(v.string(), v.regex(/^x/))), "^x");
});

Deno.test("ToolSet.resume() takes an answer a declared resume schema's regex with flags takes", async () => {
  const tool = defineTool({
    ...meta,
    name: "redeem",
    inputSchema: v.object({}),
    resumeSchema: v.object({ code: v.pipe(v.string(), v.regex(/^[a-z]{4}$/i)) }),
    run: (_input, ctx) => ctx.resume === undefined ? suspend({ reason: "Which code?" }) : { code: ctx.resume.code },
  });
  const tools = new ToolSet().register(tool);
  const parked = await tools.call({ id: "1", name: "redeem" });
  assert.equal(parked.type, "suspended");
  if (parked.type !== "suspended") return;
  const end = await tools.resume(parked.suspended, { code: "AbCd" });
  assert.deepEqual(end.type === "output" && end.result.output, { code: "AbCd" });
  const refused = await tools.resume(parked.suspended, { code: "AbC1" });
  assert.equal(refused.type === "failed" && refused.failure.kind, "invalid_input");
});

Deno.test("defineTool() warns that the JSON Schema does not show a fallback, which takes any value", async () => {
  const tool = defineTool({
    ...meta,
    name: "shirt",
    inputSchema: v.object({ size: v.fallback(v.picklist(["s", "m", "l"]), "m") }),
    outputSchema: v.object({ size: v.string() }),
    run: (input) => ({ size: input.size }),
  });
  assert.deepEqual(tool.warnings, [
    "The fallback at /size takes the place of any value its schema refuses; the JSON Schema does not show it",
  ]);
  const end = await new ToolSet().register(tool).call({ id: "1", name: "shirt", arguments: { size: "xl" } });
  assert.deepEqual(end.type === "output" && end.result.output, { size: "m" });
});

Deno.test("suspend() refuses a Valibot resume schema with a fallback, which a resume would skip", async () => {
  const tool = defineTool({
    ...meta,
    name: "ask",
    inputSchema: v.object({}),
    effects: [],
    run: () => suspend({ reason: "Which size?", resumeSchema: v.object({ size: v.fallback(v.string(), "m") }) }),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "ask" });
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  if (end.type === "failed") assert.match(end.failure.message, /The fallback at \/size takes the place of any value/);
});

Deno.test("defineTool() refuses a zod z.file() in its input, output or resume schema, naming where it is", () => {
  const cases: readonly [string, Record<string, ToolSchema>, string][] = [
    ["input", { inputSchema: z.object({ scan: z.object({ page: z.file() }) }) }, "/properties/scan/properties/page"],
    [
      "output",
      { inputSchema: z.object({}), outputSchema: z.object({ pages: z.array(z.file().optional()) }) },
      "/properties/pages/items",
    ],
    ["resume", { inputSchema: z.object({}), resumeSchema: z.union([z.string(), z.file()]) }, "/anyOf/1"],
  ];
  for (const [side, schemas, at] of cases) {
    assert.throws(
      () => defineTool({ ...meta, name: "upload", ...schemas } as never),
      (error: unknown) => {
        assert.ok(error instanceof InvalidSpecError, String(error));
        assert.equal(
          error.message,
          `Cannot define "upload" as its ${side} holds a shape JSON cannot carry: binary data (a file) at ${at} of its JSON Schema, which no JSON value passes`,
        );
        assert.deepEqual(error.problems.map((problem) => problem.path), [`/${side}${at}`]);
        return true;
      },
      side,
    );
  }
});
