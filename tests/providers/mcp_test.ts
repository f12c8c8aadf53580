import assert from "node:assert/strict";
import type { ToolSpec } from "../../mod.ts";
import { describeTool } from "../../dyn.ts";
import { readMcpFailureMeta, readMcpToolContract, toMcpTool } from "../../providers.ts";
import { withGetter } from "./fixtures/turn.ts";
import golden from "./fixtures/projection_goldens/mcp.json" with { type: "json" };
import { projectAll } from "./fixtures/projection.ts";
import { SCHEMAS } from "./fixtures/projection_schemas.ts";

for (const name of Object.keys(SCHEMAS)) {
  Deno.test(`toMcpTool() projects the ${name} fixture as its golden records`, () => {
    assert.deepEqual(projectAll("mcp")[name], golden[name as keyof typeof golden]);
  });
}

const annotationsOf = (spec: Partial<ToolSpec>) =>
  toMcpTool(describeTool({
    name: "probe",
    description: "A probe.",
    inputSchema: { type: "object" },
    effects: [],
    ...spec,
  })).tool.annotations;

const CASES: readonly [string, Partial<ToolSpec>, [boolean, boolean, boolean, boolean]][] = [
  // [readOnly, destructive, idempotent, openWorld]
  ["a pure tool", { effects: [] }, [true, false, true, false]],
  ["a file reader", { effects: ["fs.read"] }, [true, false, true, false]],
  ["an external reader", { effects: ["external.read"] }, [true, false, true, true]],
  // A write may overwrite, which MCP counts as destructive.
  ["a file writer", { effects: ["fs.write"] }, [false, true, false, false]],
  ["a file deleter", { effects: ["fs.delete"] }, [false, true, false, false]],
  ["an idempotent writer", { effects: ["fs.write"], semantics: { idempotency: "idempotent" } }, [
    false,
    true,
    true,
    false,
  ]],
  ["a network caller", { effects: ["network.request"] }, [false, false, false, true]],
  ["an external mutation", { effects: ["external.mutation"] }, [false, true, false, true]],
  ["a process spawner", { effects: ["process.spawn"] }, [false, true, false, true]],
  // An unknown effect claims nothing: the protocol's defaults.
  ["an unknown effect", { effects: ["billing.charge"] }, [false, true, false, true]],
  ["a reader with an unknown effect", { effects: ["fs.read", "billing.charge"] }, [false, true, false, true]],
];

for (const [what, spec, [readOnlyHint, destructiveHint, idempotentHint, openWorldHint]] of CASES) {
  Deno.test(`toMcpTool() derives the annotations of ${what} from its effects`, () => {
    assert.deepEqual(annotationsOf(spec), { readOnlyHint, destructiveHint, idempotentHint, openWorldHint });
  });
}

Deno.test("toMcpTool() carries the title, the input and an object output schema", () => {
  const descriptor = describeTool({
    name: "weather",
    title: "Weather",
    description: "Tomorrow's weather.",
    inputSchema: SCHEMAS.descriptions,
    outputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    effects: ["network.request"],
  });
  const { tool, warnings } = toMcpTool(descriptor);
  assert.equal(tool.title, "Weather");
  assert.equal(tool.annotations.title, "Weather");
  assert.deepEqual(tool.inputSchema, descriptor.inputSchema);
  assert.deepEqual(tool.outputSchema, descriptor.outputSchema);
  assert.deepEqual(warnings, []);
});

Deno.test("toMcpTool() leaves out an output schema that is not an object, with a warning", () => {
  const { tool, warnings } = toMcpTool(describeTool({
    name: "count",
    description: "Counts.",
    inputSchema: { type: "object" },
    outputSchema: { type: "integer" },
    effects: [],
  }));
  assert.equal(tool.outputSchema, undefined);
  assert.deepEqual(warnings.map((w) => [w.path, w.keyword]), [["/outputSchema", "type"]]);
});

Deno.test("toMcpTool() takes a spec without resolved semantics and derives them from the effects", () => {
  const spec = { name: "peek", description: "Peeks.", inputSchema: { type: "object" }, effects: ["fs.read"] };
  assert.equal(toMcpTool(spec as never).tool.annotations.idempotentHint, true);
});

Deno.test("readMcpToolContract() copies only the known semantics, and reads duplicate effects or semantics describeTool refuses as no contract", () => {
  const semantics = { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" };
  const extra = JSON.parse(`{"priority":"high","__proto__":{"x":1},${JSON.stringify(semantics).slice(1)}`);
  const read = readMcpToolContract({ "salvor/contract": { effects: ["fs.read"], semantics: extra } });
  assert.deepEqual(read, { effects: ["fs.read"], semantics });
  assert.deepEqual(Object.keys(read?.semantics ?? {}), ["idempotency", "retry", "concurrency"]);
  assert.doesNotThrow(() => describeTool({ name: "t", description: "d", inputSchema: { type: "object" }, ...read! }));
  assert.equal(readMcpToolContract({ "salvor/contract": { effects: ["fs.read", "fs.read"], semantics } }), undefined);
  const retried = { ...semantics, idempotency: "non_idempotent" };
  assert.equal(readMcpToolContract({ "salvor/contract": { effects: ["fs.write"], semantics: retried } }), undefined);
  const many = Array.from({ length: 65 }, (_, i) => `app.effect${i}`);
  assert.equal(readMcpToolContract({ "salvor/contract": { effects: many, semantics } }), undefined);
  assert.equal(readMcpToolContract({ "salvor/contract": { effects: many.slice(1), semantics } })?.effects.length, 64);
});

Deno.test("readMcpToolContract() and readMcpFailureMeta() read a field or an effect that throws as it is read as none, and each once", () => {
  const semantics = { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" };
  const boom = new RangeError("boom");
  const contracts = {
    "the contract": withGetter({}, "salvor/contract", boom, { effects: ["fs.read"], semantics }),
    "its effects": { "salvor/contract": withGetter({ semantics }, "effects", boom, ["fs.read"]) },
    "an effect": { "salvor/contract": { effects: withGetter(["fs.read"], "0", boom, "fs.read"), semantics } },
    "its semantics": { "salvor/contract": withGetter({ effects: ["fs.read"] }, "semantics", boom, semantics) },
    "a semantics field": {
      "salvor/contract": { effects: ["fs.read"], semantics: withGetter(semantics, "retry", boom, "never") },
    },
  };
  for (const [what, meta] of Object.entries(contracts)) assert.equal(readMcpToolContract(meta), undefined, what);
  // What was checked is what is returned: an effect that changes once read is read once.
  const flips = {
    "salvor/contract": { effects: withGetter(["fs.read"], "0", "fs.read", "NOT AN EFFECT"), semantics },
  };
  assert.deepEqual(readMcpToolContract(flips), { effects: ["fs.read"], semantics });
  const failures = {
    "the failure": withGetter({}, "salvor/failure", boom, { kind: "handler", uncertain: false }),
    "its kind": { "salvor/failure": withGetter({ uncertain: false }, "kind", boom, "handler") },
    "its code": { "salvor/failure": withGetter({ kind: "handler", uncertain: false }, "code", boom, "E1") },
  };
  for (const [what, meta] of Object.entries(failures)) assert.equal(readMcpFailureMeta(meta), undefined, what);
  const kind = { "salvor/failure": withGetter({ uncertain: false }, "kind", "handler", "not a kind") };
  assert.deepEqual(readMcpFailureMeta(kind), { kind: "handler", uncertain: false });
});
