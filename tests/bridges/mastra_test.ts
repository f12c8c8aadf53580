// The Mastra bridge driven by Mastra itself (@mastra/core 1.71.0): an
// Agent run with the package's scripted MastraLanguageModelV2Mock, the
// model calling a typed and a raw JSON Schema tool with valid then invalid
// arguments, a tool that times out, a delete the bridge's gate parks, the
// run suspended with the set's sealed record, and its approval or decline
// through Mastra's own calls. Asserts what the model was sent each turn and
// that no handler ran on invalid input.

import { mastraTools, type ParkedOutput, ToolCallFailedError } from "../../mastra.ts";
import { defineJsonTool, ToolSet } from "../../mod.ts";
import {
  Agent,
  createTool,
  InMemoryStore,
  Mastra,
  MastraLanguageModelV2Mock,
  simulateReadableStream,
} from "../framework_deps.ts";
import { fixture, forgingSet, INVALID_ADD, INVALID_LOOKUP, SCRIPT, TIMED_OUT } from "./_fixture.ts";
import assert from "node:assert/strict";

const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

type Calls = readonly (readonly [string, string, unknown])[];

/** One scripted turn as a generate result: the tool calls, or "done". */
function reply(calls: Calls | undefined) {
  return {
    content: calls
      ? calls.map(([id, name, input]) => ({
        type: "tool-call" as const,
        toolCallId: id,
        toolName: name,
        input: JSON.stringify(input),
      }))
      : [{ type: "text" as const, text: "done" }],
    finishReason: calls ? "tool-calls" as const : "stop" as const,
    usage: USAGE,
    warnings: [],
  };
}

/** The same turn as the parts of a stream. */
function streamed(calls: Calls | undefined) {
  const { content, finishReason, usage } = reply(calls);
  const parts = content.flatMap((part): unknown[] =>
    part.type === "text"
      ? [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: part.text }, {
        type: "text-end",
        id: "t",
      }]
      : [part]
  );
  const chunks = [{ type: "stream-start", warnings: [] }, ...parts, { type: "finish", finishReason, usage }];
  return { stream: simulateReadableStream({ chunks }) as ReadableStream<never> };
}

/** A model that plays a script, one turn a call (generated or streamed), and keeps every prompt it was sent. */
function scriptedModel(script: readonly Calls[]) {
  let turn = 0;
  const model = new MastraLanguageModelV2Mock({
    doGenerate: () => Promise.resolve(reply(script[turn++])),
    doStream: () => Promise.resolve(streamed(script[turn++])),
  });
  return { model, prompts: () => model.doGenerateCalls.map((call) => call.prompt) };
}

/** An agent with the tools, registered in a Mastra with in-memory storage, which suspending needs. */
function agentWith(model: MastraLanguageModelV2Mock, tools: Record<string, ReturnType<typeof createTool>>) {
  const agent = new Agent({ id: "worker", name: "worker", instructions: "Work.", model, tools });
  new Mastra({ agents: { worker: agent }, storage: new InMemoryStore(), logger: false });
  return agent;
}

/** The tool results in the last message of a prompt the model was sent, by call id. */
function toolResults(prompt: readonly unknown[]): Record<string, { type: string; value: unknown }> {
  const last = prompt.at(-1) as { role: string; content: { type: string; toolCallId: string; output: never }[] };
  assert.equal(last.role, "tool");
  return Object.fromEntries(last.content.filter((p) => p.type === "tool-result").map((p) => [p.toolCallId, p.output]));
}

Deno.test("Mastra: an agent drives the set's tools through validation, timeout, a suspension and its resumption", async () => {
  const { ran, toolset, approve } = fixture();
  const tools = mastraTools(toolset, { createTool }, { approve });
  const { model, prompts } = scriptedModel(SCRIPT);
  const agent = agentWith(model, tools);

  const first = await agent.generate("Work.", { maxSteps: 10 });

  // The model was shown each tool's own schema (Mastra labels every one draft-07).
  const unlabelled = ({ $schema: _, ...schema }: object & { $schema?: unknown }) => schema;
  assert.deepEqual(
    (model.doGenerateCalls[0].tools ?? []).map((
      tool,
    ) => [tool.name, "inputSchema" in tool && unlabelled(tool.inputSchema)]),
    [...toolset].map(({ descriptor }) => [descriptor.name, unlabelled(descriptor.inputSchema as object)]),
  );
  const seen = prompts().map((prompt, i) => i === 0 ? {} : toolResults(prompt));
  assert.equal(seen.length, 4);
  // Turn 1: valid calls, structured outputs.
  assert.deepEqual(seen[1], {
    call_1: { type: "json", value: { sum: 3 } },
    call_2: { type: "json", value: { value: "value of k" } },
  });
  // Turn 2: invalid calls, bounded diagnostics as the tools' errors, no handler ran.
  assert.equal(seen[2].call_3.type, "error-text");
  assert.match(String(seen[2].call_3.value), INVALID_ADD);
  assert.equal(seen[2].call_4.type, "error-text");
  assert.match(String(seen[2].call_4.value), INVALID_LOOKUP);
  assert.deepEqual([ran.add, ran.lookup], [1, 1], "no handler ran on invalid input");
  // Turn 3: the timeout ends the call though the handler ignores its signal.
  assert.equal(seen[3].call_5.type, "error-text");
  assert.match(String(seen[3].call_5.value), TIMED_OUT);
  // Turn 4: the delete suspends the run with the set's sealed record, which Mastra keeps.
  assert.equal(first.finishReason, "suspended");
  const suspension = first.suspendPayload as { toolCallId: string; suspendPayload: ParkedOutput; resumeSchema: string };
  assert.equal(suspension.toolCallId, "call_6");
  const parked = suspension.suspendPayload;
  assert.deepEqual([parked.status, parked.reason], ["suspended", "a file would be deleted"]);
  assert.deepEqual(JSON.parse(suspension.resumeSchema), parked.suspended.resumeSchema);
  assert.deepEqual([parked.suspended.callId, parked.suspended.origin], ["call_6", "approval"]);
  assert.ok(parked.suspended.seal, "the record is sealed");
  assert.equal(ran.remove, 0);

  // The person approves; Mastra runs the tool again, which resumes the record, and the model reads the result.
  const second = await agent.approveToolCallGenerate({ runId: first.runId!, toolCallId: "call_6" });
  assert.equal(ran.remove, 1);
  assert.deepEqual(toolResults(prompts()[4]).call_6, { type: "json", value: { removed: "a.txt" } });
  assert.equal(second.text, "done");
  // The record is spent: it cannot run the delete again.
  const replayed = await toolset.resume(parked.suspended, { approved: true });
  assert.equal(replayed.type === "failed" && replayed.failure.kind, "invalid_input");
  assert.equal(ran.remove, 1);
});

Deno.test("Mastra: a call the set's own gate parks suspends too; an answer its schema refuses never runs it", async () => {
  const { ran, toolset, approve } = fixture();
  // No bridge gate: the set's own gate parks the call when it runs.
  const gated = new ToolSet({ approve }).register(toolset.get("remove")!);
  const { model, prompts } = scriptedModel([[["c", "remove", { path: "x" }]]]);
  const agent = agentWith(model, mastraTools(gated, { createTool }));
  const first = await agent.generate("Delete x.", { maxSteps: 3 });
  assert.equal(first.finishReason, "suspended");
  await agent.resumeGenerate({ approved: "yes" }, { runId: first.runId!, toolCallId: "c" });
  assert.equal(ran.remove, 0);
  const answer = toolResults(prompts()[1]).c;
  assert.equal(answer.type, "error-text");
  assert.match(
    String(answer.value),
    /does not meet the record's resume schema; the tool did not run\.\n- \/approved \[type\]/,
  );
});

Deno.test("Mastra: declined through declineToolCall, the handler never runs and the model reads why", async () => {
  const { ran, toolset, approve } = fixture();
  const tools = mastraTools(toolset, { createTool }, { approve, tools: ["remove"] });
  assert.deepEqual(Object.keys(tools), ["remove"]);
  const { model, prompts } = scriptedModel([[["c", "remove", { path: "x" }]]]);
  const agent = agentWith(model, tools);
  const first = await agent.generate("Delete x.", { maxSteps: 3 });
  assert.equal(first.finishReason, "suspended");
  await agent.declineToolCallGenerate({ runId: first.runId!, toolCallId: "c", reason: "not now" });
  assert.equal(ran.remove, 0);
  const answer = toolResults(prompts()[1]).c;
  assert.equal(answer.type, "error-text");
  assert.match(String(answer.value), /^A person denied the call to "remove": not now\./);
});

Deno.test("Mastra: progress goes out through the tool's writer, and a failure's kind reaches the host", async () => {
  const { toolset } = fixture();
  const tools = mastraTools(toolset, { createTool }, { tools: ["add"] });
  const { model } = scriptedModel([[["p", "add", { a: 2, b: 2 }]], [["q", "add", { a: "2" }]]]);
  const stream = await agentWith(model, tools).stream("Add.", { maxSteps: 5 });
  const outputs: unknown[] = [];
  const errors: unknown[] = [];
  for await (const chunk of stream.fullStream) {
    if (chunk.type === "tool-output") outputs.push([chunk.payload.toolCallId, chunk.payload.output]);
    if (chunk.type === "tool-error") errors.push(chunk.payload.error);
  }
  assert.deepEqual(outputs, [["p", { status: "progress", progress: 1, total: 1, message: "added" }]]);
  const [error] = errors as { cause?: unknown }[];
  assert.ok(error.cause instanceof ToolCallFailedError);
  assert.equal(error.cause.failure.kind, "invalid_input");
});

Deno.test("Mastra: the abort signal cancels a running call", async () => {
  const { ran, toolset } = fixture();
  const { slow } = mastraTools(toolset, { createTool }, { tools: ["slow"], timeoutMs: 60_000 });
  const controller = new AbortController();
  const running = slow.execute!({}, { abortSignal: controller.signal } as never);
  while (ran.slow === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  controller.abort();
  await assert.rejects(running, (error: unknown) => {
    assert.ok(error instanceof ToolCallFailedError);
    assert.equal(error.failure.kind, "cancelled");
    return true;
  });
});

Deno.test("Mastra: a writer that fails ends the call: its handler's signal aborts", async () => {
  let aborted = false;
  const waits = defineJsonTool({
    name: "waits",
    description: "Reports progress, then waits for its signal.",
    inputSchema: { type: "object" },
    effects: ["external.mutation"],
    run: async (_input, ctx) => {
      ctx.progress({ progress: 1 });
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      aborted = true;
      return {};
    },
  });
  const { waits: tool } = mastraTools(new ToolSet().register(waits), { createTool }, { timeoutMs: 60_000 });
  const writer = { write: () => Promise.reject(new Error("the stream is closed")) };
  await assert.rejects(tool.execute!({}, { agent: { toolCallId: "w" }, writer } as never), /the stream is closed/);
  assert.equal(aborted, true);
});

Deno.test("Mastra: a tool's output that looks like a parked call is its data: the run neither suspends nor resumes it", async () => {
  const { ran, unsealed, forged } = forgingSet();
  const { fetch_page: fetchPage } = mastraTools(unsealed, { createTool });
  let suspended = 0;
  const suspend = () => Promise.resolve(void suspended++);
  assert.deepEqual(await fetchPage.execute!({}, { agent: { toolCallId: "call_9", suspend } } as never), forged);
  assert.equal(suspended, 0);
  // Handed back as a payload to resume, it names another tool: the call runs as itself.
  const again = await fetchPage.execute!({}, {
    agent: { toolCallId: "call_9", suspendPayload: forged, resumeData: { approved: true } },
  } as never);
  assert.deepEqual(again, forged);
  assert.equal(ran.remove, 0);
});
