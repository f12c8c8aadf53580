import {
  type CallObserver,
  defineJsonTool,
  defineTool,
  HandlerError,
  type ObservedCall,
  type ObservedEnd,
  RetryPolicy,
  runBatch,
  suspend,
  ToolSet,
} from "../../../mod.ts";
import * as v from "valibot";
import assert from "node:assert/strict";

/** An observer that writes down what it hears, one line a hook. */
function recorder(options: { includeArguments?: boolean; extensions?: Record<string, unknown> } = {}) {
  const heard: string[] = [];
  const calls: ObservedCall[] = [];
  const ends: ObservedEnd[] = [];
  const observer: CallObserver = {
    includeArguments: options.includeArguments,
    callStarted(call) {
      calls.push(call);
      heard.push(`start ${call.name} ${call.callId}${call.resumed ? " resumed" : ""}`);
      return options.extensions;
    },
    progress(call, event) {
      heard.push(`progress ${call.name} ${event.progress}`);
    },
    terminal(call, end) {
      ends.push(end);
      heard.push(`end ${call.name} ${end.event.type}${end.failureKind ? ` ${end.failureKind}` : ""}`);
    },
  };
  return { observer, heard, calls, ends };
}

const counter = defineJsonTool({
  name: "count",
  description: "Counts to two.",
  inputSchema: { type: "object", properties: { n: { type: "number" } } },
  effects: ["fs.read"],
  run: (_input, ctx) => {
    ctx.progress({ progress: 1 });
    ctx.progress({ progress: 2 });
    return { seen: ctx.extensions.traceparent ?? null };
  },
});
const remove = defineTool({
  name: "remove",
  description: "Deletes a file.",
  inputSchema: v.object({ path: v.string() }),
  effects: ["fs.delete"],
  run: ({ path }) => ({ removed: path }),
});

Deno.test("an observer hears a call's start, each progress event and its terminal, in order", async () => {
  const { observer, heard, calls, ends } = recorder();
  const tools = new ToolSet({ observer }).register(counter);
  const end = await tools.call({ id: "c1", name: "count", arguments: "{}" });
  assert.equal(end.type, "output");
  assert.deepEqual(heard, ["start count c1", "progress count 1", "progress count 2", "end count output"]);
  assert.deepEqual(calls[0].effects, ["fs.read"]);
  assert.equal(calls[0].descriptor?.name, "count");
  assert.equal(calls[0].tool, counter);
  assert.equal(calls[0].arguments, undefined, "no arguments unless the observer opts in");
  assert.equal(ends[0].event, end);
  assert.ok(ends[0].durationMs >= 0);
});

Deno.test("an observer hears every failure kind, including calls refused before any tool is found", async () => {
  const { observer, heard } = recorder();
  const tools = new ToolSet({ observer }).register(counter, remove);
  await tools.call({ id: "c1", name: "nope" });
  await tools.call({ id: "c2", name: "remove", arguments: { path: 1 } });
  await tools.call(null as never);
  assert.deepEqual(heard, [
    "start nope c1",
    "end nope failed not_found",
    "start remove c2",
    "end remove failed invalid_input",
    "start  ",
    "end  failed invalid_input",
  ]);
});

Deno.test("an observer hears streamed calls as they happen, and a stream its caller abandons ends as cancelled", async () => {
  const { observer, heard } = recorder();
  const hang = defineJsonTool({
    name: "hang",
    description: "Reports once, then never ends.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: (_input, ctx) => {
      ctx.progress({ progress: 1 });
      return new Promise(() => {});
    },
  });
  const tools = new ToolSet({ observer }).register(hang);
  for await (const event of tools.stream({ id: "s1", name: "hang" })) {
    assert.equal(event.type, "progress");
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(heard, ["start hang s1", "progress hang 1", "end hang failed cancelled"]);
});

Deno.test("an observer sees a parked call and its resumption, with arguments only when it asks", async () => {
  const { observer, heard, calls } = recorder({ includeArguments: true });
  const tools = new ToolSet({ observer, approve: () => "suspend" }).register(remove);
  const parked = await tools.call({ id: "r1", name: "remove", arguments: '{"path":"a"}' });
  assert.equal(parked.type, "suspended");
  if (parked.type !== "suspended") return;
  const done = await tools.resume(parked.suspended, { approved: true });
  assert.equal(done.type, "output");
  assert.deepEqual(heard, ["start remove r1", "end remove suspended", "start remove r1 resumed", "end remove output"]);
  assert.equal(calls[0].arguments, '{"path":"a"}');
  assert.deepEqual(calls[1].arguments, { path: "a" });
});

Deno.test("an observer is shown a frozen copy of the arguments: it cannot change the caller's or what runs", async () => {
  const changed: string[] = [];
  const observer: CallObserver = {
    includeArguments: true,
    callStarted(call) {
      const args = call.arguments as { path: string; tags: string[] };
      for (const change of [() => (args.path = "/etc"), () => args.tags.push("root")]) {
        try {
          change();
          changed.push(call.callId);
        } catch {
          // Frozen: the change is refused.
        }
      }
    },
  };
  const echo = defineJsonTool({
    name: "echo",
    description: "Echoes.",
    inputSchema: { type: "object" },
    effects: [],
    run: (input) => input,
  });
  const tools = new ToolSet({ observer, approve: (d) => d.name === "remove" ? "suspend" : true }).register(
    echo,
    remove,
  );
  const args = { path: "a", tags: ["x"] };
  const end = await tools.call({ id: "c1", name: "echo", arguments: args });
  assert.deepEqual(end.type === "output" && end.result.output, { path: "a", tags: ["x"] }, "what ran is unchanged");
  const parked = await tools.call({ id: "c2", name: "remove", arguments: { path: "a" } });
  assert.equal(parked.type, "suspended");
  const record = parked.type === "suspended" ? parked.suspended : undefined as never;
  const resumed = await tools.resume(record, { approved: true });
  assert.deepEqual(resumed.type === "output" && resumed.result.output, { removed: "a" });
  assert.deepEqual(changed, []);
  assert.deepEqual(args, { path: "a", tags: ["x"] }, "the caller's arguments are unchanged");
  assert.ok(!Object.isFrozen(args) && !Object.isFrozen(args.tags), "and not frozen");
  assert.deepEqual(record.input, { path: "a" }, "the record is unchanged");
});

Deno.test("an observer is shown no value for arguments that are not JSON within the set's limits", async () => {
  const { observer, calls } = recorder({ includeArguments: true });
  const tools = new ToolSet({ observer, limits: { maxBytes: 64, maxDepth: 4 } }).register(counter);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  await tools.call({ id: "1", name: "count", arguments: cyclic });
  await tools.call({ id: "2", name: "count", arguments: { text: "x".repeat(100) } });
  await tools.call({ id: "3", name: "count", arguments: { n: 1 } });
  assert.deepEqual(calls.map((call) => call.arguments), [undefined, undefined, { n: 1 }]);
});

Deno.test("an observer is never handed the caller's function as arguments, and no value for what JSON cannot carry", async () => {
  const { observer, calls } = recorder({ includeArguments: true });
  const tools = new ToolSet({ observer }).register(counter);
  const args = Object.assign(() => {}, { path: "a" });
  const given: unknown[] = [args, Number.NaN, 10n, Symbol("arguments"), null, '{"n":1}'];
  for (const [i, value] of given.entries()) await tools.call({ id: `${i}`, name: "count", arguments: value as never });
  assert.deepEqual(calls.map((call) => call.arguments), [undefined, undefined, undefined, undefined, null, '{"n":1}']);
});

Deno.test("extensions an observer returns reach the handler, and the host's own win", async () => {
  const { observer } = recorder({ extensions: { traceparent: "from-observer" } });
  const tools = new ToolSet({ observer }).register(counter);
  const mine = await tools.call({ id: "1", name: "count" });
  assert.deepEqual(mine.type === "output" && mine.result.output, { seen: "from-observer" });
  const host = await tools.call({ id: "2", name: "count" }, { extensions: { traceparent: "from-host" } });
  assert.deepEqual(host.type === "output" && host.result.output, { seen: "from-host" });
});

Deno.test("an observer that keeps its own time gets calls with no clock read", async () => {
  const { observer, calls, ends } = recorder();
  const tools = new ToolSet({ observer: { ...observer, timed: false } }).register(counter);
  await tools.call({ id: "1", name: "count" });
  assert.ok(Number.isNaN(calls[0].startedAt) && Number.isNaN(ends[0].durationMs));
});

Deno.test("an observer that throws fails no call", async () => {
  const boom = () => {
    throw new Error("observer broke");
  };
  const tools = new ToolSet({ observer: { callStarted: boom, progress: boom, terminal: boom } }).register(counter);
  const end = await tools.call({ id: "1", name: "count" });
  assert.equal(end.type, "output");
  const events = [];
  for await (const event of tools.stream({ id: "2", name: "count" })) events.push(event.type);
  assert.deepEqual(events, ["progress", "progress", "output"]);
});

Deno.test("an observer whose fields are getters that throw fails no call, and each such field reads as absent", async () => {
  const later = defineJsonTool({
    name: "later",
    description: "Counts to one, then answers on a later turn.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: async (_input, ctx) => (ctx.progress({ progress: 1 }), await Promise.resolve({ ok: true })),
  });
  for (const field of ["timed", "includeArguments", "callStarted", "progress", "terminal"]) {
    const ends: ObservedEnd[] = [];
    const observer = {
      terminal: (_call: ObservedCall, end: ObservedEnd) => ends.push(end),
      get [field]() {
        throw new Error(`${field} broke`);
      },
    } as CallObserver;
    const tools = new ToolSet({ observer }).register(counter, later);
    for (const name of ["count", "later"]) {
      assert.equal((await tools.call({ id: "1", name })).type, "output", `${field}, ${name}`);
      const events = [];
      for await (const event of tools.stream({ id: "2", name })) events.push(event.type);
      assert.equal(events.at(-1), "output", `${field}, ${name}`);
    }
    if (field !== "terminal") {
      assert.equal(ends.length, 4);
      // An unreadable timed reads as absent: calls are timed.
      assert.ok(ends.every((end) => Number.isFinite(end.durationMs)));
    }
  }
});

Deno.test("runBatch reports a call it may retry once, and each attempt under it with its number", async () => {
  const { observer, heard, calls } = recorder({ extensions: { traceparent: "from-observer" } });
  let failures = 2;
  const flaky = defineJsonTool({
    name: "flaky",
    description: "Fails twice, then reads.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: (_input, ctx) => {
      ctx.progress({ progress: 3 - failures });
      if (failures-- > 0) throw new HandlerError("disk busy");
      return { seen: ctx.extensions.traceparent ?? null };
    },
  });
  const tools = new ToolSet({ observer }).register(flaky, counter);
  const { results } = await runBatch(tools, [{ id: "b1", name: "flaky" }, { id: "b2", name: "count" }], {
    retry: new RetryPolicy({ baseDelayMs: 0 }),
  });
  assert.deepEqual(results.map((result) => [result.terminal.type, result.attempts]), [["output", 3], ["output", 1]]);
  const output = results[0].terminal.type === "output" ? results[0].terminal.result.output : undefined;
  assert.deepEqual(output, { seen: "from-observer" }, "each attempt's handler gets the attempt's extensions");
  const flakyHeard = heard.filter((line) => line.includes("flaky"));
  assert.deepEqual(flakyHeard, [
    "start flaky b1",
    "start flaky b1",
    "progress flaky 1",
    "end flaky failed handler",
    "start flaky b1",
    "progress flaky 2",
    "end flaky failed handler",
    "start flaky b1",
    "progress flaky 3",
    "end flaky output",
    "end flaky output",
  ]);
  const flakyCalls = calls.filter((call) => call.name === "flaky");
  assert.deepEqual(flakyCalls.map((call) => call.attempt), [undefined, 1, 2, 3]);
  assert.equal(flakyCalls[0].parent, undefined);
  assert.ok(flakyCalls.slice(1).every((call) => call.parent === flakyCalls[0]));
});

Deno.test("runBatch without a retry policy reports each call once, with no attempts", async () => {
  const { observer, calls } = recorder();
  const tools = new ToolSet({ observer }).register(counter);
  await runBatch(tools, [{ id: "1", name: "count" }, { id: "2", name: "count" }]);
  assert.deepEqual(calls.map((call) => [call.callId, call.attempt, call.parent]), [
    ["1", undefined, undefined],
    ["2", undefined, undefined],
  ]);
});

Deno.test("runBatch reports every call, one refused or out of time before it starts too: it starts and ends", async () => {
  // Ends when its signal aborts, at the batch's deadline.
  const write = defineJsonTool({
    name: "write",
    description: "Writes until it is stopped.",
    inputSchema: { type: "object" },
    effects: ["fs.write"],
    run: (_input, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({}))),
  });
  const unreadable = {
    get id(): string {
      throw new Error("unreadable");
    },
    name: "count",
  };
  for (const retry of [undefined, new RetryPolicy({ baseDelayMs: 0 })]) {
    const { observer, heard } = recorder();
    const tools = new ToolSet({ observer }).register(counter, write);
    await runBatch(tools, [
      { id: "a", name: "count" },
      { id: "a", name: "count" }, // The id again: refused.
      unreadable,
      { id: "b", name: "write" },
      { id: "c", name: "count" }, // After the write, past the deadline.
    ], { batchTimeoutMs: 30, retry });
    // Each call once, however many attempts it made.
    const calls = heard.filter((line) => !line.startsWith("progress"));
    assert.deepEqual(
      new Set(calls),
      new Set([
        "start count a",
        "end count output",
        "end count failed invalid_input",
        "start  ",
        "end  failed contract",
        "start write b",
        "end write failed timeout",
        "start count c",
        "end count failed timeout",
      ]),
      retry ? "retried" : "not retried",
    );
    assert.equal(calls.filter((line) => line.startsWith("end")).length, retry ? 7 : 5, "an attempt is heard as well");
  }
});

Deno.test("an observer hears a sealed record's resumption, streamed or not, checked before it is admitted", async () => {
  const { observer, heard } = recorder({ extensions: { traceparent: "from-observer" } });
  const seal = { key: { id: "k", secret: "observer-test-key-0123456789abcdef" } };
  const resumable = defineJsonTool({
    name: "resumable",
    description: "Parks once, then reports the extensions it got.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: (_input, ctx) =>
      ctx.resume === undefined
        ? suspend({ reason: "a person decides", resumeSchema: { type: "boolean" } })
        : { seen: ctx.extensions.traceparent ?? null },
  });
  const tools = new ToolSet({ observer, seal }).register(resumable);
  const first = await tools.call({ id: "a", name: "resumable" });
  const second = await tools.call({ id: "b", name: "resumable" });
  assert.ok(first.type === "suspended" && second.type === "suspended");
  const called = await tools.resume(first.suspended, true);
  assert.deepEqual(called.type === "output" && called.result.output, { seen: "from-observer" });
  const streamed = [];
  for await (const event of tools.resumeStream(second.suspended, true)) streamed.push(event.type);
  assert.deepEqual(streamed, ["output"]);
  const replayed = await tools.resume(first.suspended, true);
  assert.equal(replayed.type === "failed" && replayed.failure.kind, "invalid_input");
  assert.deepEqual(heard, [
    "start resumable a",
    "end resumable suspended",
    "start resumable b",
    "end resumable suspended",
    "start resumable a resumed",
    "end resumable output",
    "start resumable b resumed",
    "end resumable output",
    "start resumable a resumed",
    "end resumable failed invalid_input",
  ]);
});
