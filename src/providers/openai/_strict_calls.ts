// Both OpenAI APIs read calls the same way: each call is dispatched through
// the projection its tool was shown with, strict or not.

import type { ArgumentsProjection, ToolCall } from "../../core/dispatch/tool_call.ts";
import { openAIStrict } from "./tools.ts";

/** The projection to dispatch the calls with: `openAIStrict` for the tools shown strict. */
export function strictProjection(
  strict: boolean | ((tool: string) => boolean) | undefined,
): ArgumentsProjection | ((call: ToolCall) => ArgumentsProjection | undefined) | undefined {
  if (strict === undefined || strict === true) return openAIStrict;
  if (strict === false) return undefined;
  if (typeof strict !== "function") {
    throw new TypeError(
      `Cannot read the calls as strict must be a boolean or a function of a tool's name: current value is ${typeof strict}`,
    );
  }
  return (call) => strict(call.name) ? openAIStrict : undefined;
}
