import assert from "node:assert/strict";
import * as v from "valibot";
import {
  APPROVAL_RESUME_SCHEMA,
  defineTool,
  effectClass,
  HandlerError,
  InvalidSpecError,
  schedulerClass,
  type ToolEvent,
  ToolSet,
} from "../../mod.ts";
import type { DynTool } from "../../dyn.ts";
import {
  checkToolConformance,
  CONFORMANCE_RULES,
  type ConformanceCase,
  type ConformanceReport,
  type FakeBehaviour,
  fakeProcessTool,
  fakeReadTool,
  fakeWriteTool,
} from "../../testing.ts";

async function collect(events: AsyncIterable<ToolEvent>): Promise<ToolEvent[]> {
  const seen: ToolEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Streams one call of a fake read tool scripted with one behaviour. */
async function streamRead(behaviour: FakeBehaviour, options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  const tool = fakeReadTool({ script: [behaviour] });
  const events = await collect(
    new ToolSet().register(tool).stream({ id: "c1", name: "fake_read", arguments: { path: "a.txt" } }, options),
  );
  return { tool, events };
}

function shape(events: readonly ToolEvent[]): string[] {
  return events.map((event) => event.type === "failed" ? `failed:${event.failure.kind}` : event.type);
}

function failing(report: ConformanceReport): string[] {
  return report.rules.filter((rule) => !rule.ok).map((rule) => rule.name);
}

const ONE_PROGRESS = [{ progress: 1, total: 2, message: "half" }];

Deno.test("fakeReadTool succeeds through ToolSet.stream with one output terminal holding its default output", async () => {
  const { events } = await streamRead({ kind: "succeed" });
  assert.deepEqual(shape(events), ["output"]);
  const end = events[0];
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { text: "contents of a.txt" });
});

Deno.test("a fake's scripted progress streams in order before its one output terminal", async () => {
  const { events } = await streamRead({
    kind: "succeed",
    output: { text: "done" },
    progress: [{ progress: 1, total: 3 }, { progress: 2, total: 3 }, { message: "last" }],
  });
  assert.deepEqual(events, [
    { type: "progress", progress: 1, total: 3 },
    { type: "progress", progress: 2, total: 3 },
    { type: "progress", message: "last" },
    { type: "output", result: { content: [{ type: "text", text: '{"text":"done"}' }], output: { text: "done" } } },
  ]);
});

Deno.test("a fake that fails yields progress then one handler failure keeping the HandlerError's code, retry hint and model text", async () => {
  const { events } = await streamRead({
    kind: "fail",
    message: "ENOENT: a.txt",
    error: { code: "ENOENT", retryable: false, modelText: "No such file." },
    progress: ONE_PROGRESS,
  });
  assert.deepEqual(shape(events), ["progress", "failed:handler"]);
  const end = events[1];
  assert.ok(end.type === "failed");
  assert.equal(end.failure.code, "ENOENT");
  assert.equal(end.failure.retryable, false);
  assert.equal(end.failure.modelText, "No such file.");
  assert.equal(end.failure.uncertain, false);
});

Deno.test("a fake that hangs until cancelled ends cancelled when the caller aborts, with its signal aborted", async () => {
  const controller = new AbortController();
  const tool = fakeWriteTool({ script: [{ kind: "hang", progress: ONE_PROGRESS }] });
  const seen: ToolEvent[] = [];
  const stream = new ToolSet().register(tool).stream(
    { id: "c1", name: "fake_write", arguments: { path: "a", text: "b" } },
    { signal: controller.signal },
  );
  for await (const event of stream) {
    seen.push(event);
    if (event.type === "progress") controller.abort();
  }
  assert.deepEqual(shape(seen), ["progress", "failed:cancelled"]);
  assert.equal(tool.calls[0].signal.aborted, true);
  const end = seen[1];
  assert.ok(end.type === "failed");
  assert.equal(end.failure.uncertain, true, "a cancelled write may have had side effects");
});

Deno.test("a fake that hangs ignoring its signal ends timeout, with its signal aborted", async () => {
  const { tool, events } = await streamRead({ kind: "hang_ignoring_signal", progress: ONE_PROGRESS }, {
    timeoutMs: 30,
  });
  assert.deepEqual(shape(events), ["progress", "failed:timeout"]);
  assert.equal(tool.calls[0].signal.aborted, true);
});

Deno.test("a fake that ends without a terminal yields its progress then one contract failure", async () => {
  const { events } = await streamRead({ kind: "end_without_terminal", progress: ONE_PROGRESS });
  assert.deepEqual(shape(events), ["progress", "failed:contract"]);
  const end = events[1];
  assert.ok(end.type === "failed");
  assert.match(end.failure.message, /ended without a terminal event/);
});

Deno.test("a fake that yields after its terminal ends in one contract failure and the late event never reaches the caller", async () => {
  const { events } = await streamRead({ kind: "yield_after_terminal", progress: ONE_PROGRESS });
  assert.deepEqual(shape(events), ["progress", "failed:contract"]);
  assert.equal(events.filter((event) => event.type === "progress" && event.message === "after the end").length, 0);
  const end = events[1];
  assert.ok(end.type === "failed");
  assert.match(end.failure.message, /after its terminal event/);
});

Deno.test("a fake that throws mid-stream yields its progress then one contract failure", async () => {
  const { events } = await streamRead({ kind: "throw_mid_stream", progress: ONE_PROGRESS });
  assert.deepEqual(shape(events), ["progress", "failed:contract"]);
  const end = events[1];
  assert.ok(end.type === "failed");
  assert.match(end.failure.message, /the stream threw/);
});

Deno.test("a fake that yields a malformed event ends in one contract failure", async () => {
  for (
    const event of [
      undefined,
      42,
      { type: "output" },
      { type: "bogus" },
      { type: "failed", failure: { kind: "meltdown", message: "x" } },
      { type: "output", result: { content: [{ type: "video" }] } },
      { type: "suspended", suspension: { reason: 7 } },
    ]
  ) {
    const { events } = await streamRead({ kind: "malformed_event", event, progress: ONE_PROGRESS });
    assert.deepEqual(shape(events), ["progress", "failed:contract"], JSON.stringify(event));
  }
});

Deno.test("a fake that yields a malformed progress event ends in one contract failure naming the field", async () => {
  for (
    const [event, field] of [
      [{ type: "progress", progress: "half" }, "progress"],
      [{ type: "progress", total: Infinity }, "total"],
      [{ type: "progress", message: 7 }, "message"],
    ] as const
  ) {
    const { events } = await streamRead({ kind: "malformed_event", event });
    assert.deepEqual(shape(events), ["failed:contract"]);
    const end = events[0];
    assert.ok(end.type === "failed");
    assert.match(end.failure.message, new RegExp(`malformed progress event: its ${field}`));
  }
});

Deno.test("a fake that suspends yields one suspended terminal with its reason, resume schema and payload", async () => {
  const { events } = await streamRead({
    kind: "suspend",
    reason: "Read a secret?",
    payload: { preview: "a.txt" },
    progress: ONE_PROGRESS,
  });
  assert.deepEqual(shape(events), ["progress", "suspended"]);
  const end = events[1];
  assert.ok(end.type === "suspended");
  assert.equal(end.suspended.reason, "Read a secret?");
  assert.deepEqual(end.suspended.payload, { preview: "a.txt" });
  assert.deepEqual(end.suspended.input, { path: "a.txt" });
  assert.equal(end.suspended.origin, "handler");
  assert.deepEqual(end.suspended.resumeSchema, APPROVAL_RESUME_SCHEMA);
});

Deno.test("a fake plays its script one behaviour a call and fails with script_exhausted past its end", async () => {
  const tool = fakeProcessTool({ script: [{ kind: "succeed" }, { kind: "fail" }] });
  const tools = new ToolSet().register(tool);
  const call = (id: string) => tools.call({ id, name: "fake_process", arguments: { command: "ls" } });
  assert.equal((await call("1")).type, "output");
  const second = await call("2");
  assert.equal(second.type === "failed" && second.failure.kind, "handler");
  const third = await call("3");
  assert.ok(third.type === "failed");
  assert.equal(third.failure.code, "script_exhausted");
  assert.equal(third.failure.retryable, false);
  assert.deepEqual(tool.calls.map((c) => c.kind), ["succeed", "fail", "script_exhausted"]);
});

Deno.test("a fake without a script succeeds on every call and records each call's input and key", async () => {
  const tool = fakeWriteTool({ idempotencyKey: "requestId" });
  const tools = new ToolSet().register(tool);
  for (const id of ["r1", "r2"]) {
    const end = await tools.call({ id, name: "fake_write", arguments: { path: "a", text: "xyz", requestId: id } });
    assert.equal(end.type === "output" && (end.result.output as { written: number }).written, 3);
  }
  assert.deepEqual(tool.calls.map((c) => [c.callId, c.idempotencyKey, c.resume]), [
    ["r1", "r1", undefined],
    ["r2", "r2", undefined],
  ]);
  assert.deepEqual(tool.calls[0].input, { path: "a", text: "xyz", requestId: "r1" });
});

Deno.test("the fakes declare read, write and process effects with the classes that follow", () => {
  const read = fakeReadTool().descriptor;
  const write = fakeWriteTool().descriptor;
  const spawn = fakeProcessTool().descriptor;
  assert.deepEqual([read.effects, write.effects, spawn.effects], [["fs.read"], ["fs.write"], ["process.spawn"]]);
  assert.deepEqual([effectClass(read), effectClass(write), effectClass(spawn)], ["read", "write", "write"]);
  assert.deepEqual(
    [schedulerClass(read), schedulerClass(write), schedulerClass(spawn)],
    ["parallel_read_only", "serial", "serial"],
  );
});

Deno.test("the fakes refuse a script that is not a list of known behaviours, and a bad spec field", () => {
  assert.throws(
    () => fakeReadTool({ script: [{ kind: "explode" } as unknown as FakeBehaviour] }),
    (error: unknown) =>
      error instanceof TypeError &&
      /behaviour 0 of its script has an unknown kind: current value is "explode"/.test(error.message),
  );
  assert.throws(() => fakeReadTool({ script: "succeed" as unknown as FakeBehaviour[] }), TypeError);
  assert.throws(() => fakeReadTool(null as unknown as undefined), TypeError);
  assert.throws(() => fakeWriteTool({ name: "bad name" }), InvalidSpecError);
  assert.throws(() => fakeWriteTool({ idempotencyKey: "missing" }), InvalidSpecError);
});

Deno.test("a fake's script given by the caller is copied, so changing it later changes nothing", async () => {
  const script: FakeBehaviour[] = [{ kind: "succeed" }];
  const tool = fakeReadTool({ script });
  script[0] = { kind: "fail" };
  const end = await new ToolSet().register(tool).call({ id: "1", name: "fake_read", arguments: { path: "a" } });
  assert.equal(end.type, "output");
  assert.deepEqual(script, [{ kind: "fail" }]);
});

// --- checkToolConformance -------------------------------------------------

const READ_CASES: readonly ConformanceCase[] = [
  { name: "valid", arguments: { path: "a.txt" } },
  { name: "missing path", arguments: {}, valid: false },
  { name: "not JSON", arguments: "{", valid: false },
];

Deno.test("checkToolConformance() reports every rule held for a well-behaved fake", async () => {
  const tool = fakeReadTool({
    script: [{ kind: "succeed", progress: ONE_PROGRESS }, { kind: "fail" }, { kind: "suspend" }, { kind: "hang" }],
  });
  const report = await checkToolConformance(tool, [
    ...READ_CASES,
    { name: "fails", arguments: '{"path":"b"}', expect: { type: "failed", kind: "handler" } },
    { name: "suspends", arguments: { path: "c" }, expect: { type: "suspended" } },
    { name: "cancelled", arguments: { path: "d" }, cancel: true, expect: { kind: "cancelled" } },
  ]);
  assert.equal(report.ok, true, JSON.stringify(report.rules, null, 1));
  assert.equal(report.tool, "fake_read");
  assert.deepEqual(report.rules.map((rule) => rule.name), [...CONFORMANCE_RULES]);
  assert.ok(report.rules.every((rule) => rule.message.length > 0));
  assert.deepEqual(report.cases.map((c) => [c.name, c.terminal.type, c.executed]), [
    ["valid", "output", true],
    ["missing path", "failed", false],
    ["not JSON", "failed", false],
    ["fails", "failed", true],
    ["suspends", "suspended", true],
    ["cancelled", "failed", true],
  ]);
  assert.deepEqual(report.cases[0].events.map((event) => event.type), ["progress", "output"]);
  assert.equal(tool.calls[3].signal.aborted, true);
});

Deno.test("checkToolConformance() reports a failing rule for each broken fake", async () => {
  const table: readonly [string, FakeBehaviour, readonly string[], Partial<ConformanceCase>?][] = [
    ["end_without_terminal", { kind: "end_without_terminal" }, ["exactly_one_terminal"]],
    ["yield_after_terminal", { kind: "yield_after_terminal" }, ["nothing_after_terminal"]],
    ["throw_mid_stream", { kind: "throw_mid_stream", progress: ONE_PROGRESS }, [
      "exactly_one_terminal",
      "stream_never_throws",
    ]],
    ["malformed_event", { kind: "malformed_event" }, ["events_well_formed"]],
    ["malformed value", { kind: "malformed_event", event: 42 }, ["exactly_one_terminal", "events_well_formed"]],
    ["malformed progress", { kind: "malformed_event", event: { type: "progress", progress: "x" } }, [
      "events_well_formed",
    ]],
    ["hang_ignoring_signal", { kind: "hang_ignoring_signal" }, ["cancellation_honoured"], { cancel: true }],
    ["output breaks schema", { kind: "succeed", output: { text: 42 } }, ["output_matches_schema"]],
    ["unexpected failure", { kind: "fail" }, ["expectations_met"], { expect: { type: "output" } }],
  ];
  for (const [label, behaviour, broken, extra] of table) {
    const report = await checkToolConformance(
      fakeReadTool({ script: [behaviour] }),
      [{ name: label, arguments: { path: "a.txt" }, ...extra }, ...READ_CASES.slice(1)],
      { cancelBoundMs: 50 },
    );
    assert.equal(report.ok, false, label);
    assert.deepEqual(failing(report), broken, label);
    for (const rule of report.rules.filter((rule) => !rule.ok)) {
      assert.match(rule.message, new RegExp(`"${label}"`), `${label}: ${rule.message}`);
    }
  }
});

Deno.test("checkToolConformance() sees a lax parser let an invalid call reach execute", async () => {
  const fake = fakeReadTool();
  const lax: DynTool = {
    descriptor: fake.descriptor,
    parseInput: (value) => ({ ok: true, value }),
    execute: (invocation, ctx) => fake.execute(invocation, ctx),
  };
  const report = await checkToolConformance(lax, READ_CASES.slice(0, 2));
  assert.deepEqual(failing(report), ["invalid_input_rejected", "invalid_input_never_executes"]);
  assert.equal(fake.calls.length, 2);
});

Deno.test("checkToolConformance() checks a hand-made DynTool with only a descriptor and execute, as an MCP tool is", async () => {
  const echo: DynTool = {
    descriptor: {
      name: "remote__echo",
      version: "1.0.0",
      description: "Echo a text.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      effects: ["external.mutation"],
      semantics: { idempotency: "non_idempotent", retry: "never", concurrency: "serial" },
    },
    async *execute(invocation) {
      yield { type: "progress", message: "sending" };
      yield { type: "output", result: { content: [{ type: "text", text: String(invocation.input) }] } };
    },
  };
  const report = await checkToolConformance(echo, [
    { arguments: { text: "hi" }, expect: { type: "output" } },
    { arguments: { text: 1 }, valid: false },
  ]);
  assert.equal(report.ok, true, JSON.stringify(report.rules, null, 1));
});

Deno.test("checkToolConformance() reports an invalid descriptor as a broken rule, not an exception", async () => {
  const bad = { descriptor: { name: "bad name", description: "", effects: [] }, execute: () => ({}) };
  const report = await checkToolConformance(bad as unknown as DynTool, READ_CASES);
  assert.equal(report.ok, false);
  const descriptor = report.rules[0];
  assert.equal(descriptor.name, "descriptor_valid");
  assert.equal(descriptor.ok, false);
  assert.match(descriptor.message, /Cannot register the tool/);
  assert.ok(report.rules.slice(1).every((rule) => !rule.ok && /not checked/.test(rule.message)));
  assert.deepEqual(report.cases, []);

  const notATool = await checkToolConformance(42 as unknown as DynTool, []);
  assert.equal(notATool.tool, "(unnamed)");
  assert.match(notATool.rules[0].message, /not a DynTool/);
});

Deno.test("checkToolConformance() reports a tool whose parser throws through the input rules", async () => {
  const fake = fakeReadTool();
  const throwing: DynTool = {
    descriptor: fake.descriptor,
    parseInput: () => {
      throw new Error("parser bug");
    },
    execute: (invocation, ctx) => fake.execute(invocation, ctx),
  };
  const report = await checkToolConformance(throwing, READ_CASES.slice(0, 2));
  assert.deepEqual(failing(report), ["valid_input_accepted", "invalid_input_rejected"]);
  assert.equal(report.cases[0].terminal.type === "failed" && report.cases[0].terminal.failure.kind, "contract");
});

Deno.test("checkToolConformance() passes a typed tool that honours its signal and fails one that does not", async () => {
  const make = (honour: boolean) =>
    defineTool({
      name: "sleep",
      description: "Sleeps.",
      inputSchema: v.object({ ms: v.number() }),
      effects: [],
      run: (_input, ctx) =>
        new Promise((_resolve, reject) => {
          if (honour) ctx.signal.addEventListener("abort", () => reject(new HandlerError("stopped")));
        }),
    });
  const cases = [{ arguments: { ms: 1e9 }, cancel: true }];
  assert.equal((await checkToolConformance(make(true), cases)).ok, true);
  const ignoring = await checkToolConformance(make(false), cases, { cancelBoundMs: 30 });
  assert.deepEqual(failing(ignoring), ["cancellation_honoured"]);
  assert.match(ignoring.rules.find((rule) => rule.name === "cancellation_honoured")!.message, /within 30 ms/);
});

Deno.test("checkToolConformance() bounds every call by its timeout so a hanging tool cannot hang the check", async () => {
  const report = await checkToolConformance(fakeReadTool({ script: [{ kind: "hang_ignoring_signal" }] }), [
    { arguments: { path: "a" }, expect: { type: "output" } },
  ], { timeoutMs: 20 });
  assert.deepEqual(failing(report), ["expectations_met"]);
  assert.match(report.rules.at(-1)!.message, /got failed \(timeout/);
});

Deno.test("checkToolConformance() refuses cases that are not a list of objects and bad bounds, with typed errors", async () => {
  const tool = fakeReadTool();
  await assert.rejects(() => checkToolConformance(tool, "x" as unknown as ConformanceCase[]), TypeError);
  await assert.rejects(() => checkToolConformance(tool, [null as unknown as ConformanceCase]), TypeError);
  await assert.rejects(
    () => checkToolConformance(tool, [{ arguments: {}, cancel: "yes" as unknown as boolean }]),
    TypeError,
  );
  await assert.rejects(() => checkToolConformance(tool, [], { timeoutMs: 0 }), RangeError);
  await assert.rejects(() => checkToolConformance(tool, [], { cancelBoundMs: NaN }), RangeError);
  assert.equal(tool.calls.length, 0);
});
