/**
 * The exceptions of this module: programming errors found when a tool is
 * defined or registered, and the error a handler throws to fail a call.
 * Dispatch problems are never thrown; they are {@linkcode ToolFailure} values.
 *
 * @module
 */

import { firstLine } from "./_first_line.ts";

/** One problem found in a spec, located by a JSON Pointer into it. */
export interface SpecProblem {
  /** Where in the spec (or schema) the problem is; `""` is the whole. */
  readonly path: string;
  /** A sentence in the form "Cannot X as Y: current value is Z". */
  readonly message: string;
}

/**
 * A tool definition is wrong: a bad name, effect, schema or semantics.
 * Thrown at once by `defineTool`, `defineJsonTool` and `ToolSet.register`,
 * never later during a call.
 *
 * @example Catch a bad definition
 * ```ts
 * import { defineJsonTool, InvalidSpecError } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.throws(
 *   () =>
 *     defineJsonTool({
 *       name: "read file",
 *       description: "Reads a file.",
 *       inputSchema: { type: "object" },
 *       effects: ["fs.read"],
 *       run: () => ({}),
 *     }),
 *   InvalidSpecError,
 * );
 * ```
 */
export class InvalidSpecError extends TypeError {
  /** Every problem found, not only the first. */
  readonly problems: readonly SpecProblem[];

  /**
   * Makes the error.
   *
   * @param message What is wrong, in the form "Cannot X as Y: current value is Z".
   * @param options `path` of the one problem, or `problems` when there are several.
   */
  constructor(
    message: string,
    options: { path?: string; problems?: readonly SpecProblem[] } = {},
  ) {
    super(message);
    this.name = "InvalidSpecError";
    this.problems = options.problems ?? [{ path: options.path ?? "", message }];
  }
}

/**
 * A registry operation was refused: a duplicate name, a conflicting
 * version, or an unknown tool to remove. Nothing was changed.
 *
 * @example A second tool of the same name is refused
 * ```ts
 * import { defineJsonTool, RegistryError, ToolSet } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const ping = defineJsonTool({
 *   name: "ping",
 *   description: "Answers pong.",
 *   inputSchema: { type: "object" },
 *   effects: [],
 *   run: () => ({ pong: true }),
 * });
 * const tools = new ToolSet().register(ping);
 * assert.throws(() => tools.register(ping), RegistryError);
 * ```
 */
export class RegistryError extends Error {
  /**
   * Makes the error.
   *
   * @param message What was refused and why.
   */
  constructor(message: string) {
    super(message);
    this.name = "RegistryError";
  }
}

/** Options for {@linkcode HandlerError}. */
export interface HandlerErrorOptions {
  /** Whether trying again may succeed; `false` forbids any retry. */
  readonly retryable?: boolean;
  /** A stable, machine-readable code such as `ENOENT` or `rate_limited`. */
  readonly code?: string;
  /** What the model should read; defaults to the message's first line, so a stack in it stays with the host. */
  readonly modelText?: string;
  /** The underlying error, kept for the host, never shown to the model. */
  readonly cause?: unknown;
}

/**
 * Thrown by a handler to fail a call with a retry hint, a code and the
 * text the model should read. Anything else a handler throws also fails
 * the call, as a `handler` failure.
 *
 * @example Fail with a message for the model
 * ```ts
 * import { HandlerError } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * const error = new HandlerError("ENOENT: /etc/app.conf", {
 *   code: "ENOENT",
 *   retryable: false,
 *   modelText: "No such file. List the directory first.",
 * });
 * assert.equal(error.retryable, false);
 * assert.equal(error.modelText, "No such file. List the directory first.");
 * ```
 */
export class HandlerError extends Error {
  /** Whether trying again may succeed; `undefined` when the handler did not say. */
  readonly retryable: boolean | undefined;
  /** A stable, machine-readable code. */
  readonly code: string | undefined;
  /** What the model should read. */
  readonly modelText: string;

  /**
   * Makes the error.
   *
   * @param message What went wrong, for the host.
   * @param options Retry hint, code, model text and cause.
   */
  constructor(message: string, options: HandlerErrorOptions = {}) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "HandlerError";
    this.retryable = options.retryable;
    this.code = options.code;
    this.modelText = options.modelText ?? firstLine(message);
  }
}
