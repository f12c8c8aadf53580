// Tool descriptors that were already checked (by a define function, by a
// registry, or by an MCP connection), so registering a tool that carries
// one again does not check or recompile it. What is marked is the checked,
// frozen descriptor, not the tool: a tool whose `descriptor` is its
// author's own object, or is replaced later, is checked wherever it is
// registered.

import type { DynTool } from "../contract/dyn.ts";
import type { ToolDescriptor } from "../contract/spec.ts";

const checked = new WeakSet<ToolDescriptor>();

/** Records that a tool's descriptor, frozen, and its schemas passed every check. */
export function markChecked<T extends DynTool>(tool: T): T {
  markDescriptorChecked(tool.descriptor);
  return tool;
}

/** Records that a descriptor, frozen, and its schemas passed every check. */
export function markDescriptorChecked(descriptor: ToolDescriptor): void {
  checked.add(descriptor);
}

/** Tells whether a descriptor, with its schemas, already passed every check. */
export function isChecked(descriptor: unknown): boolean {
  return typeof descriptor === "object" && descriptor !== null && checked.has(descriptor as ToolDescriptor);
}
