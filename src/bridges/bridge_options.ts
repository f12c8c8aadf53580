/**
 * The options every framework bridge takes, and where a bridge keeps the
 * records of calls waiting for a person's approval.
 *
 * @module
 */

import type { ApprovalGate } from "../core/dispatch/tool_call.ts";
import type { SuspendedCall } from "../core/contract/suspend.ts";

/**
 * Where a bridge keeps the record of each call parked for a person's
 * approval, from the framework's approval request until the framework runs
 * the approved call. A record waits under a key naming the call: its id, then
 * a digest of its tool and its arguments, so a later call that reuses the id
 * (a provider may number its calls anew in each response) for another tool
 * or other arguments never takes it. A record is taken once: the bridge
 * deletes it as it resumes the call, and resumes only when `delete` does not
 * answer `false`. A denied call's record is never taken, so the store must
 * bound or expire what it keeps (the default keeps the 1,024 latest); give
 * one backed by your storage when approvals outlive the process.
 */
export interface ApprovalRecords {
  /** The record waiting under a key, if any. */
  get(key: string): SuspendedCall | undefined | Promise<SuspendedCall | undefined>;
  /** Keeps a call's record under its key. */
  set(key: string, record: SuspendedCall): unknown;
  /**
   * Forgets the record under a key. Answers (or resolves to) `false` when
   * there was none: another run of the same call took it, and this one does
   * not resume it (a `Map`'s `delete` answers so; with storage, a delete
   * that reports whether it removed a row).
   */
  delete(key: string): unknown;
}

/** Options every bridge takes. */
export interface BridgeOptions {
  /** The tools to bridge, by name; every tool of the set when absent. */
  readonly tools?: readonly string[];
  /**
   * Decides which calls a person must approve before they run, asked
   * through the framework's own approval flow (a call the gate answers
   * `"suspend"` for, on the model's arguments). Such a call is parked by the
   * set (validated, and sealed when the set has a seal) and its record kept
   * in `records`; once the person approves, the call resumes from that
   * record, once, with the arguments that were approved. Without a gate,
   * the set's own gate applies when the call runs, and a call it parks
   * comes back as a parked output. The gate reads the arguments as the
   * set would, within its limits (and is handed them, as the set hands
   * its own gate): arguments past them are never shown to it, and fail as
   * the call runs.
   */
  readonly approve?: ApprovalGate;
  /** Where the records of calls waiting for approval are kept; by default in memory, the 1,024 latest. */
  readonly records?: ApprovalRecords;
  /** Ends every call as `timeout` after this many ms, instead of each tool's own `timeoutMs`. */
  readonly timeoutMs?: number;
}
