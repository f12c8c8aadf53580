import assert from "node:assert/strict";
import * as v from "valibot";
import {
  type ApprovalGate,
  defineJsonTool,
  defineTool,
  suspend,
  type SuspendedCall,
  type TerminalEvent,
  ToolSet,
} from "../../../mod.ts";
import type { DynTool } from "../../../dyn.ts";
import { fakeWriteTool } from "../../../testing.ts";
import { codeTool } from "../../fixtures/code_tool.ts";

function failureOf(end: TerminalEvent) {
  assert.equal(end.type, "failed", JSON.stringify(end));
  return (end as Extract<TerminalEvent, { type: "failed" }>).failure;
}

function outputOf(end: TerminalEvent): unknown {
  assert.equal(end.type, "output", JSON.stringify(end));
  return (end as Extract<TerminalEvent, { type: "output" }>).result.output;
}

function recordOf(end: TerminalEvent): SuspendedCall {
  assert.equal(end.type, "suspended", JSON.stringify(end));
  return (end as Extract<TerminalEvent, { type: "suspended" }>).suspended;
}

/** Through JSON and back, as a record kept across a restart would be. */
function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A typed deploy tool that asks a person first; every run is logged. */
function deployTool(version = "1.0.0") {
  const runs: { input: unknown; resume: unknown }[] = [];
  const tool = defineTool({
    name: "deploy",
    version,
    description: "Deploy a service.",
    inputSchema: v.object({ service: v.pipe(v.string(), v.minLength(1)), replicas: v.number() }),
    outputSchema: v.object({ deployed: v.string(), by: v.string() }),
    effects: ["external.mutation"],
    run: (input, ctx) => {
      runs.push({ input, resume: ctx.resume });
      if (ctx.resume === undefined) {
        return suspend({
          reason: `Deploy ${input.service}?`,
          resumeSchema: v.object({ approver: v.pipe(v.string(), v.minLength(1)) }),
          payload: { diff: "+2 replicas" },
        });
      }
      return { deployed: input.service, by: (ctx.resume as { approver: string }).approver };
    },
  });
  return { tool, runs };
}

const DEPLOY = { id: "call_1", name: "deploy", arguments: '{"service":"api","replicas":2}' };

Deno.test("a typed tool's suspension becomes a v1 JSON record that a fresh ToolSet resumes with the same input and ctx.resume", async () => {
  const first = deployTool();
  const record = recordOf(await new ToolSet().register(first.tool).call(DEPLOY));
  assert.deepEqual(record, {
    v: 1,
    callId: "call_1",
    tool: "deploy",
    version: "1.0.0",
    input: { service: "api", replicas: 2 },
    reason: "Deploy api?",
    resumeSchema: record.resumeSchema,
    payload: { diff: "+2 replicas" },
    origin: "handler",
  });
  assert.equal((record.resumeSchema as { type: string }).type, "object");

  const stored = JSON.stringify(record);
  const second = deployTool();
  const end = await new ToolSet().register(second.tool).resume(JSON.parse(stored), { approver: "ana" });
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { deployed: "api", by: "ana" });
  assert.deepEqual(second.runs, [{ input: { service: "api", replicas: 2 }, resume: { approver: "ana" } }]);
});

Deno.test("ToolSet.resume() refuses an answer its resume schema refuses as invalid_input, and the handler does not run", async () => {
  const { tool, runs } = deployTool();
  const tools = new ToolSet().register(tool);
  const record = roundTrip(recordOf(await tools.call(DEPLOY)));
  runs.length = 0;
  for (const answer of [{ approver: "" }, {}, "yes", null, { approver: 1 }]) {
    const failure = failureOf(await tools.resume(record, answer));
    assert.equal(failure.kind, "invalid_input", JSON.stringify(answer));
    assert.match(failure.message, /Cannot resume "deploy" as the answer does not meet the record's resume schema/);
    assert.ok((failure.diagnostics ?? []).length > 0);
  }
  assert.equal(runs.length, 0);
});

Deno.test("ToolSet.resume() refuses a record for a tool whose version changed, naming both versions, and runs nothing", async () => {
  const old = deployTool("1.0.0");
  const record = roundTrip(recordOf(await new ToolSet().register(old.tool).call(DEPLOY)));
  const newer = deployTool("2.0.0");
  const failure = failureOf(await new ToolSet().register(newer.tool).resume(record, { approver: "ana" }));
  assert.equal(failure.kind, "invalid_input");
  assert.equal(
    failure.message,
    'Cannot resume "deploy" as the tool changed since the call was parked: the record is for version 1.0.0 and the registered tool is version 2.0.0',
  );
  assert.equal(failure.diagnostics?.[0].path, "/version");
  assert.equal(newer.runs.length, 0);
});

Deno.test("ToolSet.resume() refuses a malformed record as invalid_input naming the field, never throwing", async () => {
  const { tool, runs } = deployTool();
  const tools = new ToolSet().register(tool);
  const record = roundTrip(recordOf(await tools.call(DEPLOY)));
  runs.length = 0;
  const cases: [unknown, string][] = [
    [null, ""],
    ["record", ""],
    [{ ...record, v: 2 }, "/v"],
    [{ ...record, tool: 7 }, "/tool"],
    [{ ...record, input: [1] }, "/input"],
    [{ ...record, origin: "robot" }, "/origin"],
    [{ ...record, idempotencyKey: 5 }, "/idempotencyKey"],
    [{ ...record, input: { service: "api", replicas: 2, at: new Date() } }, "/input/at"],
    [
      { ...record, resumeSchema: { type: "object", properties: { a: { $ref: "https://x.example/s" } } } },
      "/resumeSchema",
    ],
  ];
  for (const [bad, path] of cases) {
    const failure = failureOf(await tools.resume(bad as SuspendedCall, { approver: "ana" }));
    assert.equal(failure.kind, "invalid_input", JSON.stringify(bad));
    assert.match(failure.message, /^Cannot resume /);
    assert.equal(failure.diagnostics?.[0].path, path, failure.message);
  }
  assert.equal(runs.length, 0);
});

Deno.test("ToolSet.resume() validates the record's input again, so a tampered record never reaches the handler", async () => {
  const { tool, runs } = deployTool();
  const tools = new ToolSet().register(tool);
  const record = roundTrip(recordOf(await tools.call(DEPLOY)));
  runs.length = 0;
  const failure = failureOf(
    await tools.resume({ ...record, input: { service: "", replicas: 2 } }, { approver: "ana" }),
  );
  assert.equal(failure.kind, "invalid_input");
  assert.equal(failure.diagnostics?.[0].path, "/service");
  assert.equal(runs.length, 0);
});

Deno.test("ToolSet.resume() reports not_found for a record whose tool is not registered", async () => {
  const { tool } = deployTool();
  const record = recordOf(await new ToolSet().register(tool).call(DEPLOY));
  assert.equal(failureOf(await new ToolSet().resume(record, { approver: "ana" })).kind, "not_found");
});

Deno.test("ToolSet.resume() takes a deep-frozen record and answer and changes neither", async () => {
  const { tool } = deployTool();
  const tools = new ToolSet().register(tool);
  const record = deepFreeze(roundTrip(recordOf(await tools.call(DEPLOY))));
  const answer = deepFreeze({ approver: "ana" });
  const copy = roundTrip(record);
  assert.equal((await tools.resume(record, answer)).type, "output");
  assert.deepEqual(record, copy);
  assert.deepEqual(answer, { approver: "ana" });
});

Deno.test("a DynTool's suspended terminal becomes the same kind of record, and the resumed call sees the answer", async () => {
  const write = fakeWriteTool({
    script: [{ kind: "suspend", reason: "Overwrite?", payload: { old: "x" } }, { kind: "succeed" }],
  });
  const record = roundTrip(
    recordOf(
      await new ToolSet().register(write).call({ id: "w1", name: "fake_write", arguments: { path: "a", text: "b" } }),
    ),
  );
  assert.deepEqual([record.v, record.tool, record.origin, record.reason, record.payload], [
    1,
    "fake_write",
    "handler",
    "Overwrite?",
    { old: "x" },
  ]);
  const end = await new ToolSet().register(write).resume(record, { approved: true });
  assert.equal(end.type, "output");
  assert.deepEqual(write.calls[1].resume, { approved: true });
  assert.equal(write.calls[1].callId, "w1");
});

Deno.test("a suspension with a bad resume schema or a payload JSON cannot carry is a contract failure", async () => {
  const withSuspension = (suspension: unknown): DynTool => ({
    descriptor: fakeWriteTool().descriptor,
    async *execute() {
      yield { type: "suspended", suspension } as never;
    },
  });
  const call = { id: "1", name: "fake_write", arguments: { path: "a", text: "b" } };
  for (
    const suspension of [
      { reason: "x", resumeSchema: { type: "object", properties: { a: { $ref: "https://x.example/s" } } } },
      { reason: "x", resumeSchema: { type: "object" }, payload: { when: new Date() } },
      { reason: "x", resumeSchema: { type: "object" }, payload: { n: Number.NaN } },
    ]
  ) {
    assert.equal(failureOf(await new ToolSet().register(withSuspension(suspension)).call(call)).kind, "contract");
  }
});

// --- approval gate --------------------------------------------------------

function rmTool() {
  let runs = 0;
  const tool = defineJsonTool<{ path: string }>({
    name: "rm",
    description: "Delete a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    effects: ["fs.delete"],
    run: (input, ctx) => {
      runs++;
      return { deleted: input.path, resume: ctx.resume ?? null };
    },
  });
  return { tool, runs: () => runs };
}

const RM = { id: "rm_1", name: "rm", arguments: { path: "/tmp/x" } };

Deno.test("an approval gate that answers suspend parks the call before it runs, and the approved record runs it once", async () => {
  const { tool, runs } = rmTool();
  const asked: unknown[] = [];
  const gate: ApprovalGate = (descriptor, input) => {
    asked.push([descriptor.name, input]);
    return "suspend";
  };
  const record = roundTrip(recordOf(await new ToolSet({ approve: gate }).register(tool).call(RM)));
  assert.equal(runs(), 0);
  assert.deepEqual(asked, [["rm", { path: "/tmp/x" }]]);
  assert.equal(record.origin, "approval");
  assert.deepEqual(record.input, { path: "/tmp/x" });
  assert.deepEqual(record.resumeSchema, {
    type: "object",
    properties: { approved: { type: "boolean" }, reason: { type: "string", maxLength: 1000 } },
    required: ["approved"],
  });
  const end = await new ToolSet({ approve: gate }).register(tool).resume(record, { approved: true });
  assert.equal(end.type, "output");
  if (end.type === "output") {
    assert.deepEqual(
      end.result.output,
      { deleted: "/tmp/x", resume: null },
      "the approval is not the handler's answer",
    );
  }
  assert.equal(runs(), 1);
  assert.equal(asked.length, 1, "the gate is not asked again on resume");
});

Deno.test("resuming an approval record with approved false ends policy_required and never runs the tool", async () => {
  const { tool, runs } = rmTool();
  const record = recordOf(await new ToolSet({ approve: () => "suspend" }).register(tool).call(RM));
  const failure = failureOf(await new ToolSet().register(tool).resume(record, { approved: false }));
  assert.equal(failure.kind, "policy_required");
  assert.match(failure.modelText, /denied/);
  assert.equal(runs(), 0);
  assert.equal(failureOf(await new ToolSet().register(tool).resume(record, { approved: "yes" })).kind, "invalid_input");
  assert.equal(runs(), 0);
});

Deno.test("an approval gate that refuses ends policy_required, one that allows runs the tool, one that throws fails closed", async () => {
  for (
    const [gate, expected] of [
      [() => false, "policy_required"],
      [() => Promise.resolve(false), "policy_required"],
      [() => "maybe", "policy_required"],
      [() => {
        throw new Error("policy server down");
      }, "policy_required"],
      [() => Promise.reject(new Error("policy server down")), "policy_required"],
      [() => true, "output"],
      [() => Promise.resolve(true), "output"],
    ] as const
  ) {
    const { tool, runs } = rmTool();
    const end = await new ToolSet({ approve: gate as ApprovalGate }).register(tool).call(RM);
    assert.equal(end.type === "failed" ? end.failure.kind : end.type, expected, String(gate));
    assert.equal(runs(), expected === "output" ? 1 : 0);
  }
});

Deno.test("a call's own approve gate is used instead of the set's", async () => {
  const { tool, runs } = rmTool();
  const tools = new ToolSet({ approve: () => false }).register(tool);
  assert.equal((await tools.call(RM, { approve: () => true })).type, "output");
  assert.equal(runs(), 1);
});

Deno.test("the approval gate sees only validated input: an invalid call ends invalid_input without asking it", async () => {
  const { tool } = rmTool();
  let asked = 0;
  const tools = new ToolSet({ approve: () => (asked++, true) }).register(tool);
  assert.equal(failureOf(await tools.call({ id: "1", name: "rm", arguments: {} })).kind, "invalid_input");
  assert.equal(asked, 0);
});

Deno.test("a tool with an unknown effect fails closed as policy_required without a gate and runs with one", async () => {
  let runs = 0;
  const charge = defineJsonTool({
    name: "charge",
    description: "Charge a card.",
    inputSchema: { type: "object" },
    effects: ["billing.charge"],
    run: () => ({ charged: ++runs }),
  });
  const failure = failureOf(await new ToolSet().register(charge).call({ id: "1", name: "charge" }));
  assert.equal(failure.kind, "policy_required");
  assert.match(failure.message, /unknown effect and no approval gate is set/);
  assert.equal(runs, 0);
  const record = recordOf(
    await new ToolSet({ approve: () => "suspend" }).register(charge).call({ id: "2", name: "charge" }),
  );
  assert.equal(record.origin, "approval");
  assert.equal((await new ToolSet().register(charge).resume(record, { approved: true })).type, "output");
  assert.equal(runs, 1);
});

Deno.test("ToolSet.resume() runs the patterns of a record that is not sealed in linear time", async () => {
  const tools = new ToolSet().register(codeTool(/^[A-Z]{4}-\d{4}$/));
  const record = roundTrip(recordOf(await tools.call({ id: "c1", name: "redeem", arguments: {} })));
  // A pattern that cannot backtrack for long checks the answer on the built-in RegExp.
  assert.equal((await tools.resume(record, "ABCD-1234")).type, "output");
  assert.equal(failureOf(await tools.resume(record, "abcd")).kind, "invalid_input");
  // Rewritten by whoever held it, the record's pattern would take hours on this answer on the built-in RegExp (0.4 s
  // at 25 characters); it runs on re2js, which loads for it.
  const forged = { ...record, resumeSchema: { type: "string", pattern: "^(a+)+$" } };
  const started = performance.now();
  const failure = failureOf(await tools.resume(forged, `${"a".repeat(40)}!`));
  assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
  assert.equal(failure.kind, "invalid_input");
  assert.match(failure.message, /the answer does not meet the record's resume schema/);
  assert.deepEqual(failure.diagnostics?.map(({ path, keyword }) => ({ path, keyword })), [{
    path: "",
    keyword: "pattern",
  }]);
  assert.deepEqual(outputOf(await tools.resume(forged, "a".repeat(40))), { redeemed: "a".repeat(40) });
  // The host's own pattern that could backtrack for long resumes its call: nothing tells it from a forged one.
  const own = new ToolSet().register(codeTool(/^(?:ab|cd)+$/));
  const parked = roundTrip(recordOf(await own.call({ id: "c2", name: "redeem", arguments: {} })));
  assert.deepEqual(outputOf(await own.resume(parked, "abcd")), { redeemed: "abcd" });
  assert.equal(failureOf(await own.resume(parked, "abce")).kind, "invalid_input");
  // A pattern only a backtracking engine runs is refused, never run.
  const backreference = { ...record, resumeSchema: { type: "string", pattern: "^(a+)\\1$" } };
  const refused = failureOf(await tools.resume(backreference, "aaaa"));
  assert.match(refused.message, /the record's resume schema is invalid/);
  assert.equal(refused.diagnostics?.[0].path, "/resumeSchema");
  assert.match(refused.diagnostics?.[0].message ?? "", /backreference/);
});
