/**
 * A `ToolSet` as OpenAI Agents SDK function tools (`@openai/agents` 0.20).
 * The model is shown each tool's own schema, or its strict projection when
 * the app hands over the projection from `@salvor/tools/providers`; every
 * call runs through `ToolSet.stream` with the run's abort signal.
 *
 * @module
 */

import type { ToolSet } from "../core/dispatch/tool_set.ts";
import type { openAIStrict, toOpenAITool } from "../providers/openai/tools.ts";
import type { BridgeOptions } from "./bridge_options.ts";
import { askApproval, bridge, runCall, valueOrThrow } from "./_shared.ts";
import { ToolCallFailedError } from "./tool_call_error.ts";

/** The parameters an Agents SDK function tool declares: an object schema. */
export interface OpenAIAgentsParameters {
  /** Always `object`. */
  readonly type: "object";
  /** The properties' schemas. */
  readonly properties: Record<string, Record<string, unknown>>;
  /** The required properties. */
  readonly required: string[];
  /** Whether other properties are allowed; `false` in strict mode. */
  readonly additionalProperties: boolean;
}

/** One bridged tool: the plain object shape the Agents SDK's `tool()` returns. */
export interface OpenAIAgentsTool {
  /** Always `function`. */
  readonly type: "function";
  /** The tool's name. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The tool's own schema, or its strict projection in strict mode. */
  readonly parameters: OpenAIAgentsParameters;
  /** Whether the model writes arguments in strict mode. */
  readonly strict: boolean;
  /**
   * Runs the call through `ToolSet.stream`; resolves to the output, a parked
   * call's {@linkcode ParkedOutput}, or a failure's bounded model text, which
   * is how the SDK hands a failed tool call back to its model.
   */
  invoke(
    runContext: unknown,
    input: string,
    details?: { readonly signal?: AbortSignal; readonly toolCall?: { readonly callId: string } },
  ): Promise<unknown>;
  /** Whether a person approves the call first: the SDK then interrupts the run with an approval item. */
  needsApproval(runContext: unknown, input: unknown, callId?: string): Promise<boolean>;
  /** Always enabled. */
  isEnabled(runContext: unknown, agent: unknown): Promise<boolean>;
}

/**
 * The strict projection from `@salvor/tools/providers`, which turns strict
 * mode on: pass `{ toOpenAITool, openAIStrict }`. Taken from the app, so
 * the bridge ships none of it to an app that does not use it.
 */
export interface OpenAIStrictMode {
  /** `toOpenAITool` from `@salvor/tools/providers`. */
  readonly toOpenAITool: typeof toOpenAITool;
  /** `openAIStrict` from `@salvor/tools/providers`. */
  readonly openAIStrict: typeof openAIStrict;
}

/** Options for {@linkcode openAIAgentsTools}. */
export interface OpenAIAgentsOptions extends BridgeOptions {
  /**
   * Strict mode (the SDK's own default for its `tool()`): the model is shown
   * each tool's strict projection, where strict mode can express it, and a
   * strict model's `null` for a left-out property reads as absent. Without
   * it, the model is shown each tool's own schema, not strict.
   */
  readonly strict?: OpenAIStrictMode;
  /**
   * Calls each failure's model text back to the host with its failure, e.g.
   * to count `invalid_input` calls (the handler never ran) apart from tools
   * that failed. The model reads the text either way.
   */
  readonly onFailure?: (error: ToolCallFailedError) => void;
}

function parametersOf(schema: { readonly [keyword: string]: unknown }): OpenAIAgentsParameters {
  return {
    ...schema,
    type: "object",
    properties: (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
    required: (schema.required ?? []) as string[],
    additionalProperties: schema.additionalProperties !== false,
  };
}

/**
 * Turns a set's tools into Agents SDK function tools, for `new Agent({ tools })`.
 *
 * A call with bad arguments never reaches a handler: the model reads the
 * bounded diagnostics as the tool's result (and `onFailure` gets a
 * {@linkcode ToolCallFailedError} of kind `invalid_input`). A call the
 * `approve` gate parks interrupts the run through the SDK's own approvals:
 * `result.interruptions`, `state.approve(item)` or `state.reject(item)`;
 * the `RunState`, which survives a string round trip, holds the call, and
 * the set's record of it (sealed when the set has a seal) waits in
 * `options.records` until the approved call resumes from it, once. Asked
 * again after a restored state, the kept record answers; a process that
 * does not share the store parks the call anew.
 * A call the handler parks returns a {@linkcode ParkedOutput}, kept in the
 * run's items; resume it with `ToolSet.resume`. The SDK streams no tool
 * progress, so progress events are not forwarded.
 *
 * @param toolset The set whose tools to bridge.
 * @param options Which tools, the approval gate and its records, a timeout, a failure hook.
 * @returns The function tools, in the set's order.
 * @throws {RangeError} When `options.tools` names a tool the set does not have.
 *
 * @example Invoke a tool the way the SDK's runner does (in strict mode, pass `strict: { toOpenAITool, openAIStrict }`)
 * ```ts
 * import { defineJsonTool, ToolSet } from "@salvor/tools";
 * import { openAIAgentsTools } from "@salvor/tools/openai-agents";
 * import assert from "node:assert/strict";
 *
 * const add = defineJsonTool<{ a: number; b: number }>({
 *   name: "add",
 *   description: "Adds two numbers.",
 *   inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
 *   effects: [],
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * const [tool] = openAIAgentsTools(new ToolSet().register(add));
 * assert.equal(tool.strict, false);
 * assert.deepEqual(await tool.invoke({}, '{"a":1,"b":2}'), { sum: 3 });
 * assert.match(String(await tool.invoke({}, '{"a":1}')), /the tool did not run/);
 * ```
 */
export function openAIAgentsTools(toolset: ToolSet, options: OpenAIAgentsOptions = {}): OpenAIAgentsTool[] {
  const { bridge: bridged, tools } = bridge(toolset, options);
  return tools.map(({ descriptor }) => {
    const mode = options.strict;
    const tool = mode
      ? mode.toOpenAITool(descriptor, { strict: true, onUnsupported: "non_strict", api: "responses" }).tool
      // A descriptor's input schema is always an object schema: describeTool refuses any other.
      : { parameters: descriptor.inputSchema as Record<string, unknown>, strict: false };
    const { strict } = tool;
    const projection = strict ? mode?.openAIStrict : undefined;
    const name = descriptor.name;
    return {
      type: "function",
      name,
      description: descriptor.description,
      parameters: parametersOf(tool.parameters),
      strict,
      async invoke(_runContext, input, details) {
        const call = { id: details?.toolCall?.callId ?? "", name, arguments: input };
        const terminal = await runCall(bridged, call, { signal: details?.signal, projection });
        try {
          return valueOrThrow(terminal);
        } catch (error) {
          if (!(error instanceof ToolCallFailedError)) throw error;
          options.onFailure?.(error);
          return error.message;
        }
      },
      async needsApproval(_runContext, input, callId) {
        return await askApproval(bridged, { id: callId ?? "", name, arguments: input }, projection) !== undefined;
      },
      isEnabled: () => Promise.resolve(true),
    };
  });
}
