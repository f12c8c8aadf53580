/**
 * A bridged tool's output as the model output part the AI SDK's messages
 * carry, and Mastra's with them: text as text, anything else as JSON, and
 * a parked call's output as the line that tells the model to wait.
 *
 * @module
 */

import { parkedText } from "./_shared.ts";
import { parkedCall, type ParkedCallOf } from "./parked.ts";

/**
 * What the model reads of a tool's output: text, or JSON.
 *
 * @typeParam Json How the framework types a JSON value.
 */
export type ModelOutput<Json = unknown> = { readonly type: "text"; readonly value: string } | {
  readonly type: "json";
  readonly value: Json;
};

/**
 * The model output part for a bridged tool's output.
 *
 * @typeParam Json How the framework types a JSON value; a bridged output is JSON.
 * @param output What the tool returned (a parked call's {@linkcode ParkedOutput} included).
 * @param of The tool result's tool name and call id: an output that looks like another tool's or call's parked call is
 * the tool's own data, shown as JSON.
 * @returns Text for a string or a parked call, else the output as JSON.
 *
 * @example An output with a `value` property stays whole
 * ```ts
 * import { modelOutput } from "./model_output.ts";
 * import assert from "node:assert/strict";
 *
 * const of = { toolName: "add", toolCallId: "call_1" };
 * assert.deepEqual(modelOutput({ value: 3 }, of), { type: "json", value: { value: 3 } });
 * assert.deepEqual(modelOutput("done", of), { type: "text", value: "done" });
 * assert.deepEqual(modelOutput(undefined, of), { type: "json", value: null });
 * ```
 */
export function modelOutput<Json = unknown>(output: unknown, of: ParkedCallOf): ModelOutput<Json> {
  const parked = parkedCall(output, of);
  if (parked) return { type: "text", value: parkedText(parked) };
  return typeof output === "string"
    ? { type: "text", value: output }
    : { type: "json", value: (output ?? null) as Json };
}
