/**
 * A `ToolSet` as Mastra tools (`@mastra/core` 1). The model is shown each
 * tool's own JSON Schema; every call runs through `ToolSet.stream` with
 * the set's validation, limits, timeouts and approval gate, Mastra's
 * abort signal cancels it, and a parked call suspends the agent's run
 * with the set's record, which Mastra keeps in its snapshot.
 *
 * @module
 */

import type { ToolSet } from "../core/dispatch/tool_set.ts";
import type { BridgeOptions } from "./bridge_options.ts";
import { bridge, callEvents, resumeEvents, valueOrThrow } from "./_shared.ts";
import { progressThenTerminal } from "./progress_output.ts";
import { type ModelOutput, modelOutput } from "./model_output.ts";
import { parkedCall, type ParkedOutput } from "./parked.ts";
import { type ShownSchema, shownSchema } from "./shown_schema.ts";

/** Where Mastra lets a running tool pause: an agent's, a workflow's or an MCP server's call. */
export interface MastraSuspension {
  /** Suspends the run with a payload; Mastra keeps it in the run's snapshot. */
  readonly suspend?: (payload: ParkedOutput, options: { readonly resumeSchema: string }) => Promise<void>;
  /** The answer, when Mastra runs the tool again to resume it. */
  readonly resumeData?: unknown;
  /** The payload the tool suspended with, when Mastra resumes it. */
  readonly suspendPayload?: unknown;
}

/** What Mastra hands a tool's `execute`. */
export interface MastraToolContext extends MastraSuspension {
  /** Aborts with the run; the call ends as `cancelled`. */
  readonly abortSignal?: AbortSignal;
  /** The tool's output stream: each progress event goes out as a `tool-output` chunk. */
  readonly writer?: { write(chunk: unknown): Promise<void> };
  /** Set when an agent runs the tool. */
  readonly agent?: MastraSuspension & { readonly toolCallId: string };
  /** Set when a workflow runs the tool. */
  readonly workflow?: MastraSuspension;
}

/** The options the bridge passes Mastra's `createTool()`. */
export interface MastraToolOptions {
  /** The tool's name. */
  readonly id: string;
  /** The tool's description. */
  readonly description: string;
  /** The tool's own JSON Schema for the model; the set does the checking. */
  readonly inputSchema: ShownSchema;
  /**
   * What the model reads of an output: text, or the output as JSON.
   * Without it, Mastra reads an output with a `value` property as its own
   * `{ type, value }` wrapper and shows the model that property alone.
   */
  readonly toModelOutput: (output: unknown) => ModelOutput;
  /**
   * Runs the call through `ToolSet.stream` (or resumes a suspended one
   * with `ToolSet.resumeStream`): resolves to the output, suspends the run
   * for a parked call, or throws a {@linkcode ToolCallFailedError}.
   */
  execute(input: unknown, context: MastraToolContext): Promise<unknown>;
}

/** The Mastra helper the bridge needs: pass `createTool` from `@mastra/core/tools`. */
export interface MastraHelpers<T> {
  /** Mastra's `createTool()`. */
  createTool(options: MastraToolOptions): T;
}

/**
 * Options for {@linkcode mastraTools}: those of every bridge but `records`,
 * as Mastra keeps each waiting call's record in its own run snapshot.
 */
export type MastraOptions = Omit<BridgeOptions, "records">;

/**
 * Turns a set's tools into Mastra tools, by name, for `new Agent({ tools })`.
 *
 * Mastra checks (and first coerces) arguments itself against a raw JSON
 * Schema; the bridge hands it a {@linkcode ShownSchema} instead, which
 * Mastra shows the model as the same JSON Schema, so the set's own check
 * runs on the arguments as the model sent them. A failed call throws a
 * {@linkcode ToolCallFailedError}: the model reads its bounded model text
 * as the tool's error (for bad arguments, at most 16 sorted diagnostics;
 * the handler never ran), and the host finds its `failure` as the cause
 * of the `tool-error` chunk's error. Progress goes out through the tool's
 * writer.
 *
 * A call the `approve` gate parks (or the set's own gate, or a handler's
 * `suspend`) suspends the run with a {@linkcode ParkedOutput}: the set's
 * record (sealed, when the set has a seal) and the answer's JSON Schema,
 * kept in Mastra's snapshot. An approval is answered with Mastra's own
 * `approveToolCall` or `declineToolCall` (`{ approved, reason? }`), a
 * handler's suspension with `resumeStream(answer, { runId, toolCallId })`;
 * either way Mastra runs the tool again, which resumes the record with
 * `ToolSet.resumeStream`, once: the set checks the seal and the answer,
 * and a declined call never runs. Suspending needs a `Mastra` with
 * storage; without a way to suspend (a direct `execute`) the call returns
 * the {@linkcode ParkedOutput}.
 *
 * @param toolset The set whose tools to bridge.
 * @param helpers `{ createTool }` from `@mastra/core/tools`.
 * @param options Which tools, the approval gate, a timeout.
 * @returns The tools, by name.
 * @throws {RangeError} When `options.tools` names a tool the set does not have.
 *
 * @example Execute a tool the way an agent does
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { mastraTools } from "@salvor/tools/mastra";
 * import assert from "node:assert/strict";
 *
 * const add = defineJsonTool<{ a: number; b: number }>({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   effects: [],
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * // In an app, `createTool` from @mastra/core/tools; here a stand-in of the same shape.
 * const createTool = <O>(options: O) => options;
 * const { add: tool } = mastraTools(new ToolSet().register(add), { createTool });
 * const context = { agent: { toolCallId: "call_1" } };
 * assert.deepEqual(await tool.execute({ a: 1, b: 2 }, context), { sum: 3 });
 * await assert.rejects(tool.execute({ a: "1" }, context), { name: "ToolCallFailedError" });
 * ```
 */
export function mastraTools<T>(
  toolset: ToolSet,
  helpers: MastraHelpers<T>,
  options: MastraOptions = {},
): Record<string, T> {
  const { bridge: bridged, tools: chosen } = bridge(toolset, options);
  const tools: Record<string, T> = {};
  for (const { descriptor } of chosen) {
    const name = descriptor.name;
    tools[name] = helpers.createTool({
      id: name,
      description: descriptor.description,
      inputSchema: shownSchema(descriptor.inputSchema),
      toModelOutput: (output) => modelOutput(output, { toolName: name }),
      async execute(input, context) {
        const { abortSignal: signal, writer } = context;
        const toolCallId = context.agent?.toolCallId;
        const pause = context.agent ?? context.workflow ?? context;
        // Only this tool's own record resumes: a payload naming another tool or call is not taken.
        const waiting = parkedCall(pause.suspendPayload, { toolName: name, toolCallId });
        const events = waiting && pause.resumeData !== undefined
          ? resumeEvents(bridged, waiting, pause.resumeData, signal)
          : callEvents(bridged, { id: toolCallId ?? "", name, arguments: input }, { signal });
        const read = progressThenTerminal(events);
        let next = await read.next();
        try {
          for (; !next.done; next = await read.next()) await writer?.write(next.value);
        } catch (error) {
          // A writer that failed leaves the call unread: ending its stream cancels it, as it would any stream.
          await events.return();
          throw error;
        }
        const terminal = next.value;
        const value = valueOrThrow(terminal);
        // The set's terminal says whether the call parked; an output that looks like a parked call is data.
        if (terminal.type !== "suspended" || !pause.suspend) return value;
        await pause.suspend(value as ParkedOutput, { resumeSchema: JSON.stringify(terminal.suspended.resumeSchema) });
        return undefined;
      },
    });
  }
  return tools;
}
