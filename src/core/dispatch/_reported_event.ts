// A tool's own failed or suspended event is data from outside the core: a
// custom DynTool or an MCP bridge may hand over any shape, any size, getters
// that throw. Each field is read once, checked and bounded like the failures
// and records dispatch makes itself; what cannot be read as the contract
// says is the tool's breach, reported as a string for a `contract` failure.

import { boundDiagnostics, type Diagnostic } from "../common/diagnostics.ts";
import { messageOfThrown } from "../common/_describe_thrown.ts";
import { isRecord } from "../common/_is_record.ts";
import { copyJsonValue, type JsonLimits } from "../common/limits.ts";
import { showValue } from "../common/_show_value.ts";
import { boundText, FAILURE_KINDS, type FailureKind, type ToolFailure, toolFailure } from "../contract/failure.ts";
import type { Suspension } from "../contract/events.ts";
import { checkJsonSchema, type JsonSchema } from "../schema/schema.ts";

const KNOWN_FAILURE_KINDS: ReadonlySet<unknown> = new Set(FAILURE_KINDS);

/** The longest message a failure carries, in characters: two model texts' worth. */
export const MAX_MESSAGE = 4000;
/** The longest reason a suspension carries, in characters. */
const MAX_REASON = 4000;
/** The longest code, or diagnostic field, kept. */
const MAX_CODE = 200;
const MAX_DIAGNOSTIC_FIELD = 1000;
/** How many of a tool's diagnostics are read; the rest are only counted. */
const MAX_DIAGNOSTICS_READ = 1000;

/** Reads a tool's reported failure into a bounded `ToolFailure`, or says how it breaks the contract. */
export function readFailure(failure: unknown): ToolFailure | string {
  try {
    if (!isRecord(failure)) return "the failure is not an object";
    const { kind, message, modelText, retryable, uncertain, code, diagnostics, omittedDiagnostics } = failure;
    if (!KNOWN_FAILURE_KINDS.has(kind)) return `the failure's kind is not a failure kind: ${showValue(kind)}`;
    if (typeof message !== "string") return "the failure's message is not a string";
    for (
      const [field, value, type] of [
        ["modelText", modelText, "string"],
        ["code", code, "string"],
        ["retryable", retryable, "boolean"],
        ["uncertain", uncertain, "boolean"],
      ] as const
    ) {
      if (value !== undefined && typeof value !== type) {
        return `the failure's ${field} must be a ${type}: current value is ${showValue(value)}`;
      }
    }
    const report = diagnostics === undefined ? undefined : readDiagnostics(diagnostics, omittedDiagnostics);
    if (typeof report === "string") return report;
    return toolFailure(kind as FailureKind, boundText(message, MAX_MESSAGE), {
      ...(modelText === undefined ? {} : { modelText: modelText as string }),
      ...(retryable === undefined ? {} : { retryable: retryable as boolean }),
      ...(uncertain === undefined ? {} : { uncertain: uncertain as boolean }),
      ...(code === undefined ? {} : { code: boundText(code as string, MAX_CODE) }),
      ...(report === undefined ? {} : { diagnostics: report.diagnostics, omittedDiagnostics: report.omitted }),
    });
  } catch (error) {
    return `the failure could not be read: ${messageOfThrown(error)}`;
  }
}

/** Reads at most 1,000 diagnostics, checks their shape, and keeps the first 16 in order. */
function readDiagnostics(
  diagnostics: unknown,
  omitted: unknown,
): { diagnostics: readonly Diagnostic[]; omitted: number } | string {
  if (!Array.isArray(diagnostics)) return "the failure's diagnostics are not a list";
  if (omitted !== undefined && !(Number.isSafeInteger(omitted) && (omitted as number) >= 0)) {
    return `the failure's omittedDiagnostics must be a count: current value is ${showValue(omitted)}`;
  }
  const length = diagnostics.length;
  const read: Diagnostic[] = [];
  for (let i = 0; i < Math.min(length, MAX_DIAGNOSTICS_READ); i++) {
    const item: unknown = diagnostics[i];
    if (!isRecord(item)) return `the failure's diagnostic ${i} is not an object`;
    const { path, keyword, message } = item;
    if (typeof path !== "string" || typeof keyword !== "string" || typeof message !== "string") {
      return `the failure's diagnostic ${i} needs a string path, keyword and message`;
    }
    read.push({
      path: boundText(path, MAX_DIAGNOSTIC_FIELD),
      keyword: boundText(keyword, MAX_CODE),
      message: boundText(message, MAX_DIAGNOSTIC_FIELD),
    });
  }
  const bounded = boundDiagnostics(read);
  return {
    diagnostics: bounded.diagnostics,
    omitted: bounded.omitted + (length - read.length) + ((omitted as number | undefined) ?? 0),
  };
}

/** Reads a tool's suspension: a bounded reason, a valid bounded resume schema, a bounded payload. */
export function readSuspension(suspension: unknown, limits: JsonLimits): Suspension | string {
  let reason: unknown, resumeSchema: unknown, payload: unknown;
  try {
    if (!isRecord(suspension)) return "the suspension is not an object";
    ({ reason, resumeSchema, payload } = suspension);
  } catch (error) {
    return `the suspension could not be read: ${messageOfThrown(error)}`;
  }
  if (typeof reason !== "string") return "the suspension's reason is not a string";
  if (reason.length > MAX_REASON) {
    return `the suspension's reason is longer than ${MAX_REASON} characters: current length is ${reason.length}`;
  }
  const schema = copyJsonValue(resumeSchema, limits);
  if (!schema.ok) return `the suspension's resume schema is not bounded JSON: ${schema.problem.message}`;
  try {
    checkJsonSchema(schema.value as JsonSchema, { label: "resume schema" });
  } catch (error) {
    return `the suspension's resume schema is invalid: ${messageOfThrown(error)}`;
  }
  if (payload === undefined) return { reason, resumeSchema: schema.value as JsonSchema };
  const data = copyJsonValue(payload, limits);
  if (!data.ok) return `the suspension's payload is not bounded JSON: ${data.problem.message}`;
  return { reason, resumeSchema: schema.value as JsonSchema, payload: data.value };
}
