/**
 * What the batch runner takes and gives back: its options, the updates it
 * reports while a batch runs, and each call's end.
 *
 * @module
 */

import type { ProgressEvent, TerminalEvent } from "../contract/events.ts";
import type { ToolFailure } from "../contract/failure.ts";
import type { BatchEntry, BatchRecord } from "../contract/batch_record.ts";
import type { RetryPolicy } from "./retry.ts";
import type { ApprovalGate, ArgumentsProjection, ToolCall } from "./tool_call.ts";

/** One call's end in a {@linkcode BatchResult}. */
export interface BatchCallResult extends BatchEntry {
  /** Attempts made in this run: 1 plus the retries; 0 for a call a resume left as it was. */
  readonly attempts: number;
}

/** What a batch ends in. */
export interface BatchResult {
  /** Every call's end, in the model's order. */
  readonly results: readonly BatchCallResult[];
  /**
   * Set when any call is parked: the record to keep and resume the turn
   * from. In a set with a `seal`, it is sealed as a whole (and each parked
   * call's own record inside it too) for the batch's `subject`; a record
   * the seal refuses (past its 16 MiB) is not made, and the parked calls
   * fail as `contract` instead, as a single call's would.
   */
  readonly record?: BatchRecord;
  /**
   * Set by {@linkcode resumeBatch} when the record itself is refused (a
   * seal refused, expired or used before, a malformed record): nothing ran
   * and `results` is empty. Says why, for the host's logs.
   */
  readonly refused?: string;
}

/** What the runner reports while a batch runs, one call at a time. */
export type BatchProgress =
  | { readonly type: "started"; readonly index: number; readonly callId: string; readonly attempt: number }
  | { readonly type: "progress"; readonly index: number; readonly callId: string; readonly event: ProgressEvent }
  | {
    readonly type: "retrying";
    readonly index: number;
    readonly callId: string;
    /** The attempt that failed. */
    readonly attempt: number;
    readonly failure: ToolFailure;
    readonly delayMs: number;
  }
  | {
    readonly type: "finished";
    readonly index: number;
    readonly callId: string;
    readonly terminal: TerminalEvent;
    readonly attempts: number;
  };

/** Options for {@linkcode resumeBatch}; {@linkcode runBatch} takes more. */
export interface ResumeBatchOptions {
  /** Cancels the batch: calls running end as `cancelled`, calls not started end so at once. */
  readonly signal?: AbortSignal;
  /** Bounds each attempt of each call, in ms; defaults to each tool's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** Bounds the whole batch, in ms: a call cut off ends as `timeout`, one not started as well. */
  readonly batchTimeoutMs?: number;
  /**
   * The most calls of a wave that run at once; the others start in the
   * model's order as running ones end. A model's turn can hold hundreds of
   * reads. Default 16.
   */
  readonly maxConcurrency?: number;
  /** Per-call values handed to every handler as `ctx.extensions`. */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /**
   * In a set with a `seal`: whom the parked records and the batch record
   * are sealed for, and whom a resume must name again.
   */
  readonly subject?: string;
  /** Receives each call's start, progress, retry and end. A throwing callback is ignored. */
  readonly onProgress?: (update: BatchProgress) => void;
}

/** Options for {@linkcode runBatch}. */
export interface BatchOptions extends ResumeBatchOptions {
  /** Retries failed calls as the policy allows. Without one, nothing is retried. */
  readonly retry?: RetryPolicy;
  /**
   * Waits before a retry; inject one for tests. It gets the batch's stop
   * signal (the caller's signal or the deadline) and should resolve early
   * when it aborts. Default: a timer.
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The approval gate for every call, instead of the set's. */
  readonly approve?: ApprovalGate;
  /**
   * The projection the model was shown (e.g. `openAIStrict`), for every
   * call or per call; the calls-in adapters of `@salvor/tools/providers`
   * return the right one.
   */
  readonly projection?: ArgumentsProjection | ((call: ToolCall) => ArgumentsProjection | undefined);
}
