// Tools made by defineTool and defineJsonTool run one handler and end in one
// event. The registry may run that handler directly instead of reading the
// stream execute() returns, saving a generator and several promise turns a
// call. Only while the tool's execute is the one it was defined with: a copy
// or a tool whose execute was replaced goes through execute() like any tool.

import type { DynTool, ToolContext, ValidatedInvocation } from "../contract/dyn.ts";
import type { ExecutionEvent } from "../contract/events.ts";

/**
 * Runs a tool's handler to its one event: at once for a synchronous
 * handler, else as a promise. It may throw or reject only on a bug.
 */
export type DirectRun = (
  invocation: ValidatedInvocation,
  ctx: ToolContext,
) => ExecutionEvent | Promise<ExecutionEvent>;

const direct = new WeakMap<DynTool, { readonly execute: DynTool["execute"]; readonly run: DirectRun }>();

/** Records the direct run of a tool whose execute() streams exactly what `run` resolves to. */
export function withDirectRun<T extends DynTool>(tool: T, run: DirectRun): T {
  direct.set(tool, { execute: tool.execute, run });
  return tool;
}

/** The tool's direct run, if it has one and its execute() is still the one it was defined with. */
export function directRunOf(tool: DynTool): DirectRun | undefined {
  const found = direct.get(tool);
  return found !== undefined && found.execute === tool.execute ? found.run : undefined;
}
