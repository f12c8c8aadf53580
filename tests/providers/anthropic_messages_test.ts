import assert from "node:assert/strict";
import type { Anthropic } from "../dev_deps.ts";
import { type BatchRecord, resumeBatch, runBatch } from "../../mod.ts";
import { anthropicCalls, anthropicResults } from "../../providers.ts";
import { PDF, PNG, turnTools, withGetter } from "./fixtures/turn.ts";

const MESSAGE: Pick<Anthropic.Message, "role" | "content"> = {
  role: "assistant",
  content: [
    { type: "text", text: "Let me check.", citations: null },
    { type: "tool_use", id: "toolu_1", name: "get_weather", input: { location: "Paris" }, caller: { type: "direct" } },
    { type: "tool_use", id: "toolu_2", name: "screenshot", input: { url: "https://a.b" }, caller: { type: "direct" } },
    {
      type: "tool_use",
      id: "toolu_3",
      name: "fetch_pdf",
      input: { uri: "file:///q3.pdf" },
      caller: { type: "direct" },
    },
    { type: "tool_use", id: "toolu_4", name: "record_audio", input: {}, caller: { type: "direct" } },
    {
      type: "tool_use",
      id: "toolu_5",
      name: "write_file",
      input: { path: "a.txt", text: "hi" },
      caller: { type: "direct" },
    },
  ],
};

Deno.test("anthropicCalls() reads tool_use blocks with their ids and parsed input, passing text over", () => {
  const { calls, warnings } = anthropicCalls(MESSAGE);
  assert.deepEqual(calls[0], { id: "toolu_1", name: "get_weather", arguments: { location: "Paris" } });
  assert.equal(calls.length, 5);
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    anthropicCalls({ content: [{ type: "tool_use", id: 7, name: "x", input: {} } as never] }).warnings,
    ["content[0] was left out: a tool_use block without a string id cannot be answered"],
  );
  assert.throws(() => anthropicCalls({} as never), /the message must have a content list/);
});

Deno.test("anthropicResults() carries text, images and PDFs, flags failures, and says what it cannot carry", async () => {
  const { calls } = anthropicCalls(MESSAGE);
  const { results, record } = await runBatch(turnTools(), calls);
  const { message, warnings } = anthropicResults(results);
  assert.equal(message.role, "user");
  assert.deepEqual(message.content.slice(0, 3), [
    {
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: [{ type: "text", text: '{"location":"Paris","temperature":21,"unit":"celsius"}' }],
    },
    {
      type: "tool_result",
      tool_use_id: "toolu_2",
      content: [
        { type: "text", text: "Screenshot of https://a.b" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    },
    {
      type: "tool_result",
      tool_use_id: "toolu_3",
      content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } }],
    },
  ]);
  assert.deepEqual(warnings.map((w) => [w.callId, w.path]), [["toolu_4", "/content/0"]]);
  const parked = message.content[4];
  assert.equal(parked.is_error, undefined);
  assert.match(parked.content[0].type === "text" ? parked.content[0].text : "", /waiting for a person's approval/);

  const stored: BatchRecord = JSON.parse(JSON.stringify(record));
  const denied = anthropicResults((await resumeBatch(turnTools(), stored, { toolu_5: { approved: false } })).results);
  assert.deepEqual(denied.message.content[4], {
    type: "tool_result",
    tool_use_id: "toolu_5",
    content: [{ type: "text", text: 'A person denied the call to "write_file". Do not try it again without asking.' }],
    is_error: true,
  });
  const approved = anthropicResults((await resumeBatch(turnTools(), stored, { toolu_5: { approved: true } })).results);
  assert.deepEqual(approved.message.content[4].content, [{ type: "text", text: '{"path":"a.txt","bytes":2}' }]);
});

Deno.test("anthropicResults() refuses an image type the API does not take, with a line and a warning", () => {
  const { message, warnings } = anthropicResults([{
    callId: "toolu_1",
    tool: "draw",
    terminal: { type: "output", result: { content: [{ type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" }] } },
  }]);
  assert.match(message.content[0].content[0].type === "text" ? message.content[0].content[0].text : "", /svg/);
  assert.equal(warnings.length, 1);
});

Deno.test("anthropicCalls() reads each field of a block once, and leaves out with a warning a block whose field throws as it is read", () => {
  const flips = withGetter({ type: "tool_use", name: "get_weather", input: {} }, "id", "toolu_1", 42);
  assert.deepEqual(anthropicCalls({ content: [flips] } as never).calls, [
    { id: "toolu_1", name: "get_weather", arguments: {} },
  ]);
  const throws = withGetter({ type: "tool_use", id: "toolu_2" }, "input", new RangeError("boom"), {});
  assert.deepEqual(anthropicCalls({ content: [throws] } as never).warnings, [
    "content[0] was left out: a field of it throws as it is read",
  ]);
});

Deno.test("anthropicCalls() refuses a content that throws as it is read, and leaves out a block of it that does", () => {
  const block = { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} };
  assert.throws(
    () => anthropicCalls(withGetter({}, "content", new RangeError("boom"), [block]) as never),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message ===
        "Cannot read the calls as the message must have a content list: current value is a field that throws as it is read",
  );
  assert.deepEqual(
    anthropicCalls({ content: withGetter([block, block], "0", new RangeError("boom"), block) } as never),
    {
      calls: [{ id: "toolu_1", name: "get_weather", arguments: {} }],
      warnings: ["content[0] was left out: a field of it throws as it is read"],
    },
  );
});
