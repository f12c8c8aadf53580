// A call's options come from the host, but a host may hand over anything: an
// object with getters, a Proxy, a getter that answers differently each time.
// Each field is read once, into a private snapshot that dispatch reads from
// then on, and checked there: a bad option is the host's bug, not the model's.

import { isRecord } from "../common/_is_record.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";
import { showValue } from "../common/_show_value.ts";
import type { CallOptions } from "./tool_call.ts";
import type { JsonLimits } from "../common/limits.ts";
import { frozenExtensions } from "./_extensions.ts";

/** The options of a call given none; read without a copy. */
export const NO_OPTIONS: CallOptions = Object.freeze({});

/** The longest subject a seal carries. */
const MAX_SUBJECT = 1024;

/** The longest timeout a timer can wait: setTimeout's bound. */
export const MAX_TIMEOUT_MS: number = 2 ** 31 - 1;

function kindOf(value: unknown): string {
  return value === null ? "null" : typeof value;
}

/** Reads and checks a call's options, each field once, the extensions within `limits`; a string says what is wrong. */
export function readCallOptions(options: unknown, limits: JsonLimits): CallOptions | string {
  if (options === NO_OPTIONS) return options;
  let copy: Record<keyof CallOptions, unknown>;
  try {
    if (!isRecord(options)) return `the options must be an object: current value is ${kindOf(options)}`;
    copy = {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      idempotencyKey: options.idempotencyKey,
      subject: options.subject,
      extensions: options.extensions,
      approve: options.approve,
      onProgress: options.onProgress,
      projection: options.projection,
    };
  } catch (error) {
    return `the options could not be read: ${messageOfThrown(error)}`;
  }
  const problem = optionsProblem(copy);
  if (problem) return problem;
  if (copy.extensions !== undefined) {
    // A private copy, frozen through: a handler cannot change what the host or another call holds.
    const frozen = frozenExtensions(copy.extensions as object, limits);
    if (typeof frozen === "string") return frozen;
    copy.extensions = frozen;
  }
  return copy as CallOptions;
}

function optionsProblem(options: Record<keyof CallOptions, unknown>): string | undefined {
  const { timeoutMs, signal, idempotencyKey, subject, extensions, approve, onProgress, projection } = options;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)) {
    // String, not JSON, for a number: JSON writes NaN and Infinity as null.
    const shown = typeof timeoutMs === "number" ? String(timeoutMs) : showValue(timeoutMs);
    return `timeoutMs must be a number from 1 to ${MAX_TIMEOUT_MS}: current value is ${shown}`;
  }
  try {
    if (
      signal !== undefined &&
      !(isRecord(signal) && typeof signal.aborted === "boolean" && typeof signal.addEventListener === "function" &&
        typeof signal.removeEventListener === "function")
    ) {
      return `signal must be an AbortSignal: current value is ${kindOf(signal)}`;
    }
  } catch (error) {
    return `signal must be an AbortSignal: reading it threw ${messageOfThrown(error)}`;
  }
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== "string" || idempotencyKey === "")) {
    return `idempotencyKey must be a non-empty string: current value is ${
      typeof idempotencyKey === "string" ? '""' : kindOf(idempotencyKey)
    }`;
  }
  if (subject !== undefined && !(typeof subject === "string" && subject.length > 0 && subject.length <= MAX_SUBJECT)) {
    return `subject must be a string of 1 to ${MAX_SUBJECT} characters: current value is ${
      typeof subject === "string" ? `${subject.length} characters` : kindOf(subject)
    }`;
  }
  if (extensions !== undefined && (typeof extensions !== "object" || extensions === null)) {
    return `extensions must be an object: current value is ${kindOf(extensions)}`;
  }
  for (const [field, value] of [["approve", approve], ["onProgress", onProgress]] as const) {
    if (value !== undefined && typeof value !== "function") {
      return `${field} must be a function: current value is ${kindOf(value)}`;
    }
  }
  if (projection !== undefined) {
    try {
      if (!(isRecord(projection) && typeof projection.restore === "function")) {
        return `projection must be an ArgumentsProjection with a restore function: current value is ${
          kindOf(projection)
        }`;
      }
    } catch (error) {
      return `projection must be an ArgumentsProjection: reading it threw ${messageOfThrown(error)}`;
    }
  }
  return undefined;
}
