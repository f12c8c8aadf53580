// The peers' tool layers, pinned. Imported only by the benchmarks: the
// published package never sees these modules.

export { RunContext, tool as openaiTool } from "npm:@openai/agents-core@0.20.0";
export { tool as langchainTool } from "npm:@langchain/core@1.4.0/tools";
export { generateText, stepCountIs, tool as aiTool } from "npm:ai@7.0.173";
export { MockLanguageModelV4 } from "npm:ai@7.0.173/test";
export { executeTool, safeParseJSON } from "npm:@ai-sdk/provider-utils@5.0.81";
export { z } from "npm:zod@4.6.7";

/** The module a user imports to define a tool, per peer: for cold start and bundle size. */
export const PEER_TOOL_MODULES: Readonly<Record<string, string>> = {
  "OpenAI Agents SDK": "npm:@openai/agents-core@0.20.0",
  "LangChain.js": "npm:@langchain/core@1.4.0/tools",
  "Vercel AI SDK": "npm:ai@7.0.173",
};

/** The OpenTelemetry API, for spans through a no-op tracer: the copy deno.json maps for the otel entrypoint. */
export { trace as otelTrace } from "@opentelemetry/api";
