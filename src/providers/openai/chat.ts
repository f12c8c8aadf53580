/**
 * OpenAI Chat Completions: an assistant message's `tool_calls` in, one
 * `tool` message a call out. (Tools out are `toOpenAITool`.)
 *
 * @module
 */

import type { BatchEntry } from "../../core/contract/batch_record.ts";
import type { ToolCall } from "../../core/dispatch/tool_call.ts";
import { isRecord } from "../../core/common/_is_record.ts";
import type { ProviderCalls } from "../calls.ts";
import { optionalTurnList, readFields, turnObject } from "../_turn.ts";
import { parkedCallText, type ResultWarning } from "../results.ts";
import { Cannot, carryContent, EMPTY_RESULT, errorText, partText, readEntries, shownContent } from "../_results.ts";
import { strictProjection } from "./_strict_calls.ts";

/** A function call of an assistant message (`ChatCompletionMessageFunctionToolCall`). */
export interface OpenAIChatFunctionCall {
  /** The call's id, which its tool message answers. */
  readonly id: string;
  /** Always `function`. */
  readonly type: "function";
  /** The function and its arguments as a JSON string. */
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A custom tool call (`ChatCompletionMessageCustomToolCall`): free text, not a function. */
export interface OpenAIChatCustomCall {
  /** The call's id. */
  readonly id: string;
  /** Always `custom`. */
  readonly type: "custom";
  /** The custom tool and its input text. */
  readonly custom: { readonly name: string; readonly input: string };
}

/** The part of an assistant message (`ChatCompletionMessage`) that holds its tool calls. */
export interface OpenAIChatAssistantMessage {
  /** The calls the model made, if any. */
  readonly tool_calls?: readonly (OpenAIChatFunctionCall | OpenAIChatCustomCall)[] | null;
}

/** Options for {@linkcode openAIChatCalls}. */
export interface OpenAICallsOptions {
  /**
   * Whether the tools were shown in strict mode (`toOpenAITool`'s default):
   * `true` (the default), `false`, or a function of a tool's name for a mix
   * (a tool projected with `onUnsupported: "non_strict"` may be shown
   * without it). The calls of a strict tool are dispatched with
   * `openAIStrict`.
   */
  readonly strict?: boolean | ((tool: string) => boolean);
}

/** A Chat Completions `tool` message (`ChatCompletionToolMessageParam`). */
export interface OpenAIChatToolMessage {
  /** Always `tool`. */
  role: "tool";
  /** The id of the call it answers. */
  tool_call_id: string;
  /** The result as text: tool messages carry text only. */
  content: string | { type: "text"; text: string }[];
}

/** What {@linkcode openAIChatResults} returns. */
export interface OpenAIChatResults {
  /** One `tool` message a call, in the model's order: append them after the assistant message. */
  readonly messages: OpenAIChatToolMessage[];
  /** What the messages could not carry (images, audio, files) and what was sent instead. */
  readonly warnings: readonly ResultWarning[];
}

/**
 * Reads an assistant message's function calls as `ToolCall`s, ids and
 * order kept, with the projection to dispatch them with: `openAIStrict`
 * for tools shown in strict mode. A custom tool call is not a function
 * call: it is left out with a warning, as is a call with a field that
 * throws as it is read (each field is read once).
 *
 * @param message The assistant message (`completion.choices[0].message`).
 * @param options Which tools were shown in strict mode.
 * @returns The calls, their projection, and what was left out.
 * @throws {TypeError} When `message` is not an object or `strict` is neither a boolean nor a function.
 *
 * @example Dispatch a strict model's calls
 * ```ts
 * import { defineJsonTool, runBatch, ToolSet } from "@salvor/tools";
 * import { openAIChatCalls } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const search = defineJsonTool({
 *   name: "search",
 *   description: "Search.",
 *   inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer" } }, required: ["q"] },
 *   effects: ["external.read"],
 *   run: (input) => input,
 * });
 * const message = {
 *   role: "assistant" as const,
 *   content: null,
 *   tool_calls: [{ id: "call_1", type: "function" as const, function: { name: "search", arguments: '{"q":"mcp","limit":null}' } }],
 * };
 * const { calls, projection } = openAIChatCalls(message);
 * assert.deepEqual(calls, [{ id: "call_1", name: "search", arguments: '{"q":"mcp","limit":null}' }]);
 * const { results } = await runBatch(new ToolSet().register(search), calls, { projection });
 * assert.deepEqual(results[0].terminal.type === "output" && results[0].terminal.result.output, { q: "mcp" });
 * ```
 */
export function openAIChatCalls(message: OpenAIChatAssistantMessage, options: OpenAICallsOptions = {}): ProviderCalls {
  const listed = optionalTurnList(turnObject(message, "message"), "tool_calls");
  const projection = strictProjection(options.strict);
  const calls: ToolCall[] = [];
  const warnings: string[] = [];
  for (const [index, call] of (typeof listed === "string" ? [] : listed).entries()) {
    const read = readFields(call, ["type", "id", "function"]);
    const fn = isRecord(read?.function) ? readFields(read.function, ["name", "arguments"]) : undefined;
    if (read?.type === "function" && typeof read.id === "string" && fn !== undefined) {
      calls.push({ id: read.id, name: typeof fn.name === "string" ? fn.name : "", arguments: fn.arguments });
    } else {
      const what = read?.type === "custom" ? "a custom tool call" : "not a function call";
      warnings.push(`tool_calls[${index}] was left out: it is ${what}, which no registered tool takes`);
    }
  }
  if (typeof listed === "string") warnings.push(`tool_calls was left out: ${listed}`);
  return projection === undefined ? { calls, warnings } : { calls, projection, warnings };
}

/**
 * Builds the `tool` messages that answer a turn's calls, one a call in the
 * model's order: the result's text (its output as JSON text when it has no
 * content), a failure's `modelText` marked as an error (Chat Completions
 * has no error flag), and for a parked call the line saying what it waits
 * for, so the next request is not refused for an unanswered call. Tool
 * messages carry text only: an image, audio or file becomes a line saying
 * it was left out, and a warning, as does a part with no text and no data
 * (a resource given by its URI alone).
 *
 * @param entries The calls' ends: a batch's `results`, or a record's `calls`.
 * @returns The messages and the warnings.
 * @throws {TypeError} When `entries` is not a list of calls' ends, or an end
 * lacks what its type holds (a failure's `modelText`, a result's list of
 * content parts, a parked call's `reason`).
 *
 * @example A failure and an image
 * ```ts
 * import { openAIChatResults } from "@salvor/tools/providers";
 * import { toolFailure } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const { messages, warnings } = openAIChatResults([
 *   { callId: "call_1", tool: "divide", terminal: { type: "failed", failure: toolFailure("handler", "b is 0") } },
 *   {
 *     callId: "call_2",
 *     tool: "screenshot",
 *     terminal: { type: "output", result: { content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] } },
 *   },
 * ]);
 * assert.deepEqual(messages[0], { role: "tool", tool_call_id: "call_1", content: "Error: b is 0" });
 * assert.match(messages[1].content as string, /image\/png image part of the result was left out/);
 * assert.deepEqual(warnings.map((w) => [w.callId, w.path]), [["call_2", "/content/0"]]);
 * ```
 */
export function openAIChatResults(entries: readonly BatchEntry[]): OpenAIChatResults {
  const warnings: ResultWarning[] = [];
  const messages = readEntries(entries, "Chat Completions tool messages").map((entry): OpenAIChatToolMessage => {
    const { terminal } = entry;
    const message = (content: OpenAIChatToolMessage["content"]): OpenAIChatToolMessage => ({
      role: "tool",
      tool_call_id: entry.callId,
      content,
    });
    if (terminal.type === "failed") return message(errorText(terminal.failure.modelText));
    if (terminal.type === "suspended") return message(parkedCallText(terminal.suspended));
    const parts = carryContent(
      entry,
      shownContent(terminal.result),
      "a Chat Completions tool message",
      (part) => {
        const text = partText(part);
        return text === undefined ? new Cannot("tool messages carry text only") : { type: "text" as const, text };
      },
      (text) => ({ type: "text" as const, text }),
      warnings,
    );
    if (parts.length === 0) return message(EMPTY_RESULT);
    return message(parts.length === 1 ? parts[0].text : parts);
  });
  return { messages, warnings };
}
