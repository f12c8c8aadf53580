// Turns the content blocks of an MCP tool result into the core's content
// parts, keeping only what a model is shown (annotations and _meta go), and
// no more of it than the host allows: a server may answer with megabytes,
// which would fill the model's context and the provider's bill.

import type { ContentBlock } from "@modelcontextprotocol/client";
import type { ContentPart } from "../../core/contract/events.ts";

/** How much of a result the model is shown. */
export interface ContentBudget {
  /** Characters of text, resource text and part metadata (uris, names, mime types, descriptions). */
  readonly chars: number;
  /** Bytes of base64 image, audio and blob data. */
  readonly bytes: number;
}

/** Converts one content block; the SDK has already checked its shape. */
function contentPart(block: ContentBlock): ContentPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
      return { type: block.type, data: block.data, mimeType: block.mimeType };
    case "resource_link":
      return {
        type: "resource_link",
        uri: block.uri,
        name: block.name,
        ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
        ...(block.description === undefined ? {} : { description: block.description }),
      };
    case "resource": {
      const { resource } = block;
      return {
        type: "resource",
        uri: resource.uri,
        ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
        ...("text" in resource ? { text: resource.text as string } : { blob: resource.blob as string }),
      };
    }
  }
}

const count = (n: number) => n.toLocaleString("en-US");

/** The note that ends a text the host cut, for the model to read. */
export function cutNote(chars: number): string {
  return `\n[... ${count(chars)} more characters cut by the host]`;
}

/** The characters a part's text takes: its text, or its metadata for the other kinds. */
function charsOf(part: ContentPart): number {
  if (part.type === "text") return part.text.length;
  let chars = part.type === "resource" ? part.text?.length ?? 0 : 0;
  for (const key of ["uri", "name", "mimeType", "description"] as const) {
    const value = (part as Partial<Record<typeof key, string>>)[key];
    if (value !== undefined) chars += value.length;
  }
  return chars;
}

function bytesOf(part: ContentPart): number {
  if (part.type === "image" || part.type === "audio") return part.data.length;
  return part.type === "resource" ? part.blob?.length ?? 0 : 0;
}

/** The first `chars` characters of a text, never splitting a surrogate pair. */
function head(text: string, chars: number): string {
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

/** A text or text resource cut to what is left of the budget; undefined for other kinds. */
function cut(part: ContentPart, left: number): ContentPart | undefined {
  const text = part.type === "text" ? part.text : part.type === "resource" ? part.text : undefined;
  if (text === undefined) return undefined;
  const room = left - (charsOf(part) - text.length);
  if (room <= 0) return undefined;
  const kept = head(text, room);
  return { ...part, text: kept + cutNote(text.length - kept.length) } as ContentPart;
}

/**
 * Converts a result's content blocks into the parts the model is shown,
 * within the budget. The first text that does not fit is cut with a note
 * the model can read; any other part that does not fit is left out, with
 * one note at the end saying how many were.
 *
 * @returns The parts, and whether anything was cut or left out.
 */
export function contentParts(
  blocks: readonly ContentBlock[],
  budget: ContentBudget,
): { parts: ContentPart[]; cut: boolean } {
  const parts: ContentPart[] = [];
  let chars = budget.chars;
  let bytes = budget.bytes;
  let left = 0;
  let shortenedAny = false;
  for (const block of blocks) {
    const part = contentPart(block);
    const needChars = charsOf(part);
    const needBytes = bytesOf(part);
    if (needChars <= chars && needBytes <= bytes) {
      parts.push(part);
      chars -= needChars;
      bytes -= needBytes;
      continue;
    }
    const shortened = needBytes <= bytes ? cut(part, chars) : undefined;
    if (shortened) {
      parts.push(shortened);
      shortenedAny = true;
      chars = 0;
    } else {
      left++;
    }
  }
  if (left > 0) {
    parts.push({ type: "text", text: `[... ${count(left)} more content parts cut by the host]` });
  }
  return { parts, cut: shortenedAny || left > 0 };
}

/** Joins the text parts of an error result, for the host's log and the model, cut to `chars` characters. */
export function errorText(blocks: readonly ContentBlock[], chars: number): string {
  let text = "";
  for (const block of blocks) {
    if (block.type !== "text") continue;
    text += (text === "" ? "" : "\n") + block.text.slice(0, chars + 1);
    if (text.length > chars) break;
  }
  text = text.trim();
  if (text === "") return "the server gave no error text";
  return text.length > chars ? `${head(text, chars)}\n[... the rest was cut by the host]` : text;
}
