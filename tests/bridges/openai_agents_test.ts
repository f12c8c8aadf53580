// The OpenAI Agents bridge driven by the SDK itself (@openai/agents-core
// 0.20.0): an Agent run with the SDK's ScriptedModel, the model calling a
// typed and a raw JSON Schema tool with valid then invalid arguments, a
// tool that times out, a delete that needs approval, the run state through
// a string, and the approval. Asserts what the model was sent each turn.

import { openAIAgentsTools, type ToolCallFailedError } from "../../openai_agents.ts";
import { openAIStrict, toOpenAITool } from "../../providers.ts";
import { agents, agentsTesting } from "../framework_deps.ts";
import { fixture, INVALID_ADD, INVALID_LOOKUP, SCRIPT, TIMED_OUT, waitingRecord } from "./_fixture.ts";
import assert from "node:assert/strict";

agents.setTracingDisabled(true);

/** The function call outputs in the input of a model call, by call id. */
function outputsSeen(call: agentsTesting.RecordedModelCall): Record<string, string> {
  const input = call.request.input as { type?: string; callId?: string; output?: { text?: string } | string }[];
  return Object.fromEntries(
    input.filter((item) => item.type === "function_call_result").map((item) => [
      item.callId,
      typeof item.output === "string" ? item.output : item.output?.text ?? JSON.stringify(item.output),
    ]),
  );
}

Deno.test("OpenAI Agents: a run drives the set's tools through validation, timeout, approval and a RunState string", async () => {
  const { ran, toolset, approve, records } = fixture();
  const failures: ToolCallFailedError[] = [];
  const strict = { toOpenAITool, openAIStrict };
  const tools = openAIAgentsTools(toolset, { approve, records, strict, onFailure: (error) => failures.push(error) });
  const model = new agentsTesting.ScriptedModel([
    ...SCRIPT.map((turn) => turn.map(([id, name, input]) => agentsTesting.functionCall(name, input, { callId: id }))),
    [agentsTesting.assistantMessage("done")],
  ]);
  const agent = new agents.Agent({ name: "worker", model, tools });

  const first = await agents.run(agent, "Work.");
  // The model was shown the strict projection of each tool.
  const shown = model.calls[0].request.tools as { name: string; strict: boolean; parameters: unknown }[];
  assert.deepEqual(shown.map((tool) => [tool.name, tool.strict]), [
    ["add", true],
    ["lookup", true],
    ["remove", true],
    ["slow", true],
  ]);
  const seen = [1, 2, 3].map((i) => outputsSeen(model.calls[i]));
  assert.deepEqual(JSON.parse(seen[0].call_1), { sum: 3 });
  assert.deepEqual(JSON.parse(seen[0].call_2), { value: "value of k" });
  assert.match(seen[1].call_3, INVALID_ADD);
  assert.match(seen[1].call_4, INVALID_LOOKUP);
  assert.deepEqual([ran.add, ran.lookup], [1, 1], "no handler ran on invalid input");
  assert.match(seen[2].call_5, TIMED_OUT);
  assert.deepEqual(failures.map((error) => error.failure.kind), ["invalid_input", "invalid_input", "timeout"]);

  // The delete interrupts the run; its state survives a string and is approved later.
  assert.equal(first.interruptions.length, 1);
  assert.equal(ran.remove, 0);
  // The set parked the call: its sealed record waits for the person's answer.
  const record = waitingRecord(records, "call_6");
  assert.ok(record?.seal, "a sealed record is kept");
  assert.deepEqual([record.origin, record.input], ["approval", { path: "a.txt" }]);
  const stored = first.state.toString();
  const state = await agents.RunState.fromString(agent, stored);
  state.approve(state.getInterruptions()[0]);
  const second = await agents.run(agent, state);
  assert.equal(ran.remove, 1);
  assert.equal(second.finalOutput, "done");
  assert.deepEqual(JSON.parse(outputsSeen(model.calls[4]).call_6), { removed: "a.txt" });
  // The restored state asked again and got the same record; the approved call resumed from it, once.
  assert.equal(records.size, 0);
  const replayed = await toolset.resume(record, { approved: true });
  assert.equal(replayed.type === "failed" && replayed.failure.kind, "invalid_input");
  assert.equal(ran.remove, 1);
});

Deno.test("OpenAI Agents: a rejected approval never runs the handler", async () => {
  const { ran, toolset, approve } = fixture();
  const model = new agentsTesting.ScriptedModel([
    [agentsTesting.functionCall("remove", { path: "x" }, { callId: "c" })],
    [agentsTesting.assistantMessage("ok")],
  ]);
  const agent = new agents.Agent({ name: "worker", model, tools: openAIAgentsTools(toolset, { approve }) });
  const first = await agents.run(agent, "Delete x.");
  first.state.reject(first.interruptions[0]);
  await agents.run(agent, first.state);
  assert.equal(ran.remove, 0);
  assert.match(outputsSeen(model.calls[1]).c, /not approved|reject|denied/i);
});

Deno.test("OpenAI Agents: without strict mode the model is shown each tool's own schema", async () => {
  const { toolset } = fixture();
  const [add] = openAIAgentsTools(toolset, { tools: ["lookup"] });
  assert.equal(add.strict, false);
  assert.deepEqual(add.parameters, toolset.get("lookup")!.descriptor.inputSchema);
  assert.match(
    String(await add.invoke({}, '{"key":5}')),
    /^The arguments for "lookup" are invalid; the tool did not run/,
  );
});

Deno.test("OpenAI Agents: the run's abort signal cancels a call", async () => {
  const { toolset } = fixture();
  const [slow] = openAIAgentsTools(toolset, { tools: ["slow"], timeoutMs: 60_000 });
  const controller = new AbortController();
  const running = slow.invoke({}, "{}", { signal: controller.signal });
  controller.abort();
  assert.match(String(await running), /cancelled|stopped/i);
});

Deno.test("OpenAI Agents: arguments past the limits never reach the gate; the model reads why it failed", async () => {
  const { ran, toolset, approve } = fixture();
  const asked: unknown[] = [];
  const [remove] = openAIAgentsTools(toolset, {
    tools: ["remove"],
    approve: (descriptor, input) => (asked.push(input), approve(descriptor, input)),
  });
  const input = JSON.stringify({ path: "p".repeat(300_000) });
  assert.equal(await remove.needsApproval({}, input, "big"), false);
  assert.match(
    String(await remove.invoke({}, input, { toolCall: { callId: "big" } })),
    /^The arguments for "remove" are invalid; the tool did not run\.\n- \(arguments\) \[maxBytes\]/,
  );
  assert.deepEqual([asked.length, ran.remove], [0, 0]);
});
