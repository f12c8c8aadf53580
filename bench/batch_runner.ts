// Case 9: one model turn of 10 calls (8 reads, 2 writes, interleaved) through
// runBatch, against the same calls dispatched by hand: toolset.plan() and
// Promise.all over each wave of toolset.call(). The runner adds retries,
// progress, one idempotency key per call and answers in model order; the
// target is that all of it costs at most 1.1× the hand-written loop.

import { defineJsonTool, runBatch, type TerminalEvent, type ToolCall, ToolSet } from "../mod.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";

const BY_HAND = "plan() + Promise.all per wave";
const OURS = "ours: runBatch";

function turnTools(): ToolSet {
  const make = (name: string, effects: string[]) =>
    defineJsonTool<{ n: number }>({
      name,
      description: name,
      inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      effects,
      // An async handler, as a real read or write is.
      run: async ({ n }) => ({ n: await Promise.resolve(n) }),
    });
  return new ToolSet().register(make("read", ["fs.read"]), make("write", ["fs.write"]));
}

const NAMES = ["read", "read", "read", "write", "read", "read", "read", "write", "read", "read"];
const CALLS: ToolCall[] = NAMES.map((name, i) => ({ id: `call_${i}`, name, arguments: `{"n":${i}}` }));

/** What a host writes without the runner: the plan's waves, each in parallel, then the ends put back in order. */
async function byHand(tools: ToolSet): Promise<TerminalEvent[]> {
  const ends = new Map<string, TerminalEvent>();
  for (const wave of tools.plan(CALLS).waves) {
    const terminals = await Promise.all(wave.map((call) => tools.call(call)));
    wave.forEach((call, i) => ends.set(call.id, terminals[i]));
  }
  return CALLS.map((call) => ends.get(call.id)!);
}

/**
 * Runs case 9.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function batchRunner(mode: Mode): Promise<Row[]> {
  const tools = turnTools();
  const hand = await byHand(tools);
  const ours = await runBatch(tools, CALLS);
  check(tools.plan(CALLS).waves.length === 5, "the turn is not three read waves around two writes");
  check(
    JSON.stringify(ours.results.map((r) => r.terminal)) === JSON.stringify(hand),
    "runBatch and the hand-written loop ended the calls differently",
  );
  const stats = await compare([
    { name: BY_HAND, run: () => byHand(tools) },
    { name: OURS, run: () => runBatch(tools, CALLS) },
  ], mode);
  return ratioRows("10. One turn of 10 calls (8 reads, 2 writes)", [BY_HAND, OURS], stats, "ns", BY_HAND, {
    [OURS]: (ratio) => ({ text: "≤ 1.1× by hand", met: ratio <= 1.1 }),
  });
}
