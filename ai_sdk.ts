/**
 * A `ToolSet` as Vercel AI SDK (`ai` 7) tools: the model sees each tool's
 * own schema; calls run through the set's validation, limits, timeouts
 * and approval gate; failures reach the model as bounded text; approvals
 * use the AI SDK's own approval parts; progress streams as preliminary
 * results. `ai` is the app's dependency: pass its `jsonSchema`.
 *
 * @example With `generateText` (run with a mock model in `tests/bridges/ai_sdk_test.ts`)
 * ```ts ignore
 * import { generateText, jsonSchema } from "ai";
 * import { aiSdkTools } from "@salvor/tools/ai-sdk";
 *
 * const { tools, toolApproval } = aiSdkTools(myToolSet, { jsonSchema }, { approve: myGate });
 * const result = await generateText({ model, tools, toolApproval, prompt: "Tidy the notes." });
 * ```
 *
 * @module
 */

export {
  type AiSdkApprovalStatus,
  type AiSdkBridge,
  type AiSdkHelpers,
  type AiSdkJsonValue,
  type AiSdkTool,
  aiSdkTools,
} from "./src/bridges/ai_sdk.ts";
export { ToolCallFailedError } from "./src/bridges/tool_call_error.ts";
export { parkedCall, type ParkedCallOf, type ParkedOutput } from "./src/bridges/parked.ts";
export type { ProgressOutput } from "./src/bridges/progress_output.ts";
export type { ApprovalRecords, BridgeOptions } from "./src/bridges/bridge_options.ts";
