/**
 * Gemini: a candidate's `functionCall` parts in, one content of
 * `functionResponse` parts out. (Tools out are `toGeminiFunction`.)
 *
 * @module
 */

import type { BatchEntry } from "../../core/contract/batch_record.ts";
import type { ToolCall } from "../../core/dispatch/tool_call.ts";
import { isRecord } from "../../core/common/_is_record.ts";
import type { ProviderCalls } from "../calls.ts";
import { optionalTurnList, readFields, turnObject } from "../_turn.ts";
import { parkedCallText, type ResultWarning } from "../results.ts";
import { binaryOf, Cannot, carryContent, EMPTY_RESULT, fileNameOf, partText, readEntries } from "../_results.ts";

/** A `functionCall` of a part (`FunctionCall`); the id may be missing. */
export interface GeminiFunctionCall {
  /** The call's id, when the API gave one. */
  readonly id?: string;
  /** The function's name. */
  readonly name?: string;
  /** The arguments, already parsed. */
  readonly args?: Record<string, unknown>;
}

/** The content of a candidate (`Content`, `response.candidates[0].content`). */
export interface GeminiModelContent {
  /** `model`, for a candidate's content. */
  readonly role?: string;
  /** Text, thought and `functionCall` parts, in order. */
  readonly parts?: readonly { readonly functionCall?: GeminiFunctionCall }[];
}

/** Options for {@linkcode geminiCalls}. */
export interface GeminiCallsOptions {
  /**
   * Names the turn in the ids made for calls that came without one
   * (`gemini-synthetic:<turn>:<n>`), so they differ from turn to turn: an
   * id is also the idempotency key `runBatch` gives a call. Default `"0"`.
   */
  readonly turn?: string | number;
}

/** A binary part of a function response (`FunctionResponsePart`). */
export interface GeminiFunctionResponsePart {
  /** The bytes, base64, and their media type. */
  inlineData: { mimeType: string; data: string; displayName?: string };
}

/** A `functionResponse` (`FunctionResponse`). */
export interface GeminiFunctionResponse {
  /** The call's id, when the call had one. */
  id?: string;
  /** The function's name: Gemini matches a response to a call without an id by name and order. */
  name: string;
  /** `{ output }` for a result (and `content`, the text shown beside a structured output), `{ error }` for a failure. */
  response: Record<string, unknown>;
  /** Images and documents the result holds. */
  parts?: GeminiFunctionResponsePart[];
}

/** The content that answers a turn's calls (`Content`). */
export interface GeminiFunctionResponsesContent {
  /** Always `user`. */
  role: "user";
  /** One `functionResponse` part a call, in the model's order. */
  parts: { functionResponse: GeminiFunctionResponse }[];
}

/** What {@linkcode geminiResults} returns. */
export interface GeminiResults {
  /** The content to append to `contents` after the model's. */
  readonly content: GeminiFunctionResponsesContent;
  /** What the parts could not carry (audio, other media types) and what was sent instead. */
  readonly warnings: readonly ResultWarning[];
}

// The ids made for calls without one start with SYNTHETIC. A real id that starts with either prefix is kept apart
// under KEPT, so a made id can never equal a real one, and the responses give back exactly the ids Gemini sent.
const SYNTHETIC = "gemini-synthetic:";
const KEPT = "gemini-id:";

/** The call id for an id Gemini sent. */
function callIdOf(id: string): string {
  return id.startsWith(SYNTHETIC) || id.startsWith(KEPT) ? `${KEPT}${id}` : id;
}

/** The id Gemini sent for a call id, or `undefined` for one made here (or none). */
function sentIdOf(callId: string): string | undefined {
  if (callId.startsWith(KEPT)) return callId.slice(KEPT.length);
  return callId.startsWith(SYNTHETIC) || callId === "" ? undefined : callId;
}

// The media types Gemini takes in a function response's parts, from "Multimodal
// function responses" in https://ai.google.dev/gemini-api/docs/function-calling.
const INLINE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "application/pdf",
  "text/plain",
]);

/**
 * Reads a candidate's `functionCall` parts as `ToolCall`s, order kept. A
 * call the API sent without an id gets a stable one made from the turn and
 * its place (`gemini-synthetic:<turn>:<n>`); {@linkcode geminiResults}
 * leaves such ids out of the responses, which Gemini then matches to the
 * calls by name and order. A real id is kept as it is, unless it starts
 * with `gemini-synthetic:` or `gemini-id:`: then it is kept behind
 * `gemini-id:`, so that no made id can equal it, and the response gives it
 * back as Gemini sent it. A part with a field that throws as it is read is
 * left out with a warning (each field is read once).
 *
 * @param content The model's content (`response.candidates[0].content`).
 * @param options The turn, for the ids made for calls without one.
 * @returns The calls, and what was left out.
 * @throws {TypeError} When `content` is not an object.
 *
 * @example Calls without ids get stable ones
 * ```ts
 * import { geminiCalls } from "@salvor/tools/providers";
 * import assert from "node:assert/strict";
 *
 * const { calls } = geminiCalls({
 *   role: "model",
 *   parts: [
 *     { functionCall: { name: "get_weather", args: { city: "Paris" } } },
 *     { functionCall: { id: "fc_7", name: "get_time", args: {} } },
 *   ],
 * }, { turn: 3 });
 * assert.deepEqual(calls, [
 *   { id: "gemini-synthetic:3:0", name: "get_weather", arguments: { city: "Paris" } },
 *   { id: "fc_7", name: "get_time", arguments: {} },
 * ]);
 * ```
 */
export function geminiCalls(content: GeminiModelContent, options: GeminiCallsOptions = {}): ProviderCalls {
  const parts = optionalTurnList(turnObject(content, "content"), "parts");
  const turn = String(options.turn ?? "0");
  const calls: ToolCall[] = [];
  const warnings: string[] = [];
  if (typeof parts === "string") return { calls, warnings: [`parts was left out: ${parts}`] };
  for (const [index, part] of parts.entries()) {
    const read = readFields(part, ["functionCall"]);
    if (read !== undefined && !isRecord(read.functionCall)) continue;
    const call = read && readFields(read.functionCall, ["id", "name", "args"]);
    if (call === undefined) {
      warnings.push(`parts[${index}] was left out: a field of it throws as it is read`);
      continue;
    }
    const { id, name, args } = call;
    calls.push({
      id: typeof id === "string" && id !== "" ? callIdOf(id) : `${SYNTHETIC}${turn}:${calls.length}`,
      name: typeof name === "string" ? name : "",
      arguments: args,
    });
  }
  return { calls, warnings };
}

type Carried = { readonly text: string } | GeminiFunctionResponsePart;

function carry(part: Parameters<typeof partText>[0]): Carried | Cannot {
  const text = partText(part);
  if (text !== undefined) return { text };
  const { mimeType, data } = binaryOf(part)!;
  if (part.type === "audio" || !INLINE_TYPES.has(mimeType)) {
    return new Cannot("a function response's parts carry PNG, JPEG and WebP images, PDF and plain text");
  }
  const displayName = fileNameOf(part);
  return { inlineData: { mimeType, data, ...(displayName === undefined ? {} : { displayName }) } };
}

/**
 * Builds the content of `functionResponse` parts that answers a turn's
 * calls, one a call in the model's order: the structured output as
 * `response.output` (or the result's text, when it has no structured
 * output), images and PDFs as the response's `parts`, a failure's
 * `modelText` as `response.error`, and for a parked call the line saying
 * what it waits for. Audio and other media types become a line saying they
 * were left out, and a warning, as does a part with no text and no data (a
 * resource given by its URI alone). An id {@linkcode geminiCalls} made is left
 * out; one it kept behind `gemini-id:` is given back as Gemini sent it.
 *
 * @param entries The calls' ends: a batch's `results`, or a record's `calls`.
 * @returns The content and the warnings.
 * @throws {TypeError} When `entries` is not a list of calls' ends, or an end
 * lacks what its type holds (a failure's `modelText`, a result's list of
 * content parts, a parked call's `reason`).
 *
 * @example Structured output stays structured
 * ```ts
 * import { geminiResults } from "@salvor/tools/providers";
 * import { toolFailure } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const { content } = geminiResults([
 *   {
 *     callId: "gemini-synthetic:0:0",
 *     tool: "get_weather",
 *     terminal: { type: "output", result: { content: [{ type: "text", text: '{"c":21}' }], output: { c: 21 } } },
 *   },
 *   { callId: "fc_7", tool: "get_time", terminal: { type: "failed", failure: toolFailure("unavailable", "clock is down") } },
 * ]);
 * assert.deepEqual(content.parts, [
 *   { functionResponse: { name: "get_weather", response: { output: { c: 21 } } } },
 *   { functionResponse: { id: "fc_7", name: "get_time", response: { error: "clock is down" } } },
 * ]);
 * ```
 */
export function geminiResults(entries: readonly BatchEntry[]): GeminiResults {
  const warnings: ResultWarning[] = [];
  const parts = readEntries(entries, "Gemini function responses").map((entry) => {
    const { terminal } = entry;
    const id = sentIdOf(entry.callId);
    const respond = (response: Record<string, unknown>, inline: GeminiFunctionResponsePart[] = []) => ({
      functionResponse: {
        ...(id === undefined ? {} : { id }),
        name: entry.tool,
        response,
        ...(inline.length === 0 ? {} : { parts: inline }),
      },
    });
    if (terminal.type === "failed") return respond({ error: terminal.failure.modelText });
    if (terminal.type === "suspended") return respond({ output: parkedCallText(terminal.suspended) });
    const { content, output } = terminal.result;
    const carried = carryContent(entry, content, "a Gemini function response", carry, (text) => ({ text }), warnings);
    const text = carried.flatMap((part) => "text" in part ? [part.text] : []).join("\n");
    const inline = carried.filter((part): part is GeminiFunctionResponsePart => "inlineData" in part);
    if (output === undefined) return respond({ output: text || EMPTY_RESULT }, inline);
    // Text the handler wrote beside its output is sent too; the default text is the output itself.
    const extra = text !== "" && text !== JSON.stringify(output) ? { content: text } : {};
    return respond({ output, ...extra }, inline);
  });
  return { content: { role: "user", parts }, warnings };
}
