/**
 * OpenTelemetry spans for tool calls, one span a call after the GenAI
 * semantic conventions (`execute_tool {tool}`), and one child span per
 * attempt of a call the batch runner retries. `@opentelemetry/api` 1.x is a
 * peer dependency: install it (and an SDK) beside this package.
 *
 * @example Trace every call of a set
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { ToolSet } from "@salvor/tools";
 * import { toolSpans } from "@salvor/tools/otel";
 *
 * const tools = new ToolSet({ observer: toolSpans({ tracer: trace.getTracer("my-agent") }) });
 * ```
 *
 * The same, run against the real SDK and an in-memory exporter, is in
 * `tests/otel/otel_test.ts`.
 *
 * @module
 */

export { type OtelTracer, toolSpans, type ToolSpansOptions } from "./src/otel/otel.ts";
