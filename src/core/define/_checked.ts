// Tools whose spec and schemas were already checked (by a define function,
// or by a registry), so registering them again does not recompile.

import type { DynTool } from "../contract/dyn.ts";

const checked = new WeakSet<DynTool>();

/** Records that a tool's spec and schemas passed every check. */
export function markChecked<T extends DynTool>(tool: T): T {
  checked.add(tool);
  return tool;
}

/** Tells whether a tool's spec and schemas already passed every check. */
export function isChecked(tool: DynTool): boolean {
  return checked.has(tool);
}
