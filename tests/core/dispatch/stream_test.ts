import assert from "node:assert/strict";
import * as v from "valibot";
import {
  defineTool,
  type ExecutionEvent,
  type ProgressEvent,
  type TerminalEvent,
  type ToolContext,
  type ToolEvent,
  ToolSet,
} from "../../../mod.ts";
import type { DynTool } from "../../../dyn.ts";

async function collect(events: AsyncIterable<ToolEvent>): Promise<ToolEvent[]> {
  const seen: ToolEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

function shape(events: readonly ToolEvent[]): string[] {
  return events.map((event) => event.type === "failed" ? `failed:${event.failure.kind}` : event.type);
}

/** A raw tool with a given execute and optional parsers. */
function rawTool(
  execute: DynTool["execute"],
  parsers: Pick<DynTool, "parseInput" | "parseOutput"> = {},
): DynTool {
  return {
    descriptor: {
      name: "raw",
      version: "1.0.0",
      description: "A hand-made tool.",
      inputSchema: { type: "object" },
      outputSchema: { type: "object" },
      effects: ["external.read"],
      semantics: { idempotency: "idempotent", retry: "automatic", concurrency: "parallel" },
    },
    ...parsers,
    execute,
  };
}

const OUTPUT: ExecutionEvent = { type: "output", result: { content: [], output: {} } };

async function streamRaw(tool: DynTool): Promise<ToolEvent[]> {
  return await collect(new ToolSet().register(tool).stream({ id: "1", name: "raw" }));
}

function messageOf(events: readonly ToolEvent[]): string {
  const end = events.at(-1) as TerminalEvent;
  return end.type === "failed" ? end.failure.message : "";
}

Deno.test("ToolSet.stream() yields a typed tool's ctx.progress reports in order, then its output", async () => {
  const count = defineTool({
    name: "count",
    description: "Counts.",
    inputSchema: v.object({ to: v.number() }),
    effects: [],
    run: async (input, ctx) => {
      for (let i = 1; i <= input.to; i++) {
        ctx.progress({ progress: i, total: input.to, message: `step ${i}` });
        await Promise.resolve();
      }
      return { counted: input.to };
    },
  });
  const events = await collect(new ToolSet().register(count).stream({ id: "1", name: "count", arguments: { to: 3 } }));
  assert.deepEqual(events.slice(0, 3), [
    { type: "progress", progress: 1, total: 3, message: "step 1" },
    { type: "progress", progress: 2, total: 3, message: "step 2" },
    { type: "progress", progress: 3, total: 3, message: "step 3" },
  ]);
  assert.deepEqual(shape(events), ["progress", "progress", "progress", "output"]);
});

Deno.test("ToolSet.call() hands each progress event to onProgress, and a throwing onProgress does not fail the call", async () => {
  const tool = rawTool(async function* () {
    yield { type: "progress", progress: 1 };
    yield { type: "progress", progress: 2 };
    yield OUTPUT;
  });
  const seen: ProgressEvent[] = [];
  const tools = new ToolSet().register(tool);
  const end = await tools.call({ id: "1", name: "raw" }, { onProgress: (event) => seen.push(event) });
  assert.equal(end.type, "output");
  assert.deepEqual(seen.map((event) => event.progress), [1, 2]);
  const again = await tools.call({ id: "2", name: "raw" }, {
    onProgress: () => {
      throw new Error("UI crashed");
    },
  });
  assert.equal(again.type, "output");
});

Deno.test("ctx.progress throws a TypeError for a malformed report, which fails the handler with that message", async () => {
  const bad = defineTool({
    name: "bad_progress",
    description: "Reports NaN progress.",
    inputSchema: v.object({}),
    effects: [],
    run: (_input, ctx) => {
      ctx.progress({ progress: 0 / 0 });
      return {};
    },
  });
  const end = await new ToolSet().register(bad).call({ id: "1", name: "bad_progress" });
  assert.ok(end.type === "failed");
  assert.equal(end.failure.kind, "handler");
  assert.match(
    end.failure.message,
    /Cannot report progress as its progress must be a finite number: current value is NaN/,
  );
});

Deno.test("ctx.progress after the call ended is dropped: no event and no error", async () => {
  let saved: ToolContext | undefined;
  const early = defineTool({
    name: "early",
    description: "Keeps its context.",
    inputSchema: v.object({}),
    effects: [],
    run: (_input, ctx) => {
      saved = ctx;
      return {};
    },
  });
  const events = await collect(new ToolSet().register(early).stream({ id: "1", name: "early" }));
  assert.deepEqual(shape(events), ["output"]);
  assert.doesNotThrow(() => saved!.progress({ message: "late" }));
});

Deno.test("ToolSet.stream() keeps only the known fields of a progress event and bounds its message", async () => {
  const tool = rawTool(async function* () {
    yield { type: "progress", message: "x".repeat(5000), extra: "dropped" } as ExecutionEvent;
    yield OUTPUT;
  });
  const [progress] = await streamRaw(tool);
  assert.deepEqual(Object.keys(progress), ["type", "message"]);
  assert.equal((progress as ProgressEvent).message!.length, 1000);
});

Deno.test("ToolSet.stream() turns an execute() that throws or returns no stream into one contract failure", async () => {
  const throwing = rawTool(() => {
    throw new Error("boom");
  });
  assert.deepEqual(shape(await streamRaw(throwing)), ["failed:contract"]);
  const nothing = rawTool(() => undefined as unknown as AsyncIterable<ExecutionEvent>);
  assert.deepEqual(shape(await streamRaw(nothing)), ["failed:contract"]);
  const syncNext = rawTool(() => ({
    [Symbol.asyncIterator]: () => ({
      next: () => {
        throw new Error("next broke");
      },
    }),
  }));
  const events = await streamRaw(syncNext);
  assert.deepEqual(shape(events), ["failed:contract"]);
  assert.match(messageOf(events), /the stream threw: Error: next broke/);
});

Deno.test("ToolSet.stream() turns a second terminal into one contract failure and closes the stream", async () => {
  let closed = false;
  const twice = rawTool(async function* () {
    try {
      yield OUTPUT;
      yield { type: "failed", failure: { kind: "handler", message: "second", modelText: "second", uncertain: false } };
      yield OUTPUT;
    } finally {
      closed = true;
    }
  });
  const events = await streamRaw(twice);
  assert.deepEqual(shape(events), ["failed:contract"]);
  assert.match(messageOf(events), /after its terminal event/);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(closed, true);
});

Deno.test("ToolSet.stream() turns a throw after the terminal into one contract failure", async () => {
  const late = rawTool(async function* () {
    yield OUTPUT;
    throw new Error("cleanup failed");
  });
  const events = await streamRaw(late);
  assert.deepEqual(shape(events), ["failed:contract"]);
  assert.match(messageOf(events), /threw after its terminal event/);
});

Deno.test("ToolSet.call() ends with the terminal of a stream that never ends after it, and aborts its signal", async () => {
  let signal: AbortSignal | undefined;
  const lingering = rawTool(async function* (_invocation, ctx) {
    signal = ctx.signal;
    yield OUTPUT;
    await new Promise(() => {}); // never ends, and no timeout is set
  });
  const end = await new ToolSet().register(lingering).call({ id: "1", name: "raw" });
  assert.equal(end.type, "output");
  assert.equal(signal?.aborted, true);
});

Deno.test("ToolSet.call() ends with the terminal already checked when it times out or is cancelled while the stream closes", async () => {
  const closing = rawTool(async function* (_invocation, ctx) {
    yield OUTPUT;
    // Cleans up until it is told to stop.
    await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
  });
  const tools = new ToolSet().register(closing);
  assert.equal((await tools.call({ id: "1", name: "raw" }, { timeoutMs: 20 })).type, "output");
  const controller = new AbortController();
  const cancelled = tools.call({ id: "2", name: "raw" }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  assert.equal((await cancelled).type, "output");
});

Deno.test("ToolSet.stream() still sees an event yielded soon after the terminal as a contract breach", async () => {
  const late = rawTool(async function* () {
    yield OUTPUT;
    await new Promise((resolve) => setTimeout(resolve, 5));
    yield OUTPUT;
  });
  const events = await streamRaw(late);
  assert.deepEqual(shape(events), ["failed:contract"]);
});

Deno.test("ToolSet.stream() keeps a tool's own failure kind, retry hint and code", async () => {
  const gone = rawTool(async function* () {
    yield {
      type: "failed",
      failure: {
        kind: "unavailable",
        message: "server exited",
        modelText: "Try later.",
        uncertain: false,
        retryable: true,
        code: "EPIPE",
      },
    };
  });
  const [end] = await streamRaw(gone);
  assert.ok(end.type === "failed");
  assert.deepEqual(
    [end.failure.kind, end.failure.retryable, end.failure.code, end.failure.modelText],
    ["unavailable", true, "EPIPE", "Try later."],
  );
});

Deno.test("ToolSet.stream() reports a parseInput that throws or answers nonsense as a contract failure, never a throw", async () => {
  const execute = async function* () {
    yield OUTPUT;
  };
  for (
    const [parseInput, pattern] of [
      [() => {
        throw new Error("parser bug");
      }, /parseInput\(\) threw: Error: parser bug/],
      [() => Promise.reject(new Error("async parser bug")), /parseInput\(\) threw/],
      [() => undefined, /parseInput\(\) answered with something that is not a parse result/],
      [() => ({ ok: false }), /not a parse result/],
    ] as const
  ) {
    const events = await streamRaw(rawTool(execute, { parseInput: parseInput as DynTool["parseInput"] }));
    assert.deepEqual(shape(events), ["failed:contract"]);
    assert.match(messageOf(events), pattern);
  }
});

Deno.test("ToolSet.stream() reports a parseOutput that throws as a contract failure, never a throw", async () => {
  const events = await streamRaw(rawTool(async function* () {
    yield OUTPUT;
  }, {
    parseOutput: () => {
      throw new Error("output parser bug");
    },
  }));
  assert.deepEqual(shape(events), ["failed:contract"]);
  assert.match(messageOf(events), /parseOutput\(\) threw: Error: output parser bug/);
});
