/**
 * Fake executors: read, write and process tools whose every call plays a
 * scripted behaviour, including the ways a real tool can break the stream
 * contract. They do no IO.
 *
 * @module
 */

import type { DynTool, ToolContext, ValidatedInvocation } from "../core/contract/dyn.ts";
import type { ExecutionSemantics } from "../core/contract/effect.ts";
import { HandlerError, type HandlerErrorOptions } from "../core/common/errors.ts";
import type { ExecutionEvent, ProgressEvent } from "../core/contract/events.ts";
import { failureFromThrown, toolFailure } from "../core/contract/failure.ts";
import { toToolResult } from "../core/contract/result.ts";
import type { JsonSchema } from "../core/schema/schema.ts";
import { describeTool, type ToolDescriptor, type ToolSpec } from "../core/contract/spec.ts";
import { APPROVAL_RESUME_SCHEMA } from "../core/contract/suspend.ts";

/** A progress report a fake emits before its behaviour. */
export type FakeProgress = Omit<ProgressEvent, "type">;

/** What every behaviour may add: progress events emitted first, in order. */
export interface FakeBehaviourBase {
  /** Progress events the stream yields before the behaviour plays. */
  readonly progress?: readonly FakeProgress[];
}

/**
 * What one call of a fake does. The well-behaved ones: `succeed`, `fail`,
 * `suspend`, and `hang` (until its signal aborts, then it ends with a
 * `cancelled` failure). The broken ones: `hang_ignoring_signal` (never
 * settles), `end_without_terminal`, `yield_after_terminal`,
 * `throw_mid_stream` and `malformed_event`.
 */
export type FakeBehaviour =
  | FakeBehaviourBase & {
    readonly kind: "succeed";
    /** The structured output; the fake's default output when absent. */
    readonly output?: unknown;
  }
  | FakeBehaviourBase & {
    readonly kind: "fail";
    /** The host message; "The fake failed as scripted" when absent. */
    readonly message?: string;
    /** Retry hint, code and model text, as a handler would throw them. */
    readonly error?: HandlerErrorOptions;
  }
  | FakeBehaviourBase & {
    readonly kind: "suspend";
    /** Why a human is needed. */
    readonly reason?: string;
    /** The answer's JSON Schema; `{ approved: boolean }` when absent. */
    readonly resumeSchema?: JsonSchema;
    /** Data the human needs. */
    readonly payload?: unknown;
  }
  | FakeBehaviourBase & { readonly kind: "hang" }
  | FakeBehaviourBase & { readonly kind: "hang_ignoring_signal" }
  | FakeBehaviourBase & { readonly kind: "end_without_terminal" }
  | FakeBehaviourBase & {
    readonly kind: "yield_after_terminal";
    /** The output of the first terminal; the fake's default output when absent. */
    readonly output?: unknown;
  }
  | FakeBehaviourBase & {
    readonly kind: "throw_mid_stream";
    /** What the stream throws; an `Error` when absent. */
    readonly error?: unknown;
  }
  | FakeBehaviourBase & {
    readonly kind: "malformed_event";
    /** The event to yield; `{ type: "output" }` (no result) when absent. */
    readonly event?: unknown;
  };

/** The kinds a {@linkcode FakeBehaviour} may have. */
export type FakeBehaviourKind = FakeBehaviour["kind"];

/** One call a fake received, as it saw it. */
export interface FakeCall {
  /** The id of the model's call. */
  readonly callId: string;
  /** The validated input. */
  readonly input: unknown;
  /** The call's idempotency key, if any. */
  readonly idempotencyKey: string | undefined;
  /** The answer when the call was resumed. */
  readonly resume: unknown;
  /** The call's signal: read `aborted` after the call to see whether it was stopped. */
  readonly signal: AbortSignal;
  /** The behaviour it played, or `script_exhausted` when the script had none left. */
  readonly kind: FakeBehaviourKind | "script_exhausted";
}

/** A fake executor: a `DynTool` that records its calls. */
export interface FakeTool extends DynTool {
  /** Every call `execute` received, in order. */
  readonly calls: readonly FakeCall[];
}

/** Options for the fake executors. */
export interface FakeToolOptions {
  /**
   * One behaviour a call, in order. Without a script every call succeeds;
   * with one, a call past its end fails with the code `script_exhausted`.
   */
  readonly script?: readonly FakeBehaviour[];
  /** The tool's name; each fake has its own default. */
  readonly name?: string;
  /** The tool's version; `1.0.0` when absent. */
  readonly version?: string;
  /** The spec's default timeout, in ms. */
  readonly timeoutMs?: number;
  /** Semantics instead of the ones the effect implies. */
  readonly semantics?: Partial<ExecutionSemantics>;
  /** A dotted path into the input for the idempotency key (the write fake has `requestId`). */
  readonly idempotencyKey?: string;
}

const KINDS: ReadonlySet<string> = new Set<FakeBehaviourKind>([
  "succeed",
  "fail",
  "suspend",
  "hang",
  "hang_ignoring_signal",
  "end_without_terminal",
  "yield_after_terminal",
  "throw_mid_stream",
  "malformed_event",
]);

const SUCCEED: FakeBehaviour = Object.freeze({ kind: "succeed" });

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  return typeof value;
}

function checkScript(name: string, script: unknown): readonly FakeBehaviour[] | undefined {
  if (script === undefined) return undefined;
  if (!Array.isArray(script)) {
    throw new TypeError(
      `Cannot make the fake "${name}" as its script must be an array: current value is ${describeValue(script)}`,
    );
  }
  script.forEach((behaviour: unknown, i) => {
    const kind = typeof behaviour === "object" && behaviour !== null
      ? (behaviour as { kind?: unknown }).kind
      : behaviour;
    if (typeof kind !== "string" || !KINDS.has(kind)) {
      throw new TypeError(
        `Cannot make the fake "${name}" as behaviour ${i} of its script has an unknown kind: current value is ${
          describeValue(kind)
        }`,
      );
    }
  });
  return Object.freeze([...script]);
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

async function* play(
  name: string,
  behaviour: FakeBehaviour,
  output: unknown,
  signal: AbortSignal,
): AsyncGenerator<ExecutionEvent> {
  for (const report of behaviour.progress ?? []) yield { ...report, type: "progress" };
  switch (behaviour.kind) {
    case "succeed":
      yield { type: "output", result: toToolResult(behaviour.output === undefined ? output : behaviour.output) };
      return;
    case "fail": {
      const error = new HandlerError(behaviour.message ?? "The fake failed as scripted", behaviour.error);
      yield { type: "failed", failure: failureFromThrown(name, error) };
      return;
    }
    case "suspend":
      yield {
        type: "suspended",
        suspension: {
          reason: behaviour.reason ?? `The fake "${name}" needs a person`,
          resumeSchema: behaviour.resumeSchema ?? APPROVAL_RESUME_SCHEMA,
          ...(behaviour.payload === undefined ? {} : { payload: behaviour.payload }),
        },
      };
      return;
    case "hang":
      await aborted(signal);
      yield { type: "failed", failure: toolFailure("cancelled", `The fake "${name}" stopped as its signal aborted`) };
      return;
    case "hang_ignoring_signal":
      await new Promise<never>(() => {});
      return;
    case "end_without_terminal":
      return;
    case "yield_after_terminal":
      yield { type: "output", result: toToolResult(behaviour.output === undefined ? output : behaviour.output) };
      yield { type: "progress", message: "after the end" };
      return;
    case "throw_mid_stream":
      throw behaviour.error ?? new Error(`The fake "${name}" broke mid-stream`);
    case "malformed_event":
      yield (behaviour.event ?? { type: "output" }) as ExecutionEvent;
      return;
  }
}

async function* exhausted(name: string, length: number, call: number): AsyncGenerator<ExecutionEvent> {
  const error = new HandlerError(
    `Cannot run the fake "${name}" as its script has ${length} behaviours and this is call ${call}`,
    { code: "script_exhausted", retryable: false },
  );
  yield { type: "failed", failure: failureFromThrown(name, error) };
}

function makeFake(
  spec: ToolSpec,
  options: FakeToolOptions,
  defaultOutput: (input: Record<string, unknown>) => unknown,
): FakeTool {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `Cannot make the fake "${spec.name}" as its options must be an object: current value is ${
        describeValue(options)
      }`,
    );
  }
  const descriptor: ToolDescriptor = describeTool({
    ...spec,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.version === undefined ? {} : { version: options.version }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.semantics === undefined ? {} : { semantics: options.semantics }),
    ...(options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey }),
  });
  const script = checkScript(descriptor.name, options.script);
  const calls: FakeCall[] = [];
  return {
    descriptor,
    calls,
    execute(invocation: ValidatedInvocation, ctx: ToolContext): AsyncIterable<ExecutionEvent> {
      const behaviour = script === undefined ? SUCCEED : script[calls.length];
      calls.push({
        callId: invocation.callId,
        input: invocation.input,
        idempotencyKey: invocation.idempotencyKey,
        resume: ctx.resume,
        signal: ctx.signal,
        kind: behaviour?.kind ?? "script_exhausted",
      });
      if (behaviour === undefined) return exhausted(descriptor.name, script?.length ?? 0, calls.length);
      const output = defaultOutput(invocation.input as Record<string, unknown>);
      return play(descriptor.name, behaviour, output, ctx.signal);
    },
  };
}

/**
 * A fake file reader (effect `fs.read`): input `{ path }`, output
 * `{ text }` (by default `contents of <path>`). Every call plays the next
 * behaviour of its script.
 *
 * @param options The script, and spec fields to change.
 * @returns The fake, ready to register.
 * @throws {InvalidSpecError} When a changed spec field is invalid.
 * @throws {TypeError} When the script is not an array of known behaviours.
 *
 * @example A read that reports progress, then one that fails
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { fakeReadTool } from "@salvor/tools/testing";
 * import assert from "node:assert/strict";
 *
 * const read = fakeReadTool({
 *   script: [
 *     { kind: "succeed", progress: [{ progress: 1, total: 2 }] },
 *     { kind: "fail", error: { code: "ENOENT", retryable: false } },
 *   ],
 * });
 * const tools = new ToolSet().register(read);
 * const types = [];
 * for await (const event of tools.stream({ id: "1", name: "fake_read", arguments: { path: "a.txt" } })) {
 *   types.push(event.type);
 * }
 * assert.deepEqual(types, ["progress", "output"]);
 * const second = await tools.call({ id: "2", name: "fake_read", arguments: { path: "b.txt" } });
 * assert.equal(second.type === "failed" && second.failure.code, "ENOENT");
 * assert.equal(read.calls.length, 2);
 * ```
 */
export function fakeReadTool(options: FakeToolOptions = {}): FakeTool {
  return makeFake(
    {
      name: "fake_read",
      description: "Read a UTF-8 text file (a fake).",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string", minLength: 1 } },
        required: ["path"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false,
      },
      effects: ["fs.read"],
    },
    options,
    (input) => ({ text: `contents of ${input.path}` }),
  );
}

/**
 * A fake file writer (effect `fs.write`, so non-idempotent and serial by
 * default): input `{ path, text, requestId? }`, output `{ written }`, the
 * number of characters. Every call plays the next behaviour of its script.
 *
 * @param options The script, and spec fields to change (e.g. `idempotencyKey: "requestId"`).
 * @returns The fake, ready to register.
 * @throws {InvalidSpecError} When a changed spec field is invalid.
 * @throws {TypeError} When the script is not an array of known behaviours.
 *
 * @example A write that parks for approval, then runs when resumed
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { fakeWriteTool } from "@salvor/tools/testing";
 * import assert from "node:assert/strict";
 *
 * const write = fakeWriteTool({ script: [{ kind: "suspend", reason: "Overwrite a.txt?" }, { kind: "succeed" }] });
 * const tools = new ToolSet().register(write);
 * const parked = await tools.call({ id: "1", name: "fake_write", arguments: { path: "a.txt", text: "hi" } });
 * assert.equal(parked.type, "suspended");
 * if (parked.type === "suspended") {
 *   const done = await tools.resume(parked.suspended, { approved: true });
 *   assert.equal(done.type === "output" && (done.result.output as { written: number }).written, 2);
 *   assert.deepEqual(write.calls[1].resume, { approved: true });
 * }
 * ```
 */
export function fakeWriteTool(options: FakeToolOptions = {}): FakeTool {
  return makeFake(
    {
      name: "fake_write",
      description: "Write a UTF-8 text file (a fake).",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", minLength: 1 },
          text: { type: "string" },
          requestId: { type: "string", minLength: 1 },
        },
        required: ["path", "text"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { written: { type: "integer", minimum: 0 } },
        required: ["written"],
        additionalProperties: false,
      },
      effects: ["fs.write"],
    },
    options,
    (input) => ({ written: String(input.text).length }),
  );
}

/**
 * A fake process runner (effect `process.spawn`, so non-idempotent and
 * serial by default): input `{ command, args? }`, output
 * `{ exitCode, stdout }` (by default `0` and `""`). Every call plays the
 * next behaviour of its script.
 *
 * @param options The script, and spec fields to change.
 * @returns The fake, ready to register.
 * @throws {InvalidSpecError} When a changed spec field is invalid.
 * @throws {TypeError} When the script is not an array of known behaviours.
 *
 * @example A process that hangs until the call times out
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { fakeProcessTool } from "@salvor/tools/testing";
 * import assert from "node:assert/strict";
 *
 * const spawn = fakeProcessTool({ script: [{ kind: "hang" }] });
 * const end = await new ToolSet().register(spawn).call(
 *   { id: "1", name: "fake_process", arguments: { command: "sleep" } },
 *   { timeoutMs: 20 },
 * );
 * assert.equal(end.type === "failed" && end.failure.kind, "timeout");
 * assert.equal(end.type === "failed" && end.failure.uncertain, true);
 * assert.equal(spawn.calls[0].signal.aborted, true);
 * ```
 */
export function fakeProcessTool(options: FakeToolOptions = {}): FakeTool {
  return makeFake(
    {
      name: "fake_process",
      description: "Run a command (a fake).",
      inputSchema: {
        type: "object",
        properties: {
          command: { type: "string", minLength: 1 },
          args: { type: "array", items: { type: "string" } },
        },
        required: ["command"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { exitCode: { type: "integer" }, stdout: { type: "string" } },
        required: ["exitCode", "stdout"],
        additionalProperties: false,
      },
      effects: ["process.spawn"],
    },
    options,
    () => ({ exitCode: 0, stdout: "" }),
  );
}
