// A batch record is plain JSON that may be stored and read back in another
// process, so a resume checks its shape before reading it, and it is built
// from copies, so nothing the host still holds can change it afterwards.
// Each parked call's own record is checked again by ToolSet.resume.

import type { TerminalEvent } from "../contract/events.ts";
import { isRecord } from "../common/_is_record.ts";
import { showValue } from "../common/_show_value.ts";
import type { BatchEntry, BatchRecord } from "../contract/batch_record.ts";

/** A terminal as JSON: an output keeps what the model sees and the structured output, not host-only details. */
function plainTerminal(terminal: TerminalEvent): TerminalEvent {
  if (terminal.type !== "output") return terminal;
  const { content, output, usage } = terminal.result;
  return {
    type: "output",
    result: { content, ...(output === undefined ? {} : { output }), ...(usage === undefined ? {} : { usage }) },
  };
}

/**
 * Builds the record of a batch from its results. It shares their values: whoever keeps it reads it into a copy first
 * (sealing does), so that nothing the host holds is shared with what is kept.
 */
export function batchRecordOf(results: readonly BatchEntry[]): BatchRecord {
  return {
    v: 1,
    type: "batch",
    calls: results.map(({ callId, tool, terminal }) => ({ callId, tool, terminal: plainTerminal(terminal) })),
  };
}

/** What is wrong with one entry of a record, if anything. */
function entryProblem(entry: unknown): string | undefined {
  if (!isRecord(entry)) return `it must be an object: current value is ${showValue(entry)}`;
  if (typeof entry.callId !== "string") {
    return `its callId must be a string: current value is ${showValue(entry.callId)}`;
  }
  if (typeof entry.tool !== "string") return `its tool must be a string: current value is ${showValue(entry.tool)}`;
  const terminal = entry.terminal;
  if (!isRecord(terminal)) return `its terminal must be an object: current value is ${showValue(terminal)}`;
  const held = { output: "result", failed: "failure", suspended: "suspended" }[String(terminal.type)];
  if (held === undefined) {
    return `its terminal's type must be "output", "failed" or "suspended": current value is ${
      showValue(terminal.type)
    }`;
  }
  if (!isRecord(terminal[held])) {
    return `its terminal's ${held} must be an object: current value is ${showValue(terminal[held])}`;
  }
  return undefined;
}

/** Checks a record read back from storage and returns its entries, or says why it is refused. */
export function readBatchRecord(record: unknown): readonly BatchEntry[] | string {
  const refuse = (why: string) => `Cannot resume the batch as ${why}`;
  if (!isRecord(record)) return refuse(`the record must be an object: current value is ${showValue(record)}`);
  if (record.v !== 1 || record.type !== "batch") {
    return refuse(
      `the record must be a version 1 batch record: current value is ${showValue({ v: record.v, type: record.type })}`,
    );
  }
  if (!Array.isArray(record.calls)) {
    return refuse(`its calls must be an array: current value is ${showValue(record.calls)}`);
  }
  const ids = new Set<string>();
  for (const [index, entry] of record.calls.entries()) {
    const problem = entryProblem(entry);
    if (problem) return refuse(`call ${index} is malformed: ${problem}`);
    if (entry.callId !== "" && ids.has(entry.callId)) {
      return refuse(`call ${index} repeats the id of an earlier call: current value is ${showValue(entry.callId)}`);
    }
    ids.add(entry.callId);
  }
  return record.calls as readonly BatchEntry[];
}
