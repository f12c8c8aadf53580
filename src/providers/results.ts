/**
 * Results out: what every provider's result adapter reports beside the
 * messages it builds, and the sentence a model reads for a parked call.
 *
 * @module
 */

import type { SuspendedCall } from "../core/contract/suspend.ts";
import { boundModelText } from "../core/contract/failure.ts";
import { trimEndWhile } from "../core/common/_trim_end.ts";
import { showValue } from "../core/common/_show_value.ts";

/** A white space or line terminator character, as `\s` reads them. */
const WHITE_SPACE = /^\s$/;

/** Something of a call's result the provider cannot carry, and what was sent instead. */
export interface ResultWarning {
  /** The call whose result it is. */
  readonly callId: string;
  /** A JSON Pointer into the call's result, e.g. `/content/1`. */
  readonly path: string;
  /** What could not be carried and what was sent instead, in one sentence. */
  readonly message: string;
}

/**
 * The line a model reads for a parked call, in place of a result: who it
 * waits for and why, and the payload shown to the person (bounded). A
 * provider that refuses a turn with an unanswered call (OpenAI) gets this
 * line until the call is resumed. A record that breaks its type (a reason
 * that is no string, a payload JSON cannot carry) is shown as far as it
 * can be, never thrown on.
 *
 * @param suspended The parked call's record.
 * @returns The text for the model.
 *
 * @example
 * ```ts
 * import { parkedCallText } from "@salvor/tools/providers";
 * import { APPROVAL_RESUME_SCHEMA } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const text = parkedCallText({
 *   v: 1,
 *   callId: "call_1",
 *   tool: "delete_file",
 *   version: "1.0.0",
 *   input: { path: "a.txt" },
 *   reason: 'The call to "delete_file" needs approval as it declares fs.delete',
 *   resumeSchema: APPROVAL_RESUME_SCHEMA,
 *   origin: "approval",
 * });
 * assert.equal(
 *   text,
 *   `This call is waiting for a person's approval: The call to "delete_file" needs approval as it declares fs.delete. It has not run yet.`,
 * );
 * ```
 */
export function parkedCallText(suspended: SuspendedCall): string {
  const approval = suspended.origin === "approval";
  const who = approval ? "a person's approval" : "a person";
  // The gate parks a call before it runs; a handler parks its own call part way.
  const state = approval ? "It has not run yet." : "It has not finished yet.";
  // A record built by hand or read back from storage may hold what its type rules out: it is shown, never thrown on.
  const given = typeof suspended.reason === "string" ? suspended.reason : showValue(suspended.reason);
  const reason = trimEndWhile(given, (char) => char === "." || WHITE_SPACE.test(char));
  // A question or an exclamation keeps its own mark; anything else ends with a full stop.
  const stop = reason.endsWith("?") || reason.endsWith("!") ? "" : ".";
  const shown = suspended.payload === undefined ? "" : ` What the person sees: ${payloadText(suspended.payload)}`;
  return boundModelText(`This call is waiting for ${who}: ${reason}${stop} ${state}${shown}`);
}

/** A payload as JSON text, or what shows of it when JSON cannot carry it (a BigInt, a cycle, a throwing getter). */
function payloadText(payload: unknown): string {
  try {
    return JSON.stringify(payload) ?? showValue(payload);
  } catch {
    return showValue(payload);
  }
}
