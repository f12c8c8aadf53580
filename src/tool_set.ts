/**
 * The registry: a strict set of tools and the one dispatch path every call
 * takes, from untrusted arguments to exactly one terminal event.
 *
 * @module
 */

import type { Diagnostic, DiagnosticReport } from "./diagnostics.ts";
import { type DynTool, INVOCATION_TOKEN, type ParseResult, type ToolContext, ValidatedInvocation } from "./dyn.ts";
import { schedulerClass } from "./effect.ts";
import { RegistryError } from "./errors.ts";
import type { ExecutionEvent, ProgressEvent, TerminalEvent, ToolEvent, ToolResult } from "./events.ts";
import { FAILURE_KINDS, type FailureKind, type ToolFailure, toolFailure } from "./failure.ts";
import { checkJsonValue, DEFAULT_LIMITS, type JsonLimits } from "./limits.ts";
import { type CompiledSchema, compileSchema, type JsonSchema } from "./schema.ts";
import { describeTool, type ToolDescriptor } from "./spec.ts";
import { APPROVAL_RESUME_SCHEMA, type SuspendedCall } from "./suspend.ts";
import { readArguments } from "./_arguments.ts";
import { isChecked, markChecked } from "./_checked.ts";
import { parserFor } from "./_parser.ts";
import { CallControl, STOPPED } from "./_call_control.ts";
import { type DirectRun, directRunOf } from "./_direct.ts";
import { CallContext } from "./_tool_context.ts";
import { type Plan, planCalls } from "./schedule.ts";

/** A model's tool call, as untrusted as it arrives. */
export interface ToolCall {
  /** The provider's call id. */
  readonly id: string;
  /** The tool's name as the model gave it. */
  readonly name: string;
  /**
   * The arguments: a JSON string (as most providers send them) or a value.
   * An empty string, `null` or `undefined` reads as `{}`.
   */
  readonly arguments?: unknown;
}

/** A policy's answer: run, refuse, or park the call for a human. */
export type ApprovalDecision = boolean | "suspend";

/** Decides whether a validated call may run. */
export type ApprovalGate = (
  descriptor: ToolDescriptor,
  input: unknown,
) => ApprovalDecision | Promise<ApprovalDecision>;

/** Options for one call. */
export interface CallOptions {
  /** Cancels the call; it ends as `cancelled`. */
  readonly signal?: AbortSignal;
  /** Ends the call as `timeout` after this many ms; defaults to the spec's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** The idempotency key; defaults to the value at the spec's `idempotencyKey` path. */
  readonly idempotencyKey?: string;
  /** Per-call values handed to the handler as `ctx.extensions`. */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /** An approval gate for this call, instead of the set's. */
  readonly approve?: ApprovalGate;
  /** Receives each progress event of {@linkcode ToolSet.call}. */
  readonly onProgress?: (event: ProgressEvent) => void;
  /**
   * The projection the model was shown, when it changed what the model
   * sends back: its `restore` turns the arguments into arguments for the
   * tool's own schema before validation. `openAIStrict` from
   * `@salvor/tools/projections` reads the `null` a strict model writes for
   * a left-out property as absent.
   */
  readonly projection?: ArgumentsProjection;
}

/**
 * How arguments a model wrote against a projected schema are read back for
 * the tool's own schema. Projections that change what a model sends export
 * one (see `openAIStrict` in `@salvor/tools/projections`).
 */
export interface ArgumentsProjection {
  /** The projection's name, for messages. */
  readonly name: string;
  /**
   * Returns the arguments for the tool's own schema; must not change `args`.
   *
   * @param inputSchema The tool's own input schema.
   * @param args The arguments as the model sent them, already bounded JSON.
   * @returns The arguments to validate.
   */
  restore(inputSchema: JsonSchema, args: Record<string, unknown>): Record<string, unknown>;
}

/** Options for a {@linkcode ToolSet}. */
export interface ToolSetOptions {
  /**
   * Decides whether each validated call may run. Without one, calls to
   * tools whose scheduler class is `policy_required` (unknown effects)
   * fail closed as `policy_required`.
   */
  readonly approve?: ApprovalGate;
  /** Size and depth bounds on arguments and outputs. */
  readonly limits?: JsonLimits;
}

interface Entry {
  readonly tool: DynTool;
  readonly descriptor: ToolDescriptor;
  readonly parseInput: (value: unknown) => ParseResult | Promise<ParseResult>;
  readonly parseOutput:
    | ((value: unknown) => ParseResult | Promise<ParseResult>)
    | undefined;
  readonly needsPolicy: boolean;
}

const KNOWN_FAILURE_KINDS: ReadonlySet<string> = new Set(FAILURE_KINDS);
const CONTENT_TYPES = new Set([
  "text",
  "image",
  "audio",
  "resource_link",
  "resource",
]);

/** One line a problem. Concatenated, not joined: the text is flattened only when it is read. */
function describeDiagnostics(report: DiagnosticReport): string {
  let text = "";
  let separator = "";
  for (const d of report.diagnostics) {
    text += `${separator}- ${d.path || "(arguments)"} [${d.keyword}]: ${d.message}`;
    separator = "\n";
  }
  if (report.omitted > 0) text += `${separator}- ... and ${report.omitted} more problems`;
  return text;
}

function invalidInput(tool: string, report: DiagnosticReport): ToolFailure {
  return toolFailure(
    "invalid_input",
    `Cannot call "${tool}" as its arguments are invalid`,
    {
      modelText: `The arguments for "${tool}" are invalid; the tool did not run.\n${
        describeDiagnostics(report)
      }\nFix the arguments and call it again.`,
      diagnostics: report.diagnostics,
      omittedDiagnostics: report.omitted,
    },
  );
}

/** A resume refused before anything ran: a malformed or stale record, or an answer its schema refuses. */
function refusedResume(what: string, why: string, report: DiagnosticReport): ToolFailure {
  return toolFailure("invalid_input", `Cannot resume ${what} as ${why}`, {
    modelText: `The parked call to ${what} could not be resumed as ${why}; the tool did not run.\n${
      describeDiagnostics(report)
    }`,
    diagnostics: report.diagnostics,
    omittedDiagnostics: report.omitted,
  });
}

function invalidOutput(tool: string, report: DiagnosticReport): ToolFailure {
  return toolFailure(
    "invalid_output",
    `Tool "${tool}" returned an output that breaks its output schema`,
    {
      modelText: `The tool "${tool}" ran but returned a malformed result; it may have had side effects.`,
      diagnostics: report.diagnostics,
      omittedDiagnostics: report.omitted,
    },
  );
}

function contract(tool: string, what: string): ToolFailure {
  return toolFailure(
    "contract",
    `Tool "${tool}" broke the stream contract: ${what}`,
    {
      modelText: `The tool "${tool}" failed internally.`,
    },
  );
}

function failed(failure: ToolFailure): TerminalEvent {
  return { type: "failed", failure };
}

function one(diagnostic: Diagnostic): DiagnosticReport {
  return { diagnostics: [diagnostic], omitted: 0 };
}

/** The first `max` units of an untrusted name; the cut may split a surrogate pair, which is then replaced. */
function cut(name: string, max: number): string {
  return name.slice(0, max).toWellFormed();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads the idempotency key at a dotted path of the arguments. */
function keyAt(
  args: Record<string, unknown>,
  path: string,
): string | Diagnostic {
  let node: unknown = args;
  for (const segment of path.split(".")) {
    node = isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
  }
  if (typeof node === "string" && node !== "") return node;
  if (typeof node === "number") return String(node);
  return {
    path: `/${path.split(".").join("/")}`,
    keyword: "required",
    message: `Missing the idempotency key "${path}": it must be a non-empty string or a number.`,
  };
}

/** Says what is wrong with a call's options, if anything: they come from the host, not the model. */
function optionsProblem(options: CallOptions, timeoutMs: number | undefined): string | undefined {
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) {
    return `timeoutMs must be a number from 1 to ${2 ** 31 - 1}: current value is ${String(timeoutMs)}`;
  }
  const signal: unknown = options.signal;
  if (
    signal !== undefined &&
    !(isRecord(signal) && typeof signal.aborted === "boolean" && typeof signal.addEventListener === "function")
  ) {
    return `signal must be an AbortSignal: current value is ${signal === null ? "null" : typeof signal}`;
  }
  const key: unknown = options.idempotencyKey;
  if (key !== undefined && (typeof key !== "string" || key === "")) {
    return `idempotencyKey must be a non-empty string: current value is ${typeof key === "string" ? '""' : typeof key}`;
  }
  const projection: unknown = options.projection;
  if (projection !== undefined && !(isRecord(projection) && typeof projection.restore === "function")) {
    return `projection must be an ArgumentsProjection with a restore function: current value is ${
      projection === null ? "null" : typeof projection
    }`;
  }
  return undefined;
}

/** Copies a progress report's known fields, or says why it is malformed. */
function readProgress(event: unknown): ProgressEvent | string {
  if (!isRecord(event)) {
    return `it must be an object: current value is ${event === null ? "null" : typeof event}`;
  }
  const progress: { -readonly [K in keyof ProgressEvent]: ProgressEvent[K] } = {
    type: "progress",
  };
  for (const field of ["progress", "total"] as const) {
    const value = event[field];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      return `its ${field} must be a finite number: current value is ${
        typeof value === "number" ? value : typeof value
      }`;
    }
    progress[field] = value;
  }
  if (event.message !== undefined) {
    if (typeof event.message !== "string") {
      return `its message must be a string: current value is ${typeof event.message}`;
    }
    progress.message = event.message.slice(0, 1000);
  }
  return progress;
}

/**
 * Calls a tool's parser. A parser that throws, or answers with something
 * that is not a parse result, breaks the contract: that is reported, not thrown.
 */
function parseWith(
  parse: (value: unknown) => ParseResult | Promise<ParseResult>,
  value: unknown,
): ParseOutcome | Promise<ParseOutcome> {
  let parsed: unknown;
  try {
    parsed = parse(value);
  } catch (error) {
    return threw(error);
  }
  // A synchronous parser answers without a promise turn.
  return isRecord(parsed) && typeof parsed.then === "function"
    ? Promise.resolve(parsed).then(parseOutcome, threw)
    : parseOutcome(parsed);
}

type ParseOutcome = ParseResult | { readonly broken: string };

function parseOutcome(parsed: unknown): ParseOutcome {
  if (isRecord(parsed) && (parsed.ok === true || (parsed.ok === false && Array.isArray(parsed.diagnostics)))) {
    return parsed as ParseResult;
  }
  return { broken: "answered with something that is not a parse result" };
}

function threw(error: unknown): ParseOutcome {
  return { broken: `threw: ${String(error)}` };
}

function outputEvent(result: Record<string, unknown>, output: unknown): TerminalEvent {
  const checked: ToolResult = {
    ...(result as unknown as ToolResult),
    ...(output === undefined ? {} : { output }),
  };
  return { type: "output", result: checked };
}

function parsedOutput(name: string, result: Record<string, unknown>, parsed: ParseOutcome): TerminalEvent {
  if ("broken" in parsed) return failed(contract(name, `parseOutput() ${parsed.broken}`));
  if (!parsed.ok) return failed(invalidOutput(name, parsed));
  return outputEvent(result, parsed.value);
}

const NO_EXTENSIONS: Readonly<Record<string, unknown>> = Object.freeze({});

/** How long a stream may take to end after its terminal event before it is closed. */
const END_GRACE_MS = 100;
const GRACE_OVER: unique symbol = Symbol("grace over");

function withinEndGrace<T>(step: Promise<T>): Promise<T | typeof GRACE_OVER> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const over = new Promise<typeof GRACE_OVER>((resolve) => timer = setTimeout(() => resolve(GRACE_OVER), END_GRACE_MS));
  return Promise.race([step, over]).finally(() => clearTimeout(timer));
}

/** Waits for a call's terminal, then releases its control. Never rejects. */
async function released(ran: Promise<TerminalEvent>, control: CallControl | undefined): Promise<TerminalEvent> {
  try {
    return await ran;
  } catch (error) {
    return unexpected(error);
  } finally {
    control?.dispose();
  }
}

/** A failure of the dispatcher itself: a bug, reported as a value. */
function unexpected(error: unknown): TerminalEvent {
  return failed(toolFailure("contract", `Dispatch failed unexpectedly: ${String(error)}`));
}

interface Dispatch {
  readonly entry: Entry;
  readonly callId: string;
  readonly args: Record<string, unknown>;
  readonly options: CallOptions;
  /** Set when resuming: the human's answer and who parked the call. */
  readonly resume?: {
    readonly answer: unknown;
    readonly origin: SuspendedCall["origin"];
  };
  readonly idempotencyKey?: string;
}

/**
 * A strict registry of tools and the dispatcher for model calls.
 * Registration is atomic and never overwrites; dispatch validates before
 * anything runs and always ends a call with exactly one terminal event.
 *
 * @example Register, list, call
 * ```ts
 * import { defineTool, ToolSet } from "@salvor/tools";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const readFile = defineTool({
 *   name: "read_file",
 *   description: "Read a UTF-8 text file.",
 *   input: v.object({ path: v.pipe(v.string(), v.minLength(1)) }),
 *   effects: ["fs.read"],
 *   run: (input) => ({ text: `contents of ${input.path}` }),
 * });
 * const tools = new ToolSet().register(readFile);
 * assert.deepEqual(tools.descriptors().map((d) => d.name), ["read_file"]);
 *
 * const bad = await tools.call({ id: "call_1", name: "read_file", arguments: "{}" });
 * assert.equal(bad.type, "failed");
 * if (bad.type === "failed") {
 *   assert.equal(bad.failure.kind, "invalid_input");
 *   assert.equal(bad.failure.diagnostics?.[0].path, "/path");
 * }
 * ```
 */
export class ToolSet implements Iterable<DynTool> {
  readonly #entries = new Map<string, Entry>();
  readonly #approve: ApprovalGate | undefined;
  readonly #limits: JsonLimits;
  #descriptors: readonly ToolDescriptor[] | undefined;
  #sorted: readonly Entry[] | undefined;

  /**
   * Makes an empty set.
   *
   * @param options A default approval gate and the limits on values.
   */
  constructor(options: ToolSetOptions = {}) {
    this.#approve = options.approve;
    this.#limits = options.limits ?? DEFAULT_LIMITS;
  }

  /** How many tools are registered. */
  get size(): number {
    return this.#entries.size;
  }

  #check(tool: DynTool): Entry {
    if (!isRecord(tool) || typeof (tool as DynTool).execute !== "function") {
      throw new RegistryError(
        "Cannot register the tool as it is not a DynTool: it needs a descriptor and execute()",
      );
    }
    let descriptor = tool.descriptor;
    let input: CompiledSchema | undefined;
    let output: CompiledSchema | undefined;
    if (!isChecked(tool)) {
      descriptor = describeTool(descriptor);
      input = compileSchema(descriptor.inputSchema, {
        label: `input schema of "${descriptor.name}"`,
      });
      if (descriptor.outputSchema !== undefined) {
        output = compileSchema(descriptor.outputSchema, {
          label: `output schema of "${descriptor.name}"`,
        });
      }
    }
    const parseInput = tool.parseInput?.bind(tool) ??
      parserFor(input ?? compileSchema(descriptor.inputSchema));
    const parseOutput = tool.parseOutput?.bind(tool) ??
      (descriptor.outputSchema === undefined ? undefined : parserFor(output ?? compileSchema(descriptor.outputSchema)));
    return {
      tool,
      descriptor,
      parseInput,
      parseOutput,
      needsPolicy: schedulerClass(descriptor) === "policy_required",
    };
  }

  /**
   * Registers tools, all or none: every spec is checked and every schema
   * compiled before any tool is added.
   *
   * @param tools The tools to add.
   * @returns This set, for chaining.
   * @throws {RegistryError} On a duplicate name or a conflicting version
   * (within the batch or against the set); nothing is added.
   * @throws {InvalidSpecError} On a bad spec or schema; nothing is added.
   *
   * @example A batch with one bad tool registers none
   * ```ts
   * import { defineJsonTool, RegistryError, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const make = (name: string) =>
   *   defineJsonTool({ name, description: "A tool.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });
   * const tools = new ToolSet();
   * assert.throws(() => tools.register(make("a"), make("b"), make("a")), RegistryError);
   * assert.equal(tools.size, 0);
   * ```
   */
  register(...tools: DynTool[]): this {
    const batch = new Map<string, Entry>();
    for (const tool of tools) {
      const entry = this.#check(tool);
      const name = entry.descriptor.name;
      const existing = this.#entries.get(name) ?? batch.get(name);
      if (existing) {
        const what = existing.descriptor.version === entry.descriptor.version
          ? "a tool of that name is already registered"
          : `version ${existing.descriptor.version} of it is registered and this is version ${entry.descriptor.version}`;
        throw new RegistryError(`Cannot register "${name}" as ${what}`);
      }
      batch.set(name, entry);
    }
    for (const [name, entry] of batch) {
      this.#entries.set(name, entry);
      markChecked(entry.tool);
    }
    if (batch.size > 0) this.#changed();
    return this;
  }

  /**
   * Removes a tool by name.
   *
   * @param name The tool's name.
   * @returns This set, for chaining.
   * @throws {RegistryError} When no tool has that name.
   *
   * @example
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const ping = defineJsonTool({ name: "ping", description: "Pong.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });
   * const tools = new ToolSet().register(ping).unregister("ping");
   * assert.equal(tools.has("ping"), false);
   * ```
   */
  unregister(name: string): this {
    if (!this.#entries.delete(name)) {
      throw new RegistryError(
        `Cannot unregister "${name}" as no tool of that name is registered`,
      );
    }
    this.#changed();
    return this;
  }

  #changed(): void {
    this.#descriptors = undefined;
    this.#sorted = undefined;
  }

  #inOrder(): readonly Entry[] {
    this.#sorted ??= [...this.#entries.values()].sort((a, b) =>
      a.descriptor.name < b.descriptor.name ? -1 : a.descriptor.name > b.descriptor.name ? 1 : 0
    );
    return this.#sorted;
  }

  /**
   * Tells whether a tool of that name is registered.
   *
   * @param name The tool's name.
   * @returns Whether it is registered.
   *
   * @example
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new ToolSet().has("read_file"), false);
   * ```
   */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /**
   * Looks a tool up by name.
   *
   * @param name The tool's name.
   * @returns The tool, or `undefined`.
   *
   * @example
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const ping = defineJsonTool({ name: "ping", description: "Pong.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });
   * assert.equal(new ToolSet().register(ping).get("ping"), ping);
   * ```
   */
  get(name: string): DynTool | undefined {
    return this.#entries.get(name)?.tool;
  }

  /**
   * Lists what a model is shown, in canonical name order. The list is
   * cached until the set changes, so repeated calls cost nothing.
   *
   * @returns The frozen descriptors.
   *
   * @example
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const make = (name: string) =>
   *   defineJsonTool({ name, description: "A tool.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });
   * const tools = new ToolSet().register(make("zeta"), make("alpha"));
   * assert.deepEqual(tools.descriptors().map((d) => d.name), ["alpha", "zeta"]);
   * ```
   */
  descriptors(): readonly ToolDescriptor[] {
    this.#descriptors ??= Object.freeze(
      this.#inOrder().map((entry) => entry.descriptor),
    );
    return this.#descriptors;
  }

  /**
   * Iterates the tools in canonical name order.
   *
   * @returns An iterator over the tools.
   *
   * @example
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual([...new ToolSet()], []);
   * ```
   */
  [Symbol.iterator](): Iterator<DynTool> {
    return this.#inOrder().map((entry) => entry.tool)[Symbol.iterator]();
  }

  /**
   * Splits a batch of model calls into ordered waves by scheduler class.
   * See {@linkcode planCalls}.
   *
   * @param calls The model's calls, in the order it made them.
   * @returns The waves and the calls refused a place.
   * @throws {TypeError} When `calls` is not an array.
   *
   * @example
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const read = defineJsonTool({ name: "read", description: "Read.", inputSchema: { type: "object" }, effects: ["fs.read"], run: () => ({}) });
   * const plan = new ToolSet().register(read).plan([
   *   { id: "1", name: "read" },
   *   { id: "2", name: "read" },
   * ]);
   * assert.equal(plan.waves.length, 1);
   * ```
   */
  plan<C extends ToolCall>(calls: readonly C[]): Plan<C> {
    return planCalls(calls, (name) => this.#entries.get(name)?.descriptor);
  }

  /**
   * Dispatches one model call and streams its events: progress, then
   * exactly one terminal. Nothing is thrown; every problem is a `failed`
   * terminal. Order: not found → limits → input validation → idempotency
   * key → approval → execute (with timeout and cancellation) → output
   * validation. The timeout bounds every step from validation on. A tool
   * stream that ends without a terminal, throws, yields a malformed event
   * or yields after its terminal ends in one `contract` failure. Stopping
   * reading before the terminal aborts the tool's signal.
   *
   * @param call The model's call.
   * @param options Signal, timeout, idempotency key, extensions, approval.
   * @returns The call's events.
   *
   * @example Collect a call's events
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const count = defineJsonTool({
   *   name: "count",
   *   description: "Counts to three.",
   *   inputSchema: { type: "object" },
   *   effects: [],
   *   run: (_input, ctx) => {
   *     for (let i = 1; i <= 3; i++) ctx.progress({ progress: i, total: 3 });
   *     return { done: true };
   *   },
   * });
   * const types = [];
   * for await (const event of new ToolSet().register(count).stream({ id: "1", name: "count" })) {
   *   types.push(event.type);
   * }
   * assert.deepEqual(types, ["progress", "progress", "progress", "output"]);
   * ```
   */
  async *stream(
    call: ToolCall,
    options: CallOptions = {},
  ): AsyncGenerator<ToolEvent, void, undefined> {
    yield* this.#events(this.#admit(call, options));
  }

  /** Checks a call up to its dispatch: its shape, its tool, its arguments. */
  #admit(call: ToolCall, options: CallOptions): Dispatch | TerminalEvent {
    if (
      !isRecord(call) || typeof call.id !== "string" ||
      typeof call.name !== "string"
    ) {
      return failed(
        toolFailure(
          "invalid_input",
          "Cannot dispatch the call as it needs a string id and name",
          {
            diagnostics: [{
              path: "",
              keyword: "type",
              message: "A call needs a string id and a string name.",
            }],
          },
        ),
      );
    }
    const entry = this.#entries.get(call.name);
    if (!entry) {
      return failed(
        toolFailure(
          "not_found",
          `Cannot call "${cut(call.name, 200)}" as no tool of that name is registered`,
          {
            // Cut to a valid name's length.
            modelText: `There is no tool named "${
              cut(call.name, 64)
            }". Call only the tools you were given, by their exact names.`,
          },
        ),
      );
    }
    const read = readArguments(call.arguments, this.#limits);
    if (!read.ok) {
      return failed(invalidInput(call.name, one(read.diagnostic)));
    }
    let args = read.value;
    const projection = options.projection;
    if (typeof projection?.restore === "function") {
      try {
        args = projection.restore(entry.descriptor.inputSchema, args);
      } catch (error) {
        return failed(
          contract(call.name, `the ${projection.name} projection could not restore the arguments: ${error}`),
        );
      }
      if (!isRecord(args)) {
        return failed(
          contract(call.name, `the ${projection.name} projection restored arguments that are not an object`),
        );
      }
    }
    return { entry, callId: call.id, args, options };
  }

  /**
   * Dispatches one model call and resolves to its terminal event. Never
   * throws and never rejects.
   *
   * @param call The model's call.
   * @param options As for {@linkcode ToolSet.stream}, plus `onProgress`.
   * @returns The terminal event.
   *
   * @example An unknown tool is a value, not an exception
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const end = await new ToolSet().call({ id: "1", name: "nope", arguments: "{}" });
   * assert.equal(end.type === "failed" && end.failure.kind, "not_found");
   * ```
   */
  call(call: ToolCall, options: CallOptions = {}): Promise<TerminalEvent> {
    return this.#settle(() => this.#admit(call, options), options);
  }

  /**
   * Resumes a parked call with a human's answer, streaming its events.
   * The record may come from another process: it is checked, the tool
   * must be registered at the same version, the answer must meet the
   * record's resume schema, and the input is validated again. Then the
   * handler runs with `ctx.resume` set to the answer (or, for a call an
   * approval gate parked, runs as approved or fails as denied).
   *
   * @param record The `SuspendedCall`, e.g. read back from JSON.
   * @param answer The human's answer.
   * @param options As for {@linkcode ToolSet.stream}; the approval gate is not asked again.
   * @returns The call's events.
   *
   * @example See {@linkcode ToolSet.resume}.
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const events = [];
   * for await (const event of new ToolSet().resumeStream({ v: 1 } as never, {})) events.push(event);
   * assert.equal(events.length, 1);
   * ```
   */
  async *resumeStream(
    record: SuspendedCall,
    answer: unknown,
    options: CallOptions = {},
  ): AsyncGenerator<ToolEvent, void, undefined> {
    yield* this.#events(this.#admitResume(record, answer, options));
  }

  /** Checks a parked call and its answer up to its dispatch. */
  #admitResume(record: SuspendedCall, answer: unknown, options: CallOptions): Dispatch | TerminalEvent {
    const problem = recordProblem(record);
    if (problem) {
      return failed(refusedResume("the call", "the record is malformed", one(problem)));
    }
    const tool = `"${record.tool}"`;
    const inputProblem = checkJsonValue(record.input, this.#limits);
    if (inputProblem) {
      return failed(refusedResume(
        tool,
        "the record's input is not bounded JSON",
        one({ ...inputProblem, path: `/input${inputProblem.path}` }),
      ));
    }
    const entry = this.#entries.get(record.tool);
    if (!entry) {
      return failed(
        toolFailure(
          "not_found",
          `Cannot resume "${cut(record.tool, 200)}" as no tool of that name is registered`,
        ),
      );
    }
    if (entry.descriptor.version !== record.version) {
      const why =
        `the tool changed since the call was parked: the record is for version ${record.version} and the registered tool is version ${entry.descriptor.version}`;
      return failed(
        refusedResume(tool, why, one({ path: "/version", keyword: "const", message: `Cannot resume as ${why}` })),
      );
    }
    let resumeSchema: CompiledSchema;
    try {
      resumeSchema = compileSchema(record.resumeSchema, {
        label: "resume schema",
      });
    } catch (error) {
      return failed(refusedResume(
        tool,
        "the record's resume schema is invalid",
        one({ path: "/resumeSchema", keyword: "schema", message: String(error) }),
      ));
    }
    const limit = checkJsonValue(answer, this.#limits);
    const verdict = limit ? { valid: false as const, ...one(limit) } : resumeSchema.validate(answer);
    if (!verdict.valid) {
      return failed(refusedResume(tool, "the answer does not meet the record's resume schema", verdict));
    }
    return {
      entry,
      callId: record.callId,
      args: structuredClone(record.input) as Record<string, unknown>,
      options,
      resume: { answer: structuredClone(answer), origin: record.origin },
      idempotencyKey: options.idempotencyKey ?? record.idempotencyKey,
    };
  }

  /**
   * Resumes a parked call and resolves to its terminal event. Never throws.
   *
   * @param record The `SuspendedCall`, e.g. read back from JSON.
   * @param answer The human's answer.
   * @param options As for {@linkcode ToolSet.call}.
   * @returns The terminal event.
   *
   * @example A parked call survives JSON and a fresh set
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const rm = defineJsonTool({
   *   name: "rm",
   *   description: "Delete a file.",
   *   inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
   *   effects: ["fs.delete"],
   *   run: (input: { path: string }) => ({ deleted: input.path }),
   * });
   * const ask = () => "suspend" as const;
   * const parked = await new ToolSet({ approve: ask }).register(rm).call({ id: "1", name: "rm", arguments: '{"path":"a"}' });
   * assert.equal(parked.type, "suspended");
   * if (parked.type === "suspended") {
   *   const record = JSON.parse(JSON.stringify(parked.suspended));
   *   const done = await new ToolSet().register(rm).resume(record, { approved: true });
   *   assert.equal(done.type, "output");
   * }
   * ```
   */
  resume(
    record: SuspendedCall,
    answer: unknown,
    options: CallOptions = {},
  ): Promise<TerminalEvent> {
    return this.#settle(() => this.#admitResume(record, answer, options), options);
  }

  /** Admits a call and runs it to its terminal, handing progress to `onProgress`. Never throws or rejects. */
  #settle(admit: () => Dispatch | TerminalEvent, options: CallOptions): Promise<TerminalEvent> {
    let admitted: Dispatch | TerminalEvent;
    try {
      admitted = admit();
    } catch (error) {
      return Promise.resolve(unexpected(error));
    }
    if ("type" in admitted) return Promise.resolve(admitted);
    return this.#drive(admitted, (event) => {
      try {
        options.onProgress?.(event);
      } catch {
        // A failing progress callback must not fail the call.
      }
    });
  }

  /**
   * Streams an admitted call: its progress as it comes, then its terminal.
   * A caller that stops reading cancels the call.
   */
  async *#events(admitted: Dispatch | TerminalEvent): AsyncGenerator<ToolEvent, void, undefined> {
    if ("type" in admitted) {
      yield admitted;
      return;
    }
    const queue: ToolEvent[] = [];
    let wake: (() => void) | undefined;
    let control: CallControl | undefined;
    let finished = false;
    const push = (event: ToolEvent) => {
      queue.push(event);
      wake?.();
    };
    this.#drive(admitted, push, (made) => control = made).then((terminal) => {
      finished = true;
      push(terminal);
    });
    try {
      while (true) {
        while (queue.length > 0) {
          const event = queue.shift()!;
          yield event;
          if (event.type !== "progress") return;
        }
        await new Promise<void>((resolve) => wake = resolve);
        wake = undefined;
      }
    } finally {
      if (!finished) control?.cancel();
    }
  }

  /**
   * Runs an admitted call to its one terminal, handing each progress event
   * to `emit` as it happens. Plain promises, no stream machinery: this is
   * the path every call takes. A call that ends synchronously (synchronous
   * parsers and handler) takes no promise turn before its terminal. Never
   * rejects.
   */
  #drive(
    job: Dispatch,
    emit: (event: ProgressEvent) => void,
    onControl?: (control: CallControl) => void,
  ): Promise<TerminalEvent> {
    let control: CallControl | undefined;
    let ran: TerminalEvent | Promise<TerminalEvent>;
    try {
      const { entry, options } = job;
      const timeoutMs = options.timeoutMs ?? entry.descriptor.timeoutMs;
      const problem = optionsProblem(options, timeoutMs);
      if (problem) {
        return Promise.resolve(
          failed(toolFailure("contract", `Cannot dispatch "${entry.descriptor.name}" as ${problem}`)),
        );
      }
      // A stream's reader may walk away, so a streamed call can always be stopped.
      control = new CallControl(options.signal, timeoutMs, onControl !== undefined);
      onControl?.(control);
      ran = this.#run(job, control, emit);
    } catch (error) {
      ran = unexpected(error);
    }
    if (ran instanceof Promise) return released(ran, control);
    control?.dispose();
    return Promise.resolve(ran);
  }

  #stopped(
    job: Dispatch,
    control: CallControl,
    started: boolean,
  ): TerminalEvent {
    const { descriptor } = job.entry;
    const uncertain = started &&
      descriptor.semantics.idempotency !== "idempotent";
    const kind = control.stopped ?? "cancelled";
    const message = kind === "timeout"
      ? `Tool "${descriptor.name}" timed out`
      : `The call to "${descriptor.name}" was cancelled`;
    const modelText = kind === "timeout"
      ? `The tool "${descriptor.name}" did not finish in time${uncertain ? "; it may have had side effects" : ""}.`
      : `The call to "${descriptor.name}" was cancelled${uncertain ? "; it may have had side effects" : ""}.`;
    return failed(toolFailure(kind, message, { modelText, uncertain }));
  }

  /** Validates the input; a synchronous parser answers without a promise turn. */
  #run(
    job: Dispatch,
    control: CallControl,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    if (control.stopped) return this.#stopped(job, control, false);
    const parsed = parseWith(job.entry.parseInput, job.args);
    if (!(parsed instanceof Promise)) return this.#admitted(job, control, parsed, emit);
    return control.race(parsed).then((raced) =>
      raced === STOPPED ? this.#stopped(job, control, false) : this.#admitted(job, control, raced, emit)
    );
  }

  /** Takes a parsed input through the idempotency key and approval to its execution. */
  #admitted(
    job: Dispatch,
    control: CallControl,
    parsed: ParseOutcome,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const { entry, options, args } = job;
    const { descriptor } = entry;
    if ("broken" in parsed) {
      return failed(contract(descriptor.name, `parseInput() ${parsed.broken}`));
    }
    if (!parsed.ok) return failed(invalidInput(descriptor.name, parsed));

    let idempotencyKey = job.idempotencyKey ?? options.idempotencyKey;
    if (
      idempotencyKey === undefined && descriptor.idempotencyKey !== undefined
    ) {
      const key = keyAt(args, descriptor.idempotencyKey);
      if (typeof key !== "string") {
        return failed(invalidInput(descriptor.name, one(key)));
      }
      idempotencyKey = key;
    }

    if (job.resume?.origin === "approval") {
      if ((job.resume.answer as { approved: boolean }).approved !== true) {
        return failed(
          toolFailure(
            "policy_required",
            `A person denied the call to "${descriptor.name}"`,
            {
              modelText: `A person denied the call to "${descriptor.name}". Do not try it again without asking.`,
            },
          ),
        );
      }
    } else if (job.resume === undefined) {
      const gate = options.approve ?? this.#approve;
      if (gate) return this.#approved(job, control, gate, parsed.value, idempotencyKey, emit);
      if (entry.needsPolicy) {
        return failed(
          toolFailure(
            "policy_required",
            `Cannot run "${descriptor.name}" as it declares an unknown effect and no approval gate is set`,
            {
              modelText: `The tool "${descriptor.name}" needs approval that is not available.`,
            },
          ),
        );
      }
    }
    return this.#invoke(job, control, parsed.value, idempotencyKey, emit);
  }

  /** Asks the approval gate, then executes the call, parks it or refuses it. */
  async #approved(
    job: Dispatch,
    control: CallControl,
    gate: ApprovalGate,
    input: unknown,
    idempotencyKey: string | undefined,
    emit: (event: ProgressEvent) => void,
  ): Promise<TerminalEvent> {
    const { descriptor } = job.entry;
    let decision: ApprovalDecision | typeof STOPPED;
    try {
      decision = await control.race(gate(descriptor, input));
    } catch (error) {
      return failed(
        toolFailure(
          "policy_required",
          `The approval gate failed for "${descriptor.name}": ${String(error)}`,
          {
            modelText: `The call to "${descriptor.name}" was not approved.`,
          },
        ),
      );
    }
    if (decision === STOPPED) {
      return this.#stopped(job, control, false);
    }
    if (decision === "suspend") {
      return {
        type: "suspended",
        suspended: this.#record(job, idempotencyKey, {
          reason: `The call to "${descriptor.name}" needs approval`,
          resumeSchema: APPROVAL_RESUME_SCHEMA,
          origin: "approval",
        }),
      };
    }
    if (decision !== true) {
      return failed(
        toolFailure(
          "policy_required",
          `The approval policy refused the call to "${descriptor.name}"`,
          {
            modelText: `The call to "${descriptor.name}" is not allowed.`,
          },
        ),
      );
    }
    return this.#invoke(job, control, input, idempotencyKey, emit);
  }

  /** Hands a validated, approved call to its tool. */
  #invoke(
    job: Dispatch,
    control: CallControl,
    input: unknown,
    idempotencyKey: string | undefined,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const invocation = new ValidatedInvocation(INVOCATION_TOKEN, {
      callId: job.callId,
      tool: job.entry.descriptor.name,
      input,
      idempotencyKey,
    });
    // The resolved key goes with the job, so a suspension's record keeps it too.
    // Built field by field, and only when the key changed: a spread here made
    // objects of varying shape that every later read of the job paid for.
    const resolved: Dispatch = idempotencyKey === job.idempotencyKey ? job : {
      entry: job.entry,
      callId: job.callId,
      args: job.args,
      options: job.options,
      resume: job.resume,
      idempotencyKey,
    };
    return this.#execute(resolved, control, invocation, emit);
  }

  #execute(
    job: Dispatch,
    control: CallControl,
    invocation: ValidatedInvocation,
    emit: (event: ProgressEvent) => void,
  ): TerminalEvent | Promise<TerminalEvent> {
    const { entry, options } = job;
    let open = true;
    const ctx: ToolContext = new CallContext(control, {
      callId: invocation.callId,
      idempotencyKey: invocation.idempotencyKey,
      resume: job.resume?.origin === "handler" ? job.resume.answer : undefined,
      extensions: options.extensions === undefined ? NO_EXTENSIONS : Object.freeze({ ...options.extensions }),
      progress(event) {
        const progress = readProgress(event);
        if (typeof progress === "string") {
          throw new TypeError(`Cannot report progress as ${progress}`);
        }
        if (open) emit(progress);
      },
    });
    const direct = directRunOf(entry.tool);
    if (!direct) {
      return this.#executeStream(job, control, invocation, ctx, emit, () => {
        open = false;
      });
    }
    let ended: TerminalEvent | Promise<TerminalEvent> | undefined;
    try {
      ended = this.#executeDirect(job, control, direct, invocation, ctx);
    } finally {
      // Progress is taken until the call ends, and not after.
      if (!(ended instanceof Promise)) open = false;
    }
    if (!(ended instanceof Promise)) return ended;
    return ended.then((terminal) => {
      open = false;
      return terminal;
    }, (error: unknown) => {
      open = false;
      throw error;
    });
  }

  /** Reads a tool's execute() stream to its terminal; `close` stops taking the handler's progress. */
  async #executeStream(
    job: Dispatch,
    control: CallControl,
    invocation: ValidatedInvocation,
    ctx: ToolContext,
    emit: (event: ProgressEvent) => void,
    close: () => void,
  ): Promise<TerminalEvent> {
    const { entry } = job;
    const name = entry.descriptor.name;
    let iterator: AsyncIterator<ExecutionEvent>;
    try {
      iterator = entry.tool.execute(invocation, ctx)[Symbol.asyncIterator]();
    } catch (error) {
      return failed(contract(name, `execute() threw: ${String(error)}`));
    }
    // The promise constructor also catches an iterator whose next() throws or returns no promise.
    const step = () =>
      new Promise<IteratorResult<ExecutionEvent>>((resolve) => resolve(iterator.next())).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
    let terminal: TerminalEvent | undefined;
    let ended = false;
    try {
      while (true) {
        // After its terminal a stream only has to end; one that never does is closed after a grace.
        const outcome = await control.race(terminal ? withinEndGrace(step()) : step());
        if (outcome === STOPPED) return this.#stopped(job, control, true);
        if (outcome === GRACE_OVER) return terminal!;
        if ("error" in outcome) {
          ended = true;
          return failed(
            terminal
              ? contract(
                name,
                `the stream threw after its terminal event: ${String(outcome.error)}`,
              )
              : contract(name, `the stream threw: ${String(outcome.error)}`),
          );
        }
        if (outcome.result.done) {
          ended = true;
          break;
        }
        if (terminal) {
          return failed(
            contract(
              name,
              "the stream yielded an event after its terminal event",
            ),
          );
        }
        const event: unknown = outcome.result.value;
        if (isRecord(event) && event.type === "progress") {
          const progress = readProgress(event);
          if (typeof progress === "string") {
            return failed(contract(name, `the stream yielded a malformed progress event: ${progress}`));
          }
          emit(progress);
        } else {
          // Output validation may be async (an MCP tool's parser): the timeout bounds it too.
          const settled = this.#terminal(job, event);
          const checked = settled instanceof Promise ? await control.race(settled) : settled;
          if (checked === STOPPED) return this.#stopped(job, control, true);
          terminal = checked;
        }
      }
      if (!terminal) {
        return failed(
          contract(name, "the stream ended without a terminal event"),
        );
      }
      return terminal;
    } finally {
      close();
      if (!ended) {
        // The call is over but the stream is still running (stopped, abandoned by
        // the caller, or in breach): abort its signal and ask it to close; it may not listen.
        control.cancel();
        new Promise((resolve) => resolve(iterator.return?.())).catch(() => {});
      }
    }
  }

  /**
   * Runs a tool's handler directly: its one event is the stream's only
   * event. A synchronous handler's event is checked without a promise turn.
   */
  #executeDirect(
    job: Dispatch,
    control: CallControl,
    run: DirectRun,
    invocation: ValidatedInvocation,
    ctx: ToolContext,
  ): TerminalEvent | Promise<TerminalEvent> {
    const threw = (error: unknown) => failed(contract(job.entry.descriptor.name, `the stream threw: ${String(error)}`));
    let event: ExecutionEvent | Promise<ExecutionEvent>;
    try {
      event = run(invocation, ctx);
    } catch (error) {
      return threw(error);
    }
    return event instanceof Promise
      ? control.race(event).then((raced) => this.#directEnd(job, control, raced), threw)
      : this.#directEnd(job, control, control.stopped ? STOPPED : event);
  }

  /** Checks the handler's event, unless the call stopped first; the timeout bounds output validation too. */
  #directEnd(
    job: Dispatch,
    control: CallControl,
    event: ExecutionEvent | typeof STOPPED,
  ): TerminalEvent | Promise<TerminalEvent> {
    if (event === STOPPED) return this.#stopped(job, control, true);
    const settled = this.#terminal(job, event);
    return settled instanceof Promise
      ? control.race(settled).then((checked) => checked === STOPPED ? this.#stopped(job, control, true) : checked)
      : settled;
  }

  /** Checks a terminal event from a tool and turns it into the caller's terminal. */
  #terminal(job: Dispatch, event: unknown): TerminalEvent | Promise<TerminalEvent> {
    const { entry } = job;
    const name = entry.descriptor.name;
    if (!isRecord(event)) {
      return failed(
        contract(name, "the stream yielded a value that is not an event"),
      );
    }
    if (event.type === "failed") {
      const failure = event.failure;
      if (
        !isRecord(failure) || !KNOWN_FAILURE_KINDS.has(failure.kind as string) ||
        typeof failure.message !== "string"
      ) {
        return failed(contract(name, "the stream yielded a malformed failure"));
      }
      return failed(
        toolFailure(
          failure.kind as FailureKind,
          failure.message,
          failure as Partial<ToolFailure>,
        ),
      );
    }
    if (event.type === "suspended") {
      const suspension = event.suspension;
      if (!isRecord(suspension) || typeof suspension.reason !== "string") {
        return failed(
          contract(name, "the stream yielded a malformed suspension"),
        );
      }
      try {
        compileSchema(suspension.resumeSchema as never, {
          label: "resume schema",
        });
      } catch (error) {
        return failed(
          contract(
            name,
            `the suspension's resume schema is invalid: ${String(error)}`,
          ),
        );
      }
      if (
        suspension.payload !== undefined &&
        checkJsonValue(suspension.payload, this.#limits)
      ) {
        return failed(
          contract(name, "the suspension's payload is not bounded JSON"),
        );
      }
      return {
        type: "suspended",
        suspended: this.#record(
          job,
          job.idempotencyKey ?? job.options.idempotencyKey,
          {
            reason: suspension.reason,
            resumeSchema: suspension
              .resumeSchema as SuspendedCall["resumeSchema"],
            payload: suspension.payload,
            origin: "handler",
          },
        ),
      };
    }
    if (event.type === "output") {
      return this.#output(name, entry, event.result);
    }
    return failed(
      contract(
        name,
        `the stream yielded an unknown event type ${JSON.stringify(String(event.type))}`,
      ),
    );
  }

  #output(
    name: string,
    entry: Entry,
    result: unknown,
  ): TerminalEvent | Promise<TerminalEvent> {
    if (!isRecord(result) || !Array.isArray(result.content)) {
      return failed(
        contract(name, "the output event has no result with a content list"),
      );
    }
    if (
      !result.content.every((part) => isRecord(part) && CONTENT_TYPES.has(part.type as string))
    ) {
      return failed(
        contract(name, "the result holds a content part of an unknown type"),
      );
    }
    const output = result.output;
    if (output === undefined) {
      if (entry.descriptor.outputSchema !== undefined) {
        return failed(
          invalidOutput(
            name,
            one({
              path: "",
              keyword: "required",
              message: "The structured output is missing.",
            }),
          ),
        );
      }
      return outputEvent(result, undefined);
    }
    const problem = checkJsonValue(output, this.#limits);
    if (problem) return failed(invalidOutput(name, one(problem)));
    if (!entry.parseOutput) return outputEvent(result, output);
    const parsed = parseWith(entry.parseOutput, output);
    return parsed instanceof Promise
      ? parsed.then((outcome) => parsedOutput(name, result, outcome))
      : parsedOutput(name, result, parsed);
  }

  #record(
    job: Dispatch,
    idempotencyKey: string | undefined,
    fields: Pick<
      SuspendedCall,
      "reason" | "resumeSchema" | "payload" | "origin"
    >,
  ): SuspendedCall {
    return {
      v: 1,
      callId: job.callId,
      tool: job.entry.descriptor.name,
      version: job.entry.descriptor.version,
      input: structuredClone(job.args),
      reason: fields.reason,
      resumeSchema: structuredClone(fields.resumeSchema),
      ...(fields.payload === undefined ? {} : { payload: structuredClone(fields.payload) }),
      origin: fields.origin,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    };
  }
}

/** Checks the shape of a record read back from storage. */
function recordProblem(record: unknown): Diagnostic | undefined {
  const wrong = (path: string, message: string): Diagnostic => ({
    path,
    keyword: "type",
    message,
  });
  if (!isRecord(record)) {
    return wrong("", "A suspended-call record must be an object.");
  }
  if (record.v !== 1) {
    return {
      path: "/v",
      keyword: "const",
      message: "Only version 1 records can be resumed.",
    };
  }
  for (const field of ["callId", "tool", "version", "reason"] as const) {
    if (typeof record[field] !== "string") {
      return wrong(`/${field}`, `The record's ${field} must be a string.`);
    }
  }
  if (!isRecord(record.input)) {
    return wrong("/input", "The record's input must be an object.");
  }
  if (record.origin !== "handler" && record.origin !== "approval") {
    return {
      path: "/origin",
      keyword: "enum",
      message: 'The record\'s origin must be "handler" or "approval".',
    };
  }
  if (
    record.idempotencyKey !== undefined &&
    typeof record.idempotencyKey !== "string"
  ) {
    return wrong(
      "/idempotencyKey",
      "The record's idempotencyKey must be a string.",
    );
  }
  return undefined;
}
