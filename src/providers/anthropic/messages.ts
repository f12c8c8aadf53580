/**
 * Anthropic Messages: an assistant message's `tool_use` blocks in, one
 * user message of `tool_result` blocks out. (Tools out are
 * `toAnthropicTool`.)
 *
 * @module
 */

import type { BatchEntry } from "../../core/contract/batch_record.ts";
import type { ToolCall } from "../../core/dispatch/tool_call.ts";
import type { ProviderCalls } from "../calls.ts";
import { readFields, turnList } from "../_turn.ts";
import { parkedCallText, type ResultWarning } from "../results.ts";
import { binaryOf, Cannot, carryContent, EMPTY_RESULT, partText, readEntries, shownContent } from "../_results.ts";

/** A `tool_use` block of an assistant message (`ToolUseBlock`). */
export interface AnthropicToolUseBlock {
  /** Always `tool_use`. */
  readonly type: "tool_use";
  /** The call's id, which its `tool_result` answers. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments, already parsed. */
  readonly input: unknown;
}

/** The part of an assistant message (`Message`) that holds its content blocks. */
export interface AnthropicAssistantMessage {
  /** Text, thinking, `tool_use` and server tool blocks, in order. */
  readonly content: readonly ({ readonly type: string } | AnthropicToolUseBlock)[];
}

/** The image types a `tool_result` carries. */
export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** A block inside a `tool_result`: text, an image, or a document (PDF or plain text). */
export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } }
  | {
    type: "document";
    source: { type: "base64"; media_type: "application/pdf"; data: string };
    title?: string;
  };

/** A `tool_result` block (`ToolResultBlockParam`). */
export interface AnthropicToolResultBlock {
  /** Always `tool_result`. */
  type: "tool_result";
  /** The id of the `tool_use` it answers. */
  tool_use_id: string;
  /** What the tool produced, or what went wrong. */
  content: AnthropicToolResultContent[];
  /** Set for a failed call. */
  is_error?: boolean;
}

/** The user message that answers a turn's tool calls (`MessageParam`). */
export interface AnthropicToolResultsMessage {
  /** Always `user`. */
  role: "user";
  /** One `tool_result` a call, in the model's order. */
  content: AnthropicToolResultBlock[];
}

/** What {@linkcode anthropicResults} returns. */
export interface AnthropicResults {
  /** The user message to send next. */
  readonly message: AnthropicToolResultsMessage;
  /** What the blocks could not carry (audio, other media types) and what was sent instead. */
  readonly warnings: readonly ResultWarning[];
}

const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/**
 * Reads an assistant message's `tool_use` blocks as `ToolCall`s, ids and
 * order kept; the input is already a value. Text, thinking and server tool
 * blocks are not calls of yours and are passed over. A block with a field
 * that throws as it is read is left out with a warning (each field is read
 * once).
 *
 * @param message The assistant message (`await client.messages.create(...)`).
 * @returns The calls, and what was left out.
 * @throws {TypeError} When `message` has no content list, or reading it throws.
 *
 * @example
 * ```ts
 * import { anthropicCalls } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const message = {
 *   role: "assistant",
 *   content: [
 *     { type: "text", text: "Let me look." },
 *     { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "notes.md" } },
 *   ],
 * } as const;
 * const { calls } = anthropicCalls(message);
 * assert.deepEqual(calls, [{ id: "toolu_01", name: "read_file", arguments: { path: "notes.md" } }]);
 * ```
 */
export function anthropicCalls(message: AnthropicAssistantMessage): ProviderCalls {
  const content = turnList(message, "message", "content");
  const calls: ToolCall[] = [];
  const warnings: string[] = [];
  for (const [index, block] of content.entries()) {
    const read = readFields(block, ["type", "id", "name", "input"]);
    if (read === undefined) {
      warnings.push(`content[${index}] was left out: a field of it throws as it is read`);
    } else if (read.type === "tool_use" && typeof read.id === "string") {
      calls.push({ id: read.id, name: typeof read.name === "string" ? read.name : "", arguments: read.input });
    } else if (read.type === "tool_use") {
      warnings.push(`content[${index}] was left out: a tool_use block without a string id cannot be answered`);
    }
  }
  return { calls, warnings };
}

function carry(part: Parameters<typeof partText>[0]): AnthropicToolResultContent | Cannot {
  const text = partText(part);
  if (text !== undefined) return { type: "text", text };
  const binary = binaryOf(part)!;
  if (part.type !== "audio" && IMAGE_TYPES.has(binary.mimeType)) {
    return {
      type: "image",
      source: { type: "base64", media_type: binary.mimeType as AnthropicImageMediaType, data: binary.data },
    };
  }
  if (part.type === "resource" && binary.mimeType === "application/pdf") {
    return { type: "document", source: { type: "base64", media_type: "application/pdf", data: binary.data } };
  }
  return new Cannot("a tool_result carries text, JPEG, PNG, GIF and WebP images, and PDF documents");
}

/**
 * Builds the user message of `tool_result` blocks that answers a turn's
 * calls, one block a call in the model's order: text, images and PDF
 * documents as blocks (the output as JSON text when the result has no
 * content), a failure's `modelText` with `is_error: true`, and for a
 * parked call the line saying what it waits for. Audio and other media
 * types become a line saying they were left out, and a warning, as does a
 * part with no text and no data (a resource given by its URI alone).
 *
 * @param entries The calls' ends: a batch's `results`, or a record's `calls`.
 * @returns The message and the warnings.
 * @throws {TypeError} When `entries` is not a list of calls' ends, or an end
 * lacks what its type holds (a failure's `modelText`, a result's list of
 * content parts, a parked call's `reason`).
 *
 * @example A failure is flagged, an image is carried
 * ```ts
 * import { anthropicResults } from "@salvor/tools/providers";
 * import { toolFailure } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const { message, warnings } = anthropicResults([
 *   { callId: "toolu_1", tool: "divide", terminal: { type: "failed", failure: toolFailure("handler", "b is 0") } },
 *   {
 *     callId: "toolu_2",
 *     tool: "screenshot",
 *     terminal: { type: "output", result: { content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] } },
 *   },
 * ]);
 * assert.deepEqual(message.content[0], {
 *   type: "tool_result",
 *   tool_use_id: "toolu_1",
 *   content: [{ type: "text", text: "b is 0" }],
 *   is_error: true,
 * });
 * assert.equal(message.content[1].content[0].type, "image");
 * assert.deepEqual(warnings, []);
 * ```
 */
export function anthropicResults(entries: readonly BatchEntry[]): AnthropicResults {
  const warnings: ResultWarning[] = [];
  const blocks = readEntries(entries, "Anthropic tool_result blocks").map((entry): AnthropicToolResultBlock => {
    const { terminal } = entry;
    const block = (content: AnthropicToolResultContent[], isError = false): AnthropicToolResultBlock => ({
      type: "tool_result",
      tool_use_id: entry.callId,
      content,
      ...(isError ? { is_error: true } : {}),
    });
    const text = (text: string): AnthropicToolResultContent => ({ type: "text", text });
    if (terminal.type === "failed") return block([text(terminal.failure.modelText)], true);
    if (terminal.type === "suspended") return block([text(parkedCallText(terminal.suspended))]);
    const content = carryContent(
      entry,
      shownContent(terminal.result),
      "an Anthropic tool_result",
      carry,
      text,
      warnings,
    );
    return block(content.length > 0 ? content : [text(EMPTY_RESULT)]);
  });
  return { message: { role: "user", content: blocks }, warnings };
}
