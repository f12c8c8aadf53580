/**
 * The error a bridge throws when the framework it serves expects a failed
 * tool call to throw: its message is the failure's bounded model text, and
 * the failure itself rides along for the host.
 *
 * @module
 */

import type { ToolFailure } from "../core/contract/failure.ts";

/**
 * A tool call that ended in a failure, thrown into a framework that reports
 * thrown errors to its model. `message` is the failure's `modelText`, which
 * is what the framework shows the model; `failure.kind` tells bad arguments
 * (`invalid_input`: the handler never ran) from a tool that failed.
 *
 * @example The model reads the model text; the host reads the kind
 * ```ts
 * import { ToolCallFailedError } from "@salvor/tools/ai-sdk";
 * import { toolFailure } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const error = new ToolCallFailedError(toolFailure("invalid_input", "bad", { modelText: "Fix /path." }));
 * assert.equal(String(error), "Fix /path.");
 * assert.equal(error.failure.kind, "invalid_input");
 * ```
 */
export class ToolCallFailedError extends Error {
  /** The failure, as `ToolSet` reported it. */
  readonly failure: ToolFailure;

  /**
   * Wraps a failure; the message is its model text.
   *
   * @param failure The call's failure.
   */
  constructor(failure: ToolFailure) {
    super(failure.modelText);
    this.name = "ToolCallFailedError";
    this.failure = failure;
  }

  /**
   * The model text alone, without the usual `Name: ` prefix: frameworks
   * (the AI SDK among them) show a thrown error's string form to the model.
   *
   * @returns The failure's model text.
   */
  override toString(): string {
    return this.message;
  }
}
