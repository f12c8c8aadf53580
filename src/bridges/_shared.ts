// What every framework bridge shares: which tools of a set to bridge, the
// approval a person gives through the framework (the call parked by the
// set, its record kept until the framework runs it), and one call run
// through ToolSet.stream (or a parked record resumed) with the framework's
// signal, read back as what the framework's model is to see. A bridge adds
// only its framework's shapes.

import type { ToolSet } from "../core/dispatch/tool_set.ts";
import type { ApprovalDecision, ArgumentsProjection } from "../core/dispatch/tool_call.ts";
import type { DynTool } from "../core/contract/dyn.ts";
import type { TerminalEvent, ToolEvent, ToolResult } from "../core/contract/events.ts";
import type { SuspendedCall } from "../core/contract/suspend.ts";
import type { JsonSchema } from "../core/schema/schema.ts";
import { isRecord } from "../core/common/_is_record.ts";
import { showValue } from "../core/common/_show_value.ts";
import { boundText, MAX_MODEL_TEXT } from "../core/contract/failure.ts";
import { readArguments } from "../core/dispatch/_arguments.ts";
import { ToolCallFailedError } from "./tool_call_error.ts";
import { isRecordOf, type ParkedOutput } from "./parked.ts";
import { progressThenTerminal } from "./progress_output.ts";
import type { ApprovalRecords, BridgeOptions } from "./bridge_options.ts";

/** How many waiting records the default store keeps: a denied call's is never taken, so the oldest go. */
const WAITING_RECORDS = 1024;

function memoryRecords(): ApprovalRecords {
  const records = new Map<string, SuspendedCall>();
  return {
    get: (key) => records.get(key),
    set(key, record) {
      records.delete(key);
      records.set(key, record);
      if (records.size > WAITING_RECORDS) records.delete(records.keys().next().value!);
    },
    delete: (key) => records.delete(key),
  };
}

/**
 * A call's arguments as the set reads them, within its limits: a private copy of plain JSON, or `undefined` for
 * arguments it refuses, which then fail as the call runs. Read before the set's own check, so neither the digest nor
 * the gate reads more of a model's arguments than the set would, nor anything a getter or `toJSON` makes of them.
 */
function boundedArguments(toolset: ToolSet, call: BridgedCall): Record<string, unknown> | undefined {
  const read = readArguments(call.arguments, toolset.limits);
  return read.ok ? read.value : undefined;
}

/**
 * The key a call's record waits under: its id, then a digest of its tool's name and its arguments. Ids are not unique
 * (a provider may number its calls anew in each response), so a call that reuses a denied call's id, for another tool
 * or other arguments, never takes that call's record. `undefined` for an id that is no string, which the set refuses
 * as the call runs.
 */
async function recordKey(call: BridgedCall, args: Record<string, unknown>): Promise<string | undefined> {
  if (typeof call.id !== "string") return undefined;
  const named = new TextEncoder().encode(JSON.stringify([call.name, args]));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", named));
  return `${call.id} ${Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** One bridged set: the set, the bridge's options and where it keeps waiting records. */
export interface Bridge {
  readonly toolset: ToolSet;
  readonly options: BridgeOptions;
  readonly records: ApprovalRecords;
}

/** A model's call as a framework hands it over. */
export interface BridgedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/**
 * The tools a bridge serves, in the set's order, and the bridge they share.
 *
 * @throws {RangeError} When `options.tools` names a tool the set does not have.
 */
export function bridge(toolset: ToolSet, options: BridgeOptions): { bridge: Bridge; tools: DynTool[] } {
  const names = options.tools;
  const tools = names === undefined ? [...toolset] : names.map((name) => {
    const tool = toolset.get(name);
    if (!tool) throw new RangeError(`Cannot bridge "${name}" as no tool of that name is registered in the set`);
    return tool;
  });
  return { bridge: { toolset, options, records: options.records ?? memoryRecords() }, tools };
}

/** The arguments as the gate sees them: read back through the projection the model was shown. */
function gateInput(
  args: Record<string, unknown>,
  inputSchema: JsonSchema,
  projection: ArgumentsProjection | undefined,
): unknown {
  return projection ? projection.restore(inputSchema, args) : args;
}

function parks(decision: ApprovalDecision): boolean {
  return decision === "suspend" || (isRecord(decision) && decision.decision === "suspend");
}

/**
 * Asks the bridge's gate whether a person must approve the call first. When
 * so, the set parks the call (its arguments validated, its record sealed
 * when the set has a seal) and the record is kept for the framework's run
 * of the approved call; asked again for the same call (its id, tool and
 * arguments), the kept record answers. Resolves to the record, or `undefined` when the call needs no
 * approval (or fails, which its run reports).
 */
export async function askApproval(
  bridge: Bridge,
  call: BridgedCall,
  projection?: ArgumentsProjection,
): Promise<SuspendedCall | undefined> {
  const gate = bridge.options.approve;
  const descriptor = bridge.toolset.descriptor(call.name);
  if (gate === undefined || descriptor === undefined) return undefined;
  const args = boundedArguments(bridge.toolset, call);
  if (args === undefined) return undefined;
  const key = await recordKey(call, args);
  if (key === undefined) return undefined;
  const waiting = await bridge.records.get(key);
  if (isRecordOf(waiting, { toolName: call.name, toolCallId: call.id })) return waiting;
  let decision: ApprovalDecision;
  try {
    decision = await gate(descriptor, gateInput(args, descriptor.inputSchema, projection), {
      limits: bridge.toolset.limits,
    });
  } catch {
    // Arguments a projection cannot restore fail as the call runs; a gate that throws fails it too.
    return undefined;
  }
  if (!parks(decision)) return undefined;
  // Parked with the gate's own answer, so its reason and payload go into the record; nothing runs.
  const parked = await bridge.toolset.call(call, { projection, approve: () => decision });
  if (parked.type !== "suspended") return undefined;
  await bridge.records.set(key, parked.suspended);
  return parked.suspended;
}

/** How one bridged call is run. */
export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly projection?: ArgumentsProjection;
}

/**
 * Streams one call through `ToolSet.stream`, so the set's validation,
 * limits, timeout and approval gate all apply. A call a person approved
 * through the framework resumes from its kept record instead, once: the
 * record parked for this id, tool and arguments, taken from the store.
 */
export async function* callEvents(
  bridge: Bridge,
  call: BridgedCall,
  run: RunOptions = {},
): AsyncGenerator<ToolEvent, void, undefined> {
  const { toolset, options, records } = bridge;
  const args = options.approve === undefined ? undefined : boundedArguments(toolset, call);
  const key = args === undefined ? undefined : await recordKey(call, args);
  const approved = key === undefined ? undefined : await records.get(key);
  // Taken once: a `delete` that answers false found the record gone, taken by another run of the same call. That
  // run resumes it; this one goes to the gate again, which parks it rather than run it twice.
  if (
    key !== undefined && isRecordOf(approved, { toolName: call.name, toolCallId: call.id }) &&
    await records.delete(key) !== false
  ) {
    yield* resumeEvents(bridge, approved, { approved: true }, run.signal);
    return;
  }
  const { signal, projection } = run;
  yield* toolset.stream(call, { signal, timeoutMs: options.timeoutMs, projection, approve: options.approve });
}

/**
 * Streams a parked call's resumption through `ToolSet.resumeStream` with
 * the person's answer, under the bridge's timeout: the set checks the
 * record (its seal, once) and the answer before anything runs.
 */
export function resumeEvents(
  bridge: Bridge,
  record: SuspendedCall,
  answer: unknown,
  signal?: AbortSignal,
): AsyncGenerator<ToolEvent, void, undefined> {
  return bridge.toolset.resumeStream(record, answer, { signal, timeoutMs: bridge.options.timeoutMs });
}

/** Runs one call as {@linkcode callEvents} does and resolves to its terminal. */
export async function runCall(bridge: Bridge, call: BridgedCall, run: RunOptions = {}): Promise<TerminalEvent> {
  const events = progressThenTerminal(callEvents(bridge, call, run));
  let next = await events.next();
  while (!next.done) next = await events.next();
  return next.value;
}

const PARKED_BEFORE = "The call is waiting for a person: ";
const PARKED_AFTER = ". Do not call it again; its result will follow.";

/**
 * The model's text for a parked call: it waits for a person, and must not call again. A record read back from a
 * framework's messages may hold a reason of any length or type: it is cut to fit the model's text, or shown, never
 * thrown on.
 */
export function parkedText(record: SuspendedCall): string {
  const given = typeof record.reason === "string" ? record.reason : showValue(record.reason);
  const reason = boundText(given, MAX_MODEL_TEXT - PARKED_BEFORE.length - PARKED_AFTER.length);
  return `${PARKED_BEFORE}${reason}${PARKED_AFTER}`;
}

/** The model-visible value of a result: the structured output, else the text content. */
export function resultValue(result: ToolResult): unknown {
  if (result.output !== undefined) return result.output;
  return result.content.map((part) => part.type === "text" ? part.text : `[${part.type}]`).join("\n");
}

/**
 * A terminal as the value a framework's tool returns: the output's value, a
 * parked call's {@linkcode ParkedOutput}, or a thrown {@linkcode ToolCallFailedError}.
 */
export function valueOrThrow(terminal: TerminalEvent): unknown {
  if (terminal.type === "failed") throw new ToolCallFailedError(terminal.failure);
  if (terminal.type === "suspended") {
    const parked: ParkedOutput = {
      status: "suspended",
      reason: terminal.suspended.reason,
      suspended: terminal.suspended,
    };
    return parked;
  }
  return resultValue(terminal.result);
}
