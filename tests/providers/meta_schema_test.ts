// Every projected schema is itself a valid schema for its draft: JSON Schema
// Draft 2020-12 for OpenAI, Anthropic and MCP, and the Gemini API's Schema
// object for Gemini, each checked against its meta-schema with cfworker.

import assert from "node:assert/strict";
import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";
import { toAnthropicTool, toGeminiFunction, toMcpTool, toOpenAITool } from "../../providers.ts";
import meta from "./fixtures/meta_schema_2020_12.json" with { type: "json" };
import geminiMeta from "./fixtures/gemini_schema.json" with { type: "json" };
import { fixtureDescriptor, SCHEMAS } from "./fixtures/projection_schemas.ts";

const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/**
 * Copies a meta-schema with each `$dynamicRef: "#meta"` bound statically to
 * the whole 2020-12 meta-schema, which is where dynamic scope resolves it
 * when validating a schema of that dialect. cfworker resolves it in the
 * vocabulary's own scope instead, which would leave every subschema
 * unchecked. The copy also keeps cfworker's annotations off the fixture.
 */
function bound(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(bound);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === "$dynamicRef" && value === "#meta" ? ["$ref", DRAFT_2020_12] : [key, bound(value)]
    ),
  );
}

function metaValidator(root: Schema): Validator {
  const validator = new Validator(bound(root) as Schema, "2020-12", false);
  for (const [uri, schema] of Object.entries(meta.schemas)) {
    if (uri !== root.$id) validator.addSchema(bound(schema) as Schema, uri);
  }
  return validator;
}

const jsonSchemaMeta = metaValidator(meta.schemas[DRAFT_2020_12] as Schema);
const geminiSchemaMeta = metaValidator(geminiMeta as Schema);

function assertValid(validator: Validator, schema: unknown, label: string): void {
  const result = validator.validate(structuredClone(schema));
  const errors = result.errors.map((e: OutputUnit) => `${e.instanceLocation} ${e.keyword}: ${e.error}`);
  assert.equal(result.valid, true, `${label}\n${errors.join("\n")}`);
}

Deno.test("the meta-schemas refuse a schema that breaks them", () => {
  assert.equal(jsonSchemaMeta.validate({ type: "STRING" }).valid, false);
  assert.equal(jsonSchemaMeta.validate({ properties: { a: 5 } }).valid, false);
  assert.equal(jsonSchemaMeta.validate({ properties: { a: { items: { type: "STRING" } } } }).valid, false);
  assert.equal(jsonSchemaMeta.validate({ $defs: { a: { minLength: -1 } } }).valid, false);
  assert.equal(geminiSchemaMeta.validate({ type: "string" }).valid, false);
  assert.equal(geminiSchemaMeta.validate({ type: "ARRAY", minItems: 1 }).valid, false);
});

Deno.test("the Gemini meta-schema is itself a valid Draft 2020-12 schema", () => {
  assertValid(jsonSchemaMeta, geminiMeta, "gemini_schema.json");
});

for (const name of Object.keys(SCHEMAS)) {
  Deno.test(`every projection of the ${name} fixture is a valid schema for its draft`, () => {
    const descriptor = fixtureDescriptor(name);
    const strict = toOpenAITool(descriptor, { onUnsupported: "non_strict" }).tool.function.parameters;
    assertValid(jsonSchemaMeta, strict, "OpenAI strict parameters");
    assertValid(jsonSchemaMeta, toOpenAITool(descriptor, { strict: false }).tool.function.parameters, "OpenAI");
    assertValid(jsonSchemaMeta, toAnthropicTool(descriptor).tool.input_schema, "Anthropic input_schema");
    const mcp = toMcpTool(descriptor).tool;
    assertValid(jsonSchemaMeta, mcp.inputSchema, "MCP inputSchema");
    const gemini = toGeminiFunction(descriptor).tool;
    assertValid(geminiSchemaMeta, gemini.parameters ?? {}, "Gemini parameters");
  });
}
