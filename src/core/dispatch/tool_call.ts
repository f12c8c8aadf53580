/**
 * What a host hands the dispatcher with a model's call: the call as the
 * model made it, the options of that one call, the approval gate that may
 * stop it, and the projection its arguments are read back through.
 *
 * @module
 */

import type { ProgressEvent } from "../contract/events.ts";
import type { JsonSchema } from "../schema/schema.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import type { JsonLimits } from "../common/limits.ts";

/** A model's tool call, as untrusted as it arrives. */
export interface ToolCall {
  /** The provider's call id. */
  readonly id: string;
  /** The tool's name as the model gave it. */
  readonly name: string;
  /**
   * The arguments: a JSON string (as most providers send them) or a value.
   * An empty string, `null` or `undefined` reads as `{}`.
   */
  readonly arguments?: unknown;
}

/**
 * A policy's answer: run (`true`), refuse (`false`), or park the call for
 * a human (`"suspend"`); or an {@linkcode ApprovalVerdict}, the same three
 * with a reason and, for a parked call, what the person needs to decide.
 */
export type ApprovalDecision = boolean | "suspend" | ApprovalVerdict;

/**
 * A gate's answer with its reason. Parked (`suspend`), the reason and the
 * payload go into the call's record for the person who decides; refused
 * (`deny`), the reason is what the model reads.
 */
export interface ApprovalVerdict {
  /** Run the call, refuse it, or park it for a person. */
  readonly decision: "allow" | "deny" | "suspend";
  /** Why, in one sentence. */
  readonly reason?: string;
  /** JSON the person needs to decide (what will change: a diff, the command, ...); kept in the record. */
  readonly payload?: unknown;
}

/** The answer to a call an approval gate parked, as `ToolSet.resume` takes it. */
export interface ApprovalAnswer {
  /** Whether the person lets the call run. */
  readonly approved: boolean;
  /** Why not, when denied: the model reads it. */
  readonly reason?: string;
}

/**
 * Decides whether a validated call may run. A set hands every gate it asks
 * a `context` with its `limits` on values: a verdict's payload must be JSON
 * within them, as it goes into the call's record. A gate asked by other code
 * may get none.
 */
export type ApprovalGate = (
  descriptor: ToolDescriptor,
  input: unknown,
  context?: { readonly limits: JsonLimits },
) => ApprovalDecision | Promise<ApprovalDecision>;

/** Options for one call. */
export interface CallOptions {
  /** Cancels the call; it ends as `cancelled`. */
  readonly signal?: AbortSignal;
  /** Ends the call as `timeout` after this many ms; defaults to the spec's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** The idempotency key; defaults to the value at the spec's `idempotencyKey` path. */
  readonly idempotencyKey?: string;
  /**
   * Per-call values handed to the handler as `ctx.extensions`: a copy made
   * for the call, its plain objects and arrays frozen through and bounded by
   * the set's `limits` (extensions past them, or holding a cycle, fail the
   * call as `contract`); a function or a class's instance (a tracer, a URL)
   * is handed on as it is.
   */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /**
   * Whom the call is for (a user or session id, 1 to 1024 characters). In a
   * set with a seal, a record this call parks is sealed for this subject,
   * and resuming it needs the same subject. A set without a seal refuses
   * it, as nothing would hold a record's holder to it.
   */
  readonly subject?: string;
  /** An approval gate for this call, instead of the set's. */
  readonly approve?: ApprovalGate;
  /** Receives each progress event of {@linkcode ToolSet.call}. */
  readonly onProgress?: (event: ProgressEvent) => void;
  /**
   * The projection the model was shown, when it changed what the model
   * sends back: its `restore` turns the arguments into arguments for the
   * tool's own schema before validation. `openAIStrict` from
   * `@salvor/tools/providers` reads the `null` a strict model writes for
   * a left-out property as absent.
   */
  readonly projection?: ArgumentsProjection;
}

/**
 * How arguments a model wrote against a projected schema are read back for
 * the tool's own schema. Projections that change what a model sends export
 * one (see `openAIStrict` in `@salvor/tools/providers`).
 */
export interface ArgumentsProjection {
  /** The projection's name, for messages. */
  readonly name: string;
  /**
   * Returns the arguments for the tool's own schema; must not change `args`.
   *
   * @param inputSchema The tool's own input schema.
   * @param args The arguments as the model sent them, already bounded JSON.
   * @returns The arguments to validate.
   */
  restore(inputSchema: JsonSchema, args: Record<string, unknown>): Record<string, unknown>;
}
