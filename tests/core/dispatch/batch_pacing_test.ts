// A turn's calls all carry a model's arguments: each call's reading is
// bounded by the set's limits, but a turn of many such calls, and its record
// (every call's arguments in one), were read, copied and sealed in one
// stretch. 64 parked calls of 120,000 numbers each (240 KB, within the
// default limits) held the host 1.1 s, with or without a seal.

import assert from "node:assert/strict";
import { defineJsonTool, result, resumeBatch, runBatch, ToolSet } from "../../../mod.ts";
import { gapBound, largestGap } from "../../fixtures/event_loop.ts";

const write = defineJsonTool({
  name: "write",
  description: "Writes.",
  effects: ["fs.write"],
  inputSchema: { type: "object" },
  run: () => ({ written: true }),
});
const args = JSON.stringify({ list: new Array(120_000).fill(0) });
const calls = Array.from({ length: 64 }, (_, i) => ({ id: `c${i}`, name: "write", arguments: args }));

for (const sealed of [false, true]) {
  Deno.test(`a turn of 64 parked calls of 240 KB each ${sealed ? "and its sealed" : "and its"} record never hold the event loop 50 ms`, async () => {
    const tools = new ToolSet({
      approve: () => "suspend",
      ...(sealed ? { seal: { key: { id: "k", secret: "a secret of at least 32 bytes, kept" } } } : {}),
    }).register(write);
    const { result, gapMs } = await largestGap(() => runBatch(tools, calls));
    console.log(`${sealed ? "sealed" : "plain"}: largest event-loop gap ${gapMs.toFixed(1)} ms`);
    assert.equal(result.results.filter((entry) => entry.terminal.type === "suspended").length, 64);
    assert.ok(gapMs < gapBound(), `${gapMs} ms`);
    // The record is whole: every call resumes from it, read back from storage.
    const stored = JSON.parse(JSON.stringify(result.record));
    const answers = Object.fromEntries(calls.map((call) => [call.id, { approved: true }]));
    const resumed = await resumeBatch(tools, stored, answers);
    assert.deepEqual(new Set(resumed.results.map((entry) => entry.terminal.type)), new Set(["output"]));
  });
}

Deno.test("a turn of 100,000 calls is read in with turns of the event loop between, before its first call runs", async () => {
  // Timer turns that ran before the first call did: read in one stretch, the calls let one run, once they were all
  // read (about 0.1 s, or 0.3 s at first).
  let turns = 0;
  let turnsFirst: number | undefined;
  const tools = new ToolSet().register(defineJsonTool({
    name: "note",
    description: "Notes how many timer turns ran before it.",
    effects: ["fs.write"],
    inputSchema: { type: "object" },
    run: () => {
      turnsFirst ??= turns;
      return {};
    },
  }));
  // Each a write, so each its own wave.
  const many = Array.from({ length: 100_000 }, (_, i) => ({ id: `w${i}`, name: "note", arguments: "{}" }));
  await runBatch(tools, []); // The batch runner loads apart: loaded, a turn starts at once.
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const result = await runBatch(tools, many);
  ticking = false;
  assert.equal(result.results.length, 100_000);
  assert.ok(result.results.every((entry, i) => entry.callId === `w${i}` && entry.terminal.type === "output"));
  console.log(`${turnsFirst} timer turns before the first call`);
  assert.ok(turnsFirst !== undefined && turnsFirst >= 2, `${turnsFirst} turns`);
});

Deno.test("a turn's record copies what its results share once, and a result's cyclic usage ends the copy", async () => {
  const usage: Record<string, unknown> = { tokens: 3 };
  usage.self = usage;
  const counted = defineJsonTool({
    name: "counted",
    description: "Reports its usage.",
    effects: ["fs.read"],
    inputSchema: { type: "object" },
    run: () => result({ output: { ok: true }, usage: usage as Record<string, number> }),
  });
  const tools = new ToolSet({ approve: (descriptor) => descriptor.name === "write" ? "suspend" : true })
    .register(write, counted);
  const turn = await runBatch(tools, [
    { id: "r", name: "counted", arguments: "{}" },
    { id: "w", name: "write", arguments: "{}" },
  ]);
  const recorded = turn.record?.calls[0].terminal;
  assert.equal(recorded?.type, "output");
  const copied = recorded?.type === "output" ? recorded.result.usage as Record<string, unknown> : undefined;
  assert.equal(copied?.tokens, 3);
  assert.equal(copied?.self, copied);
  assert.notEqual(copied, usage);
});
