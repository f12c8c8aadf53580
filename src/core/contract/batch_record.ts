/**
 * Batch records: one model turn's calls and how each ended, as plain JSON
 * that survives a process restart, so a turn with parked calls can be
 * finished later (see `resumeBatch`).
 *
 * @module
 */

import type { TerminalEvent } from "./events.ts";

/** One call of a turn and how it ended: what a provider's result adapter needs. */
export interface BatchEntry {
  /** The provider's call id (`""` when the model sent none). */
  readonly callId: string;
  /** The tool's name as the model gave it. */
  readonly tool: string;
  /** How the call ended. */
  readonly terminal: TerminalEvent;
}

/**
 * A turn with parked calls, as plain JSON: every call in the model's
 * order with its terminal, the parked ones holding their `SuspendedCall`.
 * Keep it anywhere (it is trusted host state, like a `SuspendedCall`) and
 * finish the turn with `resumeBatch`. A result's host-only
 * `details` are not kept: they need not be JSON.
 */
export interface BatchRecord {
  /** The record's format version. */
  readonly v: 1;
  /** What the record holds. */
  readonly type: "batch";
  /** Every call of the turn, in the model's order. */
  readonly calls: readonly BatchEntry[];
}
