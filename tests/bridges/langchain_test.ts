// The LangChain bridge driven by LangChain itself (@langchain/core 1.4.0,
// langchain 1.5.14 on @langchain/langgraph 1.7.3): createAgent with the
// scripted fakeModel, the model calling a typed and a raw JSON Schema tool
// with valid then invalid arguments, a tool that times out, a delete that
// needs approval through humanInTheLoopMiddleware, the set's sealed record
// of it, and its approval. Asserts what the model was sent each turn and
// that no handler ran on invalid input.

import { type LangChainBridge, langChainTools } from "../../langchain.ts";
import { ToolSet } from "../../mod.ts";
import {
  AIMessage,
  Command,
  convertToOpenAITool,
  createAgent,
  fakeModel,
  humanInTheLoopMiddleware,
  MemorySaver,
  type StructuredToolInterface,
  tool,
  ToolMessage,
} from "../framework_deps.ts";
import { fixture, INVALID_ADD, INVALID_LOOKUP, SCRIPT, TIMED_OUT, waitingRecord } from "./_fixture.ts";
import assert from "node:assert/strict";

/** A model that plays the script, one turn a call, then says "done"; `calls` keeps what it was sent. */
function scriptedModel() {
  let model = fakeModel();
  for (const turn of SCRIPT) model = model.respondWithTools(turn.map(([id, name, args]) => ({ id, name, args })));
  return model.respond(new AIMessage("done"));
}

interface Seen {
  readonly status: string;
  readonly content: unknown;
  readonly kind?: string;
}

/** The tool messages a model call was sent, by tool call id: status, content and the failure kind of the artifact. */
function toolMessagesSeen(messages: readonly unknown[]): Record<string, Seen> {
  return Object.fromEntries(
    messages.filter((m) => ToolMessage.isInstance(m)).map((m) => {
      const artifact = m.artifact as { type: string; failure?: { kind: string } };
      return [m.tool_call_id, { status: m.status ?? "", content: m.content, kind: artifact?.failure?.kind }];
    }),
  );
}

Deno.test("LangChain: createAgent drives the set's tools through validation, timeout and approval", async () => {
  const { ran, toolset, approve, records } = fixture();
  const { tools, interruptOn } = langChainTools(toolset, { tool, ToolMessage }, { approve, records });
  const model = scriptedModel();
  const agent = createAgent({
    model,
    tools,
    middleware: [humanInTheLoopMiddleware({ interruptOn })],
    checkpointer: new MemorySaver(),
  });
  const thread = { configurable: { thread_id: "work" } };

  const first = await agent.invoke({ messages: [{ role: "user", content: "Work." }] }, thread);

  // The model is shown each tool's own schema, in the set's order.
  assert.deepEqual(
    tools.map((t) => convertToOpenAITool(t).function.parameters),
    [...toolset].map(({ descriptor }) => descriptor.inputSchema),
  );
  assert.equal(model.callCount, 4);
  const seen = model.calls.map((call) => toolMessagesSeen(call.messages));
  // Turn 1: valid calls, structured outputs.
  assert.deepEqual(seen[1], {
    call_1: { status: "success", content: '{"sum":3}', kind: undefined },
    call_2: { status: "success", content: '{"value":"value of k"}', kind: undefined },
  });
  // Turn 2: invalid calls, bounded diagnostics with status "error", no handler ran.
  assert.deepEqual([seen[2].call_3.status, seen[2].call_3.kind], ["error", "invalid_input"]);
  assert.match(String(seen[2].call_3.content), INVALID_ADD);
  assert.deepEqual([seen[2].call_4.status, seen[2].call_4.kind], ["error", "invalid_input"]);
  assert.match(String(seen[2].call_4.content), INVALID_LOOKUP);
  assert.deepEqual([ran.add, ran.lookup], [1, 1], "no handler ran on invalid input");
  // Turn 3: the timeout ends the call though the handler ignores its signal.
  assert.deepEqual([seen[3].call_5.status, seen[3].call_5.kind], ["error", "timeout"]);
  assert.match(String(seen[3].call_5.content), TIMED_OUT);
  // Turn 4: the delete interrupts the agent before it runs, with the gate's reason.
  const [interrupt] = first.__interrupt__ ?? [];
  const request = interrupt?.value as { actionRequests: { name: string; args: unknown; description: string }[] };
  assert.deepEqual(request.actionRequests.map(({ name, args, description }) => [name, args, description]), [
    ["remove", { path: "a.txt" }, "a file would be deleted"],
  ]);
  assert.equal(ran.remove, 0);
  // The set parked the call: its sealed record waits for the person's answer.
  const record = waitingRecord(records, "call_6");
  assert.ok(record?.seal, "a sealed record is kept");
  assert.deepEqual([record.origin, record.input], ["approval", { path: "a.txt" }]);

  // The person approves; the agent runs the call and the model reads its result.
  const second = await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), thread);
  assert.equal(ran.remove, 1);
  assert.deepEqual(toolMessagesSeen(model.calls[4].messages).call_6, {
    status: "success",
    content: '{"removed":"a.txt"}',
    kind: undefined,
  });
  assert.equal(second.messages.at(-1)?.content, "done");
  // The graph asked again as it resumed and got the same record; the approved call resumed from it, once.
  assert.equal(records.size, 0);
  const replayed = await toolset.resume(record, { approved: true });
  assert.equal(replayed.type === "failed" && replayed.failure.kind, "invalid_input");
  assert.equal(ran.remove, 1);
});

Deno.test("LangChain: a rejected approval never runs the handler", async () => {
  const { ran, toolset, approve } = fixture();
  const { tools, interruptOn } = langChainTools(toolset, { tool, ToolMessage }, { approve, tools: ["remove"] });
  assert.deepEqual(tools.map((t) => t.name), ["remove"]);
  assert.deepEqual(Object.keys(interruptOn), ["remove"]);
  const model = fakeModel()
    .respondWithTools([{ id: "c", name: "remove", args: { path: "x" } }])
    .respond(new AIMessage("ok"));
  const agent = createAgent({
    model,
    tools,
    middleware: [humanInTheLoopMiddleware({ interruptOn })],
    checkpointer: new MemorySaver(),
  });
  const thread = { configurable: { thread_id: "reject" } };
  await agent.invoke({ messages: [{ role: "user", content: "Delete x." }] }, thread);
  await agent.invoke(new Command({ resume: { decisions: [{ type: "reject", message: "Not now." }] } }), thread);
  assert.equal(ran.remove, 0);
  assert.equal(toolMessagesSeen(model.calls[1].messages).c.content, "Not now.");
});

Deno.test("LangChain: an approved call whose arguments changed afterwards does not run: the gate parks it anew", async () => {
  const { ran, toolset, approve } = fixture();
  const { tools: [add, remove], interruptOn }: {
    tools: StructuredToolInterface[];
    interruptOn: LangChainBridge<never>["interruptOn"];
  } = langChainTools(toolset, { tool, ToolMessage }, { approve, tools: ["add", "remove"] });
  assert.deepEqual([add.name, remove.name], ["add", "remove"]);
  const asked = { id: "t", args: { path: "kept.txt" } };
  assert.equal(await interruptOn.remove.when({ toolCall: asked }), true);
  assert.equal(await interruptOn.remove.description(asked), "a file would be deleted");
  assert.equal(await interruptOn.add.when({ toolCall: { id: "u", args: { a: 1, b: 2 } } }), false);
  const changed = await remove.invoke({ type: "tool_call", id: "t", name: "remove", args: { path: "other.txt" } });
  assert.ok(ToolMessage.isInstance(changed));
  assert.match(String(changed.content), /^The call is waiting for a person: a file would be deleted/);
  assert.equal(ran.remove, 0);
  // The call the person approved still runs, once.
  const message = await remove.invoke({ type: "tool_call", id: "t", name: "remove", args: { path: "kept.txt" } });
  assert.ok(ToolMessage.isInstance(message));
  assert.equal(message.content, '{"removed":"kept.txt"}');
  assert.equal(ran.remove, 1);
});

Deno.test("LangChain: progress streams as the agent's tool events", async () => {
  const { toolset } = fixture();
  const { tools } = langChainTools(toolset, { tool, ToolMessage }, { tools: ["add"] });
  const model = fakeModel()
    .respondWithTools([{ id: "p", name: "add", args: { a: 2, b: 2 } }])
    .respond(new AIMessage("four"));
  const agent = createAgent({ model, tools });
  const events = [];
  const stream = await agent.stream({ messages: [{ role: "user", content: "Add." }] }, { streamMode: "tools" });
  for await (const chunk of stream) {
    const event = chunk as { event: string; toolCallId: string; data?: unknown };
    if (event.event === "on_tool_event") events.push([event.toolCallId, event.data]);
  }
  assert.deepEqual(events, [["p", { status: "progress", progress: 1, total: 1, message: "added" }]]);
});

Deno.test("LangChain: the abort signal cancels a running call", async () => {
  const { ran, toolset } = fixture();
  const { tools: [slow] }: { tools: StructuredToolInterface[] } = langChainTools(toolset, { tool, ToolMessage }, {
    tools: ["slow"],
    timeoutMs: 60_000,
  });
  const controller = new AbortController();
  const running = slow.invoke({ type: "tool_call", id: "s", name: "slow", args: {} }, { signal: controller.signal });
  // LangChain itself refuses a call whose signal is already aborted; this one has started.
  while (ran.slow === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  controller.abort();
  const message = await running;
  assert.ok(ToolMessage.isInstance(message));
  assert.equal(message.status, "error");
  assert.equal((message.artifact as { failure: { kind: string } }).failure.kind, "cancelled");
});

Deno.test("LangChain: a call the set parks answers with a note for the model and its record for the host", async () => {
  const { ran, toolset } = fixture();
  // No bridge gate: the set's own gate parks the call when it runs.
  const parkedSet = new ToolSet({ approve: () => "suspend" }).register(toolset.get("remove")!);
  const { tools: [remove] }: { tools: StructuredToolInterface[] } = langChainTools(parkedSet, { tool, ToolMessage });
  const message = await remove.invoke({ type: "tool_call", id: "h", name: "remove", args: { path: "b" } });
  assert.ok(ToolMessage.isInstance(message));
  assert.equal(message.status, "success");
  assert.match(String(message.content), /waiting for a person/);
  const artifact = message.artifact as { type: string; suspended: never };
  assert.equal(artifact.type, "suspended");
  assert.equal(ran.remove, 0);
  const done = await parkedSet.resume(JSON.parse(JSON.stringify(artifact.suspended)), { approved: true });
  assert.deepEqual(done.type === "output" && done.result.output, { removed: "b" });
});
