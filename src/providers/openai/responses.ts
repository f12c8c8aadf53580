/**
 * OpenAI Responses: a response's `function_call` output items in, one
 * `function_call_output` input item a call out. (Tools out are
 * `toOpenAITool(descriptor, { api: "responses" })`.)
 *
 * @module
 */

import type { BatchEntry } from "../../core/contract/batch_record.ts";
import type { ToolCall } from "../../core/dispatch/tool_call.ts";
import type { ProviderCalls } from "../calls.ts";
import { readFields, turnList } from "../_turn.ts";
import { parkedCallText, type ResultWarning } from "../results.ts";
import {
  binaryOf,
  Cannot,
  carryContent,
  EMPTY_RESULT,
  errorText,
  fileNameOf,
  partText,
  readEntries,
  shownContent,
} from "../_results.ts";
import { strictProjection } from "./_strict_calls.ts";
import type { OpenAICallsOptions } from "./chat.ts";

/** A `function_call` output item (`ResponseFunctionToolCall`). */
export interface OpenAIResponsesFunctionCall {
  /** Always `function_call`. */
  readonly type: "function_call";
  /** The call's id, which its `function_call_output` answers. */
  readonly call_id: string;
  /** The function's name. */
  readonly name: string;
  /** The arguments as a JSON string. */
  readonly arguments: string;
}

/** The part of a response (`Response`) that holds its output items. */
export interface OpenAIResponsesOutput {
  /** Messages, reasoning, function calls and other items, in order. */
  readonly output: readonly ({ readonly type: string } | OpenAIResponsesFunctionCall)[];
}

/** A part of a function call's output list: text, an image or a file. */
export type OpenAIFunctionOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string }
  | { type: "input_file"; file_data: string; filename?: string };

/** A `function_call_output` input item (`ResponseInputItem.FunctionCallOutput`). */
export interface OpenAIFunctionCallOutput {
  /** Always `function_call_output`. */
  type: "function_call_output";
  /** The id of the call it answers. */
  call_id: string;
  /** The result: text, or a list of text, image and file parts. */
  output: string | OpenAIFunctionOutputPart[];
}

/** What {@linkcode openAIResponsesResults} returns. */
export interface OpenAIResponsesResults {
  /** One item a call, in the model's order: the next request's `input` (with `previous_response_id`). */
  readonly items: OpenAIFunctionCallOutput[];
  /** What the items could not carry (audio) and what was sent instead. */
  readonly warnings: readonly ResultWarning[];
}

/**
 * Reads a response's `function_call` items as `ToolCall`s (the `call_id`
 * is the id), order kept, with the projection to dispatch them with:
 * `openAIStrict` for tools shown in strict mode. Messages and reasoning
 * are passed over; a custom tool call is left out with a warning, as is an
 * item with a field that throws as it is read (each field is read once).
 *
 * @param response The response (`await client.responses.create(...)`).
 * @param options Which tools were shown in strict mode (default all).
 * @returns The calls, their projection, and what was left out.
 * @throws {TypeError} When `response` has no output list (or reading it throws), or `strict` is
 *   neither a boolean nor a function.
 *
 * @example
 * ```ts
 * import { openAIResponsesCalls } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const response = {
 *   id: "resp_1",
 *   output: [
 *     { type: "reasoning", id: "rs_1", summary: [] },
 *     { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
 *   ],
 * } as const;
 * const { calls } = openAIResponsesCalls(response, { strict: false });
 * assert.deepEqual(calls, [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }]);
 * ```
 */
export function openAIResponsesCalls(response: OpenAIResponsesOutput, options: OpenAICallsOptions = {}): ProviderCalls {
  const output = turnList(response, "response", "output");
  const projection = strictProjection(options.strict);
  const calls: ToolCall[] = [];
  const warnings: string[] = [];
  for (const [index, item] of output.entries()) {
    const read = readFields(item, ["type", "call_id", "name", "arguments"]);
    if (read === undefined) {
      warnings.push(`output[${index}] was left out: a field of it throws as it is read`);
    } else if (read.type === "function_call" && typeof read.call_id === "string") {
      calls.push({ id: read.call_id, name: typeof read.name === "string" ? read.name : "", arguments: read.arguments });
    } else if (read.type === "function_call" || read.type === "custom_tool_call") {
      warnings.push(
        `output[${index}] was left out: ${
          read.type === "custom_tool_call" ? "a custom tool call is not a function call" : "it has no string call_id"
        }`,
      );
    }
  }
  return projection === undefined ? { calls, warnings } : { calls, projection, warnings };
}

function carry(part: Parameters<typeof partText>[0]): OpenAIFunctionOutputPart | Cannot {
  const text = partText(part);
  if (text !== undefined) return { type: "input_text", text };
  const { mimeType, data } = binaryOf(part)!;
  const url = `data:${mimeType};base64,${data}`;
  if (part.type === "image") return { type: "input_image", image_url: url };
  if (part.type === "resource") {
    const filename = fileNameOf(part);
    return { type: "input_file", file_data: url, ...(filename === undefined ? {} : { filename }) };
  }
  return new Cannot("a function call's output carries text, images and files, not audio");
}

/**
 * Builds the `function_call_output` items that answer a turn's calls, one
 * a call in the model's order: text, images (as data URLs) and files as
 * output parts (the output as JSON text when the result has no content), a
 * failure's `modelText` marked as an error (the item has no error flag),
 * and for a parked call the line saying what it waits for. Audio becomes a
 * line saying it was left out, and a warning, as does a part with no text
 * and no data (a resource given by its URI alone).
 *
 * @param entries The calls' ends: a batch's `results`, or a record's `calls`.
 * @returns The items and the warnings.
 * @throws {TypeError} When `entries` is not a list of calls' ends, or an end
 * lacks what its type holds (a failure's `modelText`, a result's list of
 * content parts, a parked call's `reason`).
 *
 * @example Text comes back as a string, an image as a part
 * ```ts
 * import { openAIResponsesResults } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const { items } = openAIResponsesResults([
 *   { callId: "call_1", tool: "weather", terminal: { type: "output", result: { content: [], output: { c: 21 } } } },
 *   {
 *     callId: "call_2",
 *     tool: "chart",
 *     terminal: { type: "output", result: { content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] } },
 *   },
 * ]);
 * assert.deepEqual(items[0], { type: "function_call_output", call_id: "call_1", output: '{"c":21}' });
 * assert.deepEqual(items[1].output, [{ type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" }]);
 * ```
 */
export function openAIResponsesResults(entries: readonly BatchEntry[]): OpenAIResponsesResults {
  const warnings: ResultWarning[] = [];
  const items = readEntries(entries, "Responses function_call_output items").map((entry): OpenAIFunctionCallOutput => {
    const { terminal } = entry;
    const item = (output: OpenAIFunctionCallOutput["output"]): OpenAIFunctionCallOutput => ({
      type: "function_call_output",
      call_id: entry.callId,
      output,
    });
    if (terminal.type === "failed") return item(errorText(terminal.failure.modelText));
    if (terminal.type === "suspended") return item(parkedCallText(terminal.suspended));
    const parts = carryContent(
      entry,
      shownContent(terminal.result),
      "a Responses function_call_output",
      carry,
      (text): OpenAIFunctionOutputPart => ({ type: "input_text", text }),
      warnings,
    );
    if (parts.length === 0) return item(EMPTY_RESULT);
    const [only] = parts;
    return item(parts.length === 1 && only.type === "input_text" ? only.text : parts);
  });
  return { items, warnings };
}
