/**
 * Calls in: what every provider's calls-in adapter returns, the model's
 * calls as `ToolCall`s with their ids kept, ready for `runBatch`.
 *
 * @module
 */

import type { ArgumentsProjection, ToolCall } from "../core/dispatch/tool_call.ts";

/** A model turn's tool calls, read from a provider's response. */
export interface ProviderCalls {
  /** The calls in the model's order, ids kept: hand them to `runBatch` or `ToolSet.call`. */
  readonly calls: ToolCall[];
  /**
   * The projection to dispatch them with (`runBatch`'s `projection`
   * option), when the tools were shown in a form that changes what the
   * model sends back (OpenAI strict mode).
   */
  readonly projection?: ArgumentsProjection | ((call: ToolCall) => ArgumentsProjection | undefined);
  /** What in the response was not a call this module can dispatch, and was left out. */
  readonly warnings: readonly string[];
}
