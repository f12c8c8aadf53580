/**
 * OpenTelemetry spans for tool calls, one span a call after the GenAI
 * semantic conventions (`execute_tool {tool}`). Bring your own tracer from
 * `@opentelemetry/api` 1.x (a peer dependency: this entrypoint imports
 * nothing) and pass the observer to the set.
 *
 * @example Trace every call of a set
 * ```ts ignore
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

export {
  type OtelAttributeValue,
  type OtelSpan,
  type OtelTracer,
  toolSpans,
  type ToolSpansOptions,
} from "./src/otel/otel.ts";
