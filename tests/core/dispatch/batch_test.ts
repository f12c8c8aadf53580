import assert from "node:assert/strict";
import {
  type BatchCallResult,
  type BatchProgress,
  type BatchRecord,
  defineJsonTool,
  type Effect,
  HandlerError,
  MemoryNonceStore,
  resumeBatch,
  RetryPolicy,
  runBatch,
  type ToolCall,
  type ToolContext,
  ToolSet,
} from "../../../mod.ts";

/** A log of what ran when, shared by the tools of one test. */
class Log {
  readonly lines: string[] = [];
  running = 0;
  maxRunning = 0;
  add(line: string) {
    this.lines.push(line);
  }
}

/** A tool that logs its start and end, and takes a few turns of the event loop in between. */
function logged(log: Log, name: string, effects: Effect[], run?: (input: unknown, ctx: ToolContext) => unknown) {
  return defineJsonTool({
    name,
    description: name,
    inputSchema: { type: "object" },
    effects,
    run: async (input, ctx) => {
      log.add(`start ${ctx.callId}`);
      log.running++;
      log.maxRunning = Math.max(log.maxRunning, log.running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.running--;
      log.add(`end ${ctx.callId}`);
      return run ? run(input, ctx) : { by: ctx.callId };
    },
  });
}

function hanging(name: string, effects: Effect[]) {
  return defineJsonTool({
    name,
    description: name,
    inputSchema: { type: "object" },
    effects,
    run: () => new Promise(() => {}),
  });
}

const call = (id: string, name: string, args: unknown = {}): ToolCall => ({ id, name, arguments: args });

/** A sleep that records its delays and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: (ms: number) => (delays.push(ms), Promise.resolve()) };
}

Deno.test("runBatch() runs interleaved reads and writes in waves: reads together, each write alone, the model's order kept", async () => {
  const log = new Log();
  const tools = new ToolSet().register(logged(log, "read", ["fs.read"]), logged(log, "write", ["fs.write"]));
  const calls = [
    call("r1", "read"),
    call("r2", "read"),
    call("w1", "write"),
    call("r3", "read"),
    call("r4", "read"),
    call("w2", "write"),
    call("r5", "read"),
  ];
  const { results, record } = await runBatch(tools, calls);
  assert.deepEqual(results.map((r) => r.callId), ["r1", "r2", "w1", "r3", "r4", "w2", "r5"]);
  assert.deepEqual(
    results.map((r) => r.terminal.type === "output" && r.terminal.result.output),
    calls.map((c) => ({ by: c.id })),
  );
  assert.equal(record, undefined);
  assert.deepEqual(log.lines, [
    "start r1",
    "start r2",
    "end r1",
    "end r2",
    "start w1",
    "end w1",
    "start r3",
    "start r4",
    "end r3",
    "end r4",
    "start w2",
    "end w2",
    "start r5",
    "end r5",
  ]);
  assert.equal(log.maxRunning, 2);
});

Deno.test("runBatch() gives a call to an unknown effect a wave of its own, through the approval gate", async () => {
  const log = new Log();
  const tools = new ToolSet({ approve: () => true }).register(
    logged(log, "read", ["fs.read"]),
    logged(log, "charge", ["billing.charge"]),
  );
  const { results } = await runBatch(tools, [call("a", "read"), call("b", "charge"), call("c", "read")]);
  assert.deepEqual(results.map((r) => r.terminal.type), ["output", "output", "output"]);
  assert.deepEqual(log.lines, ["start a", "end a", "start b", "end b", "start c", "end c"]);
});

Deno.test("runBatch() answers unknown tools and malformed calls in place, without holding up the wave", async () => {
  const log = new Log();
  const tools = new ToolSet().register(logged(log, "read", ["fs.read"]));
  const { results } = await runBatch(tools, [
    call("a", "read"),
    call("b", "nope"),
    { id: 7, name: "read" } as unknown as ToolCall,
    call("d", "read", "{bad json"),
  ]);
  assert.deepEqual(
    results.map((r) => [r.callId, r.terminal.type === "failed" ? r.terminal.failure.kind : r.terminal.type]),
    [["a", "output"], ["b", "not_found"], ["", "invalid_input"], ["d", "invalid_input"]],
  );
});

Deno.test("runBatch() refuses a second call with an id already used in the batch, without running it", async () => {
  const log = new Log();
  const tools = new ToolSet().register(logged(log, "write", ["fs.write"]));
  const { results } = await runBatch(tools, [call("same", "write"), call("same", "write")]);
  assert.equal(results[0].terminal.type, "output");
  assert.equal(results[1].terminal.type === "failed" && results[1].terminal.failure.kind, "invalid_input");
  assert.equal(results[1].attempts, 0);
  assert.deepEqual(log.lines, ["start same", "end same"]);
});

Deno.test("runBatch() retries a flaky read after the policy's delay, with the same idempotency key on every attempt", async () => {
  const keys: (string | undefined)[] = [];
  let failures = 2;
  const flaky = defineJsonTool({
    name: "flaky",
    description: "Fails twice.",
    inputSchema: { type: "object" },
    effects: ["external.read"],
    run: (_input, ctx) => {
      keys.push(ctx.idempotencyKey);
      if (failures-- > 0) throw new HandlerError("busy");
      return { ok: true };
    },
  });
  const keyed = defineJsonTool({
    name: "keyed",
    description: "Names its key.",
    inputSchema: { type: "object", properties: { request: { type: "string" } } },
    effects: ["external.read"],
    idempotencyKey: "request",
    run: (_input, ctx) => {
      keys.push(ctx.idempotencyKey);
      if (keys.length < 5) throw new HandlerError("busy");
      return { ok: true };
    },
  });
  const { delays, sleep } = recordingSleep();
  const updates: BatchProgress[] = [];
  const tools = new ToolSet().register(flaky, keyed);
  const retry = new RetryPolicy({ maxAttempts: 3, baseDelayMs: 100, random: () => 0 });

  const first = await runBatch(tools, [call("call_1", "flaky")], {
    retry,
    sleep,
    onProgress: (update) => updates.push(update),
  });
  assert.equal(first.results[0].terminal.type, "output");
  assert.equal(first.results[0].attempts, 3);
  assert.deepEqual(keys, ["call_1", "call_1", "call_1"]);
  assert.deepEqual(delays, [50, 100]);
  assert.deepEqual(
    updates.map((u) => u.type === "retrying" ? `${u.type} ${u.attempt} ${u.delayMs}` : `${u.type}`),
    ["started", "retrying 1 50", "started", "retrying 2 100", "started", "finished"],
  );

  const second = await runBatch(tools, [call("call_2", "keyed", { request: "req-9" })], { retry, sleep });
  assert.equal(second.results[0].attempts, 2);
  assert.deepEqual(keys.slice(3), ["req-9", "req-9"]);
});

Deno.test("runBatch() never retries a timed-out write, nor any failure the policy refuses", async () => {
  const { delays, sleep } = recordingSleep();
  let writes = 0;
  const write = defineJsonTool({
    name: "write",
    description: "Hangs.",
    inputSchema: { type: "object" },
    effects: ["fs.write"],
    run: () => (writes++, new Promise(() => {})),
  });
  const read = logged(new Log(), "read", ["fs.read"]);
  const tools = new ToolSet().register(write, read);
  const retry = new RetryPolicy({ maxAttempts: 5, baseDelayMs: 1 });
  const { results } = await runBatch(
    tools,
    [call("w", "write"), call("r", "read", { extra: "x" }), call("q", "nope")],
    {
      retry,
      sleep,
      timeoutMs: 20,
    },
  );
  const [timedOut] = results;
  assert.equal(timedOut.terminal.type === "failed" && timedOut.terminal.failure.kind, "timeout");
  assert.equal(timedOut.terminal.type === "failed" && timedOut.terminal.failure.uncertain, true);
  assert.deepEqual(results.map((r) => r.attempts), [1, 1, 1]);
  assert.equal(writes, 1);
  assert.deepEqual(delays, []);
});

Deno.test("runBatch() retries nothing without a policy", async () => {
  let runs = 0;
  const flaky = defineJsonTool({
    name: "flaky",
    description: "Fails.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: () => {
      runs++;
      throw new HandlerError("busy");
    },
  });
  const { results } = await runBatch(new ToolSet().register(flaky), [call("a", "flaky")]);
  assert.equal(results[0].attempts, 1);
  assert.equal(runs, 1);
});

/** A read that never ends and cancels the batch as its second call starts; `started` counts the calls that did. */
function cancellingRead(controller: AbortController) {
  const counter = { started: 0 };
  const tool = defineJsonTool({
    name: "read",
    description: "Waits.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: () => {
      if (++counter.started === 2) controller.abort();
      return new Promise(() => {});
    },
  });
  return { tool, counter };
}

Deno.test("runBatch() cancelled mid-wave ends every call in exactly one terminal, the unstarted ones at once", async () => {
  const controller = new AbortController();
  const tools = new ToolSet().register(cancellingRead(controller).tool, hanging("write", ["fs.write"]));
  const finished: string[] = [];
  const { results } = await runBatch(tools, [call("a", "read"), call("b", "read"), call("c", "write")], {
    signal: controller.signal,
    onProgress: (update) => {
      if (update.type === "finished") finished.push(update.callId);
    },
  });
  assert.deepEqual(
    results.map((r) => r.terminal.type === "failed" && [r.terminal.failure.kind, r.terminal.failure.uncertain]),
    [["cancelled", false], ["cancelled", false], ["cancelled", false]],
  );
  assert.deepEqual(finished.sort(), ["a", "b", "c"]);
});

Deno.test("runBatch() runs at most maxConcurrency calls of a wave at once (16 by default), starting the rest in order", async () => {
  const calls = Array.from({ length: 40 }, (_, i) => call(`r${i}`, "read"));
  for (const [options, limit] of [[{}, 16], [{ maxConcurrency: 3 }, 3], [{ maxConcurrency: 100 }, 40]] as const) {
    const log = new Log();
    const tools = new ToolSet().register(logged(log, "read", ["fs.read"]));
    const { results } = await runBatch(tools, calls, options);
    assert.equal(log.maxRunning, limit, JSON.stringify(options));
    assert.deepEqual(results.map((r) => r.callId), calls.map((c) => c.id));
    assert.ok(results.every((r) => r.terminal.type === "output"));
    const starts = log.lines.filter((line) => line.startsWith("start ")).map((line) => line.slice(6));
    assert.deepEqual(starts, calls.map((c) => c.id), "calls start in the model's order");
  }
});

Deno.test("runBatch() cancelled with calls waiting for a lane ends them at once, as cancelled", async () => {
  const controller = new AbortController();
  const { tool, counter } = cancellingRead(controller);
  const tools = new ToolSet().register(tool);
  const calls = Array.from({ length: 6 }, (_, i) => call(`r${i}`, "read"));
  const { results } = await runBatch(tools, calls, { signal: controller.signal, maxConcurrency: 2 });
  assert.equal(counter.started, 2, "no call waiting for a lane started");
  assert.deepEqual(
    results.map((r) => r.terminal.type === "failed" && r.terminal.failure.kind),
    Array(6).fill("cancelled"),
  );
});

Deno.test("runBatch() and resumeBatch() refuse a maxConcurrency that is not a positive integer", async () => {
  const tools = new ToolSet().register(logged(new Log(), "read", ["fs.read"]));
  for (const maxConcurrency of [0, -1, 1.5, Number.NaN, Infinity, "4"]) {
    await assert.rejects(() => runBatch(tools, [call("a", "read")], { maxConcurrency: maxConcurrency as number }), {
      name: "RangeError",
      message: `Cannot run the batch as maxConcurrency must be a positive integer: current value is ${maxConcurrency}`,
    });
  }
  const asking = new ToolSet({ approve: () => "suspend" }).register(logged(new Log(), "read", ["fs.read"]));
  const { record } = await runBatch(asking, [call("a", "read")]);
  assert.ok(record);
  await assert.rejects(() => resumeBatch(asking, record, { a: { approved: true } }, { maxConcurrency: 0 }), {
    name: "RangeError",
    message: /maxConcurrency must be a positive integer: current value is 0/,
  });
});

Deno.test("runBatch() and resumeBatch() refuse a batchTimeoutMs that is not a number from 1 to setTimeout's bound", async () => {
  const tools = new ToolSet().register(logged(new Log(), "read", ["fs.read"]));
  for (const batchTimeoutMs of [0, -1, Number.NaN, Infinity, 2 ** 31, "50"]) {
    for (const retry of [undefined, new RetryPolicy({ baseDelayMs: 0 })]) {
      await assert.rejects(
        () => runBatch(tools, [call("a", "read")], { batchTimeoutMs: batchTimeoutMs as number, retry }),
        {
          name: "RangeError",
          message:
            `Cannot run the batch as batchTimeoutMs must be a number from 1 to 2147483647: current value is ${batchTimeoutMs}`,
        },
      );
    }
  }
  const asking = new ToolSet({
    approve: () => "suspend",
    seal: { key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" }, nonces: new MemoryNonceStore() },
  }).register(logged(new Log(), "read", ["fs.read"]));
  const { record } = await runBatch(asking, [call("a", "read")], { batchTimeoutMs: 2 ** 31 - 1 });
  assert.ok(record);
  for (const bounds of [{ batchTimeoutMs: Infinity }, { maxConcurrency: 0 }]) {
    await assert.rejects(() => resumeBatch(asking, record, { a: { approved: true } }, bounds), RangeError);
  }
  // Refused before its seal was used up.
  const { results } = await resumeBatch(asking, record, { a: { approved: true } });
  assert.equal(results[0].terminal.type, "output");
});

Deno.test("runBatch() ends a wait between attempts when the batch is cancelled, with the failure it had", async () => {
  const controller = new AbortController();
  const flaky = defineJsonTool({
    name: "flaky",
    description: "Fails.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: () => {
      throw new HandlerError("busy");
    },
  });
  const sleep = (_ms: number, signal: AbortSignal) => {
    controller.abort();
    assert.equal(signal.aborted, true);
    return Promise.resolve();
  };
  const { results } = await runBatch(new ToolSet().register(flaky), [call("a", "flaky")], {
    retry: new RetryPolicy(),
    sleep,
    signal: controller.signal,
  });
  assert.equal(results[0].attempts, 1);
  assert.equal(results[0].terminal.type === "failed" && results[0].terminal.failure.kind, "handler");
});

Deno.test("runBatch() with batchTimeoutMs ends a call cut off as timeout and one it never reached as timeout too", async () => {
  const tools = new ToolSet().register(hanging("read", ["fs.read"]), hanging("write", ["fs.write"]));
  const started = performance.now();
  const { results } = await runBatch(tools, [call("a", "read"), call("b", "write")], { batchTimeoutMs: 30 });
  assert.ok(performance.now() - started < 5000, "the batch outlived its deadline by far");
  const [cut, never] = results;
  assert.equal(cut.terminal.type === "failed" && cut.terminal.failure.kind, "timeout");
  assert.equal(never.terminal.type === "failed" && never.terminal.failure.kind, "timeout");
  assert.equal(never.attempts, 0);
  assert.match(never.terminal.type === "failed" ? never.terminal.failure.modelText : "", /did not run/);
  await assert.rejects(() => runBatch(tools, [], { batchTimeoutMs: 0 }), RangeError);
  await assert.rejects(() => runBatch(tools, "calls" as never), TypeError);
});

Deno.test("runBatch() reports progress per call and ignores a callback that throws", async () => {
  const counting = defineJsonTool({
    name: "count",
    description: "Counts.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => {
      ctx.progress({ progress: 1, total: 1 });
      return {};
    },
  });
  const updates: string[] = [];
  const { results } = await runBatch(new ToolSet().register(counting), [call("a", "count")], {
    onProgress: (update) => {
      updates.push(`${update.type} ${update.index} ${update.callId}`);
      throw new Error("callback bug");
    },
  });
  assert.equal(results[0].terminal.type, "output");
  assert.deepEqual(updates, ["started 0 a", "progress 0 a", "finished 0 a"]);
});

/** The five-call turn of the resume tests: two writes parked for approval, three reads done. */
function fiveCallTurn() {
  const ran: string[] = [];
  const make = (name: string, effects: Effect[]) =>
    defineJsonTool<{ n: number }>({
      name,
      description: name,
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      effects,
      run: ({ n }, ctx) => (ran.push(`${name} ${n} ${ctx.idempotencyKey}`), { [name]: n }),
    });
  const tools = () =>
    new ToolSet({ approve: (tool) => tool.effects.includes("fs.read") || "suspend" })
      .register(make("read", ["fs.read"]), make("write", ["fs.write"]));
  const calls = [
    call("c1", "read", '{"n":1}'),
    call("c2", "write", '{"n":2}'),
    call("c3", "read", '{"n":3}'),
    call("c4", "write", '{"n":4}'),
    call("c5", "read", '{"n":5}'),
  ];
  return { ran, tools, calls };
}

Deno.test("a batch with two parked calls and three finished resumes from JSON in a fresh set with exactly five results in model order", async () => {
  const { ran, tools, calls } = fiveCallTurn();
  const first = await runBatch(tools(), calls, { retry: new RetryPolicy() });
  assert.deepEqual(first.results.map((r) => r.terminal.type), ["output", "suspended", "output", "suspended", "output"]);
  assert.ok(first.record);
  assert.deepEqual(ran, ["read 1 c1", "read 3 c3", "read 5 c5"]);

  const stored = JSON.stringify(first.record);
  const record: BatchRecord = JSON.parse(stored);
  assert.deepEqual(record, first.record);

  const last = await resumeBatch(tools(), record, { c2: { approved: true }, c4: { approved: true } });
  assert.deepEqual(last.results.map((r) => r.callId), ["c1", "c2", "c3", "c4", "c5"]);
  assert.deepEqual(
    last.results.map((r) => r.terminal.type === "output" && r.terminal.result.output),
    [{ read: 1 }, { write: 2 }, { read: 3 }, { write: 4 }, { read: 5 }],
  );
  assert.deepEqual(last.results.map((r) => r.attempts), [0, 1, 0, 1, 0]);
  assert.equal(last.record, undefined);
  // The parked calls ran once each, with the key they were parked with.
  assert.deepEqual(ran.slice(3), ["write 2 c2", "write 4 c4"]);
});

Deno.test("resumeBatch() fails a denied call with the person's reason and leaves an unanswered call parked in a new record", async () => {
  const { tools, calls } = fiveCallTurn();
  const first = await runBatch(tools(), calls);
  const record: BatchRecord = JSON.parse(JSON.stringify(first.record));
  const next = await resumeBatch(tools(), record, { c2: { approved: false, reason: "not on Fridays" } });
  const denied = next.results[1].terminal;
  assert.equal(denied.type === "failed" && denied.failure.kind, "policy_required");
  assert.match(denied.type === "failed" ? denied.failure.modelText : "", /denied the call to "write": not on Fridays/);
  assert.equal(next.results[3].terminal.type, "suspended");
  assert.deepEqual(next.record?.calls.map((entry) => entry.terminal.type), [
    "output",
    "failed",
    "output",
    "suspended",
    "output",
  ]);
  const done = await resumeBatch(tools(), JSON.parse(JSON.stringify(next.record)), { c4: { approved: true } });
  assert.deepEqual(done.results.map((r) => r.terminal.type), ["output", "failed", "output", "output", "output"]);
});

Deno.test("resumeBatch() refuses a record that is not a batch record, saying where, and runs nothing", async () => {
  const tools = new ToolSet();
  const refused = async (record: unknown) => (await resumeBatch(tools, record as BatchRecord, {})).refused;
  assert.match(String(await refused(null)), /^Cannot resume the batch as the record must be an object/);
  assert.match(String(await refused({ v: 2, type: "batch", calls: [] })), /must be a version 1 batch record/);
  assert.match(
    String(await refused({ v: 1, type: "batch", calls: [{ callId: "a", tool: "t", terminal: { type: "x" } }] })),
    /call 0 is malformed: its terminal's type must be/,
  );
  const entry = { callId: "a", tool: "t", terminal: { type: "failed", failure: {} } };
  assert.match(String(await refused({ v: 1, type: "batch", calls: [entry, entry] })), /call 1 repeats the id/);
  assert.deepEqual((await resumeBatch(tools, { v: 2 } as never, {})).results, []);
  await assert.rejects(() => resumeBatch(tools, { v: 1, type: "batch", calls: [] }, null as never), TypeError);
});

Deno.test("in a set with a seal, the batch record is sealed as a whole: a changed sibling, a second resume or another subject is refused", async () => {
  const { ran, calls } = fiveCallTurn();
  const key = { id: "k1", secret: "0123456789abcdef0123456789abcdef" };
  const make = (name: string, effects: Effect[]) =>
    defineJsonTool<{ n: number }>({
      name,
      description: name,
      inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      effects,
      run: ({ n }) => (ran.push(`${name} ${n}`), { [name]: n }),
    });
  // One nonce store for both processes, as a host shares one through its database.
  const nonces = new MemoryNonceStore();
  const sealed = () =>
    new ToolSet({ approve: (tool) => tool.effects.includes("fs.read") || "suspend", seal: { key, nonces } })
      .register(make("read", ["fs.read"]), make("write", ["fs.write"]));
  const first = await runBatch(sealed(), calls, { subject: "user_1" });
  const stored: BatchRecord = JSON.parse(JSON.stringify(first.record));
  assert.equal(typeof (stored as unknown as { seal: { mac: string } }).seal.mac, "string");

  const changed = structuredClone(stored) as unknown as { calls: { terminal: { result?: { output?: unknown } } }[] };
  changed.calls[0].terminal.result!.output = { read: 666 };
  assert.match(
    String((await resumeBatch(sealed(), changed as never, {}, { subject: "user_1" })).refused),
    /seal is refused \(bad_mac\)/,
  );
  assert.match(String((await resumeBatch(sealed(), stored, {}, { subject: "user_2" })).refused), /subject_mismatch/);
  assert.match(String((await resumeBatch(new ToolSet(), stored, {})).refused), /holds no seal/);

  const answers = { c2: { approved: true }, c4: { approved: true } };
  const last = await resumeBatch(sealed(), stored, answers, { subject: "user_1" });
  assert.deepEqual(last.results.map((r) => r.terminal.type), ["output", "output", "output", "output", "output"]);
  const again = await resumeBatch(sealed(), stored, answers, { subject: "user_1" });
  assert.match(String(again.refused), /replayed/);
  assert.deepEqual(again.results, []);
  assert.deepEqual(ran.filter((line) => line.startsWith("write")), ["write 2", "write 4"]);
});

Deno.test("runBatch() and resumeBatch() keep every call's terminal when the batch record is too large to seal, and fail the parked ones", async () => {
  let writes = 0;
  // Kept twice in the record, as the model's text and as the output: past the seal's 16 MiB.
  const big = defineJsonTool({
    name: "big",
    description: "Writes, and answers at length.",
    inputSchema: { type: "object" },
    effects: ["fs.write"],
    run: () => (writes++, { text: "x".repeat(9 * 1024 * 1024) }),
  });
  const remove = defineJsonTool({
    name: "remove",
    description: "Removes.",
    inputSchema: { type: "object" },
    effects: ["fs.delete"],
    run: () => ({ removed: true }),
  });
  const tools = new ToolSet({
    approve: (tool) => !tool.effects.includes("fs.delete") || "suspend",
    seal: { key: { id: "k1", secret: "0123456789abcdef0123456789abcdef" }, nonces: new MemoryNonceStore() },
    limits: { maxBytes: 32 * 1024 * 1024, maxDepth: 32 },
  }).register(big, remove);
  const ends = (results: readonly BatchCallResult[]) =>
    results.map(({ terminal }) => terminal.type === "failed" ? `failed:${terminal.failure.message}` : terminal.type);
  const unsealable =
    /^failed:Cannot park the call as sealing the batch's record failed: RangeError: Cannot encode the value as its JSON exceeds/;

  const ran = await runBatch(tools, [call("w", "big"), call("d", "remove")]);
  const [wrote, parked] = ends(ran.results);
  assert.equal(wrote, "output");
  assert.match(parked, unsealable);
  assert.equal(ran.record, undefined);
  assert.equal(writes, 1);

  // Resumed, the write is approved and runs; the delete left parked cannot be kept either.
  const first = await runBatch(tools, [call("w", "big"), call("d", "remove")], { approve: () => "suspend" });
  const resumed = await resumeBatch(tools, first.record!, { w: { approved: true } });
  const [rewrote, unanswered] = ends(resumed.results);
  assert.equal(rewrote, "output");
  assert.match(unanswered, unsealable);
  assert.equal(resumed.record, undefined);
  assert.equal(writes, 2);
});

Deno.test("a batch record keeps what the model sees and the output, not the host-only details", async () => {
  const rich = defineJsonTool({
    name: "rich",
    description: "Rich.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: () => ({ n: 1 }),
  });
  const tools = new ToolSet({ approve: (tool) => tool.name === "rich" || "suspend" })
    .register(rich, hanging("write", ["fs.write"]));
  const { record } = await runBatch(tools, [call("a", "rich"), call("b", "write")]);
  assert.deepEqual(record?.calls[0], {
    callId: "a",
    tool: "rich",
    terminal: { type: "output", result: { content: [{ type: "text", text: '{"n":1}' }], output: { n: 1 } } },
  });
});

Deno.test("runBatch() never runs a call by a tool replaced while the batch ran: its plan of retries and waves was the old one's", async () => {
  let runs = 0;
  const syncRead = defineJsonTool({
    name: "sync",
    description: "Reads.",
    effects: ["external.read"],
    inputSchema: { type: "object" },
    run: () => ({}),
  });
  const syncWrite = defineJsonTool({
    name: "sync",
    description: "Writes.",
    effects: ["external.mutation"],
    inputSchema: { type: "object" },
    run: () => {
      runs++;
      throw new HandlerError("flaky");
    },
  });
  const first = defineJsonTool({
    name: "first",
    description: "Swaps the tool.",
    effects: ["fs.write"],
    inputSchema: { type: "object" },
    run: () => {
      tools.replace([syncRead], [syncWrite]);
      return {};
    },
  });
  const tools: ToolSet = new ToolSet().register(first, syncRead);
  const { results } = await runBatch(tools, [{ id: "a", name: "first" }, { id: "b", name: "sync" }], {
    retry: new RetryPolicy({ baseDelayMs: 0 }),
  });
  assert.equal(results[0].terminal.type, "output");
  const replaced = results[1].terminal;
  assert.equal(replaced.type === "failed" && replaced.failure.kind, "contract");
  assert.match(replaced.type === "failed" ? replaced.failure.message : "", /was replaced while the batch ran/);
  assert.equal(runs, 0, "the write the plan would have retried never ran");
});

Deno.test("runBatch() reads each call once, and ends a call it cannot read, a hole among the calls, or a throwing projection in that call's own terminal", async () => {
  const log = new Log();
  const read = logged(log, "read", ["fs.read"]);
  let wrote = 0;
  const write = logged(log, "write", ["fs.write"], () => ({ wrote: ++wrote }));
  const tools = new ToolSet().register(read, write);
  // A name that answers "read" when planned and "write" after would run a write in a wave of reads.
  let reads = 0;
  const flipping = {
    id: "f",
    get name() {
      return ++reads === 1 ? "read" : "write";
    },
    arguments: {},
  };
  const throwing = {
    get id(): string {
      throw new Error("no id");
    },
    name: "read",
  };
  // deno-lint-ignore no-sparse-arrays
  const calls = [flipping, , throwing, { id: "r", name: "read", arguments: {} }] as unknown as ToolCall[];
  const { results } = await runBatch(tools, calls);
  assert.equal(reads, 1);
  assert.deepEqual(results.map((result) => [result.tool, result.terminal.type]), [
    ["read", "output"],
    ["", "failed"],
    ["", "failed"],
    ["read", "output"],
  ]);
  const unreadable = results[2].terminal;
  assert.match(unreadable.type === "failed" ? unreadable.failure.message : "", /reading it threw: no id/);
  assert.equal(wrote, 0);
  const projected = await runBatch(tools, [{ id: "p", name: "read", arguments: {} }], {
    projection: () => {
      throw new Error("no projection");
    },
  });
  const failed = projected.results[0].terminal;
  assert.equal(failed.type === "failed" && failed.failure.kind, "contract");
  assert.match(
    failed.type === "failed" ? failed.failure.message : "",
    /projection option failed for "read": no projection/,
  );
});

Deno.test("resumeBatch() refuses a sealed record of one parked call without using it up, and reports a failing nonce store as a refusal", async () => {
  const key = { id: "k1", secret: "0123456789abcdef0123456789abcdef" };
  const remove = defineJsonTool<{ path: string }>({
    name: "remove",
    description: "Removes.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    effects: ["fs.delete"],
    run: ({ path }) => ({ removed: path }),
  });
  const nonces = new MemoryNonceStore();
  const tools = new ToolSet({ approve: () => "suspend" as const, seal: { key, nonces } }).register(remove);
  const parked = await tools.call({ id: "1", name: "remove", arguments: { path: "a" } });
  assert.equal(parked.type, "suspended");
  const stored = JSON.stringify(parked.type === "suspended" && parked.suspended);
  // A host's mix-up: the call's record given as a batch's. Refused for its shape, it is not used up.
  const mixed = await resumeBatch(tools, JSON.parse(stored), { "1": { approved: true } });
  assert.match(String(mixed.refused), /must be a version 1 batch record/);
  assert.equal((await tools.resume(JSON.parse(stored), { approved: true })).type, "output");

  const down = new ToolSet({
    approve: () => "suspend" as const,
    seal: {
      key,
      nonces: {
        consume: () => {
          throw new Error("db down");
        },
      },
    },
  }).register(remove);
  const turn = await runBatch(down, [{ id: "2", name: "remove", arguments: { path: "b" } }]);
  const refused = await resumeBatch(down, JSON.parse(JSON.stringify(turn.record)), { "2": { approved: true } });
  assert.match(String(refused.refused), /the nonce store failed: Error: db down/);
  assert.deepEqual(refused.results, []);
});

Deno.test("resumeBatch() refuses a record or answers that throw as they are read, rather than reject", async () => {
  const tools = new ToolSet().register(logged(new Log(), "read", ["fs.read"]));
  const throwing = new Proxy({}, {
    get() {
      throw new Error("unreadable");
    },
    ownKeys() {
      throw new Error("unreadable");
    },
  });
  const record = { v: 1, type: "batch", calls: [] } as unknown as BatchRecord;
  for (
    const [given, answers] of [[throwing, {}], [record, throwing]] as [BatchRecord, Record<string, unknown>][]
  ) {
    const resumed = await resumeBatch(tools, given, answers);
    assert.match(
      String(resumed.refused),
      /^Cannot resume the batch as reading its record or answers threw: unreadable$/,
    );
    assert.deepEqual(resumed.results, []);
  }
});
