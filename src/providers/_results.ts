// What every result adapter shares: reading the entries it is handed, the
// text a model reads for each kind of end, and walking a result's content
// with one provider's rules, so that a part the provider cannot carry is
// replaced by a line saying so and reported, never dropped silently.

import type { BatchEntry } from "../core/contract/batch_record.ts";
import type { ContentPart, ToolResult } from "../core/contract/events.ts";
import { isRecord } from "../core/common/_is_record.ts";
import { showValue } from "../core/common/_show_value.ts";
import type { ResultWarning } from "./results.ts";

/** What is wrong with an entry's terminal as the adapters read it, and the value at fault; `undefined` if nothing. */
function terminalProblem(terminal: Record<string, unknown>): readonly [string, unknown] | undefined {
  const { failure, suspended, result } = terminal;
  switch (terminal.type) {
    case "failed":
      return isRecord(failure) && typeof failure.modelText === "string"
        ? undefined
        : ["has a failed end whose failure has no string modelText", failure];
    case "suspended":
      return isRecord(suspended) && typeof suspended.reason === "string"
        ? undefined
        : ["has a parked end whose record has no string reason", suspended];
    case "output":
      return isRecord(result) && Array.isArray(result.content) && result.content.every(isRecord)
        ? undefined
        : ["has an output whose result has no list of content parts", result];
    default:
      return ['has an end whose type is not "output", "failed" or "suspended"', terminal.type];
  }
}

/** Checks that the adapter was handed a list of entries (a batch's `results` or a record's `calls`). */
export function readEntries(entries: unknown, adapter: string): readonly BatchEntry[] {
  if (!Array.isArray(entries)) {
    throw new TypeError(
      `Cannot build ${adapter} as the entries must be an array (a batch's results): current value is ${
        showValue(entries)
      }`,
    );
  }
  for (const [index, entry] of entries.entries()) {
    if (
      !isRecord(entry) || typeof entry.callId !== "string" || typeof entry.tool !== "string" ||
      !isRecord(entry.terminal)
    ) {
      throw new TypeError(
        `Cannot build ${adapter} as entry ${index} is not a call's end ({ callId, tool, terminal }): current value is ${
          showValue(entry)
        }`,
      );
    }
    // A stored record is read back as JSON: each field an adapter reads is checked before it is read.
    const problem = terminalProblem(entry.terminal);
    if (problem !== undefined) {
      throw new TypeError(
        `Cannot build ${adapter} as entry ${index} ${problem[0]}: current value is ${showValue(problem[1])}`,
      );
    }
  }
  return entries;
}

/** What a model reads when a result has nothing to show. */
export const EMPTY_RESULT = "The call succeeded with no output.";

/** What the model is shown of a result: its content, or its output as JSON text when it has no content. */
export function shownContent(result: ToolResult): readonly ContentPart[] {
  if (result.content.length > 0 || result.output === undefined) return result.content;
  return [{ type: "text", text: JSON.stringify(result.output) }];
}

/** The text of a part every provider can carry as text; `undefined` for binary data, or a part with no text. */
export function partText(part: ContentPart): string | undefined {
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? part.text : undefined;
    case "resource_link":
      if (typeof part.uri !== "string") return undefined;
      return `Resource: ${part.name ?? part.uri} <${part.uri}>${part.description ? ` ${part.description}` : ""}`;
    case "resource":
      return typeof part.text === "string" ? part.text : undefined;
    default:
      return undefined;
  }
}

/** The media type and base64 data of a binary part; `undefined` for a part that holds none. */
export function binaryOf(part: ContentPart): { mimeType: string; data: string } | undefined {
  if (part.type === "image" || part.type === "audio") {
    return typeof part.data === "string" && typeof part.mimeType === "string"
      ? { mimeType: part.mimeType, data: part.data }
      : undefined;
  }
  if (part.type === "resource" && typeof part.blob === "string") {
    return {
      mimeType: typeof part.mimeType === "string" ? part.mimeType : "application/octet-stream",
      data: part.blob,
    };
  }
  return undefined;
}

/** The last segment of a resource's URI, as a file name. */
export function fileNameOf(part: ContentPart): string | undefined {
  if ((part.type !== "resource" && part.type !== "resource_link") || typeof part.uri !== "string") return undefined;
  return part.uri.split(/[/:]/).filter(Boolean).pop();
}

/** A provider's answer for a part it cannot carry: why not. */
export class Cannot {
  constructor(readonly why: string) {}
}

/**
 * Walks a result's content with one provider's rules: `carry` turns a part
 * into the provider's part, or says why it cannot. A part it cannot carry
 * becomes a text line saying what was left out, and a warning. `carry` is
 * handed only parts with text ({@linkcode partText}) or data
 * ({@linkcode binaryOf}): one with neither (a resource given by its URI
 * alone, a part of a type this module does not know) is left out here.
 */
export function carryContent<P>(
  entry: BatchEntry,
  parts: readonly ContentPart[],
  provider: string,
  carry: (part: ContentPart) => P | Cannot,
  text: (text: string) => P,
  warnings: ResultWarning[],
): P[] {
  const carried: P[] = [];
  for (const [index, part] of parts.entries()) {
    const binary = binaryOf(part);
    const made = partText(part) === undefined && binary === undefined
      ? new Cannot("the part holds no text and no data")
      : carry(part);
    if (made instanceof Cannot) {
      const what = binary === undefined ? part.type : `${binary.mimeType} ${part.type}`;
      carried.push(text(`[A ${what} part of the result was left out: ${provider} cannot carry it here.]`));
      warnings.push({
        callId: entry.callId,
        path: `/content/${index}`,
        message: `Left out a ${what} part, sent a line saying so instead: ${made.why}`,
      });
    } else {
      carried.push(made);
    }
  }
  return carried;
}

/** A failure's text for a provider with no error flag: the model must still see that the call failed. */
export function errorText(modelText: string): string {
  return `Error: ${modelText}`;
}
