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

import { schedulerClass } from "../contract/effect.ts";
import type { FailedEvent, ProgressEvent, TerminalEvent } from "../contract/events.ts";
import { type ToolFailure, toolFailure } from "../contract/failure.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import type { RetryPolicy } from "./retry.ts";
import type { ToolSet } from "./tool_set.ts";
import type { ApprovalGate, ArgumentsProjection, CallOptions, ToolCall } from "./tool_call.ts";
import { PARALLEL, wavesOf } from "./_waves.ts";
import { batchRecordOf, readBatchRecord } from "./_batch_record.ts";
import { dispatcherOf } from "./_dispatch.ts";
import { NO_OPTIONS } from "./_call_options.ts";
import { CALL, type Watch } from "./_watch.ts";
import type { BatchEntry, BatchRecord } from "../contract/batch_record.ts";

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
   * call's own record inside it too) for the batch's `subject`.
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

/** One call the runner drives: how to make an attempt, and whether a failed one may be retried. */
interface Job {
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly descriptor: ToolDescriptor | undefined;
  readonly retry: RetryPolicy | undefined;
  /** A terminal the call ends in without running. */
  readonly refused?: TerminalEvent;
  attempt(options: CallOptions, attempt: number): Promise<TerminalEvent>;
  /** Hears the call's last terminal, when its attempts are observed. */
  ended?(terminal: TerminalEvent): void;
}

/** What every job of one batch shares: its stop signal, its deadline, its settings. */
interface Run {
  readonly options: BatchOptions;
  /** Aborted by the caller's signal or the deadline: ends waits between attempts. Set when a call may retry. */
  readonly stop: AbortSignal | undefined;
  /** Whether the batch sets no option a call takes, so calls without retries take none. */
  readonly plain: boolean;
  /** When the batch must end, on the `performance.now()` clock. */
  readonly deadline: number | undefined;
}

function failedWith(failure: ToolFailure): TerminalEvent {
  return { type: "failed", failure };
}

function outOfTime(tool: string): TerminalEvent {
  return failedWith(toolFailure("timeout", `The batch ran out of time before the call to "${tool}" started`, {
    modelText: `The call to "${tool}" did not run: the turn ran out of time.`,
  }));
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Hands an update to the batch's callback; callers check there is one first, so a batch without one builds none. */
function report(run: Run, update: BatchProgress): void {
  try {
    run.options.onProgress!(update);
  } catch {
    // A failing progress callback must not fail the batch.
  }
}

/** The time an attempt may take: the call's own bound, cut to what is left of the batch. */
function attemptTimeout(run: Run, job: Job): number | undefined | "over" {
  const own = run.options.timeoutMs ?? job.descriptor?.timeoutMs;
  if (run.deadline === undefined) return own;
  const left = Math.ceil(run.deadline - performance.now());
  if (left <= 0) return "over";
  return own === undefined ? left : Math.min(own, left);
}

/**
 * The options every attempt of a call shares, with only the fields set:
 * a call with none takes dispatch's fastest path.
 */
function callOptions(run: Run, job: Job): CallOptions {
  if (run.plain && !job.retry) return NO_OPTIONS;
  const { signal, extensions, approve, subject, onProgress } = run.options;
  const options: { -readonly [K in keyof CallOptions]: CallOptions[K] } = {};
  if (signal !== undefined) options.signal = signal;
  if (extensions !== undefined) options.extensions = extensions;
  if (approve !== undefined) options.approve = approve;
  if (subject !== undefined) options.subject = subject;
  const projection = typeof run.options.projection === "function"
    ? run.options.projection({ id: job.callId, name: job.tool })
    : run.options.projection;
  if (projection !== undefined) options.projection = projection;
  // Every attempt carries the same key, so a tool can tell a retry from a new call.
  // A tool that names its key in its input gets that one; the rest get the call's id.
  if (job.retry && job.descriptor?.idempotencyKey === undefined && job.callId !== "") {
    options.idempotencyKey = job.callId;
  }
  if (onProgress !== undefined) {
    const { index, callId } = job;
    options.onProgress = (event: ProgressEvent) => report(run, { type: "progress", index, callId, event });
  }
  return Object.keys(options).length === 0 ? NO_OPTIONS : options;
}

function ended(run: Run, job: Job, terminal: TerminalEvent, attempts: number): BatchCallResult {
  job.ended?.(terminal);
  const { index, callId } = job;
  if (run.options.onProgress) report(run, { type: "finished", index, callId, terminal, attempts });
  return { callId, tool: job.tool, terminal, attempts };
}

/**
 * Makes one attempt of a call, or ends it when the batch has no time left
 * to start one. Plain promises: this is the path every call takes.
 */
function attemptOnce(run: Run, job: Job, options: CallOptions, attempt: number): Promise<TerminalEvent> | undefined {
  const timeoutMs = attemptTimeout(run, job);
  if (timeoutMs === "over") return undefined;
  const { index, callId } = job;
  if (run.options.onProgress) report(run, { type: "started", index, callId, attempt });
  return job.attempt(timeoutMs === undefined ? options : { ...options, timeoutMs }, attempt);
}

/** Runs one call to its terminal. Most calls end on their first attempt, without an await. */
function drive(run: Run, job: Job): BatchCallResult | Promise<BatchCallResult> {
  if (job.refused) return ended(run, job, job.refused, 0);
  const options = callOptions(run, job);
  const first = attemptOnce(run, job, options, 1);
  if (!first) return ended(run, job, outOfTime(job.tool), 0);
  return first.then((terminal) =>
    terminal.type === "failed" && job.retry && job.descriptor
      ? retried(run, job, options, terminal)
      : ended(run, job, terminal, 1)
  );
}

/** Retries a failed call while the policy allows, waiting its delays; the last failure stands when it stops. */
async function retried(run: Run, job: Job, options: CallOptions, failed: FailedEvent): Promise<BatchCallResult> {
  const retry = job.retry!;
  const descriptor = job.descriptor!;
  let terminal: FailedEvent = failed;
  for (let attempt = 1;; attempt++) {
    const failure = terminal.failure;
    let delayMs: number;
    try {
      const decision = retry.decide(descriptor, failure, attempt);
      if (!decision.retry) return ended(run, job, terminal, attempt);
      delayMs = decision.delayMs;
    } catch (error) {
      const broken = toolFailure("contract", `The retry policy failed for "${job.tool}": ${String(error)}`, {
        modelText: failure.modelText,
      });
      return ended(run, job, failedWith(broken), attempt);
    }
    // A wait the batch cannot afford, or one nobody wants any more, ends the call as it failed.
    const stop = run.stop!;
    if (stop.aborted || (run.deadline !== undefined && performance.now() + delayMs >= run.deadline)) {
      return ended(run, job, terminal, attempt);
    }
    const { index, callId } = job;
    if (run.options.onProgress) report(run, { type: "retrying", index, callId, attempt, failure, delayMs });
    await (run.options.sleep ?? defaultSleep)(delayMs, stop);
    if (stop.aborted) return ended(run, job, terminal, attempt);
    const next = attemptOnce(run, job, options, attempt + 1);
    if (!next) return ended(run, job, terminal, attempt);
    const end = await next;
    if (end.type !== "failed") return ended(run, job, end, attempt + 1);
    terminal = end;
  }
}

/** A job runs alone unless its tool may share a wave; an unknown tool fails at once, so it may. */
function runsAlone(job: Job): boolean {
  return job.descriptor !== undefined && !PARALLEL.has(schedulerClass(job.descriptor));
}

/** Runs jobs in waves; the results come in the jobs' order. Never rejects but for a throwing sleep. */
async function runJobs(jobs: readonly Job[], options: BatchOptions): Promise<BatchCallResult[]> {
  const { signal, batchTimeoutMs } = options;
  if (batchTimeoutMs !== undefined && !(typeof batchTimeoutMs === "number" && batchTimeoutMs > 0)) {
    throw new RangeError(
      `Cannot run the batch as batchTimeoutMs must be a positive number: current value is ${String(batchTimeoutMs)}`,
    );
  }
  // Only waits between attempts listen to it, so a batch that never retries makes none.
  const controller = jobs.some((job) => job.retry !== undefined) ? new AbortController() : undefined;
  const stop = () => controller?.abort();
  const timer = batchTimeoutMs === undefined || !controller ? undefined : setTimeout(stop, batchTimeoutMs);
  if (controller && signal) {
    if (signal.aborted) stop();
    signal.addEventListener("abort", stop, { once: true });
  }
  const { extensions, approve, subject, projection, onProgress } = options;
  const run: Run = {
    options,
    plain: [signal, extensions, approve, subject, projection, onProgress].every((value) => value === undefined),
    stop: controller?.signal,
    deadline: batchTimeoutMs === undefined ? undefined : performance.now() + batchTimeoutMs,
  };
  const results: BatchCallResult[] = new Array(jobs.length);
  try {
    for (const wave of wavesOf(jobs.map((_, position) => position), (position) => runsAlone(jobs[position]))) {
      const ends = await Promise.all(wave.map((position) => drive(run, jobs[position])));
      for (const [i, position] of wave.entries()) results[position] = ends[i];
    }
  } finally {
    clearTimeout(timer);
    if (controller) signal?.removeEventListener("abort", stop);
  }
  return results;
}

/**
 * How a call's attempts are made. When the set has an observer and the call
 * may be retried, the observer hears of the call once and of each attempt
 * under it (how a tracer shows a retried call as one span with a span per
 * attempt); otherwise each attempt is a plain `ToolSet.call`.
 */
function attemptsOf(toolset: ToolSet, call: ToolCall, retried: boolean): Pick<Job, "attempt" | "ended"> {
  const dispatcher = dispatcherOf(toolset);
  if (!retried || dispatcher === undefined || !dispatcher.observed) {
    return { attempt: (options) => toolset.call(call, options) };
  }
  let parent: Watch | undefined;
  return {
    attempt(options, attempt) {
      parent ??= dispatcher.watch(call, CALL);
      const watch = dispatcher.watch(call, { resumed: false, attempt, parent });
      return dispatcher.settle(() => dispatcher.admit(call, options), watch);
    },
    ended: (terminal) => parent?.end(terminal),
  };
}

function resultOf(
  toolset: ToolSet,
  results: readonly BatchCallResult[],
  subject: string | undefined,
): BatchResult | Promise<BatchResult> {
  if (!results.some((entry) => entry.terminal.type === "suspended")) return { results };
  const record = batchRecordOf(results);
  const sealed = dispatcherOf(toolset)?.sealBatch(record, subject) ?? record;
  return sealed instanceof Promise ? sealed.then((made) => ({ results, record: made })) : { results, record: sealed };
}

/**
 * Runs one model turn's calls and answers them in the model's order.
 * Calls run in the waves `toolset.plan` makes (reads together, a write
 * alone, nothing overtaking a call the model made first); a call to a tool
 * with an unknown effect runs alone, through the approval gate. A failed
 * call is retried while `retry` allows, after its delay, with the same
 * idempotency key on every attempt (the one the tool's input names, else
 * the call's id, which the handler reads as `ctx.idempotencyKey`); a
 * write is never retried. `signal` cancels the batch, `timeoutMs`
 * bounds each attempt, `batchTimeoutMs` the whole turn. Every call ends in
 * exactly one terminal. A parked call does not stop the turn: the other
 * calls run, and the result carries a {@linkcode BatchRecord} to finish it
 * with {@linkcode resumeBatch} (the person's answer comes later, so a read
 * after a parked write sees the world without it). A set's observer
 * hears of a call that may be retried once, and of each attempt under it
 * (`ObservedCall.attempt` and `parent`).
 *
 * @param toolset The tools.
 * @param calls The model's calls, in its order.
 * @param options Retry, signal, timeouts, approval, projection, progress.
 * @returns Every call's end in the model's order, and a record when any call is parked.
 * @throws {TypeError} When `calls` is not an array.
 * @throws {RangeError} When `batchTimeoutMs` is not a positive number.
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
  const seen = new Set<string>();
  const jobs = calls.map((call, index): Job => {
    const callId = typeof call?.id === "string" ? call.id : "";
    const tool = typeof call?.name === "string" ? call.name : "";
    // Results are matched to calls by id, in a provider's request and in a resume: one id, one call.
    const duplicate = callId !== "" && seen.has(callId);
    seen.add(callId);
    const descriptor = toolset.descriptor(tool);
    return {
      index,
      callId,
      tool,
      descriptor,
      retry: options.retry,
      refused: duplicate
        ? failedWith(
          toolFailure("invalid_input", `Cannot run the call as an earlier call of the batch has the id "${callId}"`, {
            modelText: `The call was not run: an earlier call of this turn has the same id "${callId}".`,
          }),
        )
        : undefined,
      ...attemptsOf(toolset, call, options.retry !== undefined && descriptor !== undefined),
    };
  });
  return resultOf(toolset, await runJobs(jobs, options), options.subject);
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
 * @throws {RangeError} When `batchTimeoutMs` is not a positive number.
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
  const dispatcher = dispatcherOf(toolset);
  const opened = dispatcher ? await dispatcher.openBatch(record, options.subject) : { ok: true as const, record };
  if (!opened.ok) return { results: [], refused: `Cannot resume the batch as ${opened.message}` };
  const entries = readBatchRecord(opened.record);
  if (typeof entries === "string") return { results: [], refused: entries };
  const jobs: Job[] = [];
  for (const [index, { callId, tool, terminal }] of entries.entries()) {
    if (terminal.type !== "suspended" || !Object.hasOwn(answers, callId)) continue;
    jobs.push({
      index,
      callId,
      tool,
      descriptor: toolset.descriptor(terminal.suspended.tool),
      retry: undefined,
      attempt: (callOptions) => toolset.resume(terminal.suspended, answers[callId], callOptions),
    });
  }
  const resumed = await runJobs(jobs, options);
  const results: BatchCallResult[] = entries.map((entry) => ({ ...entry, attempts: 0 }));
  for (const [position, job] of jobs.entries()) results[job.index] = resumed[position];
  return resultOf(toolset, results, options.subject);
}
