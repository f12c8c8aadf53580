import assert from "node:assert/strict";
import * as v from "valibot";
import {
  defineJsonTool,
  defineTool,
  type TerminalEvent,
  type ToolContext,
  type ToolEvent,
  ToolSet,
} from "../../../mod.ts";
import type { DynTool, ParseResult } from "../../../dyn.ts";
import { fakeReadTool, fakeWriteTool } from "../../../testing.ts";

// Timeouts are asserted only with a generous margin: the machine may be busy.
const MARGIN_MS = 5_000;

function failureOf(end: TerminalEvent) {
  assert.equal(end.type, "failed", JSON.stringify(end));
  return (end as Extract<TerminalEvent, { type: "failed" }>).failure;
}

/** A promise and the function that settles it. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => resolve = r);
  return { promise, resolve };
}

/** Counts the abort listeners added to a signal and still on it, by wrapping its methods. */
function countListeners(signal: AbortSignal) {
  const live = new Set<unknown>();
  let added = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((type: string, listener: EventListener, options?: AddEventListenerOptions) => {
    if (type === "abort") {
      added++;
      live.add(listener);
    }
    add(type, listener, options);
  }) as typeof signal.addEventListener;
  signal.removeEventListener = ((type: string, listener: EventListener, options?: EventListenerOptions) => {
    if (type === "abort") live.delete(listener);
    remove(type, listener, options);
  }) as typeof signal.removeEventListener;
  return {
    get added() {
      return added;
    },
    get live() {
      return live.size;
    },
  };
}

/** A raw tool whose input parser waits for the test to let it go. */
function slowParser(effects: string[] = ["fs.write"]) {
  const parsing = deferred();
  const release = deferred<ParseResult>();
  let executed = 0;
  const tool: DynTool = {
    descriptor: {
      name: "slow_parse",
      version: "1.0.0",
      description: "A tool with an async parser.",
      inputSchema: { type: "object" },
      effects,
      semantics: { idempotency: "non_idempotent", retry: "never", concurrency: "serial" },
    },
    parseInput(value) {
      parsing.resolve();
      return release.promise.then(() => ({ ok: true, value }));
    },
    async *execute() {
      executed++;
      yield { type: "output", result: { content: [] } };
    },
  };
  return { tool, parsing: parsing.promise, release: release.resolve, executed: () => executed };
}

Deno.test("ToolSet.call() ends timeout within the timeout plus a margin when the handler never resolves and ignores its signal, with ctx.signal aborted", async () => {
  let seen: ToolContext | undefined;
  const stuck = defineTool({
    name: "stuck",
    description: "Never finishes.",
    inputSchema: v.object({}),
    effects: ["fs.write"],
    run: (_input, ctx) => {
      seen = ctx;
      return new Promise<never>(() => {});
    },
  });
  const started = performance.now();
  const end = await new ToolSet().register(stuck).call({ id: "1", name: "stuck" }, { timeoutMs: 50 });
  const elapsed = performance.now() - started;
  const failure = failureOf(end);
  assert.equal(failure.kind, "timeout");
  assert.equal(failure.uncertain, true);
  assert.ok(elapsed < 50 + MARGIN_MS, `took ${elapsed} ms`);
  assert.equal(seen?.signal.aborted, true);
  assert.equal((seen?.signal.reason as DOMException).name, "TimeoutError");
});

Deno.test("ToolSet.call() takes the timeout from the spec's timeoutMs, and the call's timeoutMs wins over it", async () => {
  const specTimed = fakeReadTool({ timeoutMs: 20, script: [{ kind: "hang_ignoring_signal" }] });
  assert.equal(
    failureOf(await new ToolSet().register(specTimed).call({ id: "1", name: "fake_read", arguments: { path: "a" } }))
      .kind,
    "timeout",
  );
  const longSpec = fakeReadTool({ timeoutMs: 24 * 60 * 60 * 1000, script: [{ kind: "hang_ignoring_signal" }] });
  const started = performance.now();
  const end = await new ToolSet().register(longSpec).call(
    { id: "2", name: "fake_read", arguments: { path: "a" } },
    { timeoutMs: 20 },
  );
  assert.equal(failureOf(end).kind, "timeout");
  assert.ok(performance.now() - started < 20 + MARGIN_MS);
});

Deno.test("ToolSet.call() ends cancelled and never starts the handler when the signal is aborted before the call", async () => {
  let runs = 0;
  const tool = defineJsonTool({
    name: "count",
    description: "Counts runs.",
    inputSchema: { type: "object" },
    effects: ["fs.write"],
    run: () => ({ runs: ++runs }),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "count" }, { signal: AbortSignal.abort() });
  const failure = failureOf(end);
  assert.equal(failure.kind, "cancelled");
  assert.equal(failure.uncertain, false, "nothing ran, so nothing can have happened");
  assert.equal(runs, 0);
});

Deno.test("ToolSet.call() ends cancelled during async validation and never starts the handler", async () => {
  const { tool, parsing, release, executed } = slowParser();
  const controller = new AbortController();
  const ending = new ToolSet().register(tool).call({ id: "1", name: "slow_parse" }, { signal: controller.signal });
  await parsing;
  controller.abort();
  const failure = failureOf(await ending);
  release({ ok: true, value: {} });
  assert.equal(failure.kind, "cancelled");
  assert.equal(failure.uncertain, false);
  await Promise.resolve();
  assert.equal(executed(), 0);
});

Deno.test("ToolSet.call() ends timeout during async validation that never settles, and never starts the handler", async () => {
  const { tool, parsing, executed } = slowParser();
  const end = await new ToolSet().register(tool).call({ id: "1", name: "slow_parse" }, { timeoutMs: 20 });
  await parsing;
  const failure = failureOf(end);
  assert.equal(failure.kind, "timeout");
  assert.equal(failure.uncertain, false);
  assert.equal(executed(), 0);
});

Deno.test("ToolSet.call() ends cancelled during execution with ctx.signal aborted and uncertain set for a write", async () => {
  const controller = new AbortController();
  const write = fakeWriteTool({ script: [{ kind: "hang", progress: [{ message: "writing" }] }] });
  const end = await new ToolSet().register(write).call(
    { id: "1", name: "fake_write", arguments: { path: "a", text: "b" } },
    { signal: controller.signal, onProgress: () => controller.abort() },
  );
  const failure = failureOf(end);
  assert.equal(failure.kind, "cancelled");
  assert.equal(failure.uncertain, true);
  assert.match(failure.modelText, /may have had side effects/);
  assert.equal(write.calls[0].signal.aborted, true);
  assert.equal((write.calls[0].signal.reason as DOMException).name, "AbortError");
});

Deno.test("ToolSet.call() bounds async output validation by the timeout", async () => {
  const tool: DynTool = {
    descriptor: {
      name: "slow_output",
      version: "1.0.0",
      description: "An output parser that never answers.",
      inputSchema: { type: "object" },
      outputSchema: { type: "object" },
      effects: ["external.mutation"],
      semantics: { idempotency: "non_idempotent", retry: "never", concurrency: "serial" },
    },
    parseOutput: () => new Promise<never>(() => {}),
    async *execute() {
      yield { type: "output", result: { content: [], output: {} } };
    },
  };
  const failure = failureOf(
    await new ToolSet().register(tool).call({ id: "1", name: "slow_output" }, { timeoutMs: 20 }),
  );
  assert.equal(failure.kind, "timeout");
  assert.equal(failure.uncertain, true, "the tool ran before its output was checked");
});

Deno.test("ToolSet.call() and stream() end timeout near the deadline for a tool stream that yields only on microtasks", async () => {
  let yielded = 0;
  const scan: DynTool = {
    descriptor: {
      name: "scan",
      version: "1.0.0",
      description: "Reports on every item it holds in memory, never waiting for I/O.",
      inputSchema: { type: "object" },
      effects: ["fs.read"],
      semantics: { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" },
    },
    async *execute() {
      for (let i = 0; i < 300_000; i++) {
        yielded++;
        yield { type: "progress", progress: i };
      }
      yield { type: "output", result: { content: [] } };
    },
  };
  const tools = new ToolSet().register(scan);
  const runs: [string, () => Promise<TerminalEvent>][] = [
    ["call", () => tools.call({ id: "1", name: "scan" }, { timeoutMs: 20, onProgress: () => {} })],
    ["stream", async () => {
      let last: ToolEvent | undefined;
      for await (const event of tools.stream({ id: "2", name: "scan" }, { timeoutMs: 20 })) last = event;
      return last as TerminalEvent;
    }],
  ];
  for (const [how, run] of runs) {
    yielded = 0;
    assert.equal(failureOf(await run()).kind, "timeout", how);
    assert.ok(yielded < 300_000, `${how}: the stream was read to its end`);
  }
});

Deno.test("ToolSet.call() bounds an approval gate that never answers by the timeout, and the handler never starts", async () => {
  const write = fakeWriteTool();
  const tools = new ToolSet({ approve: () => new Promise<never>(() => {}) }).register(write);
  const failure = failureOf(
    await tools.call({ id: "1", name: "fake_write", arguments: { path: "a", text: "b" } }, { timeoutMs: 20 }),
  );
  assert.equal(failure.kind, "timeout");
  assert.equal(failure.uncertain, false);
  assert.equal(write.calls.length, 0);
});

Deno.test("a timed-out or cancelled call is uncertain exactly when the tool is not idempotent", async () => {
  const hang = [{ kind: "hang" as const, progress: [{ message: "started" }] }];
  const table: readonly [string, () => DynTool, boolean][] = [
    ["read", () => fakeReadTool({ script: hang }), false],
    ["write", () => fakeWriteTool({ script: hang }), true],
    ["idempotent write", () => fakeWriteTool({ script: hang, semantics: { idempotency: "idempotent" } }), false],
    [
      "externally reconciled write",
      () => fakeWriteTool({ script: hang, semantics: { idempotency: "externally_reconciled" } }),
      true,
    ],
  ];
  for (const [label, make, uncertain] of table) {
    for (const stop of ["timeout", "cancelled"] as const) {
      const tool = make();
      const controller = new AbortController();
      const end = await new ToolSet().register(tool).call(
        { id: "1", name: tool.descriptor.name, arguments: label === "read" ? { path: "a" } : { path: "a", text: "b" } },
        stop === "timeout" ? { timeoutMs: 10 } : { signal: controller.signal, onProgress: () => controller.abort() },
      );
      const failure = failureOf(end);
      assert.equal(failure.kind, stop, `${label} ${stop}`);
      assert.equal(failure.uncertain, uncertain, `${label} ${stop}`);
    }
  }
});

Deno.test("ToolSet.stream() aborts the tool's signal when the caller stops reading before the terminal", async () => {
  const write = fakeWriteTool({ script: [{ kind: "hang", progress: [{ message: "started" }] }] });
  const stream = new ToolSet().register(write).stream({
    id: "1",
    name: "fake_write",
    arguments: { path: "a", text: "b" },
  });
  for await (const event of stream) {
    assert.equal(event.type, "progress");
    break;
  }
  assert.equal(write.calls[0].signal.aborted, true);
});

Deno.test("ToolSet.stream() aborts a typed handler's signal when the caller stops reading at its progress", async () => {
  let seen: ToolContext | undefined;
  const stuck = defineTool({
    name: "stuck",
    description: "Reports progress, then never finishes.",
    inputSchema: v.object({}),
    effects: [],
    run: (_input, ctx) => {
      seen = ctx;
      ctx.progress({ message: "started" });
      return new Promise<never>(() => {});
    },
  });
  for await (const event of new ToolSet().register(stuck).stream({ id: "1", name: "stuck" })) {
    assert.equal(event.type, "progress");
    break;
  }
  assert.equal(seen?.signal.aborted, true);
});

Deno.test("ToolSet.stream()'s return() or throw() while a next() waits stops the call at once: its signal aborts, all settle", async () => {
  const signals: AbortSignal[] = [];
  // Ends only when its signal aborts.
  const waiting = defineJsonTool({
    name: "waiting",
    description: "Waits for its signal.",
    inputSchema: { type: "object" },
    effects: ["external.mutation"],
    run: (_input, ctx) => {
      signals.push(ctx.signal);
      return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ late: true })));
    },
  });
  const tools = new ToolSet().register(waiting);
  const within = async <T>(promise: Promise<T>): Promise<T | "still pending"> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"still pending">((resolve) => timer = setTimeout(() => resolve("still pending"), 1000));
    try {
      return await Promise.race([promise, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const stop = [
    (events: AsyncGenerator<ToolEvent>) => events.return(undefined),
    (events: AsyncGenerator<ToolEvent>) =>
      events.throw(new Error("reader gave up")).catch((error: Error) => error.message),
  ];
  for (const [i, stopping] of stop.entries()) {
    const events = tools.stream({ id: "1", name: "waiting" });
    const pending = events.next();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(signals.length, i + 1, "the handler runs");
    const stopped = await within(stopping(events));
    assert.deepEqual(stopped, i === 0 ? { done: true, value: undefined } : "reader gave up");
    assert.equal(signals[i].aborted, true);
    const first = await within(pending);
    assert.equal(
      first !== "still pending" && !first.done && first.value.type === "failed" && first.value.failure.kind,
      "cancelled",
    );
    assert.deepEqual(await events.next(), { done: true, value: undefined });
  }
});

Deno.test("ToolSet.call() leaves the signal of a call that finished alone", async () => {
  const read = fakeReadTool();
  await new ToolSet().register(read).call({ id: "1", name: "fake_read", arguments: { path: "a" } }, {
    timeoutMs: 1000,
  });
  assert.equal(read.calls[0].signal.aborted, false);
});

Deno.test("ToolSet.call() reports bad call options as a contract failure, not an exception, and runs nothing", async () => {
  const write = fakeWriteTool();
  const tools = new ToolSet().register(write);
  const call = { id: "1", name: "fake_write", arguments: { path: "a", text: "b" } };
  for (
    const [options, pattern] of [
      [{ timeoutMs: 0 }, /timeoutMs must be a number from 1/],
      [{ timeoutMs: Number.NaN }, /timeoutMs must be a number from 1 to \d+: current value is NaN$/],
      [{ timeoutMs: Infinity }, /current value is Infinity$/],
      [{ timeoutMs: 2 ** 31 }, /timeoutMs/],
      [{ signal: {} }, /signal must be an AbortSignal: current value is object/],
      [{ signal: "stop" }, /signal must be an AbortSignal: current value is string/],
      [
        { signal: { aborted: false, addEventListener() {} } },
        /signal must be an AbortSignal: current value is object/,
      ],
      [{ idempotencyKey: "" }, /idempotencyKey must be a non-empty string/],
      [{ idempotencyKey: 7 }, /idempotencyKey must be a non-empty string: current value is number/],
    ] as const
  ) {
    const failure = failureOf(await tools.call(call, options as never));
    assert.equal(failure.kind, "contract");
    assert.match(failure.message, pattern);
  }
  assert.equal(write.calls.length, 0);
});

Deno.test("a signal-like object whose removeEventListener throws ends its call in one terminal, timed out or not, and crashes nothing", async () => {
  const slow = defineJsonTool({
    name: "slow",
    description: "Never answers.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => new Promise(() => {}),
  });
  const quick = defineJsonTool({
    name: "quick",
    description: "Answers.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({}),
  });
  const tools = new ToolSet().register(slow, quick);
  const signal = {
    aborted: false,
    addEventListener() {},
    removeEventListener() {
      throw new Error("not removable");
    },
  } as unknown as AbortSignal;
  assert.equal((await tools.call({ id: "1", name: "quick" }, { signal })).type, "output");
  // The timeout's halt runs in a timer's callback: a throw there would end the process.
  const late = await tools.call({ id: "2", name: "slow" }, { signal, timeoutMs: 20 });
  assert.equal(failureOf(late).kind, "timeout");
  const events = [];
  for await (const event of tools.stream({ id: "3", name: "quick" }, { signal })) events.push(event.type);
  assert.deepEqual(events, ["output"]);
});

Deno.test("100,000 sequential calls sharing one caller AbortSignal leave no listeners on it and no timers behind", async () => {
  const ping = defineJsonTool({
    name: "ping",
    description: "Answers pong.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({ pong: true }),
  });
  const tools = new ToolSet().register(ping);
  const controller = new AbortController();
  const listeners = countListeners(controller.signal);
  let outputs = 0;
  for (let i = 0; i < 100_000; i++) {
    // The timeout makes each call arm a timer too; a timer left behind fails the test's sanitizer.
    const end = await tools.call({ id: `c${i}`, name: "ping" }, { signal: controller.signal, timeoutMs: 60_000 });
    if (end.type === "output") outputs++;
  }
  assert.equal(outputs, 100_000);
  assert.equal(listeners.added, 100_000, "each call listened to the signal");
  assert.equal(listeners.live, 0);
});

Deno.test("10,000 concurrent calls sharing one caller AbortSignal all reach a terminal and leave no listeners", async () => {
  const read = fakeReadTool();
  const tools = new ToolSet().register(read);
  const controller = new AbortController();
  const listeners = countListeners(controller.signal);
  const ends = await Promise.all(
    Array.from(
      { length: 10_000 },
      (_, i) =>
        tools.call({ id: `c${i}`, name: "fake_read", arguments: { path: `f${i}` } }, { signal: controller.signal }),
    ),
  );
  assert.equal(ends.filter((end) => end.type === "output").length, 10_000);
  assert.equal(listeners.added, 10_000);
  assert.equal(listeners.live, 0);
});

Deno.test("10,000 concurrent hanging calls all end cancelled when their shared signal aborts", async () => {
  const read = fakeReadTool({ script: Array.from({ length: 10_000 }, () => ({ kind: "hang" as const })) });
  const tools = new ToolSet().register(read);
  const controller = new AbortController();
  const streams: Promise<ToolEvent[]>[] = [];
  for (let i = 0; i < 10_000; i++) {
    streams.push((async () => {
      const seen: ToolEvent[] = [];
      for await (
        const event of tools.stream({ id: `c${i}`, name: "fake_read", arguments: { path: "a" } }, {
          signal: controller.signal,
        })
      ) seen.push(event);
      return seen;
    })());
  }
  while (read.calls.length < 10_000) await new Promise((resolve) => setTimeout(resolve, 1));
  controller.abort();
  const all = await Promise.all(streams);
  assert.ok(all.every((events) => events.length === 1 && events[0].type === "failed"));
  assert.equal(all.filter((events) => failureOf(events[0] as TerminalEvent).kind === "cancelled").length, 10_000);
  assert.ok(read.calls.every((call) => call.signal.aborted));
});
