/**
 * Suspension: a call parked for a human, kept as plain JSON that survives
 * a process restart, and resumed with the human's answer.
 *
 * @module
 */

import type { ValibotSchema } from "../schema/valibot_schema.ts";
import type { JsonSchema } from "../schema/schema.ts";
import type { SealStamp } from "../seal/seal.ts";

/** Why a call is parked: the handler asked, or an approval gate did before it ran. */
export type SuspensionOrigin = "handler" | "approval";

/** A parked call, as plain JSON. Keep it anywhere; resume it with `ToolSet.resume`. */
export interface SuspendedCall {
  /** The record's format version. */
  readonly v: 1;
  /** The id of the model's call. */
  readonly callId: string;
  /** The tool's registered name. */
  readonly tool: string;
  /** The tool's version when it suspended; a changed tool refuses the record. */
  readonly version: string;
  /** The validated arguments, as JSON. The handler runs again with them. */
  readonly input: unknown;
  /** Why a human is needed. */
  readonly reason: string;
  /** The JSON Schema an answer must meet. */
  readonly resumeSchema: JsonSchema;
  /** Data the human needs to decide. */
  readonly payload?: unknown;
  /** Who parked the call. */
  readonly origin: SuspensionOrigin;
  /** The idempotency key of the call, kept so a resumed call reuses it. */
  readonly idempotencyKey?: string;
  /** The seal over every other field, when the set that parked the call has a seal. */
  readonly seal?: SealStamp;
}

/**
 * The resume schema of a call an approval gate parked: the answer is
 * `{ approved: boolean, reason?: string }` (`ApprovalAnswer`); a denial's
 * reason is what the model reads.
 *
 * @example
 * ```ts
 * import { APPROVAL_RESUME_SCHEMA } from "@salvor/tools";
 * import { compileSchema } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(compileSchema(APPROVAL_RESUME_SCHEMA).validate({ approved: true }), { ok: true });
 * ```
 */
export const APPROVAL_RESUME_SCHEMA: JsonSchema = Object.freeze({
  type: "object",
  properties: Object.freeze({
    approved: Object.freeze({ type: "boolean" }),
    reason: Object.freeze({ type: "string", maxLength: 1000 }),
  }),
  required: Object.freeze(["approved"]),
});

/** What a typed handler passes to {@linkcode suspend}. */
export interface SuspendOptions {
  /** Why a human is needed. */
  readonly reason: string;
  /**
   * The answer's schema: a Valibot schema or a JSON Schema. May be left out
   * when the tool declares its `resumeSchema`, which is then used. A Valibot
   * schema with checks or transforms JSON Schema cannot carry must be the
   * tool's declared one, or the suspension fails as `contract`.
   */
  readonly resumeSchema?: ValibotSchema | JsonSchema;
  /** Data the human needs to decide; must be JSON. */
  readonly payload?: unknown;
}

/** The value a typed handler returns to park its call. Made by {@linkcode suspend}. */
export class SuspendRequest {
  /** Why a human is needed. */
  readonly reason: string;
  /** The answer's schema; `undefined` for the tool's declared one. */
  readonly resumeSchema: ValibotSchema | JsonSchema | undefined;
  /** Data the human needs. */
  readonly payload: unknown;

  /**
   * Prefer {@linkcode suspend}.
   *
   * @param options Reason, answer schema, payload.
   */
  constructor(options: SuspendOptions) {
    this.reason = options.reason;
    this.resumeSchema = options.resumeSchema;
    this.payload = options.payload;
  }
}

/**
 * Parks the call for a human: return this from a typed handler. Dispatch
 * turns it into a {@linkcode SuspendedCall} record; resuming runs the
 * handler again with the same input and `ctx.resume` set to the answer.
 *
 * @param options Why, the schema an answer must meet, and data to show.
 * @returns The value to return from the handler.
 *
 * @example Ask before overwriting
 * ```ts
 * import { defineTool, suspend, ToolSet } from "@salvor/tools";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const write = defineTool({
 *   name: "write_file",
 *   description: "Write a file.",
 *   inputSchema: v.object({ path: v.string(), text: v.string() }),
 *   effects: ["fs.write"],
 *   run(input, ctx) {
 *     if (ctx.resume === undefined) {
 *       return suspend({ reason: `Overwrite ${input.path}?`, resumeSchema: v.object({ approved: v.boolean() }) });
 *     }
 *     return { written: (ctx.resume as { approved: boolean }).approved };
 *   },
 * });
 * const tools = new ToolSet().register(write);
 * const first = await tools.call({ id: "c1", name: "write_file", arguments: { path: "a", text: "b" } });
 * assert.equal(first.type, "suspended");
 * if (first.type === "suspended") {
 *   const record = JSON.parse(JSON.stringify(first.suspended));
 *   const second = await tools.resume(record, { approved: true });
 *   assert.equal(second.type, "output");
 * }
 * ```
 */
export function suspend(options: SuspendOptions): SuspendRequest {
  return new SuspendRequest(options);
}
