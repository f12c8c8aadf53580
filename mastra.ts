/**
 * A `ToolSet` as Mastra (`@mastra/core` 1) tools: the model sees each
 * tool's own JSON Schema; calls run through the set's validation, limits,
 * timeouts and approval gate; failures reach the model as bounded text;
 * a parked call suspends the agent's run with the set's record, answered
 * with `approveToolCall`, `declineToolCall` or `resumeStream`; progress
 * goes out through the tool's writer. Mastra is the app's dependency:
 * pass its `createTool`.
 *
 * @example With an agent (run with a scripted model in `tests/bridges/mastra_test.ts`)
 * ```ts ignore
 * import { Agent } from "@mastra/core/agent";
 * import { createTool } from "@mastra/core/tools";
 * import { mastraTools } from "@salvor/tools/mastra";
 *
 * const tools = mastraTools(myToolSet, { createTool }, { approve: myGate });
 * const agent = new Agent({ id: "helper", name: "helper", instructions, model, tools });
 * const stream = await agent.stream("Tidy the notes.");
 * // A parked call ends the run "suspended"; later, once the person approved:
 * await agent.approveToolCall({ runId: stream.runId, toolCallId });
 * ```
 *
 * @module
 */

export {
  type MastraHelpers,
  type MastraOptions,
  type MastraSuspension,
  type MastraToolContext,
  type MastraToolOptions,
  mastraTools,
} from "./src/bridges/mastra.ts";
export { ToolCallFailedError } from "./src/bridges/tool_call_error.ts";
export { parkedCall, type ParkedCallOf, type ParkedOutput } from "./src/bridges/parked.ts";
export type { ShownSchema } from "./src/bridges/shown_schema.ts";
export type { ProgressOutput } from "./src/bridges/progress_output.ts";
export type { ModelOutput } from "./src/bridges/model_output.ts";
export type { BridgeOptions } from "./src/bridges/bridge_options.ts";
