/**
 * The options every framework bridge takes.
 *
 * @module
 */

import type { ApprovalGate } from "../core/dispatch/tool_call.ts";

/** Options every bridge takes. */
export interface BridgeOptions {
  /** The tools to bridge, by name; every tool of the set when absent. */
  readonly tools?: readonly string[];
  /**
   * Decides which validated calls a person must approve before they run,
   * asked through the framework's own approval flow (a call the gate
   * answers `"suspend"` for). Once the person approves, the call runs as
   * approved; a `false` refuses it as `policy_required`. Without one, the
   * set's own gate applies when the call runs.
   */
  readonly approve?: ApprovalGate;
  /** Ends every call as `timeout` after this many ms, instead of each tool's own `timeoutMs`. */
  readonly timeoutMs?: number;
}
