/**
 * A `ToolSet` as LangChain.js tools (`@langchain/core` 1). The model is
 * shown each tool's own JSON Schema; every call runs through
 * `ToolSet.stream` with the set's validation, limits, timeouts and
 * approval gate, LangChain's abort signal cancels it, and it answers with
 * a `ToolMessage` whose artifact is the call's terminal event. Approvals
 * use LangChain's human-in-the-loop middleware; the set's record of each
 * waiting call is kept until it runs.
 *
 * @module
 */

import type { ToolSet } from "../core/dispatch/tool_set.ts";
import type { TerminalEvent } from "../core/contract/events.ts";
import type { BridgeOptions } from "./bridge_options.ts";
import { askApproval, bridge, type BridgedCall, callEvents, parkedText, resultValue } from "./_shared.ts";
import { type ProgressOutput, progressThenTerminal } from "./progress_output.ts";
import { type ShownSchema, shownSchema } from "./shown_schema.ts";

/** What LangChain hands a tool's function: the run's abort signal and the model's tool call. */
export interface LangChainToolConfig {
  /** Aborts with the run; the call ends as `cancelled`. */
  readonly signal?: AbortSignal;
  /** The model's tool call, when the tool was invoked with one (as agents do). */
  readonly toolCall?: { readonly id?: string };
}

/** The fields of the `ToolMessage` a bridged call answers with. */
export interface LangChainToolMessageFields {
  /** What the model reads: the output, a failure's bounded model text, or a parked call's note. */
  readonly content: string;
  /** The model's tool call id. */
  readonly tool_call_id: string;
  /** The tool's name. */
  readonly name: string;
  /** `error` for a failed call (bad arguments included), else `success`. */
  readonly status: "success" | "error";
  /**
   * The call's terminal event, for the host and never sent to the model:
   * `failure.kind` tells bad arguments (`invalid_input`: the handler never
   * ran) from a tool that failed; a parked call's `suspended` record
   * resumes with `ToolSet.resume`.
   */
  readonly artifact: TerminalEvent;
}

/** The fields the bridge passes LangChain's `tool()`. */
export interface LangChainToolFields {
  /** The tool's name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The tool's own JSON Schema for the model; the set does the checking. */
  readonly schema: ShownSchema;
}

/** The LangChain helpers the bridge needs: `tool` from `@langchain/core/tools`, `ToolMessage` from `@langchain/core/messages`. */
export interface LangChainHelpers<T, M> {
  /**
   * LangChain's `tool()`. The function the bridge gives it yields a
   * {@linkcode ProgressOutput} per progress event (LangChain's tool events:
   * `on_tool_event` in a LangGraph `tools` stream) and returns the call's
   * `ToolMessage`.
   */
  tool(
    func: (input: unknown, config: LangChainToolConfig) => AsyncGenerator<ProgressOutput, M, undefined>,
    fields: LangChainToolFields,
  ): T;
  /** LangChain's `ToolMessage` class. */
  readonly ToolMessage: new (fields: LangChainToolMessageFields) => M;
}

/** A model's tool call, as LangChain's human-in-the-loop middleware hands it over. */
export interface LangChainToolCall {
  /** The tool call's id. */
  readonly id?: string;
  /** The arguments the model wrote. */
  readonly args: unknown;
}

/** When a person approves a call first: one entry of `humanInTheLoopMiddleware`'s `interruptOn`. */
export interface LangChainInterruptOn {
  /** What the person may answer: the call as it was parked, or not at all. */
  readonly allowedDecisions: ("approve" | "reject")[];
  /** Asks the bridge's `approve` gate about one tool call; a call it wants a person for is parked by the set. */
  when(request: { readonly toolCall: LangChainToolCall }): Promise<boolean>;
  /** What the person is shown: the gate's reason. */
  description(toolCall: LangChainToolCall): Promise<string>;
}

/** What {@linkcode langChainTools} returns. */
export interface LangChainBridge<T> {
  /** The tools, in the set's order: for `createAgent({ tools })`, `model.bindTools(tools)` or a `ToolNode`. */
  readonly tools: T[];
  /**
   * For `humanInTheLoopMiddleware({ interruptOn })` from `langchain`: a
   * call the bridge's `approve` gate parks interrupts the agent's graph
   * before the tool runs; answered `approve`, it resumes from the set's
   * record, once, with the arguments that were approved.
   */
  readonly interruptOn: Record<string, LangChainInterruptOn>;
}

/** A terminal as the fields of the `ToolMessage` the model reads. */
function messageFields(name: string, toolCallId: string, terminal: TerminalEvent): LangChainToolMessageFields {
  const answer = { tool_call_id: toolCallId, name, artifact: terminal };
  if (terminal.type === "failed") return { ...answer, content: terminal.failure.modelText, status: "error" };
  if (terminal.type === "suspended") return { ...answer, content: parkedText(terminal.suspended), status: "success" };
  const value = resultValue(terminal.result);
  return { ...answer, content: typeof value === "string" ? value : JSON.stringify(value), status: "success" };
}

/**
 * Turns a set's tools into LangChain tools and the approval settings of
 * LangChain's human-in-the-loop middleware.
 *
 * LangChain checks a raw JSON Schema itself before a tool runs and throws
 * one fixed sentence; the bridge hands it a {@linkcode ShownSchema}
 * instead, which LangChain shows the model as the same JSON Schema, so
 * the set's own check runs. Every call answers with a `ToolMessage`: the
 * output, or, with status `error`, the failure's bounded model text (for
 * bad arguments, at most 16 sorted diagnostics; the handler never ran).
 * The artifact is the terminal event. A call the `approve` gate parks
 * interrupts the agent through `humanInTheLoopMiddleware({ interruptOn })`
 * (the agent needs a checkpointer), with the gate's reason as the
 * request's description, while the set's record of it (sealed, when the
 * set has a seal) waits in `options.records`; resumed with an `approve`
 * decision, the call resumes from that record, once, and with `reject` it
 * never runs. Asked again as the graph resumes, the kept record answers.
 * Without the middleware (a loop of your own, no graph), a call a gate
 * parks answers with a note telling the model to wait and the record in
 * the artifact, which the host resumes with `ToolSet.resume`. Progress
 * streams as LangChain's tool events (`on_tool_event`).
 *
 * @param toolset The set whose tools to bridge.
 * @param helpers `{ tool, ToolMessage }` from `@langchain/core`.
 * @param options Which tools, the approval gate and its records, a timeout.
 * @returns The tools and the middleware's `interruptOn`.
 * @throws {RangeError} When `options.tools` names a tool the set does not have.
 *
 * @example Invoke a tool with a tool call, the way an agent does
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { langChainTools } from "@salvor/tools/langchain";
 * import assert from "node:assert/strict";
 *
 * const add = defineJsonTool<{ a: number; b: number }>({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   effects: [],
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * // In an app, `tool` and `ToolMessage` from @langchain/core; here stand-ins of the same shape.
 * class ToolMessage {
 *   constructor(readonly fields: object) {}
 * }
 * const tool = <F>(func: F) => func;
 * const { tools: [run] } = langChainTools(new ToolSet().register(add), { tool, ToolMessage });
 * const answer = async (args: unknown) =>
 *   ((await run(args, { toolCall: { id: "call_1" } }).next()).value as ToolMessage).fields;
 * assert.deepEqual(await answer({ a: 1, b: 2 }), {
 *   tool_call_id: "call_1",
 *   name: "add",
 *   artifact: { type: "output", result: { content: [{ type: "text", text: '{"sum":3}' }], output: { sum: 3 } } },
 *   content: '{"sum":3}',
 *   status: "success",
 * });
 * const bad = await answer({ a: "1" }) as { status: string; content: string; artifact: { type: string } };
 * assert.equal(bad.status, "error");
 * assert.match(bad.content, /the tool did not run/);
 * ```
 */
export function langChainTools<T, M>(
  toolset: ToolSet,
  helpers: LangChainHelpers<T, M>,
  options: BridgeOptions = {},
): LangChainBridge<T> {
  const { bridge: bridged, tools: chosen } = bridge(toolset, options);
  const tools: T[] = [];
  const interruptOn: Record<string, LangChainInterruptOn> = {};
  for (const { descriptor } of chosen) {
    const name = descriptor.name;
    const asked = ({ id, args }: LangChainToolCall): BridgedCall => ({ id: id ?? "", name, arguments: args });
    tools.push(helpers.tool(async function* (input, config) {
      const call = { id: config.toolCall?.id ?? "", name, arguments: input };
      const terminal = yield* progressThenTerminal(callEvents(bridged, call, { signal: config.signal }));
      return new helpers.ToolMessage(messageFields(name, call.id, terminal));
    }, { name, description: descriptor.description, schema: shownSchema(descriptor.inputSchema) }));
    interruptOn[name] = {
      allowedDecisions: ["approve", "reject"],
      when: async ({ toolCall }) => await askApproval(bridged, asked(toolCall)) !== undefined,
      // Asked after `when`, so the kept record answers with the gate's reason.
      description: async (toolCall) =>
        (await askApproval(bridged, asked(toolCall)))?.reason ?? `The call to "${name}" needs approval`,
    };
  }
  return { tools, interruptOn };
}
