/**
 * The registry: a strict set of tools and the one dispatch path every call
 * takes, from untrusted arguments to exactly one terminal event.
 *
 * @module
 */

import type { DynTool } from "../contract/dyn.ts";
import { schedulerClass } from "../contract/effect.ts";
import { RegistryError } from "../common/errors.ts";
import type { TerminalEvent, ToolEvent } from "../contract/events.ts";
import type { JsonLimits } from "../common/limits.ts";
import { checkJsonSchema, type CompiledSchema, compileSchemaApart } from "../schema/schema.ts";
import { describeTool, type ToolDescriptor } from "../contract/spec.ts";
import type { SuspendedCall } from "../contract/suspend.ts";
import type { SealOptions } from "../seal/seal.ts";
import type { ApprovalGate, CallOptions, ToolCall } from "./tool_call.ts";
import { isChecked, markDescriptorChecked } from "../define/_checked.ts";
import { bindDispatcher, Dispatcher, type Entry } from "./_dispatch.ts";
import { NO_OPTIONS } from "./_call_options.ts";
import { isRecord } from "../common/_is_record.ts";
import { parserFor, schemaOfParser } from "../define/_parser.ts";
import { type Plan, planCalls } from "./schedule.ts";
import type { CallObserver } from "./observer.ts";
import { CALL, RESUMED } from "./_watch.ts";

/** Options for a {@linkcode ToolSet}. */
export interface ToolSetOptions {
  /**
   * Decides whether each validated call may run. Without one, calls to
   * tools whose scheduler class is `policy_required` (unknown effects)
   * fail closed as `policy_required`.
   */
  readonly approve?: ApprovalGate;
  /**
   * Size and depth bounds on arguments, outputs, call extensions and the
   * payload an approval gate parks a call with; read once, as the set is made.
   */
  readonly limits?: JsonLimits;
  /**
   * Seals every record the set parks (a handler's `suspend` and an approval
   * gate's) with HMAC-SHA-256 over every field, and makes each single-use
   * through `nonces` (a `MemoryNonceStore` when absent; give a durable one
   * when records outlive the process or several processes resume them).
   * Without a seal, a record is plain JSON anyone holding it may change.
   */
  readonly seal?: SealOptions;
  /**
   * Hears of every call: its start, progress and terminal, with timing
   * (see {@linkcode CallObserver}). Without one, dispatch does no work for it.
   */
  readonly observer?: CallObserver;
}

/** How a set parks calls, as {@linkcode ToolSet.parking} tells it. */
export interface ParkingPolicy {
  /** A default approval gate may park any call. */
  readonly approval: boolean;
  /** Every record the set parks is sealed. */
  readonly sealed: boolean;
}

/**
 * A strict registry of tools and the dispatcher for model calls.
 * Registration is atomic and never overwrites; dispatch validates before
 * anything runs and always ends a call with exactly one terminal event.
 * With a `seal`, the records of parked calls are sealed and single-use
 * (see {@linkcode ToolSet.resume}); without one they are plain JSON their
 * holder can rewrite.
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
 *   inputSchema: v.object({ path: v.pipe(v.string(), v.minLength(1)) }),
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
  readonly #dispatcher: Dispatcher;
  readonly #parking: ParkingPolicy;
  #descriptors: readonly ToolDescriptor[] | undefined;
  #sorted: readonly Entry[] | undefined;

  /**
   * Makes an empty set.
   *
   * @param options A default approval gate, the limits on values, the seal of parked records and an observer.
   * @throws {TypeError} When the seal's options are of the wrong type, `approve` is not a function, `limits` lack a
   * `maxBytes` and a `maxDepth` (numbers not below 0), or `observer` is not an object.
   * @throws {RangeError} When the seal's key is too short or its ttl out of range.
   */
  constructor(options: ToolSetOptions = {}) {
    this.#dispatcher = new Dispatcher(this.#entries, options);
    bindDispatcher(this, this.#dispatcher);
    this.#parking = Object.freeze({
      approval: isRecord(options) && options.approve !== undefined,
      sealed: isRecord(options) && options.seal !== undefined,
    });
  }

  /**
   * How this set parks calls: whether a default approval gate may park any
   * call, and whether the records it parks are sealed. A host that hands
   * records to someone else (an MCP server handing them to its clients)
   * reads this to refuse unsealed records before any call is made.
   *
   * @example A gate without a seal
   * ```ts
   * import { ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(new ToolSet({ approve: () => "suspend" }).parking, { approval: true, sealed: false });
   * ```
   */
  get parking(): ParkingPolicy {
    return this.#parking;
  }

  /**
   * The limits this set holds every value to (arguments, outputs, records,
   * answers, extensions): a frozen copy of `options.limits` taken as the set
   * was made, or `DEFAULT_LIMITS`. A host that reads a call's
   * arguments before the set does (a framework's approval step) reads them
   * within these.
   *
   * @example The default limits, or the set's own
   * ```ts
   * import { DEFAULT_LIMITS, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new ToolSet().limits, DEFAULT_LIMITS);
   * const tight = new ToolSet({ limits: { maxBytes: 1024, maxDepth: 8 } });
   * assert.deepEqual(tight.limits, { maxBytes: 1024, maxDepth: 8 });
   * assert.ok(Object.isFrozen(tight.limits));
   * ```
   */
  get limits(): JsonLimits {
    return this.#dispatcher.limits;
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
    const ownInput = tool.parseInput;
    const ownOutput = tool.parseOutput;
    let input: CompiledSchema | undefined;
    let output: CompiledSchema | undefined;
    if (!isChecked(descriptor)) {
      descriptor = describeTool(descriptor);
      // Every schema is checked; only one the set validates with (the tool has no parser of its own) is compiled.
      const inputLabel = { label: `input schema of "${descriptor.name}"` };
      if (ownInput) checkJsonSchema(descriptor.inputSchema, inputLabel, true);
      else input = compileSchemaApart(descriptor.inputSchema, inputLabel, true);
      if (descriptor.outputSchema !== undefined) {
        const outputLabel = { label: `output schema of "${descriptor.name}"` };
        if (ownOutput) checkJsonSchema(descriptor.outputSchema, outputLabel, true);
        else output = compileSchemaApart(descriptor.outputSchema, outputLabel, true);
      }
    }
    // Every descriptor here is `describeTool`'s: checked now, or when it was marked.
    const parseInput = ownInput?.bind(tool) ??
      parserFor(input ?? compileSchemaApart(descriptor.inputSchema, {}, true));
    const parseOutput = ownOutput?.bind(tool) ??
      (descriptor.outputSchema === undefined
        ? undefined
        : parserFor(output ?? compileSchemaApart(descriptor.outputSchema, {}, true)));
    return {
      tool,
      descriptor,
      parseInput,
      parseOutput,
      inputCheck: schemaOfParser(ownInput ?? parseInput),
      outputCheck: schemaOfParser(ownOutput ?? parseOutput),
      parseResume: typeof tool.parseResume === "function" ? tool.parseResume.bind(tool) : undefined,
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
    return this.replace([], tools);
  }

  /**
   * Removes some tools and adds others in one step, all or none: a runtime
   * that swaps a group of tools (an MCP server's, when its list changes)
   * never leaves the set half changed, and never removes a tool that merely
   * has the same name as one it added. Tools to remove are matched by
   * identity; their names are free for the tools added.
   *
   * @param removed Tools to remove: each must be the very tool registered under its name.
   * @param added Tools to add, checked as {@linkcode ToolSet.register} checks them.
   * @returns This set, for chaining.
   * @throws {RegistryError} When a tool to remove is not held by this set,
   * or a name to add is taken (within the batch or by a tool that stays);
   * nothing changes.
   * @throws {InvalidSpecError} On a bad spec or schema among the added tools; nothing changes.
   *
   * @example Swap a tool for its new version
   * ```ts
   * import { defineJsonTool, RegistryError, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const make = (description: string) =>
   *   defineJsonTool({ name: "lookup", description, inputSchema: { type: "object" }, effects: [], run: () => ({}) });
   * const old = make("Looks up a word.");
   * const next = make("Looks up a word or a phrase.");
   * const tools = new ToolSet().register(old);
   * tools.replace([old], [next]);
   * assert.equal(tools.get("lookup"), next);
   * // The old tool is gone by identity: another tool of its name is not removed in its place.
   * assert.throws(() => tools.replace([old], []), RegistryError);
   * assert.equal(tools.get("lookup"), next);
   * ```
   */
  replace(removed: readonly DynTool[], added: readonly DynTool[]): this {
    const freed = new Set<string>();
    for (const tool of removed) {
      const name = isRecord(tool) && isRecord(tool.descriptor) ? tool.descriptor.name : undefined;
      if (typeof name !== "string") {
        throw new RegistryError("Cannot remove the tool as it is not a DynTool: current value has no descriptor name");
      }
      const held = this.#entries.get(name)?.tool;
      if (held !== tool || freed.has(name)) {
        const what = freed.has(name)
          ? "it is listed twice"
          : held === undefined
          ? "no tool of that name is registered"
          : "another tool of that name is registered";
        throw new RegistryError(`Cannot remove "${name}" as this set does not hold that tool: ${what}`);
      }
      freed.add(name);
    }
    const batch = new Map<string, Entry>();
    for (const tool of added) {
      const entry = this.#check(tool);
      const name = entry.descriptor.name;
      const existing = (freed.has(name) ? undefined : this.#entries.get(name)) ?? batch.get(name);
      if (existing) {
        const what = existing.descriptor.version === entry.descriptor.version
          ? "a tool of that name is already registered"
          : `version ${existing.descriptor.version} of it is registered and this is version ${entry.descriptor.version}`;
        throw new RegistryError(`Cannot register "${name}" as ${what}`);
      }
      batch.set(name, entry);
    }
    for (const name of freed) this.#entries.delete(name);
    for (const [name, entry] of batch) {
      this.#entries.set(name, entry);
      markDescriptorChecked(entry.descriptor);
    }
    if (freed.size > 0 || batch.size > 0) this.#changed();
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
   * Looks up what a model is shown of one tool, as registered (checked,
   * with its semantics resolved): what `RetryPolicy.decide` and
   * `schedulerClass` take.
   *
   * @param name The tool's name.
   * @returns The descriptor, or `undefined` when no tool has that name.
   *
   * @example
   * ```ts
   * import { defineJsonTool, ToolSet } from "@salvor/tools";
   * import assert from "node:assert/strict";
   *
   * const ping = defineJsonTool({ name: "ping", description: "Pong.", inputSchema: { type: "object" }, effects: [], run: () => ({}) });
   * assert.equal(new ToolSet().register(ping).descriptor("ping")?.semantics.retry, "automatic");
   * ```
   */
  descriptor(name: string): ToolDescriptor | undefined {
    return this.#entries.get(name)?.descriptor;
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
   * reading before the terminal (a `break`, or `return()` or `throw()`, even
   * while a `next()` waits) aborts the tool's signal at once.
   *
   * The latest progress wins: a reader that falls behind finds at most 8
   * progress events waiting, and once that many wait, each new report
   * replaces the newest waiting one. A reader that keeps up sees every
   * report; the terminal is never dropped. Hostile call or option objects
   * (getters that throw, revoked Proxies) end in one `failed` terminal, as
   * from {@linkcode ToolSet.call}; each option is read once.
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
  stream(
    call: ToolCall,
    options: CallOptions = NO_OPTIONS,
  ): AsyncGenerator<ToolEvent, void, undefined> {
    const dispatcher = this.#dispatcher;
    return dispatcher.events(() => dispatcher.admit(call, options), () => dispatcher.watch(call, CALL));
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
  call(call: ToolCall, options: CallOptions = NO_OPTIONS): Promise<TerminalEvent> {
    const dispatcher = this.#dispatcher;
    return dispatcher.settle(() => dispatcher.admit(call, options), dispatcher.watch(call, CALL));
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
  resumeStream(
    record: SuspendedCall,
    answer: unknown,
    options: CallOptions = NO_OPTIONS,
  ): AsyncGenerator<ToolEvent, void, undefined> {
    const dispatcher = this.#dispatcher;
    return dispatcher.events(
      () => dispatcher.admitResume(record, answer, options),
      () => dispatcher.watch(record, RESUMED),
    );
  }

  /**
   * Resumes a parked call and resolves to its terminal event. Never throws.
   *
   * In a set with a `seal`, the seal is verified before anything else of
   * the record is read; a changed, expired, unknown-key or unsealed record,
   * or one sealed for another `subject`, fails as `invalid_input` and the
   * handler never runs. The record's nonce is used up last, once the tool,
   * its version, the answer (the record's schema, then the tool's own
   * `resumeSchema`) and the input have all passed: a resume refused before
   * that leaves the record usable, and any resume after it, an approval's
   * no included, spends it. A second resume then fails.
   *
   * Without a seal, the record is trusted as it comes: whoever holds it can
   * forge its origin, replay it, swap its input for other valid arguments
   * and widen its resume schema (an approval always needs
   * `{ approved: boolean }`, whatever the record says). A set without a
   * seal refuses a sealed record and a `subject`.
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
    options: CallOptions = NO_OPTIONS,
  ): Promise<TerminalEvent> {
    const dispatcher = this.#dispatcher;
    return dispatcher.settle(
      () => dispatcher.admitResume(record, answer, options),
      dispatcher.watch(record, RESUMED),
    );
  }
}
