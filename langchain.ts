/**
 * A `ToolSet` as LangChain.js (`@langchain/core` 1) tools: the model sees
 * each tool's own JSON Schema; calls run through the set's validation,
 * limits, timeouts and approval gate; each call answers with a
 * `ToolMessage` (status `error` and the bounded model text for a failure,
 * the terminal event as its artifact); approvals interrupt the agent
 * through LangChain's human-in-the-loop middleware, each backed by the
 * set's record of the call; progress streams as LangChain's tool events.
 * LangChain is the app's dependency: pass its `tool` and `ToolMessage`.
 *
 * @example With `createAgent` (run with a scripted model in `tests/bridges/langchain_test.ts`)
 * ```ts ignore
 * import { tool } from "@langchain/core/tools";
 * import { ToolMessage } from "@langchain/core/messages";
 * import { MemorySaver } from "@langchain/langgraph";
 * import { createAgent, humanInTheLoopMiddleware } from "langchain";
 * import { langChainTools } from "@salvor/tools/langchain";
 *
 * const { tools, interruptOn } = langChainTools(myToolSet, { tool, ToolMessage }, { approve: myGate });
 * const agent = createAgent({
 *   model,
 *   tools,
 *   middleware: [humanInTheLoopMiddleware({ interruptOn })],
 *   checkpointer: new MemorySaver(),
 * });
 * ```
 *
 * @module
 */

export {
  type LangChainBridge,
  type LangChainHelpers,
  type LangChainInterruptOn,
  type LangChainToolCall,
  type LangChainToolConfig,
  type LangChainToolFields,
  type LangChainToolMessageFields,
  langChainTools,
} from "./src/bridges/langchain.ts";
export type { ShownSchema } from "./src/bridges/shown_schema.ts";
export type { ProgressOutput } from "./src/bridges/progress_output.ts";
export type { ApprovalRecords, BridgeOptions } from "./src/bridges/bridge_options.ts";
