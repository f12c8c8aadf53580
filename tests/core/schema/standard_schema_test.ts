import assert from "node:assert/strict";
import * as v from "valibot";
import { type, z } from "../../dev_deps.ts";
import { defineTool, InvalidSpecError, type StandardSchema, ToolSet } from "../../../mod.ts";
import type { DynTool } from "../../../dyn.ts";

const meta = { description: "Counts a path.", effects: [] } as const;

const valibotTool = defineTool({
  ...meta,
  name: "count_valibot",
  inputSchema: v.object({
    path: v.pipe(v.string(), v.minLength(1)),
    count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  run: (input) => ({ path: input.path, count: input.count }),
});
const zodTool = defineTool({
  ...meta,
  name: "count_zod",
  inputSchema: z.object({ path: z.string().min(1), count: z.number().int().min(0) }),
  run: (input) => ({ path: input.path, count: input.count }),
});
const arkTool = defineTool({
  ...meta,
  name: "count_arktype",
  inputSchema: type({ path: "string >= 1", count: "number.integer >= 0" }),
  run: (input) => ({ path: input.path, count: input.count }),
});

async function diagnosticsOf(tool: DynTool, args: unknown) {
  const end = await new ToolSet().register(tool).call({ id: "1", name: tool.descriptor.name, arguments: args });
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_input", JSON.stringify(end));
  return end.type === "failed" ? end.failure.diagnostics ?? [] : [];
}

const BAD_INPUTS: readonly [string, unknown][] = [
  ["missing properties", {}],
  ["values below their bounds", { path: "", count: -1 }],
  ["values of the wrong type", { path: 5, count: 1.5 }],
];

for (const [what, args] of BAD_INPUTS) {
  Deno.test(`A zod 4 tool and an ArkType tool report ${what} with the same diagnostics as a Valibot tool`, async () => {
    const expected = await diagnosticsOf(valibotTool, args);
    assert.ok(expected.length > 0);
    for (const tool of [zodTool, arkTool]) {
      const found = await diagnosticsOf(tool, args);
      assert.deepEqual(
        found.map((d) => [d.path, d.keyword]),
        expected.map((d) => [d.path, d.keyword]),
        tool.descriptor.name,
      );
      for (const diagnostic of found) {
        assert.deepEqual(Object.keys(diagnostic).sort(), ["keyword", "message", "path"]);
        assert.equal(typeof diagnostic.message, "string");
      }
    }
  });
}

Deno.test("A zod 4 tool and an ArkType tool name a missing property as Valibot does", async () => {
  const expected = await diagnosticsOf(valibotTool, { count: 1 });
  assert.deepEqual(expected, [{ path: "/path", keyword: "required", message: 'Missing required property "path".' }]);
  assert.deepEqual(await diagnosticsOf(zodTool, { count: 1 }), expected);
  assert.deepEqual(await diagnosticsOf(arkTool, { count: 1 }), expected);
});

Deno.test("A zod strict object reports an unknown property as additionalProperties, as Valibot does", async () => {
  const strictZod = defineTool({
    ...meta,
    name: "strict_zod",
    inputSchema: z.strictObject({ path: z.string() }),
    run: () => ({}),
  });
  const strictValibot = defineTool({
    ...meta,
    name: "strict_valibot",
    inputSchema: v.strictObject({ path: v.string() }),
    run: () => ({}),
  });
  const args = { path: "a", mode: "x" };
  assert.deepEqual(await diagnosticsOf(strictZod, args), await diagnosticsOf(strictValibot, args));
});

Deno.test("defineTool() takes the JSON Schema of a zod 4 or ArkType input from its own conversion", () => {
  for (const tool of [zodTool, arkTool]) {
    const schema = tool.descriptor.inputSchema as Record<string, unknown>;
    assert.equal(schema.type, "object");
    assert.deepEqual([...(schema.required as string[])].sort(), ["count", "path"]);
    assert.deepEqual((schema.properties as Record<string, unknown>).path, { type: "string", minLength: 1 });
  }
});

Deno.test("A zod 4 tool runs with the parsed input, defaults applied", async () => {
  const tool = defineTool({
    ...meta,
    name: "greet",
    inputSchema: z.object({ name: z.string(), loud: z.boolean().default(false) }),
    outputSchema: z.object({ text: z.string() }),
    run: (input) => ({ text: input.loud ? input.name.toUpperCase() : input.name }),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "greet", arguments: '{"name":"ada"}' });
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { text: "ada" });
});

Deno.test("A zod 4 output schema turns a bad output into invalid_output", async () => {
  const tool = defineTool({
    ...meta,
    name: "bad_output",
    inputSchema: z.object({}),
    outputSchema: z.object({ text: z.string() }),
    run: () => ({ text: 5 }) as never,
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "bad_output" });
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_output");
  if (end.type === "failed") {
    assert.deepEqual(end.failure.diagnostics?.map((d) => [d.path, d.keyword]), [["/text", "type"]]);
  }
});

const asyncCity: StandardSchema<{ city: string }> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value) =>
      Promise.resolve(
        typeof (value as { city?: unknown }).city === "string"
          ? { value: value as { city: string } }
          : { issues: [{ message: "Expected a city", path: [{ key: "city" }] }] },
      ),
  },
};

Deno.test("defineTool() validates through an asynchronous Standard Schema", async () => {
  const tool = defineTool({
    ...meta,
    name: "city",
    inputSchema: asyncCity,
    inputJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    run: (input) => ({ city: input.city }),
  });
  const tools = new ToolSet().register(tool);
  const ok = await tools.call({ id: "1", name: "city", arguments: { city: "Oslo" } });
  assert.equal(ok.type, "output");
  assert.deepEqual(await diagnosticsOf(tool, { city: 5 }), [{
    path: "/city",
    keyword: "custom",
    message: "Expected a city",
  }]);
});

Deno.test("defineTool() prefers an explicit inputJsonSchema to the schema's own conversion", () => {
  const inputJsonSchema = { type: "object", properties: { path: { type: "string", description: "A path." } } };
  const tool = defineTool({
    ...meta,
    name: "explicit",
    inputSchema: z.object({ path: z.string() }),
    inputJsonSchema,
    run: () => ({}),
  });
  assert.deepEqual(tool.descriptor.inputSchema, inputJsonSchema);
});

Deno.test("defineTool() refuses a Standard Schema that offers no JSON Schema when none is given", () => {
  assert.throws(
    () => defineTool({ ...meta, name: "city", inputSchema: asyncCity, run: () => ({}) }),
    (error: unknown) => {
      assert.ok(error instanceof InvalidSpecError);
      assert.match(error.message, /^Cannot define "city" as its test input schema offers no JSON Schema conversion/);
      assert.deepEqual(error.problems.map((p) => p.path), ["/inputJsonSchema"]);
      return true;
    },
  );
});

Deno.test("defineTool() refuses a zod input whose conversion fails, and says to pass inputJsonSchema", () => {
  assert.throws(
    () => defineTool({ ...meta, name: "when", inputSchema: z.object({ at: z.date() }), run: () => ({}) }),
    (error: unknown) => {
      assert.ok(error instanceof InvalidSpecError);
      assert.match(
        error.message,
        /^Cannot define "when" as its input schema cannot convert itself to JSON Schema \(pass inputJsonSchema\)/,
      );
      return true;
    },
  );
});

Deno.test("defineTool() refuses inputJsonSchema beside a Valibot input, and outputJsonSchema without an output", () => {
  assert.throws(
    () =>
      defineTool({
        ...meta,
        name: "mixed",
        inputSchema: v.object({}),
        inputJsonSchema: { type: "object" },
        run: () => ({}),
      }),
    /inputJsonSchema is for Standard Schemas/,
  );
  assert.throws(
    () =>
      defineTool({
        ...meta,
        name: "mixed",
        inputSchema: z.object({}),
        outputJsonSchema: { type: "object" },
        run: () => ({}),
      }),
    /outputJsonSchema describes an output schema: current value is no output/,
  );
});

Deno.test("defineTool() refuses an input that is neither Valibot nor a Standard Schema", () => {
  assert.throws(
    () => defineTool({ ...meta, name: "plain", inputSchema: { type: "object" } as never, run: () => ({}) }),
    /^InvalidSpecError: Cannot define "plain" as inputSchema must be a Valibot schema or a Standard Schema/,
  );
});

Deno.test("defineTool() types the handler's input from a zod 4 schema", () => {
  const tool = defineTool({
    ...meta,
    name: "typed",
    inputSchema: z.object({ n: z.number() }),
    run: (input) => {
      const n: number = input.n;
      return { n };
    },
  });
  const input: { n: number } | undefined = tool.types?.input;
  assert.equal(input, undefined);
});

Deno.test("An ArkType tool reports a bad literal union as enum and a rejected key as additionalProperties, as Valibot does", async () => {
  const ark = defineTool({
    ...meta,
    name: "unit_arktype",
    inputSchema: type({ "+": "reject", unit: "'c' | 'f'" }),
    run: () => ({}),
  });
  const valibot = defineTool({
    ...meta,
    name: "unit_valibot",
    inputSchema: v.strictObject({ unit: v.picklist(["c", "f"]) }),
    run: () => ({}),
  });
  const zod = defineTool({
    ...meta,
    name: "unit_zod",
    inputSchema: z.strictObject({ unit: z.enum(["c", "f"]) }),
    run: () => ({}),
  });
  const args = { unit: "k", mode: "x" };
  const expected = (await diagnosticsOf(valibot, args)).map((d) => [d.path, d.keyword]);
  assert.deepEqual(expected, [["/mode", "additionalProperties"], ["/unit", "enum"]]);
  assert.deepEqual((await diagnosticsOf(ark, args)).map((d) => [d.path, d.keyword]), expected);
  assert.deepEqual((await diagnosticsOf(zod, args)).map((d) => [d.path, d.keyword]), expected);
});

Deno.test("A Standard Schema that returns no result fails the call as contract, with the reason", async () => {
  const broken: StandardSchema<{ a: string }> = {
    "~standard": { version: 1, vendor: "broken", validate: () => undefined as never },
  };
  const tool = defineTool({
    ...meta,
    name: "broken",
    inputSchema: broken,
    inputJsonSchema: { type: "object" },
    run: () => ({}),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "broken", arguments: {} });
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  if (end.type === "failed") assert.match(end.failure.message, /Cannot read the broken schema's result/);
});

Deno.test("A Standard Schema issue whose code is an Object.prototype key keeps that code as its keyword", async () => {
  const odd: StandardSchema<Record<string, never>> = {
    "~standard": {
      version: 1,
      vendor: "example",
      validate: () => ({ issues: [{ message: "Odd.", path: ["a"], code: "constructor" } as never] }),
    },
  };
  const tool = defineTool({
    name: "odd",
    description: "Odd.",
    inputSchema: odd,
    inputJsonSchema: { type: "object" },
    effects: [],
    run: () => ({}),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "odd", arguments: { a: 1 } });
  assert.equal(end.type === "failed" && end.failure.diagnostics?.[0].keyword, "constructor");
});
