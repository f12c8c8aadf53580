import assert from "node:assert/strict";
import { describeTool } from "../../dyn.ts";
import { toAnthropicTool } from "../../providers.ts";
import golden from "./fixtures/projection_goldens/anthropic.json" with { type: "json" };
import { projectAll } from "./fixtures/projection.ts";
import { fixtureDescriptor, SCHEMAS } from "./fixtures/projection_schemas.ts";

for (const name of Object.keys(SCHEMAS)) {
  Deno.test(`toAnthropicTool() projects the ${name} fixture as its golden records`, () => {
    assert.deepEqual(projectAll("anthropic")[name], golden[name as keyof typeof golden]);
  });
}

Deno.test("toAnthropicTool() sends the input schema unchanged, $defs and open maps included", () => {
  for (const name of ["recursive_defs", "maps", "pattern_properties", "valibot_derived"]) {
    const descriptor = fixtureDescriptor(name);
    const { tool, warnings } = toAnthropicTool(descriptor);
    assert.deepEqual(tool, { name, description: descriptor.description, input_schema: descriptor.inputSchema });
    assert.deepEqual(warnings, []);
  }
});

Deno.test("toAnthropicTool() drops anyOf, oneOf and allOf at the root with a warning each", () => {
  const descriptor = describeTool({
    name: "pick",
    description: "Picks one.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
      allOf: [{ minProperties: 1 }],
    },
    effects: [],
  });
  const { tool, warnings } = toAnthropicTool(descriptor);
  assert.deepEqual(tool.input_schema, { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } });
  assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [["/inputSchema/anyOf", "anyOf"], [
    "/inputSchema/allOf",
    "allOf",
  ]]);
});

Deno.test("toAnthropicTool() does not change the descriptor", () => {
  const descriptor = describeTool({
    name: "nested",
    description: "Nested.",
    inputSchema: structuredClone(SCHEMAS.nested_objects),
    effects: [],
  });
  const before = structuredClone(descriptor);
  const { tool } = toAnthropicTool(descriptor);
  tool.input_schema.properties = {};
  assert.deepEqual(descriptor, before);
});
