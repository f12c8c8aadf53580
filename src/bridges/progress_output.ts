/**
 * A call's progress as the frameworks that stream a tool's intermediate
 * values read it: the AI SDK's preliminary results, LangChain's tool
 * events and Mastra's tool writer all carry the same shape, as it comes,
 * and the call's terminal after it.
 *
 * @module
 */

import type { ProgressEvent, TerminalEvent, ToolEvent } from "../core/contract/events.ts";

/** One progress event of a bridged call, as the framework streams it. */
export interface ProgressOutput {
  /** Marks a progress value, apart from the call's output. */
  readonly status: "progress";
  /** Work done so far, in the tool's own units. */
  readonly progress?: number;
  /** Total work, when known. */
  readonly total?: number;
  /** A short human message. */
  readonly message?: string;
}

/**
 * A progress event as the value a framework streams.
 *
 * @param event The call's progress event.
 * @returns The same fields, marked `status: "progress"`.
 *
 * @example Marked apart from the output
 * ```ts
 * import { progressOutput } from "./progress_output.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(progressOutput({ type: "progress", progress: 1, total: 2 }), {
 *   status: "progress",
 *   progress: 1,
 *   total: 2,
 * });
 * ```
 */
export function progressOutput(event: ProgressEvent): ProgressOutput {
  const { type: _, ...progress } = event;
  return { status: "progress", ...progress };
}

/**
 * A call's events as a framework reads them: a {@linkcode ProgressOutput}
 * per progress event, as it comes; the generator returns the terminal.
 *
 * @param events The call's events, ending in its terminal (as `ToolSet.stream` always does).
 * @returns A generator of the progress outputs whose return value is the terminal.
 * @throws {TypeError} When the events end without a terminal.
 *
 * @example Progress first, then the terminal
 * ```ts
 * import { progressThenTerminal } from "./progress_output.ts";
 * import type { ToolEvent } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * async function* events(): AsyncGenerator<ToolEvent> {
 *   yield { type: "progress", progress: 1, total: 2 };
 *   yield { type: "output", result: { content: [], output: "done" } };
 * }
 * const read = progressThenTerminal(events());
 * assert.deepEqual(await read.next(), { done: false, value: { status: "progress", progress: 1, total: 2 } });
 * assert.deepEqual(await read.next(), { done: true, value: { type: "output", result: { content: [], output: "done" } } });
 * ```
 */
export async function* progressThenTerminal(
  events: AsyncIterable<ToolEvent>,
): AsyncGenerator<ProgressOutput, TerminalEvent, undefined> {
  for await (const event of events) {
    if (event.type !== "progress") return event;
    yield progressOutput(event);
  }
  throw new TypeError("Cannot read the call's terminal as the stream ended without one");
}
