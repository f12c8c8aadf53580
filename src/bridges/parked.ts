/**
 * A parked call as a framework's tool output: a framework with no way to
 * pause a running tool gets this value as the call's result, so the record
 * is kept where the framework keeps its messages, and the host resumes it
 * with `ToolSet.resume`.
 *
 * @module
 */

import type { SuspendedCall } from "../core/contract/suspend.ts";
import { isRecord } from "../core/common/_is_record.ts";

/** What a bridged tool returns for a call that was parked for a person. */
export interface ParkedOutput {
  /** Marks the output of a parked call. */
  readonly status: "suspended";
  /** Why a person is needed. */
  readonly reason: string;
  /** The record to resume with `ToolSet.resume`. */
  readonly suspended: SuspendedCall;
}

/** The tool result an output came from: a parked call's record names them both. */
export interface ParkedCallOf {
  /** The tool the result is of. */
  readonly toolName: string;
  /** The call's id, where the framework gives one. */
  readonly toolCallId?: string;
}

/**
 * Reads a parked call's record back out of a bridged tool's output. A
 * tool's own output can look like a parked call (an MCP server's structured
 * content, a record read from a database), so a record is taken only when
 * it names the tool result's own tool and call. Only a sealed record proves
 * that the set parked it.
 *
 * @param output A tool output, e.g. from the framework's tool result parts.
 * @param of The tool result's tool name, and its call id where the framework gives one.
 * @returns The record, or `undefined` when the output is not a parked call of that tool and call.
 *
 * @example Find the record in a tool result
 * ```ts
 * import { parkedCall } from "@salvor/tools/ai-sdk";
 * import assert from "node:assert/strict";
 *
 * assert.equal(parkedCall({ sum: 3 }, { toolName: "add", toolCallId: "1" }), undefined);
 * const suspended = { v: 1, callId: "1", tool: "rm", version: "1.0.0", input: {}, reason: "r", resumeSchema: {}, origin: "handler" } as const;
 * const output = { status: "suspended", reason: "r", suspended };
 * assert.equal(parkedCall(output, { toolName: "rm", toolCallId: "1" })?.tool, "rm");
 * // The same output as another tool's result is that tool's own data.
 * assert.equal(parkedCall(output, { toolName: "fetch_page", toolCallId: "1" }), undefined);
 * ```
 */
export function parkedCall(output: unknown, of: ParkedCallOf): SuspendedCall | undefined {
  const parked = output as Partial<ParkedOutput> | null | undefined;
  if (typeof parked !== "object" || parked === null || parked.status !== "suspended") return undefined;
  return isRecordOf(parked.suspended, of) ? parked.suspended : undefined;
}

/**
 * Whether a value is a parked call's record of the given tool and call (of the tool alone, without a call id): what a
 * tool's output or a store hands back may be anything.
 *
 * @param record The value.
 * @param of The tool's name, and the call's id where there is one.
 * @returns Whether it names them.
 */
export function isRecordOf(record: unknown, of: ParkedCallOf): record is SuspendedCall {
  return isRecord(record) && record.tool === of.toolName &&
    (of.toolCallId === undefined || record.callId === of.toolCallId);
}
