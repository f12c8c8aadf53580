import assert from "node:assert/strict";
import type { Content } from "../dev_deps.ts";
import { type BatchRecord, resumeBatch, runBatch } from "../../mod.ts";
import { geminiCalls, geminiResults } from "../../providers.ts";
import { PDF, PNG, turnTools, withGetter } from "./fixtures/turn.ts";

/** Gemini may send calls without ids: results then match by name and order. */
const CONTENT: Content = {
  role: "model",
  parts: [
    { text: "Checking." },
    { functionCall: { name: "get_weather", args: { location: "Paris" } } },
    { functionCall: { id: "fc_2", name: "screenshot", args: { url: "https://a.b" } } },
    { functionCall: { name: "fetch_pdf", args: { uri: "file:///q3.pdf" } } },
    { functionCall: { name: "record_audio", args: {} } },
    { functionCall: { name: "write_file", args: { path: "a.txt", text: "hi" } } },
  ],
};

Deno.test("geminiCalls() keeps the ids Gemini sent and makes stable ones, by turn, for calls without", () => {
  const { calls } = geminiCalls(CONTENT, { turn: 7 });
  assert.deepEqual(calls.map((call) => call.id), [
    "gemini-synthetic:7:0",
    "fc_2",
    "gemini-synthetic:7:2",
    "gemini-synthetic:7:3",
    "gemini-synthetic:7:4",
  ]);
  assert.deepEqual(geminiCalls(CONTENT, { turn: 7 }).calls, calls, "the same content, the same ids");
  assert.notDeepEqual(geminiCalls(CONTENT, { turn: 8 }).calls, calls);
  assert.deepEqual(geminiCalls({ parts: "x" as never }).warnings, ["parts was left out: it is not an array"]);
  assert.deepEqual(geminiCalls({}).calls, []);
  assert.throws(() => geminiCalls(null as never), /the content must be an object/);
});

Deno.test("geminiResults() keeps structured output structured, sends images and PDFs as parts, and maps back by name and order", async () => {
  const { calls } = geminiCalls(CONTENT);
  const { results, record } = await runBatch(turnTools(), calls);
  const { content, warnings } = geminiResults(results);
  assert.equal(content.role, "user");
  assert.deepEqual(content.parts.slice(0, 3), [
    {
      functionResponse: {
        name: "get_weather",
        response: { output: { location: "Paris", temperature: 21, unit: "celsius" } },
      },
    },
    {
      functionResponse: {
        id: "fc_2",
        name: "screenshot",
        response: { output: "Screenshot of https://a.b" },
        parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
      },
    },
    {
      functionResponse: {
        name: "fetch_pdf",
        response: { output: "The call succeeded with no output." },
        parts: [{ inlineData: { mimeType: "application/pdf", data: PDF, displayName: "q3.pdf" } }],
      },
    },
  ]);
  assert.deepEqual(warnings.map((w) => [w.callId, w.path]), [["gemini-synthetic:0:3", "/content/0"]]);
  assert.match(String(content.parts[4].functionResponse.response.output), /waiting for a person's approval/);

  const stored: BatchRecord = JSON.parse(JSON.stringify(record));
  const denied = geminiResults(
    (await resumeBatch(turnTools(), stored, { "gemini-synthetic:0:4": { approved: false } })).results,
  );
  assert.deepEqual(denied.content.parts[4], {
    functionResponse: {
      name: "write_file",
      response: { error: 'A person denied the call to "write_file". Do not try it again without asking.' },
    },
  });
});

Deno.test("geminiResults() sends text a handler wrote beside its structured output as content", () => {
  const { content } = geminiResults([{
    callId: "fc_1",
    tool: "stat",
    terminal: { type: "output", result: { content: [{ type: "text", text: "12 bytes" }], output: { size: 12 } } },
  }]);
  assert.deepEqual(content.parts[0].functionResponse.response, { output: { size: 12 }, content: "12 bytes" });
});

Deno.test("geminiCalls() makes ids no real id of the turn can equal, and geminiResults() leaves out only the ids it made", async () => {
  const content: Content = {
    role: "model",
    parts: [
      { functionCall: { id: "gemini-synthetic:0:1", name: "get_weather", args: { location: "Paris" } } },
      { functionCall: { name: "get_weather", args: { location: "Rome" } } },
      { functionCall: { id: "gemini-id:7", name: "get_weather", args: { location: "Oslo" } } },
    ],
  };
  const { calls } = geminiCalls(content);
  const ids = calls.map((call) => call.id);
  assert.equal(new Set(ids).size, 3, JSON.stringify(ids));
  const { results } = await runBatch(turnTools(), calls);
  assert.deepEqual(results.map((result) => result.terminal.type), ["output", "output", "output"]);
  const { content: answer } = geminiResults(results);
  assert.deepEqual(answer.parts.map((part) => part.functionResponse.id), [
    "gemini-synthetic:0:1",
    undefined,
    "gemini-id:7",
  ]);
});

Deno.test("geminiCalls() reads each field of a part once, and leaves out with a warning a part whose field throws as it is read", () => {
  const flips = withGetter({}, "functionCall", { id: "fc_1", name: "get_weather", args: {} }, null);
  assert.deepEqual(geminiCalls({ parts: [flips] } as never).calls, [{
    id: "fc_1",
    name: "get_weather",
    arguments: {},
  }]);
  const throws = withGetter({}, "functionCall", new RangeError("boom"), null);
  assert.deepEqual(geminiCalls({ parts: [throws] } as never), {
    calls: [],
    warnings: ["parts[0] was left out: a field of it throws as it is read"],
  });
});

Deno.test("geminiCalls() leaves out with a warning parts or a part of them that throws as it is read", () => {
  const part = { functionCall: { id: "fc_1", name: "get_weather", args: {} } };
  assert.deepEqual(geminiCalls(withGetter({}, "parts", new RangeError("boom"), [part]) as never), {
    calls: [],
    warnings: ["parts was left out: it throws as it is read"],
  });
  assert.deepEqual(geminiCalls({ parts: withGetter([part, part], "0", new RangeError("boom"), part) } as never), {
    calls: [{ id: "fc_1", name: "get_weather", arguments: {} }],
    warnings: ["parts[0] was left out: a field of it throws as it is read"],
  });
});
