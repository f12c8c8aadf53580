import assert from "node:assert/strict";
import type { OpenAI } from "../dev_deps.ts";
import { type BatchRecord, resumeBatch, runBatch } from "../../mod.ts";
import { openAIChatCalls, openAIChatResults, toOpenAITool } from "../../providers.ts";
import { turnTools, withGetter } from "./fixtures/turn.ts";

/** An assistant message as the API returns it: a strict call with a null optional, an image, a write, a custom call. */
const MESSAGE: OpenAI.Chat.ChatCompletionMessage = {
  role: "assistant",
  content: null,
  refusal: null,
  tool_calls: [
    {
      id: "call_1",
      type: "function",
      function: { name: "get_weather", arguments: '{"location":"Paris","unit":null}' },
    },
    { id: "call_2", type: "function", function: { name: "screenshot", arguments: '{"url":"https://example.com"}' } },
    { id: "call_3", type: "function", function: { name: "write_file", arguments: '{"path":"a.txt","text":"hi"}' } },
    { id: "call_4", type: "custom", custom: { name: "grammar", input: "SELECT 1" } },
  ],
};

Deno.test("openAIChatCalls() keeps ids and order, dispatches strict tools through openAIStrict, and warns of a custom call", async () => {
  const { calls, projection, warnings } = openAIChatCalls(MESSAGE);
  assert.deepEqual(calls.map((call) => call.id), ["call_1", "call_2", "call_3"]);
  assert.deepEqual(warnings, ["tool_calls[3] was left out: it is a custom tool call, which no registered tool takes"]);
  const { results } = await runBatch(turnTools(), calls, { projection });
  assert.deepEqual(results[0].terminal.type === "output" && results[0].terminal.result.output, {
    location: "Paris",
    temperature: 21,
    unit: "celsius",
  });
  // Shown without strict mode, the model's null is the model's mistake again.
  const loose = await runBatch(turnTools(), openAIChatCalls(MESSAGE, { strict: false }).calls.slice(0, 1));
  assert.equal(loose.results[0].terminal.type === "failed" && loose.results[0].terminal.failure.kind, "invalid_input");
  // A mix: only the tools the function names were shown strict.
  const mixed = openAIChatCalls(MESSAGE, { strict: (name) => name === "get_weather" });
  const projectionOf = mixed.projection as (call: { id: string; name: string }) => unknown;
  assert.equal(typeof projectionOf, "function");
  assert.equal(projectionOf({ id: "x", name: "screenshot" }), undefined);
  assert.notEqual(projectionOf({ id: "x", name: "get_weather" }), undefined);
});

Deno.test("openAIChatCalls() reads a message without calls as none, and refuses what is not a message", () => {
  assert.deepEqual(openAIChatCalls({ ...MESSAGE, tool_calls: undefined }).calls, []);
  assert.deepEqual(openAIChatCalls({ tool_calls: null }).calls, []);
  assert.deepEqual(openAIChatCalls({ tool_calls: "x" as never }).warnings, [
    "tool_calls was left out: it is not an array",
  ]);
  assert.throws(() => openAIChatCalls(null as never), /Cannot read the calls as the message must be an object/);
  assert.throws(() => openAIChatCalls(MESSAGE, { strict: "yes" as never }), /strict must be a boolean or a function/);
});

Deno.test("openAIChatResults() answers every call: output as JSON text, text with a line for the image it cannot carry, the parked write's line", async () => {
  const { calls, projection } = openAIChatCalls(MESSAGE);
  const { results, record } = await runBatch(turnTools(), calls, { projection });
  const { messages, warnings } = openAIChatResults(results);
  assert.deepEqual(messages[0], {
    role: "tool",
    tool_call_id: "call_1",
    content: '{"location":"Paris","temperature":21,"unit":"celsius"}',
  });
  assert.deepEqual(messages[1], {
    role: "tool",
    tool_call_id: "call_2",
    content: [
      { type: "text", text: "Screenshot of https://example.com" },
      {
        type: "text",
        text:
          "[A image/png image part of the result was left out: a Chat Completions tool message cannot carry it here.]",
      },
    ],
  });
  assert.deepEqual(warnings, [{
    callId: "call_2",
    path: "/content/1",
    message: "Left out a image/png image part, sent a line saying so instead: tool messages carry text only",
  }]);
  assert.equal(messages[2].tool_call_id, "call_3");
  assert.match(
    messages[2].content as string,
    /^This call is waiting for a person's approval: The call to "write_file" needs approval as it declares fs\.write\. It has not run yet\. What the person sees: \{"tool":"write_file"/,
  );

  // In a new process: approved, the write's real result; denied, an error the model reads.
  const stored: BatchRecord = JSON.parse(JSON.stringify(record));
  const approved = openAIChatResults((await resumeBatch(turnTools(), stored, { call_3: { approved: true } })).results);
  assert.deepEqual(approved.messages.map((m) => m.tool_call_id), ["call_1", "call_2", "call_3"]);
  assert.equal(approved.messages[2].content, '{"path":"a.txt","bytes":2}');
  const denied = openAIChatResults(
    (await resumeBatch(turnTools(), stored, { call_3: { approved: false, reason: "wrong file" } })).results,
  );
  assert.equal(
    denied.messages[2].content,
    'Error: A person denied the call to "write_file": wrong file. Do not try it again without asking.',
  );
});

Deno.test("openAIChatResults() says so for a result with nothing to show, and refuses what is not a list of ends", () => {
  const { messages } = openAIChatResults([{
    callId: "c",
    tool: "t",
    terminal: { type: "output", result: { content: [] } },
  }]);
  assert.equal(messages[0].content, "The call succeeded with no output.");
  assert.throws(
    () => openAIChatResults({} as never),
    /Cannot build Chat Completions tool messages as the entries must be an array/,
  );
  assert.throws(() => openAIChatResults([{ callId: 1 }] as never), /entry 0 is not a call's end/);
});

Deno.test("a tool shown by toOpenAITool and called back round-trips through calls in and results out", async () => {
  const tools = turnTools();
  const shown = tools.descriptors().map((descriptor) => toOpenAITool(descriptor).tool);
  assert.ok(shown.every((tool) => tool.function.strict));
  const { calls, projection } = openAIChatCalls(MESSAGE);
  const { messages } = openAIChatResults((await runBatch(tools, calls.slice(0, 1), { projection })).results);
  assert.equal(messages.length, 1);
});

Deno.test("openAIChatCalls() reads each field of a call once, and leaves out with a warning a call whose field throws as it is read", () => {
  const fn = { name: "get_weather", arguments: "{}" };
  const flips = withGetter({ id: "call_1", type: "function" }, "function", fn, undefined);
  assert.deepEqual(openAIChatCalls({ tool_calls: [flips] } as never).calls, [
    { id: "call_1", name: "get_weather", arguments: "{}" },
  ]);
  const id = withGetter({ type: "function", function: fn }, "id", "call_2", { evil: 1 });
  assert.deepEqual(openAIChatCalls({ tool_calls: [id] } as never).calls.map((call) => call.id), ["call_2"]);
  const throws = withGetter({ id: "call_3", type: "function" }, "function", new RangeError("boom"), undefined);
  assert.deepEqual(openAIChatCalls({ tool_calls: [throws] } as never), {
    calls: [],
    projection: openAIChatCalls({}).projection,
    warnings: ["tool_calls[0] was left out: it is not a function call, which no registered tool takes"],
  });
});

Deno.test("openAIChatCalls() leaves out with a warning a tool_calls or a call of it that throws as it is read", () => {
  const call = { id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } };
  const strict = openAIChatCalls({}).projection;
  assert.deepEqual(openAIChatCalls(withGetter({}, "tool_calls", new RangeError("boom"), [call]) as never), {
    calls: [],
    projection: strict,
    warnings: ["tool_calls was left out: it throws as it is read"],
  });
  assert.deepEqual(
    openAIChatCalls({ tool_calls: withGetter([call, call], "0", new RangeError("boom"), call) } as never),
    {
      calls: [{ id: "call_1", name: "get_weather", arguments: "{}" }],
      projection: strict,
      warnings: ["tool_calls[0] was left out: it is not a function call, which no registered tool takes"],
    },
  );
});
