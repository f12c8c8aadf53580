/**
 * Approval from effects: a ready approval gate that parks the calls a
 * person should see before they run, judged from the tool's declared
 * effects and semantics (never its name), with the host's own rule first.
 *
 * @module
 */

import { type Effect, isKnownEffect, type KnownEffect, resolveSemantics } from "../contract/effect.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import type { ApprovalDecision, ApprovalGate } from "./tool_call.ts";
import { checkJsonValue, DEFAULT_LIMITS, type JsonLimits } from "../common/limits.ts";

/**
 * The effects {@linkcode approvalByEffects} asks a person about unless told
 * otherwise: changing or deleting files, starting a process, reading a
 * secret. Beside them it always asks about a non-idempotent tool and an
 * unknown effect.
 *
 * @example
 * ```ts
 * import { ASK_BY_DEFAULT } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(ASK_BY_DEFAULT, ["fs.write", "fs.delete", "process.spawn", "credential.read"]);
 * ```
 */
export const ASK_BY_DEFAULT: readonly KnownEffect[] = Object.freeze([
  "fs.write",
  "fs.delete",
  "process.spawn",
  "credential.read",
]);

/** What a person is shown for a parked call: why, and what will change. */
export interface ApprovalRequest {
  /** One sentence: why the call needs a person. */
  readonly reason: string;
  /** JSON the person decides on (what will change); kept in the call's record. */
  readonly payload?: unknown;
}

/** Options for {@linkcode approvalByEffects}. */
export interface ApprovalByEffectsOptions {
  /** The effects to ask about. Default {@linkcode ASK_BY_DEFAULT}. */
  readonly ask?: readonly Effect[];
  /**
   * The host's own rule, asked first. Its decision stands; `undefined`
   * leaves the call to the effects. Use it to let a known-safe call run
   * (a write under a scratch directory) or to refuse one outright.
   */
  readonly rule?: (
    descriptor: ToolDescriptor,
    input: unknown,
  ) => ApprovalDecision | undefined | Promise<ApprovalDecision | undefined>;
  /**
   * Words and data for the person, for a call the effects park. By default
   * the reason names the effects and the payload is `{ tool, effects, input }`,
   * or `{ tool, effects, inputOmitted }` saying why when that is not JSON
   * within `limits` (a transform's `Date`, arguments near the limit): the
   * call's record keeps its arguments either way. `limits` are those of the
   * set that asks the gate, which the payload must meet, or
   * {@linkcode DEFAULT_LIMITS} when the gate is asked without them.
   */
  readonly describe?: (
    descriptor: ToolDescriptor,
    input: unknown,
    why: string,
    limits: JsonLimits,
  ) => ApprovalRequest;
}

/** Says why the effects call for a person, or nothing when they do not. */
function whyAsk(descriptor: ToolDescriptor, ask: ReadonlySet<Effect>): string | undefined {
  const unknown = descriptor.effects.filter((effect) => !isKnownEffect(effect));
  if (unknown.length > 0) return `it declares ${unknown.join(", ")}, which this host does not know`;
  const asked = descriptor.effects.filter((effect) => ask.has(effect));
  if (asked.length > 0) return `it declares ${asked.join(", ")}`;
  if (resolveSemantics(descriptor).idempotency === "non_idempotent") return "it is not idempotent";
  return undefined;
}

function defaultRequest(descriptor: ToolDescriptor, input: unknown, why: string, limits: JsonLimits): ApprovalRequest {
  const reason = `The call to "${descriptor.name}" needs approval as ${why}`;
  const payload = { tool: descriptor.name, effects: [...descriptor.effects], input };
  // The parsed input may hold what JSON cannot (a transform's Date), or with the rest be past the limits a payload
  // must meet: such a call is still parked for a person, who finds its arguments in the record's input.
  const problem = checkJsonValue(payload, limits);
  if (problem === undefined) return { reason, payload };
  const { tool, effects } = payload;
  return { reason, payload: { tool, effects, inputOmitted: `at ${problem.path}, ${problem.message}` } };
}

/**
 * Builds an approval gate from effects: a call runs at once when its tool
 * only reads or is pure, and is parked for a person (with a reason and a
 * payload saying what will change) when its tool declares an effect in
 * `ask`, an effect nobody knows, or is not idempotent. The host's `rule`
 * is asked first and its decision stands. Pass the gate as
 * `new ToolSet({ approve })` or per call: the payload is held to the
 * limits of the set that asks it.
 *
 * @param options The effects to ask about, the host's rule, and the words for the person.
 * @returns The gate.
 * @throws {TypeError} When `ask` is not an array, or `rule` or `describe` is not a function.
 *
 * @example Reads run, a delete waits for a person
 * ```ts
 * import { approvalByEffects, defineJsonTool, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const make = (name: string, effects: string[]) =>
 *   defineJsonTool({ name, description: name, inputSchema: { type: "object" }, effects, run: () => ({ ok: true }) });
 * const tools = new ToolSet({ approve: approvalByEffects() })
 *   .register(make("read", ["fs.read"]), make("remove", ["fs.delete"]));
 *
 * assert.equal((await tools.call({ id: "1", name: "read", arguments: {} })).type, "output");
 * const parked = await tools.call({ id: "2", name: "remove", arguments: { path: "a" } });
 * assert.equal(parked.type === "suspended" && parked.suspended.reason, 'The call to "remove" needs approval as it declares fs.delete');
 * assert.deepEqual(parked.type === "suspended" && parked.suspended.payload, {
 *   tool: "remove",
 *   effects: ["fs.delete"],
 *   input: { path: "a" },
 * });
 * ```
 *
 * @example The host's rule first: writes under /tmp run
 * ```ts
 * import { approvalByEffects, defineJsonTool, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const write = defineJsonTool<{ path: string }>({
 *   name: "write",
 *   description: "Write a file.",
 *   inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
 *   effects: ["fs.write"],
 *   run: ({ path }) => ({ wrote: path }),
 * });
 * const approve = approvalByEffects({
 *   rule: (_tool, input) => (input as { path: string }).path.startsWith("/tmp/") ? true : undefined,
 * });
 * const tools = new ToolSet({ approve }).register(write);
 * assert.equal((await tools.call({ id: "1", name: "write", arguments: { path: "/tmp/a" } })).type, "output");
 * assert.equal((await tools.call({ id: "2", name: "write", arguments: { path: "/etc/a" } })).type, "suspended");
 * ```
 */
export function approvalByEffects(options: ApprovalByEffectsOptions = {}): ApprovalGate {
  const { ask = ASK_BY_DEFAULT, rule, describe = defaultRequest } = options;
  if (!Array.isArray(ask)) {
    throw new TypeError(`Cannot build the gate as ask must be an array of effects: current value is ${typeof ask}`);
  }
  for (const [name, value] of [["rule", rule], ["describe", describe]] as const) {
    if (value !== undefined && typeof value !== "function") {
      throw new TypeError(`Cannot build the gate as ${name} must be a function: current value is ${typeof value}`);
    }
  }
  const asked: ReadonlySet<Effect> = new Set(ask);
  const byEffects: ApprovalGate = (descriptor, input, context) => {
    const why = whyAsk(descriptor, asked);
    if (why === undefined) return true;
    const { reason, payload } = describe(descriptor, input, why, context?.limits ?? DEFAULT_LIMITS);
    return { decision: "suspend", reason, payload };
  };
  if (!rule) return byEffects;
  return async (descriptor, input, context) => (await rule(descriptor, input)) ?? byEffects(descriptor, input, context);
}
