import assert from "node:assert/strict";
import { defineJsonTool, type ExecutionEvent, type ToolEvent, ToolSet } from "../../../mod.ts";
import type { DynTool } from "../../../dyn.ts";

const FLOOD = 200_000;
// The ring a slow reader's progress waits in, plus the one event the first read takes.
const MOST_PROGRESS_SEEN = 8 + 1;
// A bound against a hang, far above what draining takes: no timing is asserted beyond it.
const HANG_MS = 20_000;

/** A stream tool that yields a flood of progress, then says it is done and ends with an output. */
function flooding(done: () => void): DynTool {
  const base = defineJsonTool({
    name: "flood",
    description: "Floods.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({}),
  });
  return {
    descriptor: base.descriptor,
    async *execute(): AsyncIterable<ExecutionEvent> {
      for (let i = 1; i <= FLOOD; i++) yield { type: "progress", progress: i, total: FLOOD };
      done();
      yield { type: "output", result: { content: [], output: { done: true } } };
    },
  };
}

/** Reads one event, waits until the tool has queued everything, then drains the rest. */
async function readLate(events: AsyncGenerator<ToolEvent>, flooded: Promise<void>): Promise<ToolEvent[]> {
  const seen: ToolEvent[] = [];
  const first = await events.next();
  if (!first.done) seen.push(first.value);
  await flooded;
  // Let the terminal arrive too.
  await new Promise((resolve) => setTimeout(resolve, 0));
  for await (const event of events) seen.push(event);
  return seen;
}

Deno.test("ToolSet.stream() keeps a slow reader's queue bounded: the latest progress wins and the terminal is kept", async () => {
  const started = Date.now();
  let done!: () => void;
  const flooded = new Promise<void>((resolve) => done = resolve);
  const tools = new ToolSet().register(flooding(done));
  const seen = await readLate(tools.stream({ id: "1", name: "flood" }), flooded);
  const progress = seen.filter((event) => event.type === "progress");
  assert.ok(progress.length <= MOST_PROGRESS_SEEN, `the reader saw ${progress.length} progress events`);
  assert.deepEqual(progress.at(-1), { type: "progress", progress: FLOOD, total: FLOOD });
  assert.equal(seen.at(-1)?.type, "output");
  assert.equal(seen.length, progress.length + 1);
  assert.ok(Date.now() - started < HANG_MS);
});

Deno.test("ToolSet.stream() coalesces a handler's synchronous ctx.progress flood for a reader that reads late", async () => {
  const tools = new ToolSet().register(defineJsonTool({
    name: "flood",
    description: "Floods.",
    inputSchema: { type: "object" },
    effects: [],
    run: async (_input, ctx) => {
      await Promise.resolve();
      for (let i = 1; i <= FLOOD; i++) ctx.progress({ progress: i });
      return { done: true };
    },
  }));
  const seen: ToolEvent[] = [];
  for await (const event of tools.stream({ id: "1", name: "flood" })) seen.push(event);
  const progress = seen.filter((event) => event.type === "progress");
  assert.ok(progress.length <= MOST_PROGRESS_SEEN, `the reader saw ${progress.length} progress events`);
  assert.deepEqual(progress.at(-1), { type: "progress", progress: FLOOD });
  assert.equal(seen.at(-1)?.type, "output");
});

Deno.test("ToolSet.stream() still hands a reader that keeps up every progress event, in order", async () => {
  const tools = new ToolSet().register(defineJsonTool({
    name: "count",
    description: "Counts.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => {
      for (let i = 1; i <= 3; i++) ctx.progress({ progress: i });
      return {};
    },
  }));
  const seen: ToolEvent[] = [];
  for await (const event of tools.stream({ id: "1", name: "count" })) seen.push(event);
  assert.deepEqual(seen.map((event) => event.type === "progress" ? event.progress : event.type), [1, 2, 3, "output"]);
});
