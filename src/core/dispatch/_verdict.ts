// An approval gate is host code, but its answer is read like anything handed
// over: each field once, into a private copy, so a getter cannot answer one
// thing when checked and another when used. A reason is cut to what a model
// message can carry; a payload must be bounded JSON, as it goes into a record.

import { isRecord } from "../common/_is_record.ts";
import { copyJsonValue, type JsonLimits } from "../common/limits.ts";
import { showValue } from "../common/_show_value.ts";

/** A gate's answer, read and checked. */
export interface Verdict {
  readonly decision: "allow" | "deny" | "suspend";
  readonly reason?: string;
  readonly payload?: unknown;
}

const DECISIONS: ReadonlySet<unknown> = new Set(["allow", "deny", "suspend"]);

/** The longest reason a verdict carries, in characters. */
const MAX_REASON = 1000;

/** Reads what a gate answered; a string says why it is not an answer. */
export function readVerdict(answer: unknown, limits: JsonLimits): Verdict | string {
  if (answer === true) return { decision: "allow" };
  if (answer === false) return { decision: "deny" };
  if (answer === "suspend") return { decision: "suspend" };
  if (!isRecord(answer)) {
    return `it must be a boolean, "suspend" or a verdict object: current value is ${showValue(answer)}`;
  }
  let decision: unknown, reason: unknown, payload: unknown;
  try {
    ({ decision, reason, payload } = answer);
  } catch (error) {
    return `its verdict could not be read: ${String(error)}`;
  }
  if (!DECISIONS.has(decision)) {
    return `its verdict's decision must be "allow", "deny" or "suspend": current value is ${showValue(decision)}`;
  }
  if (reason !== undefined && typeof reason !== "string") {
    return `its verdict's reason must be a string: current value is ${showValue(reason)}`;
  }
  if (payload !== undefined) {
    // Read once, into the copy the record keeps: a getter cannot pass the check with one answer and be kept with another.
    const copied = copyJsonValue(payload, limits);
    if (!copied.ok) {
      const { path, message } = copied.problem;
      return `its verdict's payload must be bounded JSON: at ${path || "/"}, ${message}`;
    }
    payload = copied.value;
  }
  return {
    decision: decision as Verdict["decision"],
    ...(reason === undefined ? {} : { reason: (reason as string).slice(0, MAX_REASON).toWellFormed() }),
    ...(payload === undefined ? {} : { payload }),
  };
}
