// tools/list, from the set's descriptors: the MCP projection of each tool,
// cut into pages in the set's own (name) order. A cursor is the name of the
// last tool a page held, so a set that changes between two pages neither
// repeats nor skips the tools that stayed.

import type { Tool } from "@modelcontextprotocol/server";
import type { ToolDescriptor } from "../../core/contract/spec.ts";
import { toMcpTool } from "../../providers/mcp.ts";

/** One page of `tools/list`. */
export interface ToolPage {
  [key: string]: unknown;
  tools: Tool[];
  nextCursor?: string;
}

/** A set's tools as MCP lists them, in order and by name. */
export interface McpToolIndex {
  readonly list: readonly Tool[];
  readonly byName: ReadonlyMap<string, Tool>;
}

// descriptors() returns the same frozen array until the set changes, so the
// projections are made once per version of the set, not once per request.
const projected = new WeakMap<readonly ToolDescriptor[], McpToolIndex>();

/** The MCP tools of a set's descriptors, projected once per version of the set. */
export function mcpTools(descriptors: readonly ToolDescriptor[]): McpToolIndex {
  let index = projected.get(descriptors);
  if (index === undefined) {
    // The projection's schemas are JSON Schema objects; the SDK's type names them JSON values.
    const list = Object.freeze(
      descriptors.map((descriptor) => toMcpTool(descriptor).tool as Tool),
    );
    index = { list, byName: new Map(list.map((tool) => [tool.name, tool])) };
    projected.set(descriptors, index);
  }
  return index;
}

/** The page after `cursor` (a tool name; the first page without one). */
export function toolPage(tools: readonly Tool[], cursor: string | undefined, pageSize: number): ToolPage {
  const start = cursor === undefined ? 0 : firstAfter(tools, cursor);
  const page = tools.slice(start, start + pageSize);
  const more = start + pageSize < tools.length;
  return more ? { tools: page, nextCursor: page[page.length - 1].name } : { tools: page };
}

/** The index of the first tool whose name sorts after `name`, by binary search. */
function firstAfter(tools: readonly Tool[], name: string): number {
  let low = 0;
  let high = tools.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (tools[middle].name <= name) low = middle + 1;
    else high = middle;
  }
  return low;
}
