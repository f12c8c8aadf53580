// What every framework bridge shares: which tools of a set to bridge, when a
// person must approve a call first, and one call dispatched through
// ToolSet.stream with the framework's signal, read back as what the
// framework's model is to see. A bridge adds only its framework's shapes.

import type { ToolSet } from "../core/dispatch/tool_set.ts";
import type { ApprovalGate, ArgumentsProjection } from "../core/dispatch/tool_call.ts";
import type { DynTool } from "../core/contract/dyn.ts";
import type { ProgressEvent, TerminalEvent, ToolResult } from "../core/contract/events.ts";
import type { SuspendedCall } from "../core/contract/suspend.ts";
import type { ToolDescriptor } from "../core/contract/spec.ts";
import { ToolCallFailedError } from "./tool_call_error.ts";
import type { ParkedOutput } from "./parked.ts";
import type { BridgeOptions } from "./bridge_options.ts";

/** The tools a bridge serves, in the set's order. */
export function chosenTools(toolset: ToolSet, names: readonly string[] | undefined): DynTool[] {
  if (names === undefined) return [...toolset];
  return names.map((name) => {
    const tool = toolset.get(name);
    if (!tool) throw new RangeError(`Cannot bridge "${name}" as no tool of that name is registered in the set`);
    return tool;
  });
}

/** Whether a person must approve this call before it runs. */
export async function needsApproval(
  gate: ApprovalGate | undefined,
  descriptor: ToolDescriptor,
  input: unknown,
): Promise<boolean> {
  return gate !== undefined && await gate(descriptor, input) === "suspend";
}

/** The gate a call runs under once the framework asked the person and they approved. */
function approvedThrough(gate: ApprovalGate): ApprovalGate {
  return async (descriptor, input) => {
    const decision = await gate(descriptor, input);
    return decision === "suspend" ? true : decision;
  };
}

/** How one bridged call is run. */
export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly projection?: ArgumentsProjection;
  readonly onProgress?: (event: ProgressEvent) => void;
}

/**
 * Runs one call through `ToolSet.stream`, so the set's validation, limits,
 * timeout and approval gate all apply, and resolves to its terminal.
 */
export async function runCall(
  toolset: ToolSet,
  options: BridgeOptions,
  call: { readonly id: string; readonly name: string; readonly arguments: unknown },
  run: RunOptions = {},
): Promise<TerminalEvent> {
  const stream = toolset.stream(call, {
    signal: run.signal,
    timeoutMs: options.timeoutMs,
    projection: run.projection,
    approve: options.approve && approvedThrough(options.approve),
  });
  for await (const event of stream) {
    if (event.type === "progress") run.onProgress?.(event);
    else return event;
  }
  // ToolSet.stream always ends in a terminal; this satisfies the type checker.
  throw new TypeError("Cannot read the call's terminal as the stream ended without one");
}

/** The model's text for a parked call: it waits for a person, and must not call again. */
export function parkedText(record: SuspendedCall): string {
  return `The call is waiting for a person: ${record.reason}. Do not call it again; its result will follow.`;
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
    return { status: "suspended", reason: terminal.suspended.reason, suspended: terminal.suspended } as ParkedOutput;
  }
  return resultValue(terminal.result);
}
