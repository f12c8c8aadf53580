/**
 * The call observer: what a host sees of every call a {@linkcode ToolSet}
 * dispatches (its start, its progress, its one terminal), for tracing,
 * metrics and logs, with no dependency in the core. A set without an
 * observer pays nothing for it. The batch runner reports a call it may
 * retry as the call and, under it, each attempt.
 *
 * @module
 */

import type { DynTool } from "../contract/dyn.ts";
import type { ProgressEvent, TerminalEvent } from "../contract/events.ts";
import type { FailureKind } from "../contract/failure.ts";
import type { ToolDescriptor } from "../contract/spec.ts";

/** One call as an observer sees it. The same object is passed to every hook of that call. */
export interface ObservedCall {
  /** The model's call id (the record's, when resuming); `""` for a malformed call. */
  readonly callId: string;
  /** The tool's name as the call gave it; `""` for a malformed call. */
  readonly name: string;
  /** The registered tool, when there is one of that name. */
  readonly tool: DynTool | undefined;
  /** The registered tool's descriptor, when there is one. */
  readonly descriptor: ToolDescriptor | undefined;
  /** The tool's declared effects; empty when the tool is not registered. */
  readonly effects: readonly string[];
  /** Whether this is a parked call resumed with `ToolSet.resume` or `resumeStream`. */
  readonly resumed: boolean;
  /**
   * Which attempt this is (1, 2, ...) of a call `runBatch` may retry: each
   * attempt is reported as a call of its own under `parent`, which ends
   * with the call's last terminal. `undefined` for every other call.
   */
  readonly attempt: number | undefined;
  /** For an attempt, the call it is an attempt of; `undefined` for every other call. */
  readonly parent: ObservedCall | undefined;
  /**
   * When the call started, in milliseconds on the `performance.now()` clock;
   * `NaN` for an observer that keeps its own time (`timed: false`).
   */
  readonly startedAt: number;
  /**
   * The arguments as the model sent them (the record's input when resuming):
   * untrusted and possibly sensitive, so present only when the observer sets
   * `includeArguments`. A JSON text as it came; a value as a frozen copy, or
   * absent when it is not JSON within the set's limits (the call then fails).
   */
  readonly arguments?: unknown;
}

/** How a call ended, as an observer sees it. */
export interface ObservedEnd {
  /** The call's terminal event, exactly as the caller receives it. */
  readonly event: TerminalEvent;
  /** The failure's kind when the call failed. */
  readonly failureKind: FailureKind | undefined;
  /**
   * How long the call took, in milliseconds, from its start to its
   * terminal; `NaN` for an observer that keeps its own time (`timed: false`).
   */
  readonly durationMs: number;
}

/**
 * Receives every call a set dispatches. Each hook is optional, is called
 * synchronously as the call goes, and may not fail the call: whatever a
 * hook throws is ignored. A metric of model calls skips attempts (calls
 * with a `parent`), which the call they belong to already counts.
 *
 * @example Count failures by kind
 * ```ts
 * import { type CallObserver, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const failures = new Map<string, number>();
 * const observer: CallObserver = {
 *   terminal(call, end) {
 *     if (end.failureKind && call.parent === undefined) failures.set(end.failureKind, (failures.get(end.failureKind) ?? 0) + 1);
 *   },
 * };
 * await new ToolSet({ observer }).call({ id: "1", name: "missing" });
 * assert.deepEqual([...failures], [["not_found", 1]]);
 * ```
 */
export interface CallObserver {
  /** Whether calls carry their arguments (`ObservedCall.arguments`); default false. */
  readonly includeArguments?: boolean;
  /**
   * Whether calls are timed (`startedAt`, `durationMs`); default true. An
   * observer that keeps its own time, as a tracer's spans do, turns it off
   * and spares every call two clock reads.
   */
  readonly timed?: boolean;
  /**
   * A call started, before anything about it is checked.
   *
   * @param call The call.
   * @returns Nothing, or per-call extensions to add to the handler's
   * `ctx.extensions` (the host's own `extensions` win on a clash), copied
   * as the host's are, and left out when past the set's limits: how a
   * tracer hands a call's trace context to a tool that forwards it. A
   * batch call with attempts runs no handler itself: its attempts' do.
   */
  callStarted?(call: ObservedCall): Readonly<Record<string, unknown>> | void;
  /**
   * The call reported progress.
   *
   * @param call The call.
   * @param event The progress event.
   */
  progress?(call: ObservedCall, event: ProgressEvent): void;
  /**
   * The call ended.
   *
   * @param call The call.
   * @param end Its terminal event, failure kind and duration.
   */
  terminal?(call: ObservedCall, end: ObservedEnd): void;
}
