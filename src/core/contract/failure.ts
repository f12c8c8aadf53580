/**
 * Failures: every way a call can end without an output, as plain data a
 * runtime can log, classify for retry, and hand back to the model.
 *
 * @module
 */

import type { Diagnostic } from "../common/diagnostics.ts";
import { HandlerError } from "../common/errors.ts";
import { firstLine } from "../common/_first_line.ts";
import { thrownField } from "../common/_describe_thrown.ts";

/**
 * Why a call failed. `invalid_input` means the handler never ran;
 * `handler` means it ran and failed. `contract` means the tool broke the
 * dispatch contract, or one of its schemas took more steps than its
 * validation budget on a value (the schema is at fault, not the model's
 * arguments, so it is never `invalid_input`, and it carries
 * `retryable: false`: the same schema would cost as much again).
 */
export type FailureKind =
  | "invalid_input"
  | "not_found"
  | "handler"
  | "invalid_output"
  | "timeout"
  | "cancelled"
  | "contract"
  | "policy_required"
  | "unavailable";

/**
 * Every {@linkcode FailureKind}, for checking a failure that came from
 * outside (a tool's stream, a stored log) and for tables over all kinds.
 *
 * @example
 * ```ts
 * import { FAILURE_KINDS } from "@salvor/tools";
 * import assert from "node:assert/strict";
 *
 * assert.equal(FAILURE_KINDS.includes("timeout"), true);
 * assert.equal(FAILURE_KINDS.length, 9);
 * ```
 */
export const FAILURE_KINDS: readonly FailureKind[] = Object.freeze([
  "invalid_input",
  "not_found",
  "handler",
  "invalid_output",
  "timeout",
  "cancelled",
  "contract",
  "policy_required",
  "unavailable",
]);

/** A failed call, as a value. */
export interface ToolFailure {
  /** Why the call failed. */
  readonly kind: FailureKind;
  /** What happened, for the host's logs. */
  readonly message: string;
  /** What the model should read next turn: bounded, no stack trace. */
  readonly modelText: string;
  /** Whether trying again may succeed, when the tool said so. */
  readonly retryable?: boolean;
  /** Side effects may have happened (a timed-out or cancelled non-idempotent call). */
  readonly uncertain: boolean;
  /** A machine-readable code from the tool or server, when it gave one. */
  readonly code?: string;
  /** For `invalid_input` and `invalid_output`: at most 16 sorted problems. */
  readonly diagnostics?: readonly Diagnostic[];
  /** How many more problems were found than are listed. */
  readonly omittedDiagnostics?: number;
}

/** The longest `modelText` a failure carries, in characters. */
export const MAX_MODEL_TEXT = 2000;

/** The most characters of a HandlerError's code a failure keeps. */
const MAX_CODE = 200;

/**
 * Bounds a text for a model: cut at {@linkcode MAX_MODEL_TEXT} characters
 * with a marker, never inside a surrogate pair.
 */
export function boundModelText(text: string): string {
  return boundText(text, MAX_MODEL_TEXT);
}

/** Cuts a text to at most `max` characters with a marker, never inside a surrogate pair. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 20;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)} [... truncated]`;
}

/** The fields of a failure besides its kind and message. */
export type ToolFailureOptions = Partial<Omit<ToolFailure, "kind" | "message">>;

/**
 * Builds a failure value, bounding its model text (the message, when no
 * model text is given).
 *
 * @param kind Why the call failed.
 * @param message What happened, for the host.
 * @param options Model text, retry hint, uncertainty, code, diagnostics.
 * @returns The failure.
 *
 * @example
 * ```ts
 * import { toolFailure } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const failure = toolFailure("unavailable", "The server exited", { retryable: true });
 * assert.equal(failure.modelText, "The server exited");
 * assert.equal(failure.uncertain, false);
 * ```
 */
export function toolFailure(
  kind: FailureKind,
  message: string,
  options: ToolFailureOptions = {},
): ToolFailure {
  const failure: { -readonly [K in keyof ToolFailure]: ToolFailure[K] } = {
    kind,
    message,
    modelText: boundModelText(options.modelText ?? message),
    uncertain: options.uncertain ?? false,
  };
  if (options.retryable !== undefined) failure.retryable = options.retryable;
  if (options.code !== undefined) failure.code = options.code;
  if (options.diagnostics !== undefined) {
    failure.diagnostics = options.diagnostics;
    failure.omittedDiagnostics = options.omittedDiagnostics ?? 0;
  }
  return failure;
}

/**
 * Turns whatever a handler threw into a `handler` failure. A
 * {@linkcode HandlerError} keeps its retry hint, code (up to 200
 * characters) and model text; for anything else the model reads only the
 * first line of the message, never a stack. The failure's message holds the
 * thrown message's first line, up to 500 characters.
 *
 * @param tool The tool's name, for the messages.
 * @param thrown What the handler threw (an `Error`, a string, `undefined`, ...).
 * @returns The failure.
 *
 * @example A thrown string still fails cleanly
 * ```ts
 * import { failureFromThrown } from "@salvor/tools/dyn";
 * import assert from "node:assert/strict";
 *
 * const failure = failureFromThrown("read_file", "disk on fire");
 * assert.equal(failure.kind, "handler");
 * assert.match(failure.modelText, /disk on fire/);
 * ```
 */
export function failureFromThrown(tool: string, thrown: unknown): ToolFailure {
  // A HandlerError subclass may still read its fields through getters that throw.
  if (isHandlerError(thrown)) {
    const modelText = thrownField(thrown, "modelText");
    const retryable = thrownField(thrown, "retryable");
    const code = thrownField(thrown, "code");
    // Bounded as any thrown value's: a handler may put an upstream answer of any length in its message or code.
    const message = textField(thrown, "message");
    return toolFailure(
      "handler",
      `Tool "${tool}" failed: ${message === undefined ? "a HandlerError" : firstLine(message)}`,
      {
        ...(typeof modelText === "string" ? { modelText } : {}),
        ...(typeof retryable === "boolean" ? { retryable } : {}),
        ...(typeof code === "string" ? { code: boundText(code, MAX_CODE) } : {}),
      },
    );
  }
  return toolFailure("handler", `Tool "${tool}" failed: ${detailOf(thrown)}`);
}

function isHandlerError(thrown: unknown): boolean {
  try {
    return thrown instanceof HandlerError;
  } catch {
    // A revoked Proxy throws on the prototype lookup.
    return false;
  }
}

function textField(thrown: unknown, field: string): string | undefined {
  const value = thrownField(thrown, field);
  return typeof value === "string" ? value : undefined;
}

/** What a model may read of any thrown value: a first line, never a stack, never a throw. */
function detailOf(thrown: unknown): string {
  if (typeof thrown === "string") return firstLine(thrown);
  if (thrown === undefined || thrown === null) return `it threw ${thrown}`;
  let isError = false;
  try {
    isError = thrown instanceof Error;
  } catch {
    // A revoked Proxy: described by its type below.
  }
  if (isError) {
    const message = textField(thrown, "message");
    return (message === undefined ? "" : firstLine(message)) || textField(thrown, "name") || "it threw an Error";
  }
  return `it threw ${typeof thrown === "object" ? "an object" : `a ${typeof thrown}`}`;
}
