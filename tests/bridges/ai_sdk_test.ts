// The AI SDK bridge driven by the AI SDK itself (ai 7.0.173): generateText
// with a scripted MockLanguageModelV4, the model calling a typed and a raw
// JSON Schema tool with valid then invalid arguments, a tool that times
// out, a delete that needs approval and its approval. Asserts what the
// model was sent each turn and that no handler ran on invalid input.

import { aiSdkTools, parkedCall, type ParkedOutput, ToolCallFailedError } from "../../ai_sdk.ts";
import { approvalByEffects, type ApprovalGate, ToolSet } from "../../mod.ts";
import { MAX_MODEL_TEXT } from "../../dyn.ts";
import { ai, MockLanguageModelV4 } from "../framework_deps.ts";
import { fixture, forgingSet, INVALID_ADD, INVALID_LOOKUP, SCRIPT, TIMED_OUT, waitingRecord } from "./_fixture.ts";
import assert from "node:assert/strict";

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that plays the script, one turn a call, and keeps every prompt it was sent. */
function scriptedModel() {
  const prompts: unknown[][] = [];
  let turn = 0;
  const model = new MockLanguageModelV4({
    doGenerate: (options) => {
      prompts.push(options.prompt as unknown[]);
      const calls = SCRIPT[turn++];
      return Promise.resolve({
        content: calls
          ? calls.map(([id, name, input]) => ({
            type: "tool-call" as const,
            toolCallId: id,
            toolName: name,
            input: JSON.stringify(input),
          }))
          : [{ type: "text" as const, text: "done" }],
        finishReason: { unified: calls ? "tool-calls" as const : "stop" as const, raw: undefined },
        usage: USAGE,
        warnings: [],
      });
    },
  });
  return { model, prompts };
}

/** The tool results in the last message of a prompt the model was sent. */
function toolResults(prompt: unknown[]): Record<string, unknown> {
  const last = prompt.at(-1) as { role: string; content: { type: string; toolCallId: string; output: unknown }[] };
  assert.equal(last.role, "tool");
  return Object.fromEntries(last.content.filter((p) => p.type === "tool-result").map((p) => [p.toolCallId, p.output]));
}

Deno.test("AI SDK: generateText drives the set's tools through validation, timeout and approval", async () => {
  const { ran, toolset, approve, records } = fixture();
  const { tools, toolApproval } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema }, { approve, records });
  const { model, prompts } = scriptedModel();

  const first = await ai.generateText({
    model,
    tools,
    toolApproval,
    prompt: "Work.",
    stopWhen: ai.stepCountIs(10),
  });

  // The model was shown each tool's own schema.
  assert.equal(prompts.length, 4);
  const seen = await ai.asSchema(tools.lookup.inputSchema).jsonSchema;
  assert.deepEqual(seen, toolset.get("lookup")!.descriptor.inputSchema);

  // Turn 1: valid calls, structured outputs.
  assert.deepEqual(toolResults(prompts[1]), {
    call_1: { type: "json", value: { sum: 3 } },
    call_2: { type: "json", value: { value: "value of k" } },
  });
  // Turn 2: invalid calls, bounded diagnostics, no handler ran.
  const invalid = toolResults(prompts[2]) as Record<string, { type: string; value: string }>;
  assert.equal(invalid.call_3.type, "error-text");
  assert.match(invalid.call_3.value, INVALID_ADD);
  assert.match(invalid.call_4.value, INVALID_LOOKUP);
  assert.deepEqual([ran.add, ran.lookup], [1, 1]);
  const errors = first.steps[1].content.filter((part) => part.type === "tool-error");
  assert.deepEqual(
    errors.map((part) => part.error instanceof ToolCallFailedError && part.error.failure.kind),
    ["invalid_input", "invalid_input"],
  );
  // Turn 3: the timeout ends the call though the handler ignores its signal.
  const timedOut = toolResults(prompts[3]) as Record<string, { type: string; value: string }>;
  assert.equal(timedOut.call_5.type, "error-text");
  assert.match(timedOut.call_5.value, TIMED_OUT);
  // Turn 4: the delete waits for a person, through the AI SDK's own approval request.
  const request = first.content.find((part) => part.type === "tool-approval-request");
  assert.ok(request, "an approval request");
  assert.equal(request.reason, "a file would be deleted");
  assert.equal(ran.remove, 0);
  // The set parked the call: its sealed record waits for the person's answer.
  const record = waitingRecord(records, "call_6");
  assert.ok(record?.seal, "a sealed record is kept");
  assert.deepEqual([record.origin, record.input], ["approval", { path: "a.txt" }]);

  // The person approves; the AI SDK runs the call and the model reads its result.
  const second = await ai.generateText({
    model,
    tools,
    toolApproval,
    messages: [
      { role: "user", content: "Work." },
      ...first.response.messages,
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }] },
    ],
    stopWhen: ai.stepCountIs(10),
  });
  assert.equal(ran.remove, 1);
  assert.equal(second.text, "done");
  assert.deepEqual(toolResults(prompts[4]).call_6, { type: "json", value: { removed: "a.txt" } });
  // The approved call resumed from its record, which is spent: it cannot run the delete again.
  assert.equal(records.size, 0);
  const replayed = await toolset.resume(record, { approved: true });
  assert.equal(replayed.type === "failed" && replayed.failure.kind, "invalid_input");
  assert.equal(ran.remove, 1);
});

Deno.test("AI SDK: a denied approval never runs the handler", async () => {
  const { ran, toolset, approve } = fixture();
  const { tools, toolApproval } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema }, { approve, tools: ["remove"] });
  assert.deepEqual(Object.keys(tools), ["remove"]);
  const prompts: unknown[][] = [];
  const model = new MockLanguageModelV4({
    doGenerate: (options) => (prompts.push(options.prompt as unknown[]),
      Promise.resolve({
        content: [{ type: "tool-call", toolCallId: "c", toolName: "remove", input: '{"path":"x"}' }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: USAGE,
        warnings: [],
      })),
  });
  const first = await ai.generateText({ model, tools, toolApproval, prompt: "Delete x." });
  const request = first.content.find((part) => part.type === "tool-approval-request")!;
  const denied = await ai.generateText({
    model,
    tools,
    toolApproval,
    messages: [
      { role: "user", content: "Delete x." },
      ...first.response.messages,
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: false }] },
    ],
    stopWhen: ai.stepCountIs(1),
  });
  assert.equal(ran.remove, 0);
  assert.deepEqual(toolResults(prompts.at(-1)!).c, { type: "execution-denied", reason: undefined });
  assert.equal(denied.steps.length, 1);
});

Deno.test("AI SDK: progress streams as preliminary results, and the abort signal cancels the call", async () => {
  const { toolset } = fixture();
  const { tools } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema });
  const outputs = [];
  for await (const output of tools.add.execute({ a: 2, b: 2 }, { toolCallId: "p" })) outputs.push(output);
  assert.deepEqual(outputs, [{ status: "progress", progress: 1, total: 1, message: "added" }, { sum: 4 }]);

  const controller = new AbortController();
  const running = tools.slow.execute({}, { toolCallId: "s", abortSignal: controller.signal }).next();
  controller.abort();
  await assert.rejects(running, (error: unknown) => {
    assert.ok(error instanceof ToolCallFailedError);
    assert.equal(error.failure.kind, "cancelled");
    return true;
  });
});

Deno.test("AI SDK: an approved call whose arguments changed afterwards does not run: the gate parks it anew", async () => {
  const { ran, toolset, approve } = fixture();
  const { tools, toolApproval } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema }, { approve, tools: ["remove"] });
  const status = await toolApproval.remove({ path: "kept.txt" }, { toolCallId: "t" });
  assert.deepEqual(status, { type: "user-approval", reason: "a file would be deleted" });
  const outputs = [];
  for await (const output of tools.remove.execute({ path: "other.txt" }, { toolCallId: "t" })) outputs.push(output);
  const [parked] = outputs as ParkedOutput[];
  assert.deepEqual([parked.status, parked.suspended.input], ["suspended", { path: "other.txt" }]);
  assert.equal(ran.remove, 0);
  // The call the person approved still runs, once.
  const approved = [];
  for await (const output of tools.remove.execute({ path: "kept.txt" }, { toolCallId: "t" })) approved.push(output);
  assert.deepEqual(approved, [{ removed: "kept.txt" }]);
  assert.equal(ran.remove, 1);
  assert.equal(await toolApproval.remove({ path: 5 }, { toolCallId: "u" }).then((s) => s), "not-applicable");
});

Deno.test("AI SDK: a call that reuses a denied call's id, for another tool or other arguments, never takes its record", async () => {
  const { ran, toolset, approve, records } = fixture();
  const { tools, toolApproval } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema }, { approve, records });
  // A provider that numbers its calls per response: the person denies call_0, so the AI SDK never executes it.
  await toolApproval.remove({ path: "/etc/passwd" }, { toolCallId: "call_0" });
  // The next response's call_0 is a lookup: it needs no approval, and runs as itself.
  assert.equal(await toolApproval.lookup({ key: "k" }, { toolCallId: "call_0" }), "not-applicable");
  const looked = [];
  for await (const output of tools.lookup.execute({ key: "k" }, { toolCallId: "call_0" })) looked.push(output);
  assert.deepEqual(looked, [{ value: "value of k" }]);
  // Then a delete of another file under the same id: parked and approved as itself.
  assert.deepEqual(await toolApproval.remove({ path: "tmp.txt" }, { toolCallId: "call_0" }), {
    type: "user-approval",
    reason: "a file would be deleted",
  });
  const removed = [];
  for await (const output of tools.remove.execute({ path: "tmp.txt" }, { toolCallId: "call_0" })) removed.push(output);
  assert.deepEqual(removed, [{ removed: "tmp.txt" }]);
  assert.equal(ran.remove, 1);
  // The denied call's record is still waiting, never taken.
  assert.deepEqual([...records.values()].map((record) => record.input), [{ path: "/etc/passwd" }]);
});

Deno.test("AI SDK: an approved call run twice at once resumes once, on a set without a seal too", async () => {
  const { ran, toolset, approve } = fixture();
  const unsealed = new ToolSet().register(toolset.get("remove")!);
  const { tools, toolApproval } = aiSdkTools(unsealed, { jsonSchema: ai.jsonSchema }, { approve });
  await toolApproval.remove({ path: "a.txt" }, { toolCallId: "c1" });
  const run = async () => {
    const outputs = [];
    for await (const output of tools.remove.execute({ path: "a.txt" }, { toolCallId: "c1" })) outputs.push(output);
    return outputs;
  };
  const both = await Promise.all([run(), run()]);
  // Either may take the record; the other finds it taken, and the gate parks it again rather than run it twice.
  const ran1 = both.findIndex((outputs) => (outputs[0] as { removed?: string }).removed === "a.txt");
  assert.notEqual(ran1, -1);
  assert.equal((both[1 - ran1][0] as ParkedOutput).status, "suspended");
  assert.equal(ran.remove, 1);
});

Deno.test("AI SDK: a call the handler parks returns its record, and toModelOutput tells the model to wait", async () => {
  const { toolset } = fixture();
  // No bridge gate: the set's own gate parks the call when it runs.
  const parkedSet = new ToolSet({ approve: () => "suspend" }).register(toolset.get("remove")!);
  const { tools } = aiSdkTools(parkedSet, { jsonSchema: ai.jsonSchema });
  const outputs = [];
  for await (const output of tools.remove.execute({ path: "b" }, { toolCallId: "h" })) outputs.push(output);
  const [parked] = outputs as { status: string; suspended: { callId: string } }[];
  assert.equal(parked.status, "suspended");
  assert.equal(parked.suspended.callId, "h");
  const shown = tools.remove.toModelOutput({ toolCallId: "h", output: parked });
  assert.equal(shown.type, "text");
  assert.match(String(shown.value), /waiting for a person/);
  const done = await parkedSet.resume(parked.suspended as never, { approved: true });
  assert.equal(done.type, "output");
});

Deno.test("AI SDK: a tool's output that looks like another call's parked record is shown and read as data", async () => {
  const { unsealed, forged } = forgingSet();
  const { tools } = aiSdkTools(unsealed, { jsonSchema: ai.jsonSchema });
  const outputs = [];
  for await (const output of tools.fetch_page.execute({}, { toolCallId: "c" })) outputs.push(output);
  assert.deepEqual(outputs, [forged]);
  assert.deepEqual(tools.fetch_page.toModelOutput({ toolCallId: "c", output: forged }), {
    type: "json",
    value: forged,
  });
  assert.equal(parkedCall(forged, { toolName: "fetch_page", toolCallId: "c" }), undefined);
  // Even naming this tool, a record of another call is not this result's.
  const ownTool = { ...forged, suspended: { ...forged.suspended, tool: "fetch_page" } };
  assert.equal(parkedCall(ownTool, { toolName: "fetch_page", toolCallId: "c" }), undefined);
});

Deno.test("AI SDK: arguments the set refuses never reach the gate: the call fails as invalid_input", async () => {
  const { ran, toolset, approve, records } = fixture();
  const asked: unknown[] = [];
  const gate: ApprovalGate = (descriptor, input) => (asked.push(input), approve(descriptor, input));
  const { tools, toolApproval } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema }, { approve: gate, records });
  const refused = [
    // Past the limits: 300,000 characters of a path.
    { path: "p".repeat(300_000) },
    // A value of its own JSON: what the gate would read is not what the set reads.
    { path: "a.txt", toJSON: () => ({ path: "b.txt" }) },
  ];
  for (const input of refused) {
    assert.equal(await toolApproval.remove(input, { toolCallId: "c" }), "not-applicable");
    await assert.rejects(tools.remove.execute(input, { toolCallId: "c" }).next(), (error: unknown) => {
      assert.ok(error instanceof ToolCallFailedError);
      assert.equal(error.failure.kind, "invalid_input");
      return true;
    });
  }
  assert.deepEqual(asked, []);
  assert.deepEqual([records.size, ran.remove], [0, 0]);
});

Deno.test("AI SDK: the gate reads a call's arguments within the set's own limits, and is handed them", async () => {
  const remove = fixture().toolset.get("remove")!;
  const sets = {
    // Wider than the default limits: a path of 300,000 characters is the set's to take.
    wide: { set: new ToolSet({ limits: { maxBytes: 1024 * 1024, maxDepth: 64 } }).register(remove), length: 300_000 },
    // Tighter: approvalByEffects leaves out an input its record could not carry within them, and parks the call.
    tight: { set: new ToolSet({ limits: { maxBytes: 900, maxDepth: 16 } }).register(remove), length: 400 },
  };
  for (const [name, { set, length }] of Object.entries(sets)) {
    const handed: unknown[] = [];
    const byEffects = approvalByEffects();
    const approve: ApprovalGate = (descriptor, input, context) => {
      handed.push(context?.limits);
      return byEffects(descriptor, input, context);
    };
    const records = new Map();
    const { toolApproval } = aiSdkTools(set, { jsonSchema: ai.jsonSchema }, { approve, records });
    const status = await toolApproval.remove({ path: "p".repeat(length) }, { toolCallId: "c" });
    assert.equal(typeof status === "object" && status.type, "user-approval", name);
    assert.deepEqual(handed, [set.limits], name);
    assert.equal(records.size, 1, name);
  }
});

Deno.test("AI SDK: a call id that is no string fails as invalid_input, not with a TypeError", async () => {
  const { ran, toolset, approve } = fixture();
  const { tools, toolApproval } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema }, { approve });
  const toolCallId = Symbol("call") as unknown as string;
  assert.equal(await toolApproval.remove({ path: "a.txt" }, { toolCallId }), "not-applicable");
  await assert.rejects(tools.remove.execute({ path: "a.txt" }, { toolCallId }).next(), (error: unknown) => {
    assert.ok(error instanceof ToolCallFailedError);
    assert.equal(error.failure.kind, "invalid_input");
    return true;
  });
  assert.equal(ran.remove, 0);
});

Deno.test("AI SDK: toModelOutput shows a parked reason of any length or type within the model text", () => {
  const { toolset } = fixture();
  const { tools } = aiSdkTools(toolset, { jsonSchema: ai.jsonSchema });
  // A record read back from the messages, as a client may send them.
  const suspended = {
    v: 1,
    callId: "m",
    tool: "remove",
    version: "1.0.0",
    input: {},
    reason: "x".repeat(100_000),
    resumeSchema: {},
    origin: "approval",
  };
  const shown = (reason: unknown) =>
    tools.remove.toModelOutput({
      toolCallId: "m",
      output: { status: "suspended", reason: "r", suspended: { ...suspended, reason } },
    });
  const long = shown(suspended.reason);
  assert.equal(long.type, "text");
  assert.ok(String(long.value).length <= MAX_MODEL_TEXT, `${String(long.value).length} characters`);
  assert.match(String(long.value), /^The call is waiting for a person: x+ \[\.\.\. truncated\]\. Do not call it again/);
  const unreadable = {
    toString() {
      throw new Error("no text");
    },
  };
  assert.deepEqual(shown(unreadable), {
    type: "text",
    value: "The call is waiting for a person: {}. Do not call it again; its result will follow.",
  });
});
