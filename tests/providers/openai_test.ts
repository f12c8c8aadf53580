import assert from "node:assert/strict";
import { fc } from "../dev_deps.ts";
import { type ArgumentsProjection, defineJsonTool, type JsonSchema, type ToolDescriptor, ToolSet } from "../../mod.ts";
import { compileSchema, describeTool } from "../../dyn.ts";
import { openAIStrict, ProjectionError, toOpenAITool } from "../../providers.ts";
import golden from "./fixtures/projection_goldens/openai_strict.json" with { type: "json" };
import { projectAll } from "./fixtures/projection.ts";
import { fixtureDescriptor, SCHEMAS } from "./fixtures/projection_schemas.ts";

type Node = Record<string, unknown>;

const descriptorOf = (inputSchema: JsonSchema, name = "probe"): ToolDescriptor =>
  describeTool({ name, description: "A probe.", inputSchema, effects: [] });

for (const name of Object.keys(SCHEMAS)) {
  Deno.test(`toOpenAITool() projects the ${name} fixture in strict mode as its golden records`, () => {
    assert.deepEqual(projectAll("openai_strict")[name], golden[name as keyof typeof golden]);
  });
}

Deno.test("toOpenAITool() makes every property required and the optional ones nullable", () => {
  const { tool, warnings } = toOpenAITool(fixtureDescriptor("optional_fields"));
  assert.equal(tool.function.strict, true);
  assert.deepEqual(tool.function.parameters.required, ["query", "limit", "offset"]);
  assert.deepEqual(tool.function.parameters.properties, {
    query: { type: "string" },
    limit: { type: ["integer", "null"] },
    offset: { type: ["integer", "null"] },
  });
  assert.deepEqual(warnings, []);
});

Deno.test("toOpenAITool() closes an object without additionalProperties and says so", () => {
  const { tool, warnings } = toOpenAITool(descriptorOf({ type: "object", properties: { a: { type: "string" } } }));
  assert.equal(tool.function.parameters.additionalProperties, false);
  assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [[
    "/inputSchema/additionalProperties",
    "additionalProperties",
  ]]);
});

Deno.test("toOpenAITool() refuses an open map in strict mode with the reason and its path", () => {
  assert.throws(() => toOpenAITool(fixtureDescriptor("maps")), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.match(error.message, /^Cannot project "maps" for OpenAI strict mode/);
    assert.deepEqual(error.problems.map((p) => [p.path, p.keyword]), [[
      "/inputSchema/properties/headers/additionalProperties",
      "additionalProperties",
    ]]);
    return true;
  });
});

Deno.test("toOpenAITool() refuses patternProperties, tuples, allOf and any-value schemas in strict mode", () => {
  const schema = {
    type: "object",
    properties: {
      labels: { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
      point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }] },
      both: { allOf: [{ type: "string" }, { minLength: 2 }] },
      anything: {},
    },
    required: ["labels", "point", "both", "anything"],
    additionalProperties: false,
  };
  assert.throws(() => toOpenAITool(descriptorOf(schema)), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.deepEqual(error.problems.map((p) => [p.path, p.keyword]), [
      ["/inputSchema/properties/labels/patternProperties", "patternProperties"],
      ["/inputSchema/properties/point/prefixItems", "prefixItems"],
      ["/inputSchema/properties/point", "items"],
      ["/inputSchema/properties/both/allOf", "allOf"],
      ["/inputSchema/properties/both", "type"],
      ["/inputSchema/properties/anything", "type"],
    ]);
    return true;
  });
});

Deno.test("toOpenAITool() with onUnsupported non_strict sends the schema unchanged and lists why", () => {
  const descriptor = fixtureDescriptor("maps");
  const { tool, warnings } = toOpenAITool(descriptor, { onUnsupported: "non_strict" });
  assert.equal(tool.function.strict, false);
  assert.deepEqual(tool.function.parameters, descriptor.inputSchema);
  assert.deepEqual(warnings.map((w) => w.keyword), ["additionalProperties", "strict"]);
});

Deno.test("toOpenAITool() refuses a schema past strict mode's nesting limit", () => {
  let schema: Node = { type: "string" };
  for (let i = 0; i < 11; i++) {
    schema = { type: "object", properties: { next: schema }, required: ["next"], additionalProperties: false };
  }
  assert.throws(() => toOpenAITool(descriptorOf(schema)), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.deepEqual(error.problems.map((p) => p.keyword), ["nesting"]);
    return true;
  });
});

Deno.test("toOpenAITool() warns that an optional property that already accepts null cannot be left out", () => {
  const { tool, warnings } = toOpenAITool(descriptorOf({
    type: "object",
    properties: { note: { type: ["string", "null"] } },
    additionalProperties: false,
  }));
  assert.deepEqual(tool.function.parameters.properties, { note: { type: ["string", "null"] } });
  assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [["/inputSchema/properties/note", "required"]]);
});

Deno.test("toOpenAITool() without strict mode sends the schema as it is", () => {
  const descriptor = fixtureDescriptor("maps");
  const { tool, warnings } = toOpenAITool(descriptor, { strict: false, api: "responses" });
  assert.deepEqual(tool, {
    type: "function",
    name: "maps",
    description: "The maps fixture.",
    parameters: descriptor.inputSchema,
    strict: false,
  });
  assert.deepEqual(warnings, []);
});

Deno.test("toOpenAITool() gives the Responses API shape with the same strict parameters", () => {
  const descriptor = fixtureDescriptor("nested_objects");
  const chat = toOpenAITool(descriptor).tool;
  const responses = toOpenAITool(descriptor, { api: "responses" }).tool;
  assert.deepEqual(responses, { type: "function", ...chat.function });
});

Deno.test("toOpenAITool() refuses an unknown api", () => {
  assert.throws(
    () => toOpenAITool(fixtureDescriptor("nested_objects"), { api: "assistants" as never }),
    /^TypeError: Cannot project for OpenAI as api must be/,
  );
});

Deno.test("toOpenAITool() does not change the descriptor", () => {
  const descriptor = descriptorOf(structuredClone(SCHEMAS.recursive_defs));
  const before = structuredClone(descriptor);
  const { tool } = toOpenAITool(descriptor);
  (tool.function.parameters.properties as Node).tree = "changed";
  assert.deepEqual(descriptor, before);
});

// Dispatch of what a strict model sends.

function echoTool(inputSchema: JsonSchema) {
  return defineJsonTool({
    name: "echo",
    description: "Returns its input.",
    inputSchema,
    effects: [],
    run: (input: unknown) => ({ input }),
  });
}

async function echo(inputSchema: JsonSchema, args: unknown, projection?: ArgumentsProjection) {
  const end = await new ToolSet().register(echoTool(inputSchema)).call(
    { id: "1", name: "echo", arguments: args },
    projection ? { projection } : {},
  );
  return end;
}

Deno.test("ToolSet.call() with projection openai-strict reads null for a made-nullable property as absent", async () => {
  const end = await echo(SCHEMAS.optional_fields, '{"query":"q","limit":null,"offset":5}', openAIStrict);
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { input: { query: "q", offset: 5 } });
});

Deno.test("ToolSet.call() without the projection option keeps null and reports invalid_input", async () => {
  const end = await echo(SCHEMAS.optional_fields, '{"query":"q","limit":null,"offset":null}');
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_input");
  if (end.type === "failed") {
    assert.deepEqual(end.failure.diagnostics?.map((d) => [d.path, d.keyword]), [["/limit", "type"], [
      "/offset",
      "type",
    ]]);
  }
});

Deno.test("ToolSet.call() with projection openai-strict keeps null for a property the schema allows null", async () => {
  const end = await echo(SCHEMAS.nullable, { note: null, parent: null }, openAIStrict);
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { input: { note: null, parent: null } });
});

Deno.test("ToolSet.call() with projection openai-strict restores nulls inside union branches and recursive $defs", async () => {
  const union = await echo(
    SCHEMAS.unions,
    { target: { kind: "url", url: "https://example.com", timeoutMs: null } },
    openAIStrict,
  );
  assert.equal(union.type, "output");
  if (union.type === "output") {
    assert.deepEqual(union.result.output, { input: { target: { kind: "url", url: "https://example.com" } } });
  }
  const tree = await echo(
    SCHEMAS.recursive_defs,
    {
      tree: {
        label: "root",
        weight: null,
        children: [{ label: "leaf", weight: 2, children: null }],
      },
    },
    openAIStrict,
  );
  assert.equal(tree.type, "output");
  if (tree.type === "output") {
    assert.deepEqual(tree.result.output, {
      input: { tree: { label: "root", children: [{ label: "leaf", weight: 2 }] } },
    });
  }
});

Deno.test("ToolSet.call() with projection openai-strict changes only a null the tool's own schema could never accept", async () => {
  const schema = {
    type: "object",
    properties: {
      headers: { type: "object", additionalProperties: { type: "string" } },
      note: { type: "string" },
      reason: { type: ["string", "null"] },
      id: { type: "string" },
    },
    required: ["id"],
    additionalProperties: false,
  };
  // `note: null` is invalid under the schema, so reading it as absent changes no valid meaning;
  // a nullable property keeps its null, and a required one is never touched.
  const kept = await echo(schema, { headers: {}, note: null, reason: null, id: "a" }, openAIStrict);
  assert.deepEqual(kept.type === "output" && kept.result.output, {
    input: { headers: {}, reason: null, id: "a" },
  });
  const required = await echo(schema, { id: null }, openAIStrict);
  assert.equal(required.type === "failed" && required.failure.kind, "invalid_input");
  if (required.type === "failed") {
    assert.deepEqual(required.failure.diagnostics?.map((d) => [d.path, d.keyword]), [["/id", "type"]]);
  }
});

Deno.test("ToolSet.call() does not change the arguments value it is given when restoring", async () => {
  const args = { query: "q", limit: null, offset: null };
  await echo(SCHEMAS.optional_fields, args, openAIStrict);
  assert.deepEqual(args, { query: "q", limit: null, offset: null });
});

Deno.test("ToolSet.call() reports contract for an unknown projection option", async () => {
  const end = await new ToolSet().register(echoTool(SCHEMAS.optional_fields)).call(
    { id: "1", name: "echo", arguments: { query: "q" } },
    { projection: "gemini" as never },
  );
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  if (end.type === "failed") assert.match(end.failure.message, /projection must be an ArgumentsProjection/);
});

Deno.test("ToolSet.call() reports contract, never a throw, for a projection whose restore throws or returns no object", async () => {
  const tools = new ToolSet().register(echoTool(SCHEMAS.optional_fields));
  const broken: ArgumentsProjection[] = [
    {
      name: "throws",
      restore: () => {
        throw new Error("boom");
      },
    },
    { name: "array", restore: () => [] as never },
  ];
  for (const projection of broken) {
    const end = await tools.call({ id: "1", name: "echo", arguments: { query: "q" } }, { projection });
    assert.equal(end.type === "failed" && end.failure.kind, "contract");
    if (end.type === "failed") assert.match(end.failure.message, new RegExp(`the ${projection.name} projection`));
  }
});

// The round trip, for all arguments: a value valid under the original schema,
// written the way a strict model writes it, validates against the strict
// projection, and dispatch hands the handler the value it started from.

interface Pair {
  readonly value: unknown;
  readonly strict: unknown;
}

const same = (value: unknown): Pair => ({ value, strict: value });

function resolve(root: Node, ref: string): Node {
  return ref === "#" ? root : ref.slice(2).split("/").reduce((node: Node, key) => node[key] as Node, root);
}

/** Arbitrary values of a schema (the subset the fixtures use), each with its strict-mode form. */
function pairs(schema: Node, root: Node, depth = 0): fc.Arbitrary<Pair> {
  if (typeof schema.$ref === "string") return pairs(resolve(root, schema.$ref), root, depth + 1);
  const branches = (schema.anyOf ?? schema.oneOf) as Node[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => pairs(branch, root, depth)));
  if ("const" in schema) return fc.constant(same(schema.const));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum).map(same);
  const types = Array.isArray(schema.type) ? schema.type as string[] : [schema.type as string];
  if (types.length > 1) return fc.oneof(...types.map((type) => pairs({ ...schema, type }, root, depth)));
  const min = schema.minimum as number | undefined;
  const max = schema.maximum as number | undefined;
  switch (types[0]) {
    case "null":
      return fc.constant(same(null));
    case "boolean":
      return fc.boolean().map(same);
    case "string":
      return fc.string({ minLength: schema.minLength as number | undefined }).map(same);
    case "integer": {
      const step = (schema.multipleOf as number | undefined) ?? 1;
      return fc.integer({ min: min ?? -1e6, max: max ?? 1e6 }).map((n) => same(n * step));
    }
    case "number":
      return fc.double({
        min: (schema.exclusiveMinimum as number | undefined) ?? min ?? -1e6,
        max: (schema.exclusiveMaximum as number | undefined) ?? max ?? 1e6,
        minExcluded: schema.exclusiveMinimum !== undefined,
        maxExcluded: schema.exclusiveMaximum !== undefined,
        noNaN: true,
        noDefaultInfinity: true,
      }).map((n) => same(n === 0 ? 0 : n));
    case "array": {
      // Deep enough: a recursive schema stops with empty lists.
      if (depth > 3 && !schema.minItems) return fc.constant(same([]));
      const item = pairs(schema.items as Node, root, depth + 1);
      const maxLength = Math.min((schema.maxItems as number | undefined) ?? 3, 3);
      const minLength = Math.min((schema.minItems as number | undefined) ?? 0, maxLength);
      const items = schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, comparator: (a, b) => JSON.stringify(a) === JSON.stringify(b) })
        : fc.array(item, { minLength, maxLength });
      return items.map((list) => ({ value: list.map((p) => p.value), strict: list.map((p) => p.strict) }));
    }
    default: {
      const properties = (schema.properties ?? {}) as Record<string, Node>;
      const required = (schema.required ?? []) as string[];
      const entries = Object.entries(properties).map(([key, property]) =>
        [
          key,
          required.includes(key) ? pairs(property, root, depth + 1) : fc.option(pairs(property, root, depth + 1)),
        ] as const
      );
      return fc.record(Object.fromEntries(entries) as Record<string, fc.Arbitrary<Pair | null>>).map((record) => {
        const value: Node = {};
        const strict: Node = {};
        for (const [key, pair] of Object.entries(record)) {
          if (pair === null) strict[key] = null;
          else {
            value[key] = pair.value;
            strict[key] = pair.strict;
          }
        }
        return { value, strict };
      });
    }
  }
}

const ROUND_TRIP_FIXTURES = [
  "nested_objects",
  "optional_fields",
  "arrays_of_objects",
  "enums",
  "unions",
  "nullable",
  "recursive_defs",
  "integer_ranges",
  "defaults",
  "descriptions",
  "widening_constraints",
  "valibot_derived",
];

for (const name of ROUND_TRIP_FIXTURES) {
  Deno.test(`toOpenAITool() and dispatch round-trip every valid ${name} value through strict mode`, async () => {
    const original = SCHEMAS[name];
    const originalSchema = compileSchema(original);
    const strictSchema = compileSchema(toOpenAITool(descriptorOf(original)).tool.function.parameters);
    const tools = new ToolSet().register(echoTool(original));
    await fc.assert(
      fc.asyncProperty(pairs(original, original), async ({ value, strict }) => {
        assert.deepEqual(originalSchema.validate(value), { ok: true });
        assert.deepEqual(strictSchema.validate(strict), { ok: true });
        const end = await tools.call({ id: "1", name: "echo", arguments: JSON.stringify(strict) }, {
          projection: openAIStrict,
        });
        assert.equal(end.type, "output", JSON.stringify(end));
        if (end.type === "output") assert.deepEqual(end.result.output, { input: value });
      }),
      { numRuns: 60 },
    );
  });
}

Deno.test("ToolSet.call() with projection openai-strict keeps a __proto__ argument as a plain own property", async () => {
  const schema = { type: "object", properties: { note: { type: "string" } } };
  const end = await echo(schema, '{"__proto__":{"polluted":true},"note":null}', openAIStrict);
  assert.equal(end.type, "output");
  if (end.type === "output") {
    const input = (end.result.output as { input: Record<string, unknown> }).input;
    assert.deepEqual(Object.keys(input), ["__proto__"]);
    assert.equal(Object.getPrototypeOf(input), Object.prototype);
    assert.equal((input as { polluted?: unknown }).polluted, undefined);
  }
});

Deno.test("every projection refuses what is not a descriptor with a TypeError", async () => {
  const { toAnthropicTool, toGeminiFunction, toMcpTool } = await import("../../providers.ts");
  for (const project of [toOpenAITool, toAnthropicTool, toGeminiFunction, toMcpTool]) {
    for (const bad of [undefined, null, "read_file", { name: "x" }, { name: "x", description: "d", inputSchema: 5 }]) {
      assert.throws(() => project(bad as never), (error: unknown) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /^Cannot project the tool for \w+ as it needs a ToolDescriptor/);
        return true;
      });
    }
  }
});

Deno.test("toOpenAITool() refuses a union at the root in strict mode", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "string" } },
    anyOf: [{ required: ["a"] }, { required: ["b"] }],
    additionalProperties: false,
  };
  assert.throws(() => toOpenAITool(descriptorOf(schema)), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.ok(error.problems.some((p) => p.path === "/inputSchema/anyOf" && /union at the root/.test(p.message)));
    return true;
  });
});

Deno.test("toOpenAITool() refuses a nested object that declares no properties, but closes an empty root", () => {
  const nested = { type: "object", properties: { metadata: { type: "object" } }, additionalProperties: false };
  assert.throws(() => toOpenAITool(descriptorOf(nested)), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.deepEqual(error.problems.map((p) => [p.path, p.keyword]), [[
      "/inputSchema/properties/metadata",
      "properties",
    ]]);
    return true;
  });
  const { tool } = toOpenAITool(descriptorOf({ type: "object" }));
  assert.deepEqual(tool.function.parameters, {
    type: "object",
    additionalProperties: false,
    properties: {},
    required: [],
  });
});

Deno.test("toOpenAITool() reads a reference whose percent-encoding is malformed as one that resolves to nothing, with no URIError", () => {
  // A raw descriptor: describeTool refuses such a reference, but a projection may be given one as it is.
  const withRef = (ref: string): ToolDescriptor => ({
    ...describeTool({ name: "probe", description: "Probes.", inputSchema: { type: "object" }, effects: [] }),
    inputSchema: { type: "object", properties: { a: { $ref: ref } }, $defs: {} },
  });
  const malformed = toOpenAITool(withRef("#/$defs/%E0%A4%A"), { onUnsupported: "non_strict" });
  const unresolved = toOpenAITool(withRef("#/$defs/nope"), { onUnsupported: "non_strict" });
  assert.deepEqual(
    JSON.parse(JSON.stringify(malformed).replaceAll("%E0%A4%A", "nope")),
    JSON.parse(JSON.stringify(unresolved)),
  );
});

Deno.test("toOpenAITool() refuses in strict mode a local reference that points to nothing, with its path", () => {
  const withRef = (ref: string): ToolDescriptor => ({
    ...describeTool({ name: "probe", description: "Probes.", inputSchema: { type: "object" }, effects: [] }),
    inputSchema: {
      type: "object",
      properties: { a: { $ref: ref }, b: { $ref: "#/$defs/text" } },
      required: ["a", "b"],
      additionalProperties: false,
      $defs: { text: { type: "string" } },
    },
  });
  for (const ref of ["#/$defs/missing", "#/$defs/Text", "#/$defs/a~1b", "#/definitions/text"]) {
    assert.throws(() => toOpenAITool(withRef(ref)), (error: unknown) => {
      assert.ok(error instanceof ProjectionError, ref);
      assert.deepEqual(error.problems, [{
        path: "/inputSchema/properties/a/$ref",
        keyword: "$ref",
        message: `Cannot follow the reference as it points to nothing in the schema: current value is ${
          JSON.stringify(ref)
        }`,
      }]);
      return true;
    });
    const { tool, warnings } = toOpenAITool(withRef(ref), { onUnsupported: "non_strict" });
    assert.equal(tool.function.strict, false);
    assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [
      ["/inputSchema/properties/a/$ref", "$ref"],
      ["/inputSchema", "strict"],
    ]);
  }
  assert.equal(toOpenAITool(withRef("#/$defs/text")).tool.function.strict, true);
});

Deno.test("toOpenAITool() keeps a null the schema accepts through not or if, and ToolSet.call() with openai-strict keeps it", async () => {
  const schema = {
    type: "object",
    properties: {
      id: { type: "string" },
      note: { type: ["string", "null"], not: { const: "" } },
      title: { type: ["string", "null"], if: { type: "string" }, then: { minLength: 1 } },
    },
    required: ["id"],
    additionalProperties: false,
  };
  const { tool } = toOpenAITool(descriptorOf(schema));
  assert.deepEqual(tool.function.parameters.properties, {
    id: { type: "string" },
    note: { type: ["string", "null"] },
    title: { type: ["string", "null"] },
  });
  const end = await echo(schema, { id: "a", note: null, title: null }, openAIStrict);
  assert.deepEqual(end.type === "output" && end.result.output, { input: { id: "a", note: null, title: null } });
});

Deno.test("toOpenAITool() leaves as it is an optional property it cannot tell accepts null, and restore keeps its null", async () => {
  // A draft-07 reader ignores the siblings of $ref and a 2020-12 one applies them, so the two disagree on null.
  const schema = {
    type: "object",
    properties: { note: { type: ["string", "null"], not: { $ref: "#/$defs/text", type: "string" } } },
    additionalProperties: false,
    $defs: { text: { type: ["string", "null"] } },
  };
  const { tool, warnings } = toOpenAITool(descriptorOf(schema));
  assert.deepEqual(tool.function.parameters.properties, { note: { type: ["string", "null"] } });
  assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [
    ["/inputSchema/properties/note/not", "not"],
    ["/inputSchema/properties/note", "required"],
  ]);
  assert.match(warnings[1].message, /^Kept the optional property as it is/);
  const end = await echo(schema, { note: null }, openAIStrict);
  assert.deepEqual(end.type === "output" && end.result.output, { input: { note: null } });
});

Deno.test("toOpenAITool() adds null to an enum without listing it twice in type", () => {
  const schema = {
    type: "object",
    properties: { unit: { type: ["string", "null"], enum: ["c", "f"] } },
    additionalProperties: false,
  };
  const { tool } = toOpenAITool(descriptorOf(schema));
  assert.deepEqual(tool.function.parameters.properties, { unit: { type: ["string", "null"], enum: ["c", "f", null] } });
  assert.doesNotThrow(() => compileSchema(tool.function.parameters));
});

Deno.test("ToolSet.call() with projection openai-strict picks the branch a constant behind $ref names, and keeps a null another branch would remove", async () => {
  const schema = {
    type: "object",
    properties: {
      op: {
        anyOf: [
          {
            type: "object",
            properties: { kind: { $ref: "#/$defs/keep" }, note: { type: "string" } },
            required: ["kind"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { kind: { $ref: "#/$defs/clear" }, note: { type: "null" } },
            required: ["kind", "note"],
            additionalProperties: false,
          },
        ],
      },
    },
    required: ["op"],
    additionalProperties: false,
    $defs: { keep: { const: "keep" }, clear: { const: "clear" } },
  };
  const clear = await echo(schema, { op: { kind: "clear", note: null } }, openAIStrict);
  assert.deepEqual(clear.type === "output" && clear.result.output, { input: { op: { kind: "clear", note: null } } });
  const keep = await echo(schema, { op: { kind: "keep", note: null } }, openAIStrict);
  assert.deepEqual(keep.type === "output" && keep.result.output, { input: { op: { kind: "keep" } } });
  // Two branches fit {"kind":"x"}: only one would remove the null, so it stays.
  const both = {
    type: "object",
    properties: {
      op: {
        anyOf: [
          { type: "object", properties: { kind: { type: "string" }, note: { type: "string" } }, required: ["kind"] },
          { type: "object", properties: { kind: { type: "string" }, note: { type: "null" } }, required: ["kind"] },
        ],
      },
    },
  };
  const kept = await echo(both, { op: { kind: "x", note: null } }, openAIStrict);
  assert.deepEqual(kept.type === "output" && kept.result.output, { input: { op: { kind: "x", note: null } } });
});

Deno.test("toOpenAITool() and ToolSet.call() with openai-strict read a diamond of references in time linear in the schema", async () => {
  // Each definition refers to the next twice: 2^n paths through n + 1 definitions.
  const diamond = (n: number) => {
    const $defs: Record<string, unknown> = { [`d${n}`]: { type: "string" } };
    for (let i = 0; i < n; i++) {
      $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    }
    return { type: "object", properties: { p: { $ref: "#/$defs/d0" } }, additionalProperties: false, $defs };
  };
  const started = performance.now();
  const { tool } = toOpenAITool(descriptorOf(diamond(24)), { onUnsupported: "non_strict" });
  assert.deepEqual(tool.function.parameters.properties, { p: { anyOf: [{ $ref: "#/$defs/d0" }, { type: "null" }] } });
  // Registering compiles the schema, which bounds how far its references expand.
  const end = await echo(diamond(14), '{"p":null}', openAIStrict);
  assert.deepEqual(end.type === "output" && end.result.output, { input: {} });
  const ms = performance.now() - started;
  assert.ok(ms < 1_000, `${ms} ms`);
});

Deno.test("toOpenAITool() gives each caller warnings and problems no earlier caller can change", () => {
  const descriptor = descriptorOf({ type: "object", properties: { q: { type: "string" } } });
  const first = toOpenAITool(descriptor);
  assert.throws(() => {
    (first.warnings[0] as { message: string }).message = "changed";
  }, TypeError);
  assert.match(toOpenAITool(descriptor).warnings[0].message, /^Closed the object/);
  const problemsOf = () => {
    try {
      toOpenAITool(fixtureDescriptor("maps"));
    } catch (error) {
      return (error as ProjectionError).problems;
    }
    throw new Error("expected a ProjectionError");
  };
  assert.throws(() => {
    (problemsOf()[0] as { path: string }).path = "/nowhere";
  }, TypeError);
  assert.equal(problemsOf()[0].path, "/inputSchema/properties/headers/additionalProperties");
});
