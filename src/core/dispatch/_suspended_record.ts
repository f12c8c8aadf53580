// A parked call's record is plain JSON that may be stored and read back in
// another process or version of the host, so a resume checks its shape
// before reading it. It is built from private copies, so nothing the tool
// or the host still holds can change it afterwards.

import type { Diagnostic } from "../common/diagnostics.ts";
import type { ToolDescriptor } from "../contract/spec.ts";
import type { SuspendedCall } from "../contract/suspend.ts";
import { isRecord } from "../common/_is_record.ts";
import { copyJsonValue, type JsonLimits } from "../common/limits.ts";

/** The call a record parks: its id, its tool and its arguments. */
export interface ParkedCall {
  readonly callId: string;
  readonly entry: { readonly descriptor: ToolDescriptor };
  readonly args: Record<string, unknown>;
}

/**
 * Reads a record back from storage: a private copy, each property read once
 * (a getter cannot show the checks one record and the resume another),
 * within room for its input, resume schema and payload at the value limits,
 * and of the right shape. Returns the copy, or what is wrong with it.
 */
export function readRecord(record: unknown, limits: JsonLimits): SuspendedCall | Diagnostic {
  const copied = copyJsonValue(record, {
    maxBytes: limits.maxBytes * RECORD_VALUES + RECORD_FIELDS_BYTES,
    maxDepth: limits.maxDepth + 1,
  });
  if (!copied.ok) return { ...copied.problem, message: `The record is not bounded JSON: ${copied.problem.message}` };
  return recordProblem(copied.value) ?? copied.value as SuspendedCall;
}

/** A record carries three values bounded by the limits (input, resume schema, payload). */
const RECORD_VALUES = 3;
/** Room for its other fields: ids, a reason, a version, a key. */
const RECORD_FIELDS_BYTES = 64 * 1024;

/** Checks the shape of a record read back from storage. */
function recordProblem(record: unknown): Diagnostic | undefined {
  const wrong = (path: string, message: string): Diagnostic => ({
    path,
    keyword: "type",
    message,
  });
  if (!isRecord(record)) {
    return wrong("", "A suspended-call record must be an object.");
  }
  if (record.v !== 1) {
    return {
      path: "/v",
      keyword: "const",
      message: "Only version 1 records can be resumed.",
    };
  }
  for (const field of ["callId", "tool", "version", "reason"] as const) {
    if (typeof record[field] !== "string") {
      return wrong(`/${field}`, `The record's ${field} must be a string.`);
    }
  }
  if (!isRecord(record.input)) {
    return wrong("/input", "The record's input must be an object.");
  }
  if (record.origin !== "handler" && record.origin !== "approval") {
    return {
      path: "/origin",
      keyword: "enum",
      message: 'The record\'s origin must be "handler" or "approval".',
    };
  }
  if (
    record.idempotencyKey !== undefined &&
    typeof record.idempotencyKey !== "string"
  ) {
    return wrong(
      "/idempotencyKey",
      "The record's idempotencyKey must be a string.",
    );
  }
  return undefined;
}

/** Builds the record of a parked call. */
export function suspendedRecord(
  call: ParkedCall,
  idempotencyKey: string | undefined,
  fields: Pick<
    SuspendedCall,
    "reason" | "resumeSchema" | "payload" | "origin"
  >,
): SuspendedCall {
  return {
    v: 1,
    callId: call.callId,
    tool: call.entry.descriptor.name,
    version: call.entry.descriptor.version,
    input: structuredClone(call.args),
    reason: fields.reason,
    resumeSchema: structuredClone(fields.resumeSchema),
    ...(fields.payload === undefined ? {} : { payload: structuredClone(fields.payload) }),
    origin: fields.origin,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  };
}
