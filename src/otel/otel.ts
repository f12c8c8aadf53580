/**
 * OpenTelemetry spans for tool calls: a {@linkcode CallObserver} that opens
 * one span a call, following the GenAI semantic conventions for tool
 * execution. The tracer is the host's own: the types below are the part of
 * `@opentelemetry/api` 1.x this uses, so the entrypoint imports nothing
 * and the API package stays the host's (peer) dependency.
 *
 * @module
 */

import type { CallObserver, ObservedCall } from "../core/dispatch/observer.ts";

/** An attribute value, as `@opentelemetry/api` takes it. */
export type OtelAttributeValue = string | number | boolean | readonly string[];

/** The part of an `@opentelemetry/api` `Span` these spans use. */
export interface OtelSpan {
  /** Whether the span records anything: a no-op tracer's spans do not, and cost nothing more. */
  isRecording(): boolean;
  /** The span's identity, for the `traceparent` a call forwards. */
  spanContext(): { readonly traceId: string; readonly spanId: string; readonly traceFlags: number };
  /** Sets one attribute. */
  setAttribute(key: string, value: OtelAttributeValue): unknown;
  /** Records a timed event on the span. */
  addEvent(name: string, attributes?: Record<string, OtelAttributeValue>): unknown;
  /** Sets the status: 2 is `SpanStatusCode.ERROR`. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span. */
  end(): void;
}

/** The part of an `@opentelemetry/api` `Tracer` these spans use: any real tracer fits. */
export interface OtelTracer {
  /** Starts a span in the active context. */
  startSpan(name: string, options?: { kind?: number; attributes?: Record<string, OtelAttributeValue> }): OtelSpan;
}

/** Options for {@linkcode toolSpans}. */
export interface ToolSpansOptions {
  /** The tracer, e.g. `trace.getTracer("my-agent")`. */
  readonly tracer: OtelTracer;
  /**
   * Records the call's arguments as `gen_ai.tool.call.arguments` (JSON).
   * Off by default: a model's arguments may carry what a trace must not.
   */
  readonly includeArguments?: boolean;
  /**
   * `gen_ai.tool.type` for a call: by default `extension` for a tool of an
   * MCP server (one with the `server` and `toolName` of an `McpTool`) and
   * `function` for any other.
   */
  readonly toolType?: (call: ObservedCall) => string;
}

// Numbers from @opentelemetry/api, which this entrypoint does not import.
const SPAN_KIND_INTERNAL = 0;
const STATUS_ERROR = 2;
const INVALID_TRACE_ID = "00000000000000000000000000000000";

function defaultToolType(call: ObservedCall): string {
  const tool = call.tool as { server?: unknown; toolName?: unknown } | undefined;
  return typeof tool?.server === "string" && typeof tool.toolName === "string" ? "extension" : "function";
}

function hex2(value: number): string {
  return (value & 0xff).toString(16).padStart(2, "0");
}

/**
 * Makes an observer that emits one span a call, named `execute_tool {tool}`,
 * with `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.type` and `gen_ai.tool.description`, the tool's effects as
 * `salvor.tool.effects`, one `progress` event per progress report, and on
 * failure `error.type` (the failure's kind) with an error status. A parked
 * call's span ends with `salvor.tool.outcome` = `suspended`; its resumption
 * is a span of its own. Each call also hands its span's `traceparent` to
 * the tool as `ctx.extensions.traceparent`, which an MCP tool sends to its
 * server in the request's `_meta`.
 *
 * @param options The tracer, and what else to record.
 * @returns The observer, for `new ToolSet({ observer })`.
 *
 * @example Spans into an in-memory exporter (see `tests/otel/otel_test.ts` for the real SDK)
 * ```ts
 * import { ToolSet } from "@salvor/tools";
 * import { type OtelSpan, toolSpans } from "@salvor/tools/otel";
 * import assert from "node:assert/strict";
 *
 * const names: string[] = [];
 * const span: OtelSpan = {
 *   isRecording: () => true,
 *   spanContext: () => ({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 }),
 *   setAttribute: () => span,
 *   addEvent: () => span,
 *   setStatus: () => span,
 *   end: () => {},
 * };
 * const tracer = { startSpan: (name: string) => (names.push(name), span) };
 * await new ToolSet({ observer: toolSpans({ tracer }) }).call({ id: "1", name: "missing" });
 * assert.deepEqual(names, ["execute_tool missing"]);
 * ```
 */
export function toolSpans(options: ToolSpansOptions): CallObserver {
  const { tracer, includeArguments = false, toolType = defaultToolType } = options;
  // Keyed by the call object the observer is handed at every hook; every call
  // has exactly one terminal, which removes its entry.
  const spans = new Map<ObservedCall, OtelSpan>();
  return {
    includeArguments,
    callStarted(call) {
      const attributes: Record<string, OtelAttributeValue> = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.name,
        "gen_ai.tool.call.id": call.callId,
        "gen_ai.tool.type": toolType(call),
        "salvor.tool.effects": call.effects,
      };
      if (call.descriptor) attributes["gen_ai.tool.description"] = call.descriptor.description;
      if (call.resumed) attributes["salvor.tool.resumed"] = true;
      if (includeArguments && call.arguments !== undefined) {
        attributes["gen_ai.tool.call.arguments"] = typeof call.arguments === "string"
          ? call.arguments
          : JSON.stringify(call.arguments);
      }
      const span = tracer.startSpan(`execute_tool ${call.name}`, { kind: SPAN_KIND_INTERNAL, attributes });
      const { traceId, spanId, traceFlags } = span.spanContext();
      // A span that records nothing needs no end; a valid context is still forwarded (a sampled-out parent's).
      if (span.isRecording()) spans.set(call, span);
      if (traceId === INVALID_TRACE_ID) return;
      return { traceparent: `00-${traceId}-${spanId}-${hex2(traceFlags)}` };
    },
    progress(call, event) {
      const span = spans.get(call);
      if (!span) return;
      const attributes: Record<string, OtelAttributeValue> = {};
      if (event.progress !== undefined) attributes.progress = event.progress;
      if (event.total !== undefined) attributes.total = event.total;
      if (event.message !== undefined) attributes.message = event.message;
      span.addEvent("progress", attributes);
    },
    terminal(call, end) {
      const span = spans.get(call);
      if (!span) return;
      spans.delete(call);
      if (end.event.type === "failed") {
        span.setAttribute("error.type", end.event.failure.kind);
        span.setStatus({ code: STATUS_ERROR, message: end.event.failure.message });
      } else if (end.event.type === "suspended") {
        span.setAttribute("salvor.tool.outcome", "suspended");
      }
      span.end();
    },
  };
}
