import assert from "node:assert/strict";
import * as v from "valibot";
import { defineJsonTool, defineTool, InvalidSpecError, type JsonSchema, ToolSet } from "../../../mod.ts";

const jsonTool = (change: Record<string, unknown>) =>
  defineJsonTool({
    name: "note",
    description: "Saves a note.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    effects: [],
    run: () => ({}),
    ...change,
  } as never);

function assertDefinitionRefused(define: () => unknown, message: RegExp): void {
  assert.throws(define, (error: unknown) => {
    assert.ok(error instanceof InvalidSpecError, String(error));
    assert.match(error.message, message);
    assert.match(error.message, /^Cannot /);
    return true;
  });
}

Deno.test("defineTool() derives a Draft 2020-12 object schema from the Valibot input", () => {
  const tool = defineTool({
    name: "read_file",
    description: "Read a file.",
    inputSchema: v.object({ path: v.pipe(v.string(), v.minLength(1)), limit: v.optional(v.number()) }),
    effects: ["fs.read"],
    run: () => ({}),
  });
  assert.deepEqual(tool.descriptor.inputSchema, {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { path: { type: "string", minLength: 1 }, limit: { type: "number" } },
    required: ["path"],
  });
  assert.deepEqual(tool.warnings, []);
  assert.ok(Object.isFrozen(tool.descriptor));
});

Deno.test("defineTool() refuses an input shape JSON cannot carry", () => {
  const shapes = {
    "a Date": v.object({ when: v.date() }),
    "a Map": v.object({ index: v.map(v.string(), v.number()) }),
    "a function": v.object({ callback: v.function() }),
    "a BigInt": v.object({ big: v.bigint() }),
  };
  for (const [label, input] of Object.entries(shapes)) {
    assert.throws(
      () => defineTool({ name: "shape", description: "Shape.", inputSchema: input, effects: [], run: () => ({}) }),
      (error: unknown) => {
        assert.ok(error instanceof InvalidSpecError, label);
        assert.match(error.message, /holds a shape JSON cannot carry/, label);
        assert.equal(error.problems[0].path, "/input", label);
        return true;
      },
    );
  }
});

Deno.test("defineTool() lists transforms and custom checks as warnings", () => {
  const tool = defineTool({
    name: "shout",
    description: "Shouts.",
    inputSchema: v.object({
      text: v.pipe(v.string(), v.trim(), v.check((text) => text !== "quiet", "Not quiet")),
    }),
    effects: [],
    run: () => ({}),
  });
  assert.equal(tool.warnings.length, 2);
  assert.ok(tool.warnings.some((w) => /"trim" transformation at \/text/.test(w)), tool.warnings.join("\n"));
  assert.ok(tool.warnings.some((w) => /"check" check/.test(w)), tool.warnings.join("\n"));
});

Deno.test("defineTool() warns of the checks its input's JSON Schema leaves out: past a second schema, in a nested pipe, behind a lazy schema", () => {
  const tool = defineTool({
    name: "unlock",
    description: "Unlocks.",
    inputSchema: v.object({
      pin: v.pipe(v.string(), v.pipe(v.string(), v.length(4))),
      code: v.pipe(v.unknown(), v.string(), v.minLength(4)),
      n: v.lazy(() => v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(10))),
    }),
    effects: [],
    run: () => ({}),
  });
  const warned = (pattern: RegExp) => assert.ok(tool.warnings.some((w) => pattern.test(w)), tool.warnings.join("\n"));
  warned(/"length" check at \/pin follows a transformation or a second schema/);
  warned(/"min_length" check at \/code follows a transformation or a second schema/);
  warned(/"transform" transformation at \/n/);
  warned(/"min_value" check at \/n follows a transformation or a second schema/);
});

Deno.test("defineTool() shows a Valibot output as what the handler's result becomes", async () => {
  const tool = defineTool({
    name: "count",
    description: "Counts.",
    inputSchema: v.object({}),
    outputSchema: v.object({ count: v.pipe(v.string(), v.transform(Number), v.number()) }),
    effects: [],
    run: () => ({ count: "5" }),
  });
  assert.deepEqual((tool.descriptor.outputSchema as { properties: unknown }).properties, { count: { type: "number" } });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "count" });
  assert.deepEqual(end.type === "output" && end.result.output, { count: 5 });
});

Deno.test("defineTool() refuses an output transformed to a type no schema after the transformation names", () => {
  assertDefinitionRefused(
    () =>
      defineTool({
        name: "count",
        description: "Counts.",
        inputSchema: v.object({}),
        outputSchema: v.object({ count: v.pipe(v.string(), v.transform(Number)) }),
        effects: [],
        run: () => ({ count: "5" }),
      }),
    /its output cannot show what it returns: the "transform" transformation at \/count changes the type/,
  );
});

Deno.test("defineTool() refuses an input, output or run of the wrong kind", () => {
  const input = v.object({});
  assertDefinitionRefused(
    () =>
      defineTool({ name: "t", description: "T.", inputSchema: { type: "object" } as never, effects: [], run: () => 1 }),
    /inputSchema must be a Valibot schema/,
  );
  assertDefinitionRefused(
    () =>
      defineTool({
        name: "t",
        description: "T.",
        inputSchema: input,
        outputSchema: {} as never,
        effects: [],
        run: () => 1 as never,
      }),
    /outputSchema must be a Valibot schema/,
  );
  assertDefinitionRefused(
    () => defineTool({ name: "t", description: "T.", inputSchema: input, effects: [], run: "no" as never }),
    /run must be a function/,
  );
  assertDefinitionRefused(
    () => defineTool({ name: "t", description: "T.", inputSchema: v.string() as never, effects: [], run: () => 1 }),
    /type "object"/,
  );
});

Deno.test("defineTool() validates with an async Valibot schema", async () => {
  const tool = defineTool({
    name: "async_check",
    description: "Checks later.",
    inputSchema: v.objectAsync({
      name: v.pipeAsync(v.string(), v.checkAsync(async (name) => (await Promise.resolve(name)) !== "taken", "Taken")),
    }),
    effects: [],
    run: (input) => ({ name: input.name }),
  });
  const tools = new ToolSet().register(tool);
  assert.equal((await tools.call({ id: "1", name: "async_check", arguments: '{"name":"free"}' })).type, "output");
  const end = await tools.call({ id: "2", name: "async_check", arguments: '{"name":"taken"}' });
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_input");
});

const definitionRefusals: readonly [string, Record<string, unknown>, RegExp][] = [
  ["a non-object input schema", { inputSchema: { type: "array" } }, /type "object"/],
  ["an external $ref", { inputSchema: { type: "object", properties: { a: { $ref: "https://x.test/a" } } } }, /outside/],
  [
    "an over-deep schema",
    {
      inputSchema: JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(33)}{}${"}}".repeat(33)}`),
    },
    /deeper than 32/,
  ],
  ["an over-large schema", { inputSchema: { type: "object", description: "x".repeat(270_000) } }, /exceeds/],
  ["a malformed effect", { effects: ["fs.Read"] }, /effect/],
  [
    "non_idempotent with automatic retry",
    { effects: ["fs.delete"], semantics: { retry: "automatic" } },
    /non_idempotent/,
  ],
  ["a run that is not a function", { run: undefined }, /run must be a function/],
  ["an output schema with an external $ref", { outputSchema: { $ref: "other.json" } }, /outputSchema/],
];

for (const [label, change, message] of definitionRefusals) {
  Deno.test(`defineJsonTool() refuses ${label} at definition`, () => {
    assertDefinitionRefused(() => jsonTool(change), message);
  });
}

Deno.test("defineJsonTool() resolves $ref to remotes given from memory, in both schemas", async () => {
  const remotes: Record<string, JsonSchema> = {
    "https://schemas.test/point.json": {
      type: "object",
      properties: { x: { type: "number" }, y: { type: "number" } },
      required: ["x", "y"],
    },
  };
  const before = structuredClone(remotes);
  const tool = defineJsonTool({
    name: "mirror",
    description: "Mirrors a point.",
    inputSchema: { type: "object", properties: { at: { $ref: "https://schemas.test/point.json" } }, required: ["at"] },
    outputSchema: { $ref: "https://schemas.test/point.json" },
    remotes,
    effects: [],
    run: (input: { at: { x: number; y: number } }) => input.at.x > 0 ? { x: -input.at.x, y: input.at.y } : { x: "no" },
  });
  assert.deepEqual(remotes, before);
  const tools = new ToolSet().register(tool);
  const ok = await tools.call({ id: "1", name: "mirror", arguments: { at: { x: 1, y: 2 } } });
  assert.equal(ok.type === "output" && JSON.stringify(ok.result.output), '{"x":-1,"y":2}');
  const badInput = await tools.call({ id: "2", name: "mirror", arguments: { at: { x: 1 } } });
  assert.equal(badInput.type === "failed" && badInput.failure.diagnostics?.[0].path, "/at/y");
  const badOutput = await tools.call({ id: "3", name: "mirror", arguments: { at: { x: -1, y: 0 } } });
  assert.equal(badOutput.type === "failed" && badOutput.failure.kind, "invalid_output");
});

Deno.test("defineJsonTool() still refuses a $ref to a URI that is not among the remotes", () => {
  assertDefinitionRefused(
    () =>
      jsonTool({
        inputSchema: { type: "object", properties: { a: { $ref: "https://schemas.test/other.json" } } },
        remotes: { "https://schemas.test/point.json": { type: "object" } },
      }),
    /points outside it/,
  );
});

Deno.test("defineJsonTool() is unaffected by later changes to the schema it was given", async () => {
  const inputSchema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
  const tool = jsonTool({ inputSchema });
  inputSchema.required = [];
  inputSchema.properties.n.type = "string";
  const tools = new ToolSet().register(tool);
  assert.equal((await tools.call({ id: "1", name: "note", arguments: "{}" })).type, "failed");
  assert.equal((await tools.call({ id: "2", name: "note", arguments: '{"n":1}' })).type, "output");
  assert.deepEqual((tool.descriptor.inputSchema as { required: string[] }).required, ["n"]);
});
