/**
 * Scheduling: split a model's batch of calls into waves that are safe to
 * run together, from the tools' declared effects and semantics.
 *
 * @module
 */

import { schedulerClass } from "../contract/effect.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import { PARALLEL, wavesOf } from "./_waves.ts";

/** A call the plan gives no wave, and why. */
export interface RefusedCall<C> {
  /** The call. */
  readonly call: C;
  /**
   * `invalid_input` for an entry that is not a call with a string name;
   * `not_found` for an unknown tool; `policy_required` for an unknown effect.
   */
  readonly reason: "invalid_input" | "not_found" | "policy_required";
  /** A sentence for logs. */
  readonly message: string;
}

/** Waves to run one after another; the calls inside a wave may run at once. */
export interface Plan<C> {
  /** The waves, in order. Each call keeps the model's order within its wave. */
  readonly waves: readonly (readonly C[])[];
  /** Calls that are not scheduled: dispatch them alone, or ask a person. */
  readonly refused: readonly RefusedCall<C>[];
}

/**
 * Plans a batch of calls. Read-only and retry-safe calls share a wave
 * until a serial or exclusive call comes; that call runs alone, and later
 * calls start a new wave, so nothing overtakes a write the model asked for
 * first. Calls to unknown tools and to tools with unknown effects, and
 * entries that are not calls, are reported, not scheduled.
 *
 * @param calls The calls in the model's order.
 * @param lookup Finds a tool's descriptor by name.
 * @returns The waves and the refused calls.
 * @throws {TypeError} When `calls` is not an array.
 *
 * @example Reads share a wave, a write runs alone
 * ```ts
 * import { planCalls } from "@salvor/tools";
 * import { describeTool } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const tool = (name: string, effects: string[]) =>
 *   describeTool({ name, description: name, inputSchema: { type: "object" }, effects });
 * const tools = new Map([["read", tool("read", ["fs.read"])], ["write", tool("write", ["fs.write"])]]);
 * const plan = planCalls(
 *   [{ id: "1", name: "read" }, { id: "2", name: "read" }, { id: "3", name: "write" }, { id: "4", name: "read" }],
 *   (name) => tools.get(name),
 * );
 * assert.deepEqual(plan.waves.map((wave) => wave.map((call) => call.id)), [["1", "2"], ["3"], ["4"]]);
 * ```
 */
export function planCalls<C extends { readonly name: string }>(
  calls: readonly C[],
  lookup: (name: string) => ToolDescriptor | undefined,
): Plan<C> {
  if (!Array.isArray(calls)) {
    throw new TypeError(
      `Cannot plan the calls as they must be an array: current value is ${calls === null ? "null" : typeof calls}`,
    );
  }
  const scheduled: { readonly call: C; readonly alone: boolean }[] = [];
  const refused: RefusedCall<C>[] = [];
  for (const call of calls) {
    if (typeof call !== "object" || call === null || typeof call.name !== "string") {
      refused.push({
        call,
        reason: "invalid_input",
        message: "Cannot schedule the entry as it is not a call with a string name",
      });
      continue;
    }
    const descriptor = lookup(call.name);
    if (!descriptor) {
      refused.push({
        call,
        reason: "not_found",
        message: `No tool named "${call.name}" is registered`,
      });
      continue;
    }
    const klass = schedulerClass(descriptor);
    if (klass === "policy_required") {
      refused.push({
        call,
        reason: "policy_required",
        message: `"${call.name}" declares an effect that needs a policy`,
      });
    } else {
      scheduled.push({ call, alone: !PARALLEL.has(klass) });
    }
  }
  const waves = wavesOf(scheduled, (item) => item.alone).map((wave) => wave.map((item) => item.call));
  return { waves, refused };
}
