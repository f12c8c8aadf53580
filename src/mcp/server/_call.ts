// tools/call: one MCP request dispatched through ToolSet.stream, with the
// set's whole pipeline (limits, validation, approval, timeout, output
// checks). Progress goes to the client when it sent a progress token; the
// request's signal (a `notifications/cancelled`, or the HTTP request
// dropped) aborts the call.

import {
  type CallToolRequest,
  type CallToolResult,
  type InputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ProgressEvent, TerminalEvent, ToolEvent } from "../../core/contract/events.ts";
import type { SuspendedCall } from "../../core/contract/suspend.ts";
import type { ToolSet } from "../../core/dispatch/tool_set.ts";
import type { CallGate } from "./_call_gate.ts";
import { errorResult, failureResult, outputResult } from "./_tool_result.ts";
import { mcpTools } from "./_tool_list.ts";
import { subjectOf } from "./_subject.ts";

/** What a tools/call answer may be. */
export type CallAnswer = CallToolResult | InputRequiredResult;

/** How a call that parks for a person is answered, and how a retried one resumes. */
export interface Parking {
  /** Answers a parked call: an input request, or a tool error when it cannot be asked. */
  park(record: SuspendedCall, ctx: ServerContext): Promise<CallAnswer>;
  /** The events of a retried call that carries a request state, or `undefined` when it carries none. */
  resume(name: string, ctx: ServerContext, signal: AbortSignal): Promise<AsyncIterable<ToolEvent> | undefined>;
}

/** Everything a tools/call needs besides the request. */
export interface CallScope {
  readonly toolset: ToolSet;
  readonly parking: Parking;
}

/**
 * Answers one tools/call request, in the place it holds under the gate: a
 * tool error saying the server is busy when there is none.
 */
export async function gatedCall(gate: CallGate, answer: () => Promise<Result>): Promise<Result> {
  if (!gate.enter()) {
    return errorResult(
      `The server is busy: ${gate.max} calls are running. Try the call again shortly.`,
      { kind: "unavailable", retryable: true, uncertain: false },
    );
  }
  try {
    return await answer();
  } finally {
    gate.leave();
  }
}

/** Answers one tools/call request. */
export async function answerCall(scope: CallScope, request: CallToolRequest, ctx: ServerContext): Promise<CallAnswer> {
  const { name } = request.params;
  const signal = ctx.mcpReq.signal;
  const authInfo = ctx.http?.authInfo;
  // A sealed record is bound to the authenticated client, so no one else can resume it.
  const subject = scope.toolset.parking.sealed ? subjectOf(ctx) : undefined;
  const events = await scope.parking.resume(name, ctx, signal) ?? scope.toolset.stream(
    { id: crypto.randomUUID(), name, arguments: request.params.arguments },
    {
      signal,
      ...(authInfo === undefined ? {} : { extensions: { authInfo } }),
      ...(subject === undefined ? {} : { subject }),
    },
  );
  const terminal = await forwardProgress(events, ctx);
  switch (terminal.type) {
    case "output":
      return outputResult(
        name,
        terminal.result,
        mcpTools(scope.toolset.descriptors()).byName.get(name)?.outputSchema !== undefined,
      );
    case "suspended":
      return await scope.parking.park(terminal.suspended, ctx);
    case "failed":
      // MCP answers an unknown tool with a protocol error, not a tool error.
      if (terminal.failure.kind === "not_found") {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, terminal.failure.message);
      }
      return failureResult(terminal.failure);
  }
}

/**
 * Reads a call's events to its terminal, sending each progress event to the
 * client when it asked for progress. MCP requires the progress value to
 * grow, so an event that gives none, or one that does not grow, is sent as
 * one more than the last (the first such event as 0).
 */
async function forwardProgress(events: AsyncIterable<ToolEvent>, ctx: ServerContext): Promise<TerminalEvent> {
  const token = ctx.mcpReq._meta?.progressToken;
  let last: number | undefined;
  for await (const event of events) {
    if (event.type !== "progress") return event;
    if (token === undefined) continue;
    const given = event.progress;
    last = typeof given === "number" && (last === undefined || given > last)
      ? given
      : last === undefined
      ? 0
      : last + 1;
    await sendProgress(ctx, token, last, event);
  }
  // ToolSet.stream always ends with a terminal; reaching here is a broken promise of the core.
  throw new Error("Cannot answer the call as its stream ended without a terminal event");
}

async function sendProgress(ctx: ServerContext, token: string | number, progress: number, event: ProgressEvent) {
  try {
    await ctx.mcpReq.notify({
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress,
        ...(event.total !== undefined && event.total >= progress ? { total: event.total } : {}),
        ...(event.message === undefined ? {} : { message: event.message }),
      },
    });
  } catch {
    // A client that went away misses its progress; the call's signal tells the tool.
  }
}
