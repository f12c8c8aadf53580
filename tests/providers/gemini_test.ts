import assert from "node:assert/strict";
import type { JsonSchema, ToolDescriptor } from "../../mod.ts";
import { describeTool } from "../../dyn.ts";
import { ProjectionError, toGeminiFunction } from "../../providers.ts";
import golden from "./fixtures/projection_goldens/gemini.json" with { type: "json" };
import { projectAll } from "./fixtures/projection.ts";
import { SCHEMAS } from "./fixtures/projection_schemas.ts";

const descriptorOf = (inputSchema: JsonSchema, name = "probe"): ToolDescriptor =>
  describeTool({ name, description: "A probe.", inputSchema, effects: [] });

for (const name of Object.keys(SCHEMAS)) {
  Deno.test(`toGeminiFunction() projects the ${name} fixture as its golden records`, () => {
    assert.deepEqual(projectAll("gemini")[name], golden[name as keyof typeof golden]);
  });
}

Deno.test("toGeminiFunction() inlines a $ref used twice and reports nothing for it", () => {
  const { tool, warnings } = toGeminiFunction(descriptorOf({
    type: "object",
    properties: { from: { $ref: "#/$defs/point" }, to: { $ref: "#/$defs/point" } },
    required: ["from", "to"],
    $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
  }));
  const point = { type: "OBJECT", properties: { x: { type: "NUMBER" } }, required: ["x"] };
  assert.deepEqual(tool.parameters?.properties, { from: point, to: point });
  assert.deepEqual(warnings, []);
});

Deno.test("toGeminiFunction() stops a recursive $ref with a warning at the point of recursion", () => {
  const { tool, warnings } = toGeminiFunction(descriptorOf(SCHEMAS.recursive_defs));
  const children = (tool.parameters?.properties?.tree.properties?.children) ?? {};
  assert.deepEqual(children, { type: "ARRAY", items: { type: "OBJECT" } });
  const recursion = warnings.filter((w) => w.keyword === "$ref");
  assert.deepEqual(recursion.map((w) => w.path), ["/inputSchema/$defs/node/properties/children/items"]);
  assert.match(recursion[0].message, /recursive reference "#\/\$defs\/node"/);
});

Deno.test("toGeminiFunction() maps const to a one-value enum or equal bounds, and warns for a boolean", () => {
  const { tool, warnings } = toGeminiFunction(descriptorOf({
    type: "object",
    properties: { kind: { const: "a" }, version: { const: 2 }, ratio: { const: 0.5 }, on: { const: true } },
  }));
  assert.deepEqual(tool.parameters?.properties, {
    kind: { type: "STRING", format: "enum", enum: ["a"] },
    version: { type: "INTEGER", minimum: 2, maximum: 2 },
    ratio: { type: "NUMBER", minimum: 0.5, maximum: 0.5 },
    on: { type: "BOOLEAN" },
  });
  assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [["/inputSchema/properties/on/const", "const"]]);
});

Deno.test("toGeminiFunction() maps a type list to nullable or to anyOf", () => {
  const { tool } = toGeminiFunction(descriptorOf({
    type: "object",
    properties: {
      note: { type: ["string", "null"] },
      id: { type: ["string", "integer"] },
      either: { anyOf: [{ type: "integer" }, { type: "null" }] },
    },
  }));
  assert.deepEqual(tool.parameters?.properties, {
    note: { type: "STRING", nullable: true },
    id: { anyOf: [{ type: "STRING" }, { type: "INTEGER" }] },
    either: { type: "INTEGER", nullable: true },
  });
});

Deno.test("toGeminiFunction() lists every unsupported keyword it drops", () => {
  const { warnings } = toGeminiFunction(descriptorOf({
    type: "object",
    properties: {
      list: { type: "array", items: { type: "string" }, uniqueItems: true, contains: { const: "a" } },
      n: { type: "number", multipleOf: 2, not: { const: 4 } },
    },
    additionalProperties: false,
  }));
  assert.deepEqual(warnings.map((w) => w.keyword).sort(), [
    "additionalProperties",
    "contains",
    "multipleOf",
    "not",
    "uniqueItems",
  ]);
});

Deno.test("toGeminiFunction() refuses a function name that starts with a digit", () => {
  assert.throws(() => toGeminiFunction(descriptorOf({ type: "object" }, "1st")), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.match(error.message, /^Cannot project "1st" for Gemini/);
    assert.deepEqual(error.problems.map((p) => p.path), ["/name"]);
    return true;
  });
});

Deno.test("toGeminiFunction() refuses a parameter name Gemini does not accept", () => {
  const descriptor = descriptorOf({ type: "object", properties: { "content-type": { type: "string" } } });
  assert.throws(() => toGeminiFunction(descriptor), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.deepEqual(error.problems.map((p) => p.path), ["/inputSchema/properties/content-type"]);
    return true;
  });
});

Deno.test("toGeminiFunction() refuses references that multiply the schema past its bound", () => {
  const $defs: Record<string, unknown> = { d0: { type: "string" } };
  for (let i = 1; i <= 20; i++) {
    $defs[`d${i}`] = {
      type: "object",
      properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } },
    };
  }
  const descriptor = descriptorOf({ type: "object", properties: { top: { $ref: "#/$defs/d20" } }, $defs });
  assert.throws(() => toGeminiFunction(descriptor), ProjectionError);
});

Deno.test("toGeminiFunction() gives a tool without parameters no parameters", () => {
  assert.deepEqual(toGeminiFunction(descriptorOf({ type: "object" }, "ping")), {
    tool: { name: "ping", description: "A probe." },
    warnings: [],
  });
});

Deno.test("toGeminiFunction() refuses a reference whose percent-encoding is malformed as unresolved, and decodes each token alone", () => {
  // A raw descriptor: describeTool refuses such a reference, but a projection may be given one as it is.
  const raw = (ref: string): ToolDescriptor => ({
    ...descriptorOf({ type: "object" }),
    inputSchema: { type: "object", properties: { a: { $ref: ref } }, $defs: { "x/y": { type: "string" } } },
  });
  assert.throws(() => toGeminiFunction(raw("#/$defs/%E0%A4%A")), (error: unknown) => {
    assert.ok(error instanceof ProjectionError);
    assert.match(error.message, /does not resolve inside the schema: current value is "#\/\$defs\/%E0%A4%A"$/);
    return true;
  });
  // `%2F` is a slash within the member's name, not a step.
  assert.deepEqual(toGeminiFunction(raw("#/$defs/x%2Fy")).tool.parameters?.properties, { a: { type: "STRING" } });
});

Deno.test("toGeminiFunction() keeps a one-branch union beside a node's own properties as anyOf, so the declaration still requires them", () => {
  const { tool, warnings } = toGeminiFunction(descriptorOf({
    type: "object",
    properties: {
      user: {
        description: "Who.",
        properties: { id: { type: "string" } },
        required: ["id"],
        anyOf: [{ type: "object", properties: { email: { type: "string" } }, required: ["email"] }],
      },
      name: { description: "A name.", anyOf: [{ type: "string" }, { type: "null" }] },
    },
    required: ["user"],
  }));
  assert.deepEqual(tool.parameters?.properties, {
    user: {
      description: "Who.",
      properties: { id: { type: "STRING" } },
      required: ["id"],
      anyOf: [{ type: "OBJECT", properties: { email: { type: "STRING" } }, required: ["email"] }],
    },
    name: { type: "STRING", description: "A name.", nullable: true },
  });
  assert.deepEqual(warnings, []);
});
