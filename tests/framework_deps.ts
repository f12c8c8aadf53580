// The agent frameworks and the OpenTelemetry SDK the bridge and OpenTelemetry
// tests drive, pinned here and locked in tests/deno.lock with the other
// test-only packages. Apart from tests/dev_deps.ts because some read the host
// (the AI SDK's OIDC helper asks for the hostname) as they load, which the
// core's permission-free tests must not import.

// The API is the otel entrypoint's peer, mapped in deno.json: the tests share the copy the entrypoint imports.
export * as otelApi from "@opentelemetry/api";
export {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "npm:@opentelemetry/sdk-trace-base@2.12.1";
export { AsyncLocalStorageContextManager } from "npm:@opentelemetry/context-async-hooks@2.2.0";
export * as ai from "npm:ai@7.0.173";
export { MockLanguageModelV4 } from "npm:ai@7.0.173/test";
export * as agents from "npm:@openai/agents-core@0.20.0";
export * as agentsTesting from "npm:@openai/agents-core@0.20.0/testing";
export { type StructuredToolInterface, tool } from "npm:@langchain/core@1.4.0/tools";
export { AIMessage, ToolMessage } from "npm:@langchain/core@1.4.0/messages";
export { fakeModel } from "npm:@langchain/core@1.4.0/testing";
export { convertToOpenAITool } from "npm:@langchain/core@1.4.0/utils/function_calling";
export { createAgent, humanInTheLoopMiddleware } from "npm:langchain@1.5.14";
export { Command, MemorySaver } from "npm:@langchain/langgraph@1.7.3";
export { Agent } from "npm:@mastra/core@1.71.0/agent";
export { Mastra } from "npm:@mastra/core@1.71.0/mastra";
export { InMemoryStore } from "npm:@mastra/core@1.71.0/storage";
export { createTool } from "npm:@mastra/core@1.71.0/tools";
export { MastraLanguageModelV2Mock, simulateReadableStream } from "npm:@mastra/core@1.71.0/test-utils/llm-mock";
