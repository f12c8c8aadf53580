/**
 * A `ToolSet` as OpenAI Agents SDK (`@openai/agents` 0.20) function tools:
 * the model sees each tool's strict projection; calls run through the
 * set's validation, limits, timeouts and approval gate; failures reach
 * the model as bounded text; approvals interrupt the run through the SDK's
 * own `RunState`. The SDK is the app's dependency; this imports none of it.
 *
 * @example With an agent (run with a scripted model in `tests/bridges/openai_agents_test.ts`)
 * ```ts ignore
 * import { Agent, run } from "@openai/agents";
 * import { openAIAgentsTools } from "@salvor/tools/openai-agents";
 *
 * const agent = new Agent({ name: "helper", tools: openAIAgentsTools(myToolSet, { approve: myGate }) });
 * let result = await run(agent, "Tidy the notes.");
 * for (const item of result.interruptions) result.state.approve(item);
 * result = await run(agent, result.state);
 * ```
 *
 * @module
 */

export {
  type OpenAIAgentsOptions,
  type OpenAIAgentsParameters,
  type OpenAIAgentsTool,
  openAIAgentsTools,
  type OpenAIStrictMode,
} from "./src/bridges/openai_agents.ts";
export { ToolCallFailedError } from "./src/bridges/tool_call_error.ts";
export { parkedCall, type ParkedCallOf, type ParkedOutput } from "./src/bridges/parked.ts";
export type { ApprovalRecords, BridgeOptions } from "./src/bridges/bridge_options.ts";
