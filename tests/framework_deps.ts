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
