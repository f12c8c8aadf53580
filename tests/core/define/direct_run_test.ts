// Defined tools run their handler directly from a registry; these check that
// the shortcut never changes what a call does.

import assert from "node:assert/strict";
import * as v from "valibot";
import { defineJsonTool, defineTool, ToolSet } from "../../../mod.ts";
import { type DynTool, toolFailure } from "../../../dyn.ts";

const echo = defineTool({
  name: "echo",
  description: "Echoes a text.",
  inputSchema: v.object({ text: v.string() }),
  outputSchema: v.object({ text: v.string() }),
  effects: [],
  run: (input, ctx) => {
    ctx.progress({ message: "echoing" });
    return { text: input.text };
  },
});

Deno.test("ToolSet.call() runs the execute() of a copy of a defined tool, not the handler it was defined with", async () => {
  const copy: DynTool = {
    ...echo,
    async *execute() {
      yield { type: "output", result: { content: [], output: { text: "from the copy" } } };
    },
  };
  const end = await new ToolSet().register(copy).call({ id: "1", name: "echo", arguments: '{"text":"hi"}' });
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { text: "from the copy" });
});

Deno.test("ToolSet.call() runs a defined tool's replaced execute() once it is replaced on the tool itself", async () => {
  const tool = defineJsonTool({
    name: "ping",
    description: "Pong.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({ pong: "handler" }),
  });
  (tool as { execute: DynTool["execute"] }).execute = async function* () {
    yield { type: "failed", failure: toolFailure("handler", "replaced") };
  };
  const end = await new ToolSet().register(tool).call({ id: "1", name: "ping" });
  assert.equal(end.type === "failed" && end.failure.message, "replaced");
});

Deno.test("ToolSet.call() hands a defined tool's progress to onProgress before it resolves", async () => {
  const seen: string[] = [];
  const end = await new ToolSet().register(echo).call(
    { id: "1", name: "echo", arguments: '{"text":"hi"}' },
    { onProgress: (event) => seen.push(event.message ?? "") },
  );
  seen.push(end.type);
  assert.deepEqual(seen, ["echoing", "output"]);
});

Deno.test("ToolSet.stream() yields a defined tool's progress, then its one terminal", async () => {
  const types: string[] = [];
  for await (
    const event of new ToolSet().register(echo).stream({ id: "1", name: "echo", arguments: '{"text":"hi"}' })
  ) {
    types.push(event.type);
  }
  assert.deepEqual(types, ["progress", "output"]);
});

Deno.test("ToolSet.call() reports a defined tool whose output JSON cannot carry as invalid_output, not a crash", async () => {
  const tool = defineJsonTool({
    name: "big",
    description: "Returns a BigInt.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => 1n,
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "big" });
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_output");
});

Deno.test("ToolSet.call() gives a handler a context it may destructure: progress unbound, signal an AbortSignal", async () => {
  const seen: string[] = [];
  const tool = defineJsonTool({
    name: "report",
    description: "Reports.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, { progress, signal, callId, extensions }) => {
      progress({ message: "half" });
      return { aborted: signal.aborted, callId, user: extensions.user ?? null };
    },
  });
  const end = await new ToolSet().register(tool).call(
    { id: "call_9", name: "report" },
    { onProgress: (event) => seen.push(event.message ?? ""), extensions: { user: "u1" } },
  );
  assert.deepEqual(seen, ["half"]);
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { aborted: false, callId: "call_9", user: "u1" });
});
