/**
 * A `ToolSet` as Vercel AI SDK tools (`ai` 7). The model is shown each
 * tool's own JSON Schema; every call runs through `ToolSet.stream` with
 * the set's validation, limits, timeouts and approval gate, and the AI
 * SDK's abort signal cancels it. Approvals use the AI SDK's own approval
 * requests; the set's record of each waiting call is kept until it runs.
 *
 * @module
 */

import type { ToolSet } from "../core/dispatch/tool_set.ts";
import type { BridgeOptions } from "./bridge_options.ts";
import { askApproval, bridge, callEvents, valueOrThrow } from "./_shared.ts";
import { modelOutput } from "./model_output.ts";
import { progressThenTerminal } from "./progress_output.ts";

/** A JSON value, as the AI SDK's model outputs take it. */
export type AiSdkJsonValue = null | string | number | boolean | AiSdkJsonValue[] | { [key: string]: AiSdkJsonValue };

/** The AI SDK helper the bridge needs: pass `jsonSchema` from `ai`. */
export interface AiSdkHelpers<S> {
  /**
   * The AI SDK's `jsonSchema()`, which marks a JSON Schema as a tool's
   * input schema. Typed `object`, as the AI SDK types its parameter with
   * `@types/json-schema`'s `JSONSchema7`, which `JsonSchema` is not.
   */
  jsonSchema(schema: object): S;
}

/** One bridged tool: the plain object shape the AI SDK's `tool()` returns. */
export interface AiSdkTool<S> {
  /** The tool's description. */
  readonly description: string;
  /** The tool's own input schema, marked by the AI SDK's `jsonSchema()`. */
  readonly inputSchema: S;
  /**
   * Runs the call through `ToolSet.stream`: yields a `{ status: "progress" }`
   * preliminary result per progress event, then the output (a parked call's
   * {@linkcode ParkedOutput}), or throws a {@linkcode ToolCallFailedError}.
   */
  execute(
    input: unknown,
    options: { readonly toolCallId: string; readonly abortSignal?: AbortSignal },
  ): AsyncGenerator<unknown, void, undefined>;
  /** What the model reads of an output: this call's parked record becomes a line of text. */
  toModelOutput(options: { readonly toolCallId: string; readonly output: unknown }): { type: "text"; value: string } | {
    type: "json";
    value: AiSdkJsonValue;
  };
}

/**
 * The approval status the AI SDK's `toolApproval` option takes per tool:
 * a person approves first, shown the gate's reason, or no approval applies.
 */
export type AiSdkApprovalStatus = "not-applicable" | { readonly type: "user-approval"; readonly reason: string };

/** What {@linkcode aiSdkTools} returns: pass both to `generateText` or `streamText`. */
export interface AiSdkBridge<S> {
  /** The tools, by name. */
  readonly tools: Record<string, AiSdkTool<S>>;
  /** The `toolApproval` option: which calls a person approves first (from the bridge's `approve` gate). */
  readonly toolApproval: Record<
    string,
    (input: unknown, options: { readonly toolCallId: string }) => Promise<AiSdkApprovalStatus>
  >;
}

/**
 * Turns a set's tools into AI SDK tools and their approval settings.
 *
 * A call the model makes with bad arguments never reaches a handler: it
 * ends as a `tool-error` whose text is the bounded diagnostics and whose
 * `error` is a {@linkcode ToolCallFailedError} of kind `invalid_input`.
 * (The AI SDK's `repairToolCall` hook runs only for calls its own parser
 * refuses; the set's check runs when the tool executes, so read the kind on
 * the tool-error part to repair.) A call the `approve` gate parks becomes
 * the AI SDK's own `tool-approval-request`, with the gate's reason, while
 * the set's record of it (sealed, when the set has a seal) waits in
 * `options.records`; answered with a `tool-approval-response`, the call
 * resumes from that record, once, or ends `execution-denied`. A call the
 * handler parks returns a {@linkcode ParkedOutput}: the record stays in
 * the messages, and the host finds it with `parkedCall(output, { toolName,
 * toolCallId })` of the tool result part (a tool's own output that looks
 * like another call's record is not taken) and resumes it with
 * `ToolSet.resume`. Progress
 * streams as preliminary results (`{ status: "progress", ... }`).
 *
 * @param toolset The set whose tools to bridge.
 * @param helpers `{ jsonSchema }` from `ai`.
 * @param options Which tools, the approval gate and its records, a timeout.
 * @returns The tools and the `toolApproval` option.
 * @throws {RangeError} When `options.tools` names a tool the set does not have.
 *
 * @example Call a tool the way `generateText` does
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { aiSdkTools } from "@salvor/tools/ai-sdk";
 * import assert from "node:assert/strict";
 *
 * const add = defineJsonTool<{ a: number; b: number }>({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   effects: [],
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * // In an app: `import { jsonSchema } from "ai"`; here a stand-in of the same shape.
 * const jsonSchema = (schema: unknown) => ({ jsonSchema: schema });
 * const { tools } = aiSdkTools(new ToolSet().register(add), { jsonSchema });
 * const outputs = [];
 * for await (const output of tools.add.execute({ a: 1, b: 2 }, { toolCallId: "call_1" })) outputs.push(output);
 * assert.deepEqual(outputs, [{ sum: 3 }]);
 * await assert.rejects(tools.add.execute({ a: "1" }, { toolCallId: "call_2" }).next(), { name: "ToolCallFailedError" });
 * ```
 */
export function aiSdkTools<S>(toolset: ToolSet, helpers: AiSdkHelpers<S>, options: BridgeOptions = {}): AiSdkBridge<S> {
  const { bridge: bridged, tools: chosen } = bridge(toolset, options);
  const tools: AiSdkBridge<S>["tools"] = {};
  const toolApproval: AiSdkBridge<S>["toolApproval"] = {};
  for (const { descriptor } of chosen) {
    const name = descriptor.name;
    tools[name] = {
      description: descriptor.description,
      // A tool's input schema is an object schema: specs refuse any other.
      inputSchema: helpers.jsonSchema(descriptor.inputSchema as object),
      async *execute(input, { toolCallId, abortSignal }) {
        const call = { id: toolCallId, name, arguments: input };
        // Progress goes out as the AI SDK's preliminary results, as it comes.
        yield valueOrThrow(yield* progressThenTerminal(callEvents(bridged, call, { signal: abortSignal })));
      },
      toModelOutput: ({ toolCallId, output }) => modelOutput<AiSdkJsonValue>(output, { toolName: name, toolCallId }),
    };
    toolApproval[name] = async (input, { toolCallId }) => {
      const parked = await askApproval(bridged, { id: toolCallId, name, arguments: input });
      return parked === undefined ? "not-applicable" : { type: "user-approval", reason: parked.reason };
    };
  }
  return { tools, toolApproval };
}
