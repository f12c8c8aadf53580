/**
 * The batch runner: one model turn's calls, run the way the plan says
 * (reads together, a write alone, the model's order kept), retried as a
 * {@linkcode RetryPolicy} allows, under one signal and one deadline, and
 * answered in the model's order. A turn with a parked call comes back with
 * a {@linkcode BatchRecord}, plain JSON that {@linkcode resumeBatch} takes
 * in another process to finish the turn.
 *
 * @module
 */

import type { BatchRecord } from "../contract/batch_record.ts";
import type { ToolSet } from "./tool_set.ts";
import type { ToolCall } from "./tool_call.ts";
import type { BatchOptions, BatchResult, ResumeBatchOptions } from "./batch_types.ts";
import { dispatcherOf } from "./_dispatch.ts";
import { BATCH_RUNNER } from "./_apart.ts";

export type { BatchCallResult, BatchOptions, BatchProgress, BatchResult, ResumeBatchOptions } from "./batch_types.ts";

/**
 * Runs one model turn's calls and answers them in the model's order.
 * Calls run in the waves `toolset.plan` makes (reads together, a write
 * alone, nothing overtaking a call the model made first); a call to a tool
 * with an unknown effect runs alone, through the approval gate. A failed
 * call is retried while `retry` allows, after its delay, with the same
 * idempotency key on every attempt (the one the tool's input names, else
 * the call's id, which the handler reads as `ctx.idempotencyKey`); a
 * write is never retried. `signal` cancels the batch, `timeoutMs`
 * bounds each attempt, `batchTimeoutMs` the whole turn; at most
 * `maxConcurrency` calls (16 by default) run at once. Every call ends in
 * exactly one terminal. A parked call does not stop the turn: the other
 * calls run, and the result carries a {@linkcode BatchRecord} to finish it
 * with {@linkcode resumeBatch} (the person's answer comes later, so a read
 * after a parked write sees the world without it). A set's observer
 * hears of every call, one refused or out of time before it starts too,
 * and of a call that may be retried once, with each attempt under it
 * (`ObservedCall.attempt` and `parent`).
 *
 * @param toolset The tools.
 * @param calls The model's calls, in its order.
 * @param options Retry, signal, timeouts, approval, projection, progress.
 * @returns Every call's end in the model's order, and a record when any call is parked.
 * @throws {TypeError} When `calls` is not an array.
 * @throws {RangeError} When `batchTimeoutMs` is not a number from 1 to 2^31 - 1 (a timer's bound), or
 *   `maxConcurrency` not a positive integer.
 *
 * @example A flaky read is retried; a write waits for the read before it
 * ```ts
 * import { defineJsonTool, HandlerError, RetryPolicy, runBatch, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * let failures = 1;
 * const read = defineJsonTool({
 *   name: "read",
 *   description: "Read.",
 *   inputSchema: { type: "object" },
 *   effects: ["fs.read"],
 *   run: () => {
 *     if (failures-- > 0) throw new HandlerError("disk busy");
 *     return { text: "hello" };
 *   },
 * });
 * const write = defineJsonTool({
 *   name: "write",
 *   description: "Write.",
 *   inputSchema: { type: "object" },
 *   effects: ["fs.write"],
 *   run: () => ({ written: true }),
 * });
 * const tools = new ToolSet().register(read, write);
 * const { results, record } = await runBatch(tools, [
 *   { id: "a", name: "read", arguments: "{}" },
 *   { id: "b", name: "write", arguments: "{}" },
 * ], { retry: new RetryPolicy({ baseDelayMs: 0 }) });
 * assert.deepEqual(results.map((r) => [r.callId, r.terminal.type, r.attempts]), [["a", "output", 2], ["b", "output", 1]]);
 * assert.equal(record, undefined);
 * ```
 */
export async function runBatch(
  toolset: ToolSet,
  calls: readonly ToolCall[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  if (!Array.isArray(calls)) {
    throw new TypeError(
      `Cannot run the batch as calls must be an array: current value is ${calls === null ? "null" : typeof calls}`,
    );
  }
  return await BATCH_RUNNER.use((runner) => runner.run(toolset, dispatcherOf(toolset), calls, options));
}

/**
 * Finishes a turn from its {@linkcode BatchRecord}, in this process or
 * another: each parked call with an answer in `answers` (by call id) is
 * resumed with it (an approval's answer is an `ApprovalAnswer`,
 * `{ approved: boolean, reason?: string }`), in waves as the plan makes
 * them; the finished calls keep their terminals. A resumed call is not
 * retried: a person decided on one run. A parked call without an answer
 * stays parked, and the result carries a new record. In a set with a
 * `seal`, the record's seal is verified (for `subject`) before anything
 * of it is read, and it resumes once; a refused record is reported in
 * `refused`, with nothing run.
 *
 * @param toolset The tools, at the versions the calls were parked with.
 * @param record The record, e.g. read back from JSON.
 * @param answers The people's answers, by call id.
 * @param options Signal, timeouts, extensions, progress.
 * @returns Every call's end in the model's order: what a provider needs before the next request.
 * @throws {TypeError} When `answers` is not an object.
 * @throws {RangeError} When `batchTimeoutMs` is not a number from 1 to 2^31 - 1 (a timer's bound), or
 *   `maxConcurrency` not a positive integer.
 *
 * @example Two parked writes, one approved and one denied, in a fresh set
 * ```ts
 * import { defineJsonTool, runBatch, resumeBatch, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const make = (name: string, effects: string[]) =>
 *   defineJsonTool({ name, description: name, inputSchema: { type: "object" }, effects, run: () => ({ done: name }) });
 * const tools = () => new ToolSet({ approve: (tool) => tool.effects.includes("fs.read") || "suspend" })
 *   .register(make("read", ["fs.read"]), make("write", ["fs.write"]));
 *
 * const first = await runBatch(tools(), [
 *   { id: "1", name: "write" },
 *   { id: "2", name: "read" },
 *   { id: "3", name: "write" },
 * ]);
 * const stored = JSON.stringify(first.record); // what you would keep
 *
 * const last = await resumeBatch(tools(), JSON.parse(stored), { "1": { approved: true }, "3": { approved: false } });
 * assert.deepEqual(last.results.map((r) => r.terminal.type), ["output", "output", "failed"]);
 * assert.equal(last.record, undefined);
 * ```
 */
export async function resumeBatch(
  toolset: ToolSet,
  record: BatchRecord,
  answers: Readonly<Record<string, unknown>>,
  options: ResumeBatchOptions = {},
): Promise<BatchResult> {
  if (typeof answers !== "object" || answers === null) {
    throw new TypeError(
      `Cannot resume the batch as answers must be an object by call id: current value is ${
        answers === null ? "null" : typeof answers
      }`,
    );
  }
  return await BATCH_RUNNER.use((runner) => runner.resume(toolset, dispatcherOf(toolset), record, answers, options));
}
