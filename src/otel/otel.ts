/**
 * OpenTelemetry spans for tool calls: a {@linkcode CallObserver} that opens
 * one span a call, following the GenAI semantic conventions for tool
 * execution, and one child span per attempt of a call the batch runner
 * retries. `@opentelemetry/api` 1.x is a peer dependency: the host's own
 * copy, shared with its SDK.
 *
 * @module
 */

import {
  type Attributes,
  context,
  INVALID_TRACEID,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { CallObserver, ObservedCall } from "../core/dispatch/observer.ts";
import { boundText, MAX_MODEL_TEXT } from "../core/contract/failure.ts";
import { copyJsonValue, DEFAULT_LIMITS } from "../core/common/limits.ts";

/**
 * A tracer of `@opentelemetry/api` 1.x, e.g. `trace.getTracer("my-agent")`:
 * the API's `Tracer`, named by the one method spans are made with.
 */
export interface OtelTracer {
  /**
   * The API's `Tracer.startSpan`.
   *
   * @param name The span's name.
   * @param options Its kind and attributes.
   * @param context The parent context, when not the active one.
   * @returns The API's `Span`.
   */
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: Record<string, unknown> },
    context?: unknown,
  ): unknown;
}

/** Options for {@linkcode toolSpans}. */
export interface ToolSpansOptions {
  /** The tracer; by default the global provider's, named `@salvor/tools`. */
  readonly tracer?: OtelTracer;
  /**
   * Records the call's arguments as `gen_ai.tool.call.arguments` (JSON),
   * cut at 2,000 characters; arguments given as a value that is not JSON
   * within the default limits (a BigInt, a cycle, past 256 KiB) are left
   * out. Off by default: a model's arguments may carry what a trace must not.
   */
  readonly includeArguments?: boolean;
  /**
   * `gen_ai.tool.type` for a call: by default `extension` for a tool of an
   * MCP server (one with the `server` and `toolName` of an `McpTool`) and
   * `function` for any other.
   */
  readonly toolType?: (call: ObservedCall) => string;
}

function defaultToolType(call: ObservedCall): string {
  const tool = call.tool as { server?: unknown; toolName?: unknown } | undefined;
  return typeof tool?.server === "string" && typeof tool.toolName === "string" ? "extension" : "function";
}

/** W3C Trace Context headers for a span, which a tool forwards (an MCP tool in its request's `_meta`). */
function traceContext(span: Span): Record<string, string> | undefined {
  const spanContext = span.spanContext();
  // A no-op tracer's span has the invalid trace id: that answer needs no pattern test.
  if (spanContext.traceId === INVALID_TRACEID || !trace.isSpanContextValid(spanContext)) return undefined;
  const { traceId, spanId, traceFlags, traceState } = spanContext;
  const traceparent = `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
  const tracestate = traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/** The most characters of a tool name or call id a span carries: a model may send any, and the set's are shorter. */
const MAX_NAME = 200;

/**
 * A text of the call's as a span carries it, cut at `max` characters. A cut is copied: the span outlives the call, and
 * V8 keeps the whole of a string a slice is taken from.
 */
function spanText(text: string, max: number): string {
  return text.length <= max ? text : [...boundText(text, max)].join("");
}

/**
 * The arguments' JSON as a span carries it; `undefined` for a value JSON cannot carry within the default limits. The
 * set has not checked them yet: a value is read once into plain data before anything serialises it, so neither its
 * size nor a getter or `toJSON` of its own decides what the span holds.
 */
function argumentsText(args: unknown): string | undefined {
  if (typeof args === "string") return spanText(args, MAX_MODEL_TEXT);
  const copied = copyJsonValue(args, DEFAULT_LIMITS);
  return copied.ok ? spanText(JSON.stringify(copied.value), MAX_MODEL_TEXT) : undefined;
}

/** A value read through code the observer does not own; `undefined` when it throws. */
function readOrUndefined(read: () => string | undefined): string | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Makes an observer that emits one span a call, named `execute_tool {tool}`,
 * with `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 * `gen_ai.tool.type` and `gen_ai.tool.description`, the tool's effects as
 * `salvor.tool.effects`, one `progress` event per progress report, and on
 * failure `error.type` (the failure's kind) with an error status. A parked
 * call's span ends with `salvor.tool.outcome` = `suspended`; its resumption
 * is a span of its own. A call `runBatch` may retry has a child span per
 * attempt, with `salvor.tool.attempt` (1, 2, ...). Each call hands its
 * span's `traceparent` (and `tracestate`) to the tool as
 * `ctx.extensions`, which an MCP tool sends to its server in the request's
 * `_meta`. A span that records nothing (a no-op tracer's) is left at once.
 *
 * @param options The tracer, and what else to record.
 * @returns The observer, for `new ToolSet({ observer })`.
 *
 * @example Spans of a set's calls (see `tests/otel/otel_test.ts` for the SDK's in-memory exporter)
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { ToolSet } from "@salvor/tools";
 * import { toolSpans } from "@salvor/tools/otel";
 * import assert from "node:assert/strict";
 *
 * const tools = new ToolSet({ observer: toolSpans({ tracer: trace.getTracer("my-agent") }) });
 * const end = await tools.call({ id: "1", name: "missing" });
 * assert.equal(end.type === "failed" && end.failure.kind, "not_found");
 * ```
 */
export function toolSpans(options: ToolSpansOptions = {}): CallObserver {
  const { tracer = trace.getTracer("@salvor/tools"), includeArguments = false, toolType = defaultToolType } = options;
  const details = (call: ObservedCall): Attributes => {
    const attributes: Attributes = {
      "gen_ai.tool.call.id": spanText(call.callId, MAX_NAME),
      // Read, never changed: the SDK copies an array attribute.
      "salvor.tool.effects": call.effects as string[],
    };
    // A toolType of the host's that throws leaves the type out: the span is still stored, and so ended with its call.
    const type = readOrUndefined(() => toolType(call));
    if (type !== undefined) attributes["gen_ai.tool.type"] = type;
    if (call.descriptor) attributes["gen_ai.tool.description"] = call.descriptor.description;
    if (call.resumed) attributes["salvor.tool.resumed"] = true;
    if (call.attempt !== undefined) attributes["salvor.tool.attempt"] = call.attempt;
    if (includeArguments && call.arguments !== undefined) {
      const text = argumentsText(call.arguments);
      if (text !== undefined) attributes["gen_ai.tool.call.arguments"] = text;
    }
    return attributes;
  };
  // Keyed by the call object the observer is handed at every hook; every call
  // has exactly one terminal, which removes its entry.
  const spans = new Map<ObservedCall, Span>();
  return {
    includeArguments,
    // A span keeps its own time.
    timed: false,
    callStarted(call) {
      const parent = call.parent && spans.get(call.parent);
      const name = spanText(call.name, MAX_NAME);
      // What a sampler may decide on goes in at the start; the rest only into a span that records.
      const span = tracer.startSpan(
        `execute_tool ${name}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name },
        },
        parent ? trace.setSpan(context.active(), parent) : undefined,
      ) as Span; // A tracer of the API makes the API's spans.
      if (span.isRecording()) {
        span.setAttributes(details(call));
        spans.set(call, span);
      }
      // A span that records nothing needs no end; a valid context is still forwarded (a sampled-out parent's).
      return traceContext(span);
    },
    progress(call, event) {
      const span = spans.get(call);
      if (!span) return;
      const attributes: Attributes = {};
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
        span.setStatus({ code: SpanStatusCode.ERROR, message: end.event.failure.message });
      } else if (end.event.type === "suspended") {
        span.setAttribute("salvor.tool.outcome", "suspended");
      }
      span.end();
    },
  };
}
