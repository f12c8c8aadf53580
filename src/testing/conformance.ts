/**
 * Conformance: run any `DynTool`, native or MCP, through a fresh registry
 * and report which rules of the tool contract held and which broke.
 *
 * @module
 */

import type { DynTool } from "../core/contract/dyn.ts";
import type { TerminalEvent, ToolEvent } from "../core/contract/events.ts";
import type { FailureKind } from "../core/contract/failure.ts";
import { ToolSet } from "../core/dispatch/tool_set.ts";
import { isRecord } from "../core/common/_is_record.ts";
import { showValue } from "../core/common/_show_value.ts";
import { observe, type StreamLog } from "./_observed.ts";

/** What a case expects of its terminal event; every field given must match. */
export interface ConformanceExpectation {
  /** The terminal's type. */
  readonly type?: TerminalEvent["type"];
  /** For a `failed` terminal, the failure's kind. */
  readonly kind?: FailureKind;
}

/** One call to make to the tool under test. */
export interface ConformanceCase {
  /** A name for the report; `case <n>` when absent. */
  readonly name?: string;
  /** The arguments, as a model would send them: a JSON string or a value. */
  readonly arguments?: unknown;
  /**
   * Whether the arguments are valid. Default `true`. An invalid case must
   * end `invalid_input` and never reach `execute`.
   */
  readonly valid?: boolean;
  /**
   * Cancel the call as soon as the tool starts. It must end `cancelled`,
   * with the tool's signal aborted, and the tool's stream must settle
   * within `cancelBoundMs`. Use it with arguments that keep the tool busy.
   */
  readonly cancel?: boolean;
  /** What the terminal must be. */
  readonly expect?: ConformanceExpectation;
}

/** Options for {@linkcode checkToolConformance}. */
export interface ConformanceOptions {
  /** Each call's timeout, so a hanging tool cannot hang the check. Default 5,000 ms. */
  readonly timeoutMs?: number;
  /** How long a cancelled tool's stream may take to settle. Default 1,000 ms. */
  readonly cancelBoundMs?: number;
}

/**
 * The contract rules a conformance check reports, in report order. See
 * {@linkcode checkToolConformance} for what each one means.
 *
 * @example Every report lists every rule
 * ```ts
 * import { checkToolConformance, CONFORMANCE_RULES, fakeReadTool } from "@salvor/tools/testing";
 * import assert from "node:assert/strict";
 *
 * const report = await checkToolConformance(fakeReadTool(), []);
 * assert.deepEqual(report.rules.map((rule) => rule.name), [...CONFORMANCE_RULES]);
 * ```
 */
export const CONFORMANCE_RULES = [
  "descriptor_valid",
  "valid_input_accepted",
  "invalid_input_rejected",
  "invalid_input_never_executes",
  "exactly_one_terminal",
  "nothing_after_terminal",
  "stream_never_throws",
  "events_well_formed",
  "output_matches_schema",
  "cancellation_honoured",
  "expectations_met",
] as const;

/** The name of a contract rule. */
export type ConformanceRuleName = typeof CONFORMANCE_RULES[number];

/** Whether one rule held, and what was seen. */
export interface ConformanceRule {
  /** The rule. */
  readonly name: ConformanceRuleName;
  /** Whether it held for every case it applies to. */
  readonly ok: boolean;
  /** What held, or each breach found (case by case). */
  readonly message: string;
}

/** What one case did. */
export interface ConformanceCaseResult {
  /** The case's name. */
  readonly name: string;
  /** The events the registry yielded, the terminal last. */
  readonly events: readonly ToolEvent[];
  /** The terminal event. */
  readonly terminal: TerminalEvent;
  /** Whether the call reached the tool's `execute`. */
  readonly executed: boolean;
}

/** The outcome of {@linkcode checkToolConformance}. */
export interface ConformanceReport {
  /** The tool's name, or `(unnamed)` when its descriptor has none. */
  readonly tool: string;
  /** Whether every rule held. */
  readonly ok: boolean;
  /** Every rule of {@linkcode CONFORMANCE_RULES}, in that order. */
  readonly rules: readonly ConformanceRule[];
  /** Each case's outcome, in order. */
  readonly cases: readonly ConformanceCaseResult[];
}

const TERMINAL_TYPES: ReadonlySet<unknown> = new Set(["output", "failed", "suspended"]);
const MAX_LISTED = 5;

function isTerminal(event: unknown): boolean {
  return isRecord(event) && TERMINAL_TYPES.has(event.type);
}

function checkCases(cases: unknown): readonly ConformanceCase[] {
  if (!Array.isArray(cases)) {
    throw new TypeError(
      `Cannot check conformance as cases must be an array: current value is ${cases === null ? "null" : typeof cases}`,
    );
  }
  cases.forEach((testCase: unknown, i) => {
    if (!isRecord(testCase)) {
      throw new TypeError(
        `Cannot check conformance as case ${i} must be an object: current value is ${showValue(testCase)}`,
      );
    }
    for (const flag of ["valid", "cancel"] as const) {
      if (testCase[flag] !== undefined && typeof testCase[flag] !== "boolean") {
        throw new TypeError(
          `Cannot check conformance as case ${i}'s ${flag} must be a boolean: current value is ${
            showValue(testCase[flag])
          }`,
        );
      }
    }
  });
  return cases;
}

function checkMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 1 || value > 2 ** 31 - 1) {
    throw new RangeError(
      `Cannot check conformance as ${name} must be a number of ms from 1 to ${2 ** 31 - 1}: current value is ${
        showValue(value)
      }`,
    );
  }
  return value;
}

/** Collects the breaches of one rule across cases. */
class Verdict {
  readonly breaches: string[] = [];
  checked = 0;

  constructor(readonly name: ConformanceRuleName, readonly held: string) {}

  judge(breach: string | undefined): void {
    this.checked++;
    if (breach !== undefined) this.breaches.push(breach);
  }

  rule(): ConformanceRule {
    if (this.breaches.length === 0) {
      return { name: this.name, ok: true, message: `${this.held} (${this.checked} checked)` };
    }
    const listed = this.breaches.slice(0, MAX_LISTED);
    const more = this.breaches.length - listed.length;
    return {
      name: this.name,
      ok: false,
      message: listed.join("; ") + (more > 0 ? `; and ${more} more` : ""),
    };
  }
}

function terminalOf(events: readonly ToolEvent[]): TerminalEvent {
  return events[events.length - 1] as TerminalEvent;
}

function describeTerminal(terminal: TerminalEvent): string {
  return terminal.type === "failed" ? `failed (${terminal.failure.kind}: ${terminal.failure.message})` : terminal.type;
}

/** Waits until a stream settles, or the bound passes; true when it settled. */
async function settlesWithin(log: StreamLog, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([log.idle().then(() => true), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** The breaches of the stream rules a raw stream shows, each under its rule. */
function streamBreaches(log: StreamLog): Partial<Record<ConformanceRuleName, string>> {
  const found: Partial<Record<ConformanceRuleName, string>> = {};
  const first = log.events.findIndex(isTerminal);
  const terminals = log.events.filter(isTerminal).length;
  // A stream the registry closed early was not allowed to finish: a missing
  // terminal counts only against a stream that finished on its own.
  if (terminals > 1) {
    found.exactly_one_terminal = `the stream yielded ${terminals} terminal events`;
  } else if (terminals === 0 && log.ended) {
    found.exactly_one_terminal = log.threw
      ? "the stream threw before any terminal event"
      : "the stream ended without a terminal event";
  }
  if (first !== -1 && (first < log.events.length - 1 || log.threw)) {
    found.nothing_after_terminal = first < log.events.length - 1
      ? `the stream yielded ${showValue(log.events[first + 1])} after its terminal event`
      : "the stream threw after its terminal event";
  }
  if (log.threw) found.stream_never_throws = `the stream threw: ${String(log.thrown)}`;
  const odd = log.events.findIndex((event) => !isTerminal(event) && !(isRecord(event) && event.type === "progress"));
  if (odd !== -1) {
    found.events_well_formed = `the stream yielded ${showValue(log.events[odd])}, which is not an event`;
  }
  return found;
}

/**
 * Runs a tool through a fresh `ToolSet` (with a gate that allows every
 * call, so tools with unknown effects run too) and reports, rule by rule,
 * whether it keeps the tool contract. Any `DynTool` can be checked: a
 * typed tool, a raw JSON Schema tool, an MCP tool. The tool is watched
 * through a wrapper, so the report sees its raw stream (before the
 * registry normalises it) and whether an invalid call ever reached it.
 * A problem with the tool is a broken rule in the report, never an
 * exception. It depends on no test runner.
 *
 * The rules: `descriptor_valid` (the descriptor passes the spec checks
 * and registers); `valid_input_accepted` (every valid case reaches the
 * tool) and `invalid_input_rejected`;
 * `invalid_input_never_executes`; `exactly_one_terminal`,
 * `nothing_after_terminal`, `stream_never_throws` and `events_well_formed`
 * (judged on the raw stream; an event the registry refused counts against
 * `events_well_formed`); `output_matches_schema` (no `invalid_output`);
 * `cancellation_honoured` (for `cancel` cases: `cancelled`, the signal
 * aborted, the stream settled within the bound); `expectations_met`.
 *
 * @param tool The tool to check.
 * @param cases The calls to make, in order.
 * @param options Per-call timeout and the cancellation bound.
 * @returns The report: every rule with an ok flag and a message, and each case's events.
 * @throws {TypeError} When `cases` is not an array of case objects.
 * @throws {RangeError} When `timeoutMs` or `cancelBoundMs` is not a number of ms from 1.
 *
 * @example A well-behaved tool keeps every rule
 * ```ts
 * import { defineTool } from "@salvor/tools";
 * import { checkToolConformance } from "@salvor/tools/testing";
 * import * as v from "valibot";
 * import assert from "node:assert/strict";
 *
 * const wait = defineTool({
 *   name: "wait",
 *   description: "Waits for a number of ms.",
 *   inputSchema: v.object({ ms: v.pipe(v.number(), v.minValue(0)) }),
 *   outputSchema: v.object({ waited: v.number() }),
 *   effects: [],
 *   run: (input, ctx) =>
 *     new Promise((resolve, reject) => {
 *       const timer = setTimeout(() => resolve({ waited: input.ms }), input.ms);
 *       ctx.signal.addEventListener("abort", () => {
 *         clearTimeout(timer);
 *         reject(ctx.signal.reason);
 *       });
 *     }),
 * });
 * const report = await checkToolConformance(wait, [
 *   { arguments: { ms: 1 }, expect: { type: "output" } },
 *   { arguments: { ms: -1 }, valid: false },
 *   { arguments: { ms: 60_000 }, cancel: true },
 * ]);
 * assert.equal(report.ok, true, JSON.stringify(report.rules));
 * ```
 */
export async function checkToolConformance(
  tool: DynTool,
  cases: readonly ConformanceCase[],
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const checked = checkCases(cases);
  const timeoutMs = checkMs("timeoutMs", options?.timeoutMs, 5_000);
  const cancelBoundMs = checkMs("cancelBoundMs", options?.cancelBoundMs, 1_000);
  const verdicts = new Map(
    ([
      ["descriptor_valid", "The descriptor passed the spec checks and registered"],
      ["valid_input_accepted", "Every valid case reached the tool"],
      ["invalid_input_rejected", "Every invalid case ended invalid_input"],
      ["invalid_input_never_executes", "No invalid case reached execute"],
      ["exactly_one_terminal", "Every stream that finished yielded exactly one terminal event"],
      ["nothing_after_terminal", "No stream yielded or threw after its terminal event"],
      ["stream_never_throws", "No stream threw"],
      ["events_well_formed", "Every event was well formed"],
      ["output_matches_schema", "Every output met the output schema"],
      ["cancellation_honoured", "Every cancelled call ended cancelled and its stream settled in time"],
      ["expectations_met", "Every terminal met its case's expectation"],
    ] as const).map(([name, held]) => [name, new Verdict(name, held)]),
  );
  const judge = (name: ConformanceRuleName, breach: string | undefined) => verdicts.get(name)!.judge(breach);
  const report = (results: ConformanceCaseResult[]): ConformanceReport => {
    const rules = CONFORMANCE_RULES.map((name) => verdicts.get(name)!.rule());
    const name = isRecord(tool) && isRecord(tool.descriptor) && typeof tool.descriptor.name === "string"
      ? tool.descriptor.name
      : "(unnamed)";
    return { tool: name, ok: rules.every((rule) => rule.ok), rules, cases: results };
  };

  let tools: ToolSet;
  let observed: ReturnType<typeof observe>;
  try {
    if (!isRecord(tool) || typeof tool.execute !== "function") {
      throw new TypeError("Cannot check the tool as it is not a DynTool: it needs a descriptor and execute()");
    }
    observed = observe(tool);
    tools = new ToolSet({ approve: () => true }).register(observed.tool);
  } catch (error) {
    const why = `Cannot register the tool: ${error instanceof Error ? error.message : String(error)}`;
    judge("descriptor_valid", why);
    for (const name of CONFORMANCE_RULES.slice(1)) judge(name, "not checked as the tool could not be registered");
    return report([]);
  }
  judge("descriptor_valid", undefined);
  const toolName = tools.descriptors()[0].name;

  const results: ConformanceCaseResult[] = [];
  for (const [i, testCase] of checked.entries()) {
    const name = testCase.name ?? `case ${i + 1}`;
    const at = (what: string) => `${JSON.stringify(name)}: ${what}`;
    const controller = testCase.cancel ? new AbortController() : undefined;
    let cancelTimer: ReturnType<typeof setTimeout> | undefined;
    observed.onExecute = controller ? () => cancelTimer = setTimeout(() => controller.abort(), 0) : undefined;
    const before = observed.logs.length;
    const events: ToolEvent[] = [];
    try {
      for await (
        const event of tools.stream(
          { id: `conformance_${i + 1}`, name: toolName, arguments: testCase.arguments },
          { timeoutMs, signal: controller?.signal },
        )
      ) events.push(event);
    } finally {
      observed.onExecute = undefined;
    }
    const terminal = terminalOf(events);
    const logs = observed.logs.slice(before);
    const log = logs[0];
    const settled = log && testCase.cancel ? await settlesWithin(log, cancelBoundMs) : true;
    clearTimeout(cancelTimer);
    results.push({ name, events, terminal, executed: log !== undefined });

    const failure = terminal.type === "failed" ? terminal.failure : undefined;
    if (testCase.valid === false) {
      judge(
        "invalid_input_rejected",
        failure?.kind === "invalid_input" ? undefined : at(`ended ${describeTerminal(terminal)}, not invalid_input`),
      );
      judge("invalid_input_never_executes", log ? at("the invalid call reached execute") : undefined);
    } else {
      judge(
        "valid_input_accepted",
        log ? undefined : at(`ended ${describeTerminal(terminal)} before reaching the tool`),
      );
    }
    if (log) {
      const found = streamBreaches(log);
      judge("exactly_one_terminal", found.exactly_one_terminal && at(found.exactly_one_terminal));
      judge("nothing_after_terminal", found.nothing_after_terminal && at(found.nothing_after_terminal));
      judge("stream_never_throws", found.stream_never_throws && at(found.stream_never_throws));
      const own = log.events.find(isTerminal);
      const ownContract = isRecord(own) && own.type === "failed" && isRecord(own.failure) &&
        own.failure.kind === "contract";
      const refused = failure?.kind === "contract" && !ownContract && Object.keys(found).length === 0;
      const malformed = found.events_well_formed ??
        (refused ? `the registry refused an event: ${failure.message}` : undefined);
      judge("events_well_formed", malformed && at(malformed));
    }
    judge(
      "output_matches_schema",
      failure?.kind === "invalid_output" ? at(`the output broke the output schema: ${failure.message}`) : undefined,
    );
    // A call that finished before its cancellation came is not judged.
    if (testCase.cancel && log && failure?.kind === "cancelled") {
      judge(
        "cancellation_honoured",
        !log.ctx.signal.aborted
          ? at("the tool's signal was not aborted")
          : !settled
          ? at(`the tool's stream did not settle within ${cancelBoundMs} ms of the cancellation`)
          : undefined,
      );
    }
    if (testCase.expect) {
      const { type, kind } = testCase.expect;
      const met = (type === undefined || terminal.type === type) && (kind === undefined || failure?.kind === kind);
      judge(
        "expectations_met",
        met ? undefined : at(`expected ${showValue(testCase.expect)}, got ${describeTerminal(terminal)}`),
      );
    }
  }
  return report(results);
}
