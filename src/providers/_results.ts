// What every result adapter shares: reading the entries it is handed, the
// text a model reads for each kind of end, and walking a result's content
// with one provider's rules, so that a part the provider cannot carry is
// replaced by a line saying so and reported, never dropped silently.

import type { BatchEntry } from "../core/contract/batch_record.ts";
import type { ContentPart, ToolResult } from "../core/contract/events.ts";
import { isRecord } from "../core/common/_is_record.ts";
import { showValue } from "../core/common/_show_value.ts";
import type { ResultWarning } from "./results.ts";

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

/** The text of a part every provider can carry as text; `undefined` for binary data. */
export function partText(part: ContentPart): string | undefined {
  switch (part.type) {
    case "text":
      return part.text;
    case "resource_link":
      return `Resource: ${part.name ?? part.uri} <${part.uri}>${part.description ? ` ${part.description}` : ""}`;
    case "resource":
      return part.text;
    default:
      return undefined;
  }
}

/** The media type and base64 data of a binary part. */
export function binaryOf(part: ContentPart): { mimeType: string; data: string } | undefined {
  if (part.type === "image" || part.type === "audio") return { mimeType: part.mimeType, data: part.data };
  if (part.type === "resource" && part.blob !== undefined) {
    return { mimeType: part.mimeType ?? "application/octet-stream", data: part.blob };
  }
  return undefined;
}

/** The last segment of a resource's URI, as a file name. */
export function fileNameOf(part: ContentPart): string | undefined {
  if (part.type !== "resource" && part.type !== "resource_link") return undefined;
  return part.uri.split(/[/:]/).filter(Boolean).pop();
}

/** A provider's answer for a part it cannot carry: why not. */
export class Cannot {
  constructor(readonly why: string) {}
}

/**
 * Walks a result's content with one provider's rules: `carry` turns a part
 * into the provider's part, or says why it cannot. A part it cannot carry
 * becomes a text line saying what was left out, and a warning.
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
    const made = carry(part);
    if (made instanceof Cannot) {
      const what = binaryOf(part)?.mimeType ?? part.type;
      carried.push(text(`[A ${what} ${part.type} part of the result was left out: ${provider} cannot carry it here.]`));
      warnings.push({
        callId: entry.callId,
        path: `/content/${index}`,
        message: `Left out a ${what} ${part.type} part, sent a line saying so instead: ${made.why}`,
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
