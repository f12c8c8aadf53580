// The OpenTelemetry entrypoint against the real SDK: every call of a set
// becomes one span with the GenAI semantic conventions' name and
// attributes, each failure kind sets error.type and an error status, and
// an MCP call hands its span's traceparent to the server in _meta.

import {
  defineJsonTool,
  defineTool,
  FAILURE_KINDS,
  HandlerError,
  RetryPolicy,
  runBatch,
  type TerminalEvent,
  ToolSet,
} from "../../mod.ts";
import { connectMcpServer } from "../../mcp.ts";
import { describeTool, type DynTool } from "../../dyn.ts";
import { toolSpans } from "../../otel.ts";
import {
  AsyncLocalStorageContextManager,
  BasicTracerProvider,
  InMemorySpanExporter,
  otelApi,
  SimpleSpanProcessor,
} from "../framework_deps.ts";
import { modernFixture } from "../mcp/fixtures/_modern.ts";
import * as v from "valibot";
import assert from "node:assert/strict";

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("salvor-tools-test") };
}

const add = defineTool({
  name: "add",
  description: "Adds two numbers.",
  inputSchema: v.object({ a: v.number(), b: v.number() }),
  outputSchema: v.object({ sum: v.number() }),
  effects: [],
  run: ({ a, b }, ctx) => {
    ctx.progress({ progress: 1, total: 1 });
    return { sum: a + b };
  },
});

/** A tool that ends in the failure the test asks for, one way or another. */
function failing(): DynTool[] {
  const json = (name: string, effects: string[], run: () => unknown, extra: object = {}) =>
    defineJsonTool({ name, description: name, inputSchema: { type: "object" }, effects, run, ...extra });
  const reporting: DynTool = {
    descriptor: describeTool({
      name: "gone",
      description: "A server that left.",
      inputSchema: { type: "object" },
      effects: [],
    }),
    async *execute() {
      yield { type: "failed", failure: { kind: "unavailable", message: "server gone", modelText: "gone" } } as never;
    },
  };
  const broken: DynTool = {
    descriptor: describeTool({
      name: "broken",
      description: "Breaks the contract.",
      inputSchema: { type: "object" },
      effects: [],
    }),
    async *execute() {},
  };
  return [
    json("throws", [], () => {
      throw new Error("boom");
    }),
    json("bad_output", [], () => ({ sum: "x" }), {
      outputSchema: { type: "object", properties: { sum: { type: "number" } } },
    }),
    json("hangs", ["external.mutation"], () => new Promise(() => {})),
    json("charge", ["billing.charge"], () => ({})),
    reporting,
    broken,
  ];
}

Deno.test("a successful call is one execute_tool span with the GenAI attributes and a progress event", async () => {
  const { exporter, tracer } = tracing();
  const tools = new ToolSet({ observer: toolSpans({ tracer }) }).register(add);
  const end = await tools.call({ id: "call_1", name: "add", arguments: '{"a":1,"b":2}' });
  assert.equal(end.type, "output");
  const [span, ...rest] = exporter.getFinishedSpans();
  assert.equal(rest.length, 0);
  assert.equal(span.name, "execute_tool add");
  assert.equal(span.kind, otelApi.SpanKind.INTERNAL);
  assert.deepEqual(span.attributes, {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "add",
    "gen_ai.tool.call.id": "call_1",
    "gen_ai.tool.type": "function",
    "gen_ai.tool.description": "Adds two numbers.",
    "salvor.tool.effects": [],
  });
  assert.equal(span.status.code, otelApi.SpanStatusCode.UNSET);
  assert.deepEqual(span.events.map((event) => [event.name, event.attributes]), [["progress", {
    progress: 1,
    total: 1,
  }]]);
});

Deno.test("each failure kind sets error.type and an error status", async () => {
  const { exporter, tracer } = tracing();
  const tools = new ToolSet({ observer: toolSpans({ tracer }) }).register(add, ...failing());
  const aborted = AbortSignal.abort();
  const calls: [string, Parameters<ToolSet["call"]>][] = [
    ["invalid_input", [{ id: "1", name: "add", arguments: '{"a":"x"}' }]],
    ["not_found", [{ id: "2", name: "nope" }]],
    ["handler", [{ id: "3", name: "throws" }]],
    ["invalid_output", [{ id: "4", name: "bad_output" }]],
    ["timeout", [{ id: "5", name: "hangs" }, { timeoutMs: 20 }]],
    ["cancelled", [{ id: "6", name: "hangs" }, { signal: aborted }]],
    ["contract", [{ id: "7", name: "broken" }]],
    ["policy_required", [{ id: "8", name: "charge" }]],
    ["unavailable", [{ id: "9", name: "gone" }]],
  ];
  assert.deepEqual(calls.map(([kind]) => kind).sort(), [...FAILURE_KINDS].sort(), "every kind is covered");
  for (const [kind, args] of calls) {
    const end = await tools.call(...args);
    assert.equal(end.type === "failed" && end.failure.kind, kind);
  }
  const spans = exporter.getFinishedSpans();
  assert.deepEqual(
    spans.map((span) => [span.attributes["gen_ai.tool.call.id"], span.attributes["error.type"], span.status.code]),
    calls.map(([kind], i) => [String(i + 1), kind, otelApi.SpanStatusCode.ERROR]),
  );
  assert.equal(spans[1].name, "execute_tool nope");
  assert.match(spans[2].status.message ?? "", /boom/);
});

Deno.test("a parked call's span says suspended, its resumption is a span of its own, arguments only on request", async () => {
  const { exporter, tracer } = tracing();
  const observer = toolSpans({ tracer, includeArguments: true });
  const tools = new ToolSet({ observer, approve: () => "suspend" }).register(add);
  const parked = await tools.call({ id: "p1", name: "add", arguments: '{"a":1,"b":1}' });
  assert.equal(parked.type, "suspended");
  if (parked.type !== "suspended") return;
  await tools.resume(parked.suspended, { approved: true });
  const [first, second] = exporter.getFinishedSpans();
  assert.equal(first.attributes["salvor.tool.outcome"], "suspended");
  assert.equal(first.status.code, otelApi.SpanStatusCode.UNSET);
  assert.equal(first.attributes["gen_ai.tool.call.arguments"], '{"a":1,"b":1}');
  assert.equal(second.attributes["salvor.tool.resumed"], true);
  assert.equal(second.attributes["gen_ai.tool.call.arguments"], '{"a":1,"b":1}');
  assert.equal(second.attributes["gen_ai.tool.call.id"], "p1");
});

Deno.test("a span is a child of the caller's active span", async () => {
  const { exporter, tracer } = tracing();
  const manager = new AsyncLocalStorageContextManager().enable();
  otelApi.context.setGlobalContextManager(manager);
  try {
    const tools = new ToolSet({ observer: toolSpans({ tracer }) }).register(add);
    const parent = tracer.startSpan("agent step");
    await otelApi.context.with(
      otelApi.trace.setSpan(otelApi.context.active(), parent),
      () => tools.call({ id: "1", name: "add", arguments: { a: 1, b: 1 } }),
    );
    parent.end();
    const [child] = exporter.getFinishedSpans();
    assert.equal(child.parentSpanContext?.spanId, parent.spanContext().spanId);
    assert.equal(child.spanContext().traceId, parent.spanContext().traceId);
  } finally {
    otelApi.context.disable();
  }
});

/** The `_meta` the modern fixture's echo tool saw in its request. */
function metaSeen(end: TerminalEvent): Record<string, unknown> {
  assert.equal(end.type, "output");
  const details = end.type === "output" ? end.result.details as { meta?: { seenMeta?: Record<string, unknown> } } : {};
  return details.meta?.seenMeta ?? {};
}

Deno.test("an MCP call is an extension span, and the server sees its traceparent and tracestate in _meta", async () => {
  const { exporter, tracer } = tracing();
  await using server = await connectMcpServer(modernFixture());
  const tools = server.register(new ToolSet({ observer: toolSpans({ tracer }) }));
  const parent = tracer.startSpan("agent step");
  // The caller's span carries a vendor's tracestate, which its children inherit.
  const active = otelApi.trace.setSpanContext(otelApi.ROOT_CONTEXT, {
    ...parent.spanContext(),
    traceState: otelApi.createTraceState("vendor=abc"),
  });
  otelApi.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  let end: TerminalEvent;
  try {
    end = await otelApi.context.with(
      active,
      () => tools.call({ id: "m1", name: "modern__echo", arguments: { text: "hi" } }),
    );
  } finally {
    otelApi.context.disable();
  }
  parent.end();
  const meta = metaSeen(end);
  const [span] = exporter.getFinishedSpans().filter((finished) => finished.name === "execute_tool modern__echo");
  assert.equal(span.attributes["gen_ai.tool.type"], "extension");
  const { traceId, spanId } = span.spanContext();
  assert.equal(traceId, parent.spanContext().traceId);
  assert.equal(meta.traceparent, `00-${traceId}-${spanId}-01`);
  assert.equal(meta.tracestate, "vendor=abc");
  assert.equal(typeof meta.progressToken, "string", "the progress token is still sent beside it");
});

Deno.test("a host's own traceparent and tracestate reach an MCP server without a tracer; a malformed one does not", async () => {
  await using server = await connectMcpServer(modernFixture());
  const tools = server.register(new ToolSet());
  const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  const read = async (extensions: Record<string, unknown>) =>
    metaSeen(await tools.call({ id: "1", name: "modern__echo", arguments: { text: "hi" } }, { extensions }));
  const both = await read({ traceparent, tracestate: "k=v" });
  assert.deepEqual([both.traceparent, both.tracestate], [traceparent, "k=v"]);
  const alone = await read({ traceparent, tracestate: "x".repeat(513) });
  assert.deepEqual([alone.traceparent, alone.tracestate], [traceparent, undefined]);
  const malformed = await read({ traceparent: "not a traceparent", tracestate: "k=v" });
  assert.deepEqual([malformed.traceparent, malformed.tracestate], [undefined, undefined]);
});

Deno.test("runBatch's retries are child spans of the call's span, one per attempt with its number", async () => {
  const { exporter, tracer } = tracing();
  let failures = 2;
  const flaky = defineJsonTool({
    name: "flaky",
    description: "Fails twice, then reads.",
    inputSchema: { type: "object" },
    effects: ["fs.read"],
    run: (_input, ctx) => {
      if (failures-- > 0) throw new HandlerError("disk busy");
      return { traceparent: ctx.extensions.traceparent };
    },
  });
  const tools = new ToolSet({ observer: toolSpans({ tracer }) }).register(flaky, add);
  const { results } = await runBatch(tools, [
    { id: "b1", name: "flaky" },
    { id: "b2", name: "add", arguments: { a: 1, b: 2 } },
  ], { retry: new RetryPolicy({ baseDelayMs: 0 }) });
  assert.deepEqual(results.map((result) => result.attempts), [3, 1]);
  const spans = exporter.getFinishedSpans();
  const call = spans.find((span) =>
    span.attributes["gen_ai.tool.call.id"] === "b1" && !("salvor.tool.attempt" in span.attributes)
  )!;
  const attempts = spans.filter((span) => span.parentSpanContext?.spanId === call.spanContext().spanId);
  assert.deepEqual(
    attempts.map((span) => [span.name, span.attributes["salvor.tool.attempt"], span.attributes["error.type"]]),
    [
      ["execute_tool flaky", 1, "handler"],
      ["execute_tool flaky", 2, "handler"],
      ["execute_tool flaky", 3, undefined],
    ],
  );
  assert.ok(attempts.every((span) => span.spanContext().traceId === call.spanContext().traceId));
  assert.equal(call.attributes["error.type"], undefined, "the call ends as its last attempt did");
  assert.equal(call.status.code, otelApi.SpanStatusCode.UNSET);
  const last = attempts[2].spanContext();
  const output = results[0].terminal.type === "output" ? results[0].terminal.result.output : undefined;
  assert.deepEqual(
    output,
    { traceparent: `00-${last.traceId}-${last.spanId}-01` },
    "the attempt's handler gets its own span",
  );
  const second = spans.filter((span) => span.attributes["gen_ai.tool.call.id"] === "b2");
  assert.deepEqual(second.map((span) => span.attributes["salvor.tool.attempt"]), [1, undefined]);
});

Deno.test("a no-op tracer adds no traceparent and fails nothing", async () => {
  const tracer = otelApi.trace.getTracer("no-op");
  const echo = defineJsonTool({
    name: "echo_ext",
    description: "Echoes its extensions.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => ({ ...ctx.extensions }),
  });
  const tools = new ToolSet({ observer: toolSpans({ tracer }) }).register(echo);
  const end = await tools.call({ id: "1", name: "echo_ext" });
  assert.deepEqual(end.type === "output" && end.result.output, {});
});

Deno.test("a span whose attributes throw as they are read still ends with its call, without them", async () => {
  const { exporter, tracer } = tracing();
  const echo = defineJsonTool({
    name: "echo",
    description: "Echoes.",
    inputSchema: { type: "object" },
    effects: [],
    run: (input) => input,
  });
  const toolType = (call: { callId: string }) => {
    if (call.callId === "typed") throw new Error("no type for this one");
    return "function";
  };
  const tools = new ToolSet({ observer: toolSpans({ tracer, includeArguments: true, toolType }) }).register(echo);
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const unreadable = {
    get a() {
      throw new Error("unreadable");
    },
  };
  // A toJSON of its own would make a small value's JSON anything at all.
  const serialising = { a: 1, toJSON: () => "x".repeat(1_000_000) };
  const ends = [
    await tools.call({ id: "cyclic", name: "echo", arguments: cyclic }),
    await tools.call({ id: "big", name: "echo", arguments: { n: 1n } }),
    await tools.call({ id: "getter", name: "echo", arguments: unreadable }),
    await tools.call({ id: "toJSON", name: "echo", arguments: serialising }),
    await tools.call({ id: "typed", name: "echo", arguments: {} }),
  ];
  assert.deepEqual(ends.map((end) => end.type), ["failed", "failed", "failed", "failed", "output"]);
  const spans = exporter.getFinishedSpans();
  assert.deepEqual(spans.map((span) => span.attributes["gen_ai.tool.call.id"]), [
    "cyclic",
    "big",
    "getter",
    "toJSON",
    "typed",
  ]);
  assert.deepEqual(
    spans.map((span) => span.attributes["gen_ai.tool.call.arguments"]),
    [undefined, undefined, undefined, undefined, "{}"],
  );
  assert.deepEqual(
    spans.map((span) => span.attributes["gen_ai.tool.type"]),
    ["function", "function", "function", "function", undefined],
  );
  const { ERROR, UNSET } = otelApi.SpanStatusCode;
  assert.deepEqual(spans.map((span) => span.status.code), [ERROR, ERROR, ERROR, ERROR, UNSET]);
});

Deno.test("a span cuts long arguments, tool names and call ids, and leaves out a value past the limits", async () => {
  const { exporter, tracer } = tracing();
  const echo = defineJsonTool({
    name: "echo",
    description: "Echoes.",
    inputSchema: { type: "object" },
    effects: [],
    run: (input) => input,
  });
  const tools = new ToolSet({ observer: toolSpans({ tracer, includeArguments: true }) }).register(echo);
  const long = "x".repeat(5_000_000);
  await tools.call({ id: "text", name: "echo", arguments: JSON.stringify({ text: long }) });
  await tools.call({ id: "value", name: "echo", arguments: { text: long.slice(0, 10_000) } });
  await tools.call({ id: "huge", name: "echo", arguments: { text: long } });
  await tools.call({ id: long, name: long });
  const [text, value, huge, unknown] = exporter.getFinishedSpans();
  for (const span of [text, value]) {
    const args = String(span.attributes["gen_ai.tool.call.arguments"]);
    assert.equal(args.length <= 2000, true, `${args.length} characters`);
    assert.match(args, /^\{"text":"x{1900,}\S* \[\.\.\. truncated\]$/);
  }
  assert.equal(huge.attributes["gen_ai.tool.call.arguments"], undefined, "past 256 KiB of JSON, left out");
  assert.equal(huge.attributes["gen_ai.tool.call.id"], "huge");
  assert.equal(unknown.attributes["error.type"], "not_found");
  const cut = `${"x".repeat(180)} [... truncated]`;
  assert.equal(unknown.name, `execute_tool ${cut}`);
  assert.equal(unknown.attributes["gen_ai.tool.name"], cut);
  assert.equal(unknown.attributes["gen_ai.tool.call.id"], cut);
});
