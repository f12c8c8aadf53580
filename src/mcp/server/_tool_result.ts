// A call's terminal event as an MCP `CallToolResult`. Every failure of a
// call the model made is a tool error (`isError: true`) carrying the
// failure's bounded model text, so the model reads it and can correct its
// next call; the host-only `details` of a result never leave the process.
// A result the SDK would refuse after the tool ran (binary content that is
// not base64) is a tool error too, as a broken output schema is, never a
// protocol error that blames the client's request.

import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/server";
import type { ContentPart, ToolResult } from "../../core/contract/events.ts";
import type { ToolFailure } from "../../core/contract/failure.ts";
import { invalidOutput, one } from "../../core/dispatch/_dispatch_failures.ts";
import { type McpFailureMeta, mcpFailureMeta } from "../../providers/mcp.ts";

/** One content part as an MCP content block. */
function contentBlock(part: ContentPart): ContentBlock {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
    case "audio":
      return { type: part.type, data: part.data, mimeType: part.mimeType };
    case "resource_link":
      // MCP requires a name; the URI is the name a link without one goes by.
      return {
        type: "resource_link",
        uri: part.uri,
        name: part.name ?? part.uri,
        ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
        ...(part.description === undefined ? {} : { description: part.description }),
      };
    case "resource": {
      const mimeType = part.mimeType === undefined ? {} : { mimeType: part.mimeType };
      return {
        type: "resource",
        resource: part.blob === undefined
          ? { uri: part.uri, ...mimeType, text: part.text ?? "" }
          : { uri: part.uri, ...mimeType, blob: part.blob },
      };
    }
  }
}

/** Whether the SDK's check of a result reads the text as base64: it asks `atob`, which allows what RFC 4648 does not. */
function decodes(base64: string): boolean {
  try {
    atob(base64);
    return true;
  } catch {
    return false;
  }
}

/** The name of a part's binary field that is not base64, or `undefined`. */
function undecodable(part: ContentPart): "data" | "blob" | undefined {
  if ((part.type === "image" || part.type === "audio") && !decodes(part.data)) return "data";
  if (part.type === "resource" && part.blob !== undefined && !decodes(part.blob)) return "blob";
  return undefined;
}

/**
 * A successful call's result. `structuredContent` goes out only when the
 * listed tool has an output schema, which MCP then requires it to meet.
 */
export function outputResult(name: string, result: ToolResult, structured: boolean): CallToolResult {
  for (const [index, part] of result.content.entries()) {
    const field = undecodable(part);
    if (field !== undefined) {
      return failureResult(invalidOutput(
        name,
        one({ path: `/content/${index}/${field}`, keyword: "contentEncoding", message: "Expected a base64 string." }),
      ));
    }
  }
  return {
    content: result.content.map(contentBlock),
    ...(structured && result.output !== undefined
      ? { structuredContent: result.output as Record<string, unknown> }
      : {}),
  };
}

/** A tool error: the model reads the failure's text; a client that knows Salvor reads the failure in `_meta`. */
export function failureResult(failure: ToolFailure): CallToolResult {
  return errorResult(failure.modelText, failure);
}

/** A tool error with the given text, and the failure's kind and flags in `_meta`. */
export function errorResult(text: string, failure: McpFailureMeta): CallToolResult {
  return { content: [{ type: "text", text }], isError: true, _meta: mcpFailureMeta(failure) };
}
