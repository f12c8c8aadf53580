/**
 * A parked call as a framework's tool output: a framework with no way to
 * pause a running tool gets this value as the call's result, so the record
 * is kept where the framework keeps its messages, and the host resumes it
 * with `ToolSet.resume`.
 *
 * @module
 */

import type { SuspendedCall } from "../core/contract/suspend.ts";

/** What a bridged tool returns for a call that was parked for a person. */
export interface ParkedOutput {
  /** Marks the output of a parked call. */
  readonly status: "suspended";
  /** Why a person is needed. */
  readonly reason: string;
  /** The record to resume with `ToolSet.resume`. */
  readonly suspended: SuspendedCall;
}

/**
 * Reads a parked call's record back out of a bridged tool's output.
 *
 * @param output A tool output, e.g. from the framework's tool result parts.
 * @returns The record, or `undefined` when the output is not a parked call.
 *
 * @example Find the record in a tool result
 * ```ts
 * import { parkedCall } from "@salvor/tools/ai-sdk";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parkedCall({ sum: 3 }), undefined);
 * const suspended = { v: 1, callId: "1", tool: "rm", version: "1.0.0", input: {}, reason: "r", resumeSchema: {}, origin: "handler" } as const;
 * assert.equal(parkedCall({ status: "suspended", reason: "r", suspended })?.tool, "rm");
 * ```
 */
export function parkedCall(output: unknown): SuspendedCall | undefined {
  const parked = output as Partial<ParkedOutput> | null | undefined;
  return typeof parked === "object" && parked !== null && parked.status === "suspended" &&
      typeof parked.suspended === "object" && parked.suspended !== null
    ? parked.suspended
    : undefined;
}
