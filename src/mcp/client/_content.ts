// Turns the content blocks of an MCP tool result into the core's content
// parts, keeping only what a model is shown (annotations and _meta go).

import type { ContentBlock } from "@modelcontextprotocol/sdk/types";
import type { ContentPart } from "../../core/contract/events.ts";

/** Converts one content block; the SDK has already checked its shape. */
export function contentPart(block: ContentBlock): ContentPart {
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

/** Joins the text parts of an error result, for the host's log and the model. */
export function errorText(blocks: readonly ContentBlock[]): string {
  const text = blocks.flatMap((block) => block.type === "text" ? [block.text] : []).join("\n").trim();
  return text === "" ? "the server gave no error text" : text;
}
