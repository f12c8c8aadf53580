// The batch runner's work, loaded apart from the core on a batch's first
// run or resume (`./_apart.ts`): `batch.ts` checks the arguments and hands
// the batch here with the set's dispatcher. The dispatcher comes as an
// argument, not an import, because a bundler moves every module this one
// imports, and all that module imports, out of the core's entry file into a
// chunk the two share, which an app then loads as one more file.

import { schedulerClass } from "../contract/effect.ts";
import type { FailedEvent, ProgressEvent, TerminalEvent } from "../contract/events.ts";
import { type ToolFailure, toolFailure } from "../contract/failure.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import type { BatchRecord } from "../contract/batch_record.ts";
import type { RetryPolicy } from "./retry.ts";
import type { ToolSet } from "./tool_set.ts";
import type { CallOptions, ToolCall } from "./tool_call.ts";
import type { BatchCallResult, BatchOptions, BatchProgress, BatchResult, ResumeBatchOptions } from "./batch_types.ts";
import { PARALLEL, wavesOf } from "./_waves.ts";
import { batchRecordOf, readBatchRecord } from "./_batch_record.ts";
import type { Dispatcher } from "./_dispatch.ts";
import { MAX_TIMEOUT_MS, NO_OPTIONS } from "./_call_options.ts";
import { CALL, RESUMED, type Watch, type WatchPlace } from "./_watch.ts";
import { describeThrown, messageOfThrown } from "../common/_describe_thrown.ts";
import { slices, yields } from "../common/_slices.ts";
import { copyPaced } from "../common/_paced_copy.ts";

/** The most calls of a wave that run at once, unless the options say otherwise. */
const DEFAULT_MAX_CONCURRENCY = 16;

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
  let options: CallOptions;
  try {
    options = callOptions(run, job);
  } catch (error) {
    // The batch's projection function is the caller's code: its throw ends this call, not the batch.
    return ended(
      run,
      job,
      failedWith(toolFailure("contract", `The projection option failed for "${job.tool}": ${messageOfThrown(error)}`)),
      0,
    );
  }
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

/** Refuses a batch's bad bounds before anything runs, or a record is used up. */
function checkBounds(options: ResumeBatchOptions): void {
  const { batchTimeoutMs, maxConcurrency = DEFAULT_MAX_CONCURRENCY } = options;
  if (
    batchTimeoutMs !== undefined &&
    !(typeof batchTimeoutMs === "number" && batchTimeoutMs > 0 && batchTimeoutMs <= MAX_TIMEOUT_MS)
  ) {
    throw new RangeError(
      `Cannot run the batch as batchTimeoutMs must be a number from 1 to ${MAX_TIMEOUT_MS}: current value is ${
        String(batchTimeoutMs)
      }`,
    );
  }
  if (!Number.isSafeInteger(maxConcurrency) || maxConcurrency < 1) {
    throw new RangeError(
      `Cannot run the batch as maxConcurrency must be a positive integer: current value is ${String(maxConcurrency)}`,
    );
  }
}

/** Runs jobs in waves; the results come in the jobs' order. Never rejects but for a throwing sleep. */
async function runJobs(
  jobs: readonly Job[],
  options: BatchOptions,
  due: () => Promise<void> | undefined = yields(),
): Promise<BatchCallResult[]> {
  const { signal, batchTimeoutMs, maxConcurrency = DEFAULT_MAX_CONCURRENCY } = options;
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
  // A call's admission reads its arguments in one stretch, bounded by the set's limits; a turn of many such calls
  // starts each after a turn of the event loop once a slice has run its time (64 calls of 240 KB held it 0.4 s).
  const start = (position: number) => {
    const turn = due();
    return turn === undefined ? drive(run, jobs[position]) : turn.then(() => drive(run, jobs[position]));
  };
  try {
    for (const wave of wavesOf(jobs.map((_, position) => position), (position) => runsAlone(jobs[position]))) {
      const ends = await pooled(wave, maxConcurrency, start);
      for (const [i, position] of wave.entries()) results[position] = ends[i];
    }
  } finally {
    clearTimeout(timer);
    if (controller) signal?.removeEventListener("abort", stop);
  }
  return results;
}

/**
 * Runs `start` on each position, at most `limit` at once: as one ends, the next in order starts. The ends come in
 * the positions' order.
 */
function pooled(
  positions: readonly number[],
  limit: number,
  start: (position: number) => BatchCallResult | Promise<BatchCallResult>,
): Promise<BatchCallResult[]> {
  // Not an async function: a wave that fits (most do) costs no promise and no turn more than its calls' own.
  return positions.length <= limit ? Promise.all(positions.map(start)) : inLanes(positions, limit, start);
}

async function inLanes(
  positions: readonly number[],
  limit: number,
  start: (position: number) => BatchCallResult | Promise<BatchCallResult>,
): Promise<BatchCallResult[]> {
  const ends: BatchCallResult[] = new Array(positions.length);
  let next = 0;
  const lane = async () => {
    while (next < positions.length) {
      const i = next++;
      ends[i] = await start(positions[i]);
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return ends;
}

/**
 * How a call's attempts are made. When the set has an observer and the call
 * may be retried, the observer hears of the call once and of each attempt
 * under it (how a tracer shows a retried call as one span with a span per
 * attempt); otherwise each attempt is a plain call (`plain`). `source` and
 * `place` are the call as the observer hears of it.
 */
function attemptsOf(
  dispatcher: Dispatcher | undefined,
  source: unknown,
  place: WatchPlace,
  plain: Job["attempt"],
  retried: boolean,
): Pick<Job, "attempt" | "ended"> {
  if (dispatcher === undefined || !dispatcher.observed) return { attempt: plain };
  let parent: Watch | undefined;
  let attempted = false;
  return {
    attempt(options, attempt) {
      attempted = true;
      if (!retried) return plain(options, attempt);
      parent ??= dispatcher.watch(source, place);
      const watch = dispatcher.watch(source, { resumed: false, attempt, parent });
      return dispatcher.settle(() => dispatcher.admit(source, options), watch);
    },
    // A call that ends with no attempt made (refused, out of time before it starts, its tool replaced) is heard of too.
    ended(terminal) {
      if (retried || !attempted) (parent ??= dispatcher.watch(source, place))?.end(terminal);
    },
  };
}

/**
 * A call read once, as the batch plans and runs it: a getter read again could name another tool than the one its
 * retries and its wave were planned for. The reason it cannot be read, when reading it throws.
 */
function readCall(call: unknown): ToolCall | string {
  if (typeof call !== "object" || call === null) return call as ToolCall;
  try {
    const { id, name, arguments: args } = call as ToolCall;
    return args === undefined ? { id, name } : { id, name, arguments: args };
  } catch (error) {
    return messageOfThrown(error);
  }
}

/** What a call that throws as it is read stands for, refused: one that names no id and no tool. */
const UNREAD_CALL: ToolCall = Object.freeze({ id: "", name: "" });

function unreadable(reason: string): TerminalEvent {
  return failedWith(toolFailure("contract", `Cannot run the call as reading it threw: ${reason}`));
}

/**
 * An attempt made only while the set still holds the tool the batch planned the call by (its retries, its wave):
 * one replaced during the batch, say by an MCP server's new list, may be a write the plan would have run alone and
 * never retried.
 */
function asPlanned(
  toolset: ToolSet,
  tool: string,
  planned: ToolDescriptor | undefined,
  attempt: Job["attempt"],
): Job["attempt"] {
  return (options, number) =>
    toolset.descriptor(tool) === planned ? attempt(options, number) : Promise.resolve(failedWith(toolFailure(
      "contract",
      `Cannot run "${tool}" as it was replaced while the batch ran: the batch had planned the call by the tool it found at its start`,
    )));
}

async function resultOf(
  dispatcher: Dispatcher | undefined,
  results: readonly BatchCallResult[],
  subject: string | undefined,
): Promise<BatchResult> {
  if (!results.some((entry) => entry.terminal.type === "suspended")) return { results };
  const record = batchRecordOf(results);
  // Sealing reads the record into a copy of its own; a set with no seal keeps a copy made here. Either is made in
  // paced steps, as the record holds every argument of the turn.
  const sealing = dispatcher?.sealBatch(record, subject);
  if (sealing === undefined) return { results, record: await copyPaced(record, slices()) };
  try {
    return { results, record: await sealing };
  } catch (error) {
    return unrecorded(results, error);
  }
}

/**
 * A batch whose record cannot be sealed (one past the seal's size bound): its calls have run, so the batch still
 * answers, each call with its terminal, but a parked call nothing can resume fails, as a single call's does.
 */
function unrecorded(results: readonly BatchCallResult[], error: unknown): BatchResult {
  const why = `Cannot park the call as sealing the batch's record failed: ${describeThrown(error)}`;
  return {
    results: results.map((entry) =>
      entry.terminal.type === "suspended" ? { ...entry, terminal: failedWith(toolFailure("contract", why)) } : entry
    ),
  };
}

/** Runs a turn's calls, an array `runBatch` has checked; `dispatcher` is the set's, if `ToolSet` made it. */
export async function run(
  toolset: ToolSet,
  dispatcher: Dispatcher | undefined,
  calls: readonly ToolCall[],
  options: BatchOptions,
): Promise<BatchResult> {
  checkBounds(options);
  const seen = new Set<string>();
  const due = yields();
  const jobs: Job[] = [];
  // Indexed, not mapped: a hole in the calls is a call too, which fails as one that is no object does. A turn may
  // hold thousands of calls: reading them in yields now and then (20,000 took 60 ms).
  for (let index = 0, count = calls.length; index < count; index++) {
    if (index % JOBS_PER_CLOCK_READ === JOBS_PER_CLOCK_READ - 1) await due();
    jobs.push(jobOf(toolset, dispatcher, calls[index], index, seen, options));
  }
  return resultOf(dispatcher, await runJobs(jobs, options, due), options.subject);
}

/** How many calls are read into jobs between two reads of the clock: each takes a few microseconds. */
const JOBS_PER_CLOCK_READ = 64;

/** A call of a turn as a job: read once, checked against the ids before it, with the attempts it may make. */
function jobOf(
  toolset: ToolSet,
  dispatcher: Dispatcher | undefined,
  given: unknown,
  index: number,
  seen: Set<string>,
  options: BatchOptions,
): Job {
  const read = readCall(given);
  const call = typeof read === "string" ? UNREAD_CALL : read;
  const callId = typeof call?.id === "string" ? call.id : "";
  const tool = typeof call?.name === "string" ? call.name : "";
  // Results are matched to calls by id, in a provider's request and in a resume: one id, one call.
  const duplicate = callId !== "" && seen.has(callId);
  seen.add(callId);
  const descriptor = toolset.descriptor(tool);
  const made = attemptsOf(
    dispatcher,
    call,
    CALL,
    (callOptions) => toolset.call(call, callOptions),
    options.retry !== undefined && descriptor !== undefined,
  );
  return {
    index,
    callId,
    tool,
    descriptor,
    retry: options.retry,
    refused: typeof read === "string" ? unreadable(read) : duplicate
      ? failedWith(
        toolFailure("invalid_input", `Cannot run the call as an earlier call of the batch has the id "${callId}"`, {
          modelText: `The call was not run: an earlier call of this turn has the same id "${callId}".`,
        }),
      )
      : undefined,
    ...made,
    attempt: asPlanned(toolset, tool, descriptor, made.attempt),
  };
}

/** Finishes a turn from its record, with the answers `resumeBatch` has checked; `dispatcher` is the set's. */
export async function resume(
  toolset: ToolSet,
  dispatcher: Dispatcher | undefined,
  record: BatchRecord,
  answers: Readonly<Record<string, unknown>>,
  options: ResumeBatchOptions,
): Promise<BatchResult> {
  checkBounds(options);
  const opened = dispatcher
    ? await dispatcher.openBatch(record, options.subject)
    : { ok: true as const, record, spend: () => Promise.resolve(undefined) };
  if (!opened.ok) return { results: [], refused: `Cannot resume the batch as ${opened.message}` };
  let entries: ReturnType<typeof readBatchRecord>;
  let own: Record<string, unknown>;
  try {
    entries = readBatchRecord(opened.record);
    // The answers, read once: each is looked up and handed on from this copy.
    own = Object.fromEntries(Object.entries(answers));
  } catch (error) {
    // A record or answers that throw as they are read (a host's proxy or getter) are refused, as a malformed one is.
    return {
      results: [],
      refused: `Cannot resume the batch as reading its record or answers threw: ${messageOfThrown(error)}`,
    };
  }
  if (typeof entries === "string") return { results: [], refused: entries };
  // Used up only once the record has passed every check: one refused for its shape can still be resumed.
  const spent = await opened.spend();
  if (spent !== undefined) return { results: [], refused: `Cannot resume the batch as ${spent}` };
  const jobs: Job[] = [];
  for (const [index, { callId, tool, terminal }] of entries.entries()) {
    if (terminal.type !== "suspended" || !Object.hasOwn(own, callId)) continue;
    const descriptor = toolset.descriptor(terminal.suspended.tool);
    const made = attemptsOf(
      dispatcher,
      terminal.suspended,
      RESUMED,
      (callOptions) => toolset.resume(terminal.suspended, own[callId], callOptions),
      false,
    );
    jobs.push({
      index,
      callId,
      tool,
      descriptor,
      retry: undefined,
      ...made,
      attempt: asPlanned(toolset, terminal.suspended.tool, descriptor, made.attempt),
    });
  }
  const resumed = await runJobs(jobs, options);
  const results: BatchCallResult[] = entries.map((entry) => ({ ...entry, attempts: 0 }));
  for (const [position, job] of jobs.entries()) results[job.index] = resumed[position];
  return resultOf(dispatcher, results, options.subject);
}
