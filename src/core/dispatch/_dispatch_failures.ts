// The failures dispatch itself reports, each with its message for the host
// and its modelText for the model's next turn (a tool's own failures pass
// through as the tool wrote them). The wording lives in one place so the
// model reads one voice, whichever step refused the call.

import type { Diagnostic, DiagnosticReport } from "../common/diagnostics.ts";
import type { TerminalEvent } from "../contract/events.ts";
import { type ToolFailure, toolFailure } from "../contract/failure.ts";
import type { StopReason } from "./_call_control.ts";
import { describeThrown } from "../common/_describe_thrown.ts";

export function failed(failure: ToolFailure): TerminalEvent {
  return { type: "failed", failure };
}

export function one(diagnostic: Diagnostic): DiagnosticReport {
  return { diagnostics: [diagnostic], omitted: 0 };
}

/** The first `max` units of an untrusted name; the cut may split a surrogate pair, which is then replaced. */
function cut(name: string, max: number): string {
  return name.slice(0, max).toWellFormed();
}

/** One line a problem. Concatenated, not joined: the text is flattened only when it is read. */
function describeDiagnostics(report: DiagnosticReport): string {
  let text = "";
  let separator = "";
  for (const d of report.diagnostics) {
    text += `${separator}- ${d.path || "(arguments)"} [${d.keyword}]: ${d.message}`;
    separator = "\n";
  }
  if (report.omitted > 0) text += `${separator}- ... and ${report.omitted} more problems`;
  return text;
}

export function malformedCall(): ToolFailure {
  return toolFailure(
    "invalid_input",
    "Cannot dispatch the call as it needs a string id and name",
    {
      diagnostics: [{
        path: "",
        keyword: "type",
        message: "A call needs a string id and a string name.",
      }],
    },
  );
}

export function notFound(tool: string): ToolFailure {
  return toolFailure(
    "not_found",
    `Cannot call "${cut(tool, 200)}" as no tool of that name is registered`,
    {
      // Cut to a valid name's length.
      modelText: `There is no tool named "${cut(tool, 64)}". Call only the tools you were given, by their exact names.`,
    },
  );
}

export function notFoundToResume(tool: string): ToolFailure {
  return toolFailure(
    "not_found",
    `Cannot resume "${cut(tool, 200)}" as no tool of that name is registered`,
  );
}

export function invalidInput(tool: string, report: DiagnosticReport): ToolFailure {
  return toolFailure(
    "invalid_input",
    `Cannot call "${tool}" as its arguments are invalid`,
    {
      modelText: `The arguments for "${tool}" are invalid; the tool did not run.\n${
        describeDiagnostics(report)
      }\nFix the arguments and call it again.`,
      diagnostics: report.diagnostics,
      omittedDiagnostics: report.omitted,
    },
  );
}

/** A resume refused before anything ran: a malformed or stale record, or an answer its schema refuses. */
export function refusedResume(what: string, why: string, report: DiagnosticReport): ToolFailure {
  return toolFailure("invalid_input", `Cannot resume ${what} as ${why}`, {
    modelText: `The parked call to ${what} could not be resumed as ${why}; the tool did not run.\n${
      describeDiagnostics(report)
    }`,
    diagnostics: report.diagnostics,
    omittedDiagnostics: report.omitted,
  });
}

/** The host passed options dispatch cannot honour: its bug, not the model's. */
export function invalidOptions(tool: string, problem: string): ToolFailure {
  return toolFailure("contract", `Cannot dispatch "${tool}" as ${problem}`);
}

export function deniedByPerson(tool: string, reason: string | undefined): ToolFailure {
  const why = reason ? `: ${reason}` : "";
  return toolFailure(
    "policy_required",
    `A person denied the call to "${tool}"${why}`,
    {
      modelText: `A person denied the call to "${tool}"${why}. Do not try it again without asking.`,
    },
  );
}

export function noApprovalGate(tool: string): ToolFailure {
  return toolFailure(
    "policy_required",
    `Cannot run "${tool}" as it declares an unknown effect and no approval gate is set`,
    {
      modelText: `The tool "${tool}" needs approval that is not available.`,
    },
  );
}

export function approvalGateFailed(tool: string, error: unknown): ToolFailure {
  return toolFailure(
    "policy_required",
    `The approval gate failed for "${tool}": ${describeThrown(error)}`,
    {
      modelText: `The call to "${tool}" was not approved.`,
    },
  );
}

export function refusedByPolicy(tool: string, reason: string | undefined): ToolFailure {
  const why = reason ? `: ${reason}` : "";
  return toolFailure(
    "policy_required",
    `The approval policy refused the call to "${tool}"${why}`,
    {
      modelText: `The call to "${tool}" is not allowed${why}.`,
    },
  );
}

/** A call stopped by its timeout or its caller; `uncertain` when the tool may have acted. */
export function stopped(tool: string, kind: StopReason, uncertain: boolean): ToolFailure {
  const message = kind === "timeout" ? `Tool "${tool}" timed out` : `The call to "${tool}" was cancelled`;
  const modelText = kind === "timeout"
    ? `The tool "${tool}" did not finish in time${uncertain ? "; it may have had side effects" : ""}.`
    : `The call to "${tool}" was cancelled${uncertain ? "; it may have had side effects" : ""}.`;
  return toolFailure(kind, message, { modelText, uncertain });
}

export function invalidOutput(tool: string, report: DiagnosticReport): ToolFailure {
  return toolFailure(
    "invalid_output",
    `Tool "${tool}" returned an output that breaks its output schema`,
    {
      modelText: `The tool "${tool}" ran but returned a malformed result; it may have had side effects.`,
      diagnostics: report.diagnostics,
      omittedDiagnostics: report.omitted,
    },
  );
}

export function contract(tool: string, what: string): ToolFailure {
  return toolFailure(
    "contract",
    `Tool "${tool}" broke the stream contract: ${what}`,
    {
      modelText: `The tool "${tool}" failed internally.`,
    },
  );
}

/**
 * A schema whose validation of one value took more steps than its budget.
 * The schema is at fault, not the value, so this is a `contract` failure
 * that trying again cannot fix; its message names the schema, never the value.
 */
export function costlySchema(tool: string, what: "arguments" | "resume answer" | "output", error: Error): ToolFailure {
  return toolFailure("contract", `Tool "${tool}" has a schema too costly to check its ${what}: ${error.message}`, {
    modelText: `The tool "${tool}" cannot check its ${what}: its schema is too costly to evaluate${
      what === "output" ? "; it ran and may have had side effects" : "; it did not run"
    }. Do not call it again.`,
    retryable: false,
    uncertain: false,
  });
}

/** A failure of the dispatcher itself: a bug, reported as a value. */
export function unexpected(error: unknown): TerminalEvent {
  return failed(toolFailure("contract", `Dispatch failed unexpectedly: ${describeThrown(error)}`));
}
