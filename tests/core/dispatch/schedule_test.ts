import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import {
  defineJsonTool,
  type Effect,
  type ExecutionSemantics,
  planCalls,
  schedulerClass,
  ToolSet,
} from "../../../mod.ts";

function tool(name: string, effects: Effect[], semantics?: Partial<ExecutionSemantics>) {
  return defineJsonTool({
    name,
    description: name,
    inputSchema: { type: "object" },
    effects,
    semantics,
    run: () => ({}),
  });
}

const TOOLS = [
  tool("read_a", ["fs.read"]),
  tool("read_b", ["external.read"]),
  tool("fetch_cache", ["network.request"], { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" }),
  tool("write", ["fs.write"]),
  tool("deploy", ["external.mutation"], { concurrency: "exclusive" }),
  tool("charge", ["billing.charge"]),
];
const tools = new ToolSet().register(...TOOLS);

const ids = (waves: readonly (readonly { id: string }[])[]) => waves.map((wave) => wave.map((call) => call.id));

Deno.test("the fixture tools cover every scheduler class", () => {
  assert.deepEqual(
    TOOLS.map((t) => schedulerClass(t.descriptor)),
    ["parallel_read_only", "parallel_read_only", "parallel_retry_safe", "serial", "exclusive", "policy_required"],
  );
});

Deno.test("ToolSet.plan() splits a mixed batch of ten calls into the expected waves, in call order, and reports the refused ones", () => {
  const batch = [
    { id: "1", name: "read_a", arguments: "{}" },
    { id: "2", name: "fetch_cache" },
    { id: "3", name: "read_b" },
    { id: "4", name: "write" },
    { id: "5", name: "read_a" },
    { id: "6", name: "charge" },
    { id: "7", name: "read_b" },
    { id: "8", name: "deploy" },
    { id: "9", name: "nope" },
    { id: "10", name: "fetch_cache" },
  ];
  const copy = structuredClone(batch);
  const plan = tools.plan(batch);
  assert.deepEqual(ids(plan.waves), [["1", "2", "3"], ["4"], ["5", "7"], ["8"], ["10"]]);
  assert.deepEqual(plan.refused.map((r) => [r.call.id, r.reason]), [["6", "policy_required"], ["9", "not_found"]]);
  assert.match(plan.refused[0].message, /"charge" declares an effect that needs a policy/);
  assert.match(plan.refused[1].message, /No tool named "nope"/);
  assert.equal(plan.waves[0][0], batch[0], "the plan hands back the caller's call objects");
  assert.deepEqual(batch, copy, "the batch is not changed");
});

Deno.test("ToolSet.plan() runs consecutive serial and exclusive calls each alone, in call order", () => {
  const plan = tools.plan([
    { id: "1", name: "write" },
    { id: "2", name: "write" },
    { id: "3", name: "deploy" },
    { id: "4", name: "read_a" },
  ]);
  assert.deepEqual(ids(plan.waves), [["1"], ["2"], ["3"], ["4"]]);
});

Deno.test("ToolSet.plan() of an empty batch has no waves and refuses nothing", () => {
  assert.deepEqual(tools.plan([]), { waves: [], refused: [] });
});

Deno.test("planCalls() refuses entries that are not calls with a string name, and a batch that is not an array", () => {
  const plan = tools.plan([null, 7, { id: "1" }, { id: "2", name: 5 }, { id: "3", name: "read_a" }] as never);
  assert.deepEqual(ids(plan.waves), [["3"]]);
  assert.deepEqual(plan.refused.map((r) => r.reason), [
    "invalid_input",
    "invalid_input",
    "invalid_input",
    "invalid_input",
  ]);
  assert.throws(
    () => tools.plan("read_a" as never),
    /Cannot plan the calls as they must be an array: current value is string/,
  );
  assert.throws(() => planCalls(null as never, () => undefined), TypeError);
});

Deno.test("planCalls() places every call exactly once, keeps call order, and never shares a wave with a serial or exclusive call", () => {
  const names = [...TOOLS.map((t) => t.descriptor.name), "nope"];
  const lookup = (name: string) => tools.get(name)?.descriptor;
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...names), { maxLength: 40 }), (sequence) => {
      const calls = sequence.map((name, i) => ({ id: String(i), name }));
      const plan = planCalls(calls, lookup);
      const placed = plan.waves.flat();
      assert.equal(placed.length + plan.refused.length, calls.length);
      assert.deepEqual(placed.map((c) => Number(c.id)), placed.map((c) => Number(c.id)).sort((a, b) => a - b));
      for (const wave of plan.waves) {
        assert.ok(wave.length > 0);
        const classes = wave.map((call) => schedulerClass(lookup(call.name)!));
        if (classes.some((c) => c === "serial" || c === "exclusive")) assert.equal(wave.length, 1);
        assert.ok(!classes.includes("policy_required"));
      }
      for (const refused of plan.refused) {
        assert.equal(refused.reason, lookup(refused.call.name) ? "policy_required" : "not_found");
      }
    }),
  );
});
