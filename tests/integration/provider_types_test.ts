// Type-level: each provider's responses, typed by its own SDK, go into the
// calls-in adapters, and each results-out adapter's message is assignable to
// the SDK's own request type. `deno check` of this file is most of the test;
// the SDKs are dev-only type imports, never imported by the module.

import assert from "node:assert/strict";
import type { Anthropic, Content, FunctionResponse, GenerateContentResponse, OpenAI, Part } from "../dev_deps.ts";
import type { BatchEntry } from "../../mod.ts";
import { toolFailure } from "../../dyn.ts";
import {
  anthropicCalls,
  anthropicResults,
  geminiCalls,
  geminiResults,
  openAIChatCalls,
  openAIChatResults,
  openAIResponsesCalls,
  openAIResponsesResults,
} from "../../providers.ts";

/** One end of each kind, with an image, so every shape an adapter makes is built. */
const ENTRIES: BatchEntry[] = [
  { callId: "c1", tool: "t", terminal: { type: "output", result: { content: [], output: { n: 1 } } } },
  {
    callId: "c2",
    tool: "t",
    terminal: {
      type: "output",
      result: {
        content: [{ type: "text", text: "a chart" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
      },
    },
  },
  { callId: "c3", tool: "t", terminal: { type: "failed", failure: toolFailure("handler", "boom") } },
];

// Each adapter takes the SDK's whole response object, not only the literal examples below.
const chatCallsTakeTheSdkMessage = (message: OpenAI.Chat.ChatCompletionMessage) => openAIChatCalls(message);
const responsesCallsTakeTheSdkResponse = (response: OpenAI.Responses.Response) => openAIResponsesCalls(response);
const anthropicCallsTakeTheSdkMessage = (message: Anthropic.Message) => anthropicCalls(message);
const geminiCallsTakeTheSdkContent = (response: GenerateContentResponse) =>
  geminiCalls(response.candidates?.[0]?.content ?? {});

Deno.test("OpenAI Chat Completions: an SDK-typed completion goes in, the tool messages are the SDK's params", () => {
  // The shape of the function-calling guide's example response.
  const completion: OpenAI.Chat.ChatCompletion = {
    id: "chatcmpl-abc123",
    object: "chat.completion",
    created: 1699896916,
    model: "gpt-4o-mini",
    choices: [{
      index: 0,
      finish_reason: "tool_calls",
      logprobs: null,
      message: {
        role: "assistant",
        content: null,
        refusal: null,
        tool_calls: [{
          id: "call_abc123",
          type: "function",
          function: { name: "get_current_weather", arguments: '{\n"location": "Boston, MA"\n}' },
        }],
      },
    }],
  };
  const { calls } = openAIChatCalls(completion.choices[0].message);
  assert.deepEqual(calls, [{
    id: "call_abc123",
    name: "get_current_weather",
    arguments: '{\n"location": "Boston, MA"\n}',
  }]);

  const { messages } = openAIChatResults(ENTRIES);
  const tool: OpenAI.Chat.ChatCompletionToolMessageParam = messages[0];
  const history: OpenAI.Chat.ChatCompletionMessageParam[] = [completion.choices[0].message, ...messages];
  assert.equal(tool.role, "tool");
  assert.equal(history.length, 4);
  assert.equal(chatCallsTakeTheSdkMessage.length, 1);
});

Deno.test("OpenAI Responses: SDK-typed output items go in, the outputs are the SDK's input items", () => {
  const output: OpenAI.Responses.ResponseOutputItem[] = [{
    type: "function_call",
    id: "fc_12345xyz",
    call_id: "call_12345xyz",
    name: "get_weather",
    arguments: '{"location":"Paris, France"}',
    status: "completed",
  }];
  const { calls } = openAIResponsesCalls({ output });
  assert.deepEqual(calls, [{ id: "call_12345xyz", name: "get_weather", arguments: '{"location":"Paris, France"}' }]);

  const { items } = openAIResponsesResults(ENTRIES);
  const first: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = items[0];
  // The next request continues the response, so its input is the outputs alone.
  const input: OpenAI.Responses.ResponseInput = items;
  const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
    model: "gpt-5",
    previous_response_id: "resp_1",
    input,
  };
  assert.equal(first.call_id, "c1");
  assert.equal(params.input?.length, 3);
  assert.equal(responsesCallsTakeTheSdkResponse.length, 1);
});

Deno.test("Anthropic Messages: SDK-typed content blocks go in, the results are the SDK's tool_result blocks", () => {
  // The tool-use guide's example assistant turn.
  const message: Pick<Anthropic.Message, "role" | "content"> = {
    role: "assistant",
    content: [
      { type: "text", text: "I'll check the weather in San Francisco for you.", citations: null },
      {
        type: "tool_use",
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "get_weather",
        input: { location: "San Francisco, CA", unit: "celsius" },
        caller: { type: "direct" },
      },
    ],
  };
  const { calls } = anthropicCalls(message);
  assert.deepEqual(calls, [{
    id: "toolu_01A09q90qw90lq917835lq9",
    name: "get_weather",
    arguments: { location: "San Francisco, CA", unit: "celsius" },
  }]);

  const { message: reply } = anthropicResults(ENTRIES);
  const block: Anthropic.ToolResultBlockParam = reply.content[1];
  const params: Anthropic.MessageParam[] = [message, reply];
  assert.equal(block.content?.length, 2);
  assert.equal(params.length, 2);
  assert.equal(anthropicCallsTakeTheSdkMessage.length, 1);
});

Deno.test("Gemini: SDK-typed content goes in, the responses are the SDK's FunctionResponse parts", () => {
  const content: Content = {
    role: "model",
    parts: [{ functionCall: { name: "schedule_meeting", args: { attendees: ["Bob", "Alice"], date: "2025-03-27" } } }],
  };
  const { calls } = geminiCalls(content);
  assert.deepEqual(calls, [{
    id: "gemini-synthetic:0:0",
    name: "schedule_meeting",
    arguments: { attendees: ["Bob", "Alice"], date: "2025-03-27" },
  }]);

  const { content: reply } = geminiResults(ENTRIES);
  const response: FunctionResponse = reply.parts[1].functionResponse;
  const part: Part = reply.parts[0];
  const contents: Content[] = [content, reply];
  assert.equal(response.parts?.length, 1);
  assert.equal(part.functionResponse?.name, "t");
  assert.equal(contents.length, 2);
  assert.equal(geminiCallsTakeTheSdkContent.length, 1);
});
