import assert from "node:assert/strict";
import type { OpenAI } from "../dev_deps.ts";
import { type BatchRecord, resumeBatch, runBatch } from "../../mod.ts";
import { openAIResponsesCalls, openAIResponsesResults, openAIStrict } from "../../providers.ts";
import { PDF, PNG, turnTools, withGetter } from "./fixtures/turn.ts";

const OUTPUT: OpenAI.Responses.ResponseOutputItem[] = [
  { type: "reasoning", id: "rs_1", summary: [] },
  { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"location":"Paris"}' },
  { type: "function_call", id: "fc_2", call_id: "call_2", name: "screenshot", arguments: '{"url":"https://a.b"}' },
  { type: "function_call", id: "fc_3", call_id: "call_3", name: "fetch_pdf", arguments: '{"uri":"file:///r/q3.pdf"}' },
  { type: "function_call", id: "fc_4", call_id: "call_4", name: "record_audio", arguments: "{}" },
  { type: "function_call", id: "fc_5", call_id: "call_5", name: "write_file", arguments: '{"path":"a","text":"b"}' },
  { type: "custom_tool_call", id: "ctc_6", call_id: "call_6", name: "grammar", input: "x" },
];

Deno.test("openAIResponsesCalls() reads function_call items by call_id, passes over reasoning, warns of a custom call", () => {
  const { calls, projection, warnings } = openAIResponsesCalls({ output: OUTPUT });
  assert.deepEqual(calls.map((call) => [call.id, call.name]), [
    ["call_1", "get_weather"],
    ["call_2", "screenshot"],
    ["call_3", "fetch_pdf"],
    ["call_4", "record_audio"],
    ["call_5", "write_file"],
  ]);
  assert.equal(projection, openAIStrict);
  assert.deepEqual(warnings, ["output[6] was left out: a custom tool call is not a function call"]);
  assert.throws(() => openAIResponsesCalls({} as never), /the response must have an output list/);
});

Deno.test("openAIResponsesResults() carries text, images and files, and says what it cannot carry", async () => {
  const { calls, projection } = openAIResponsesCalls({ output: OUTPUT });
  const { results, record } = await runBatch(turnTools(), calls, { projection });
  const { items, warnings } = openAIResponsesResults(results);
  assert.deepEqual(items.slice(0, 3), [
    {
      type: "function_call_output",
      call_id: "call_1",
      output: '{"location":"Paris","temperature":21,"unit":"celsius"}',
    },
    {
      type: "function_call_output",
      call_id: "call_2",
      output: [
        { type: "input_text", text: "Screenshot of https://a.b" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      ],
    },
    {
      type: "function_call_output",
      call_id: "call_3",
      output: [{ type: "input_file", file_data: `data:application/pdf;base64,${PDF}`, filename: "q3.pdf" }],
    },
  ]);
  assert.equal(
    items[3].output,
    "[A audio/wav audio part of the result was left out: a Responses function_call_output cannot carry it here.]",
  );
  assert.deepEqual(warnings.map((w) => [w.callId, w.path]), [["call_4", "/content/0"]]);
  assert.match(items[4].output as string, /^This call is waiting for a person's approval/);

  const stored: BatchRecord = JSON.parse(JSON.stringify(record));
  const denied = openAIResponsesResults(
    (await resumeBatch(turnTools(), stored, { call_5: { approved: false } })).results,
  );
  assert.deepEqual(denied.items[4], {
    type: "function_call_output",
    call_id: "call_5",
    output: 'Error: A person denied the call to "write_file". Do not try it again without asking.',
  });
});

Deno.test("openAIResponsesCalls() reads each field of an item once, and leaves out with a warning an item whose field throws as it is read", () => {
  const flips = withGetter({ type: "function_call", name: "get_weather", arguments: "{}" }, "call_id", "call_1", 7);
  assert.deepEqual(openAIResponsesCalls({ output: [flips] } as never).calls, [
    { id: "call_1", name: "get_weather", arguments: "{}" },
  ]);
  const throws = withGetter({ type: "function_call", call_id: "call_2" }, "name", new RangeError("boom"), "x");
  assert.deepEqual(openAIResponsesCalls({ output: [throws] } as never).warnings, [
    "output[0] was left out: a field of it throws as it is read",
  ]);
});

Deno.test("openAIResponsesCalls() refuses an output that throws as it is read, and leaves out an item of it that does", () => {
  const item = { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{}" };
  assert.throws(
    () => openAIResponsesCalls(withGetter({}, "output", new RangeError("boom"), [item]) as never),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message ===
        "Cannot read the calls as the response must have an output list: current value is a field that throws as it is read",
  );
  const { calls, warnings } = openAIResponsesCalls({
    output: withGetter([item, item], "0", new RangeError("boom"), item),
  } as never);
  assert.deepEqual(calls, [{ id: "call_1", name: "get_weather", arguments: "{}" }]);
  assert.deepEqual(warnings, ["output[0] was left out: a field of it throws as it is read"]);
});
