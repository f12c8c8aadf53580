/**
 * Retry classification: whether a failed call may be tried again, when,
 * and with which idempotency key. It classifies; the runtime enforces.
 *
 * @module
 */

import { effectClass, schedulerClass } from "../contract/effect.ts";
import type { FailureKind, ToolFailure } from "../contract/failure.ts";
import type { ToolDescriptor } from "../contract/spec.ts";

/** The policy's answer for one failed attempt. */
export type RetryDecision =
  | { readonly retry: false; readonly reason: string }
  | {
    readonly retry: true;
    /** How long to wait before the next attempt. */
    readonly delayMs: number;
    /** Reuse the failed attempt's idempotency key, so the tool can deduplicate. */
    readonly sameIdempotencyKey: boolean;
  };

/** Options for a {@linkcode RetryPolicy}. */
export interface RetryPolicyOptions {
  /** Attempts in all, the first included. Default 3. */
  readonly maxAttempts?: number;
  /** The delay before the second attempt, in ms. Default 200. */
  readonly baseDelayMs?: number;
  /** The longest delay, in ms. Default 10,000. */
  readonly maxDelayMs?: number;
  /** A source of numbers in [0, 1) for jitter; inject one for tests. Default `Math.random`. */
  readonly random?: () => number;
}

// The only failures another attempt may fix. Every other kind (invalid_input,
// not_found, policy_required, contract, invalid_output, cancelled, and any kind
// this module does not know) is never retried: the list fails closed.
const RETRYABLE: ReadonlySet<FailureKind> = new Set([
  "handler",
  "timeout",
  "unavailable",
]);

/**
 * Whether another attempt may fix a failure of this kind: whether {@linkcode RetryPolicy} ever retries it.
 *
 * @param kind The failure's kind.
 * @returns Whether it is one of the kinds another attempt may fix.
 */
export function mayRetryKind(kind: FailureKind): boolean {
  return RETRYABLE.has(kind);
}

function checkCount(name: string, value: number, min: number, whole = false): number {
  if (!Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
    throw new RangeError(
      `Cannot use ${name} as it must be a ${whole ? "whole " : ""}number of at least ${min}: current value is ${value}`,
    );
  }
  return value;
}

/**
 * Decides whether a failed call may be retried. Reads retry; idempotent
 * tools retry with the same idempotency key; writes never retry; nor does
 * any call whose failure says another attempt cannot help or might repeat
 * a side effect.
 *
 * @example A timed-out read is retried, a timed-out write never
 * ```ts
 * import { RetryPolicy } from "@salvor/tools";
 * import { describeTool, toolFailure } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const policy = new RetryPolicy({ random: () => 0.5 });
 * const tool = (effects: string[]) =>
 *   describeTool({ name: "t", description: "t", inputSchema: { type: "object" }, effects });
 * const timedOut = (uncertain: boolean) => toolFailure("timeout", "timed out", { uncertain });
 *
 * assert.equal(policy.decide(tool(["fs.read"]), timedOut(false), 1).retry, true);
 * assert.equal(policy.decide(tool(["fs.write"]), timedOut(true), 1).retry, false);
 * ```
 */
export class RetryPolicy {
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;

  /**
   * Makes a policy.
   *
   * @param options Attempts, delays and the random source.
   * @throws {RangeError} When a count is negative or not a number, or `maxAttempts` is not whole.
   * @throws {TypeError} When `random` is not a function.
   */
  constructor(options: RetryPolicyOptions = {}) {
    this.#maxAttempts = checkCount("maxAttempts", options.maxAttempts ?? 3, 1, true);
    this.#baseDelayMs = checkCount(
      "baseDelayMs",
      options.baseDelayMs ?? 200,
      0,
    );
    this.#maxDelayMs = checkCount(
      "maxDelayMs",
      options.maxDelayMs ?? 10_000,
      0,
    );
    const random = options.random ?? Math.random;
    if (typeof random !== "function") {
      throw new TypeError(
        `Cannot use random as it must be a function: current value is ${typeof random}`,
      );
    }
    this.#random = random;
  }

  /**
   * Classifies one failed attempt.
   *
   * @param descriptor The tool's descriptor.
   * @param failure The failure the attempt ended with.
   * @param attempt Attempts made so far, the failed one included (1 after the first).
   * @returns Whether to retry, and how.
   * @throws {RangeError} When `attempt` is not a whole number of at least 1, or
   * the random source returns a value outside [0, 1).
   *
   * @example Invalid arguments are never retried
   * ```ts
   * import { RetryPolicy } from "@salvor/tools";
   * import { describeTool, toolFailure } from "@salvor/tools/dyn";
   * import assert from "node:assert/strict";
   *
   * const read = describeTool({ name: "r", description: "r", inputSchema: { type: "object" }, effects: ["fs.read"] });
   * const decision = new RetryPolicy().decide(read, toolFailure("invalid_input", "bad"), 1);
   * assert.equal(decision.retry, false);
   * ```
   */
  decide(
    descriptor: ToolDescriptor,
    failure: ToolFailure,
    attempt: number,
  ): RetryDecision {
    if (!Number.isInteger(attempt) || attempt < 1) {
      throw new RangeError(
        `Cannot decide on a retry as attempt must be a whole number from 1: current value is ${attempt}`,
      );
    }
    const no = (reason: string): RetryDecision => ({ retry: false, reason });
    if (!mayRetryKind(failure.kind)) {
      return no(`a ${failure.kind} failure is not fixed by trying again`);
    }
    if (failure.retryable === false) {
      return no("the tool said another attempt cannot succeed");
    }
    if (schedulerClass(descriptor) === "policy_required") {
      return no("the tool declares an effect that needs a policy");
    }
    if (descriptor.semantics.retry === "never") {
      return no("the tool is never retried");
    }
    if (descriptor.semantics.retry === "explicit_only") {
      return no("the tool is retried only when a person asks");
    }
    const klass = effectClass(descriptor);
    if (klass === "write") return no("the tool writes and is not idempotent");
    if (
      failure.uncertain && descriptor.semantics.idempotency !== "idempotent"
    ) {
      return no("the failed attempt may have had side effects");
    }
    if (attempt >= this.#maxAttempts) {
      return no(`all ${this.#maxAttempts} attempts are used`);
    }
    const ceiling = Math.min(
      this.#maxDelayMs,
      this.#baseDelayMs * 2 ** (attempt - 1),
    );
    const jitter = this.#random();
    if (typeof jitter !== "number" || !(jitter >= 0 && jitter < 1)) {
      throw new RangeError(
        `Cannot compute a retry delay as random() must return a number in [0, 1): current value is ${String(jitter)}`,
      );
    }
    // Equal jitter: at least half the backoff, so retries never bunch at zero.
    const delayMs = Math.round(ceiling / 2 + jitter * (ceiling / 2));
    return { retry: true, delayMs, sameIdempotencyKey: klass === "idempotent" };
  }
}
