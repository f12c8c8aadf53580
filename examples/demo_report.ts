// How the demo shows what happens: readable text for a person (a live
// progress bar on a terminal), or one JSON object a line for programs.

import type { BatchCallResult, BatchProgress, Plan, TerminalEvent, ToolCall } from "../mod.ts";

/** The tool list: each tool's classes (and projection, when asked for), and which came from the MCP server. */
export interface ToolList {
  readonly provider: string;
  readonly rows: readonly { name: string; effectClass: string; schedulerClass: string; projected?: unknown }[];
  readonly mcp: { readonly server: string; readonly trusted: boolean; readonly tools: readonly string[] };
}

/** Everything the demo reports. */
export interface Reporter {
  tools(list: ToolList): void;
  step(title: string): void;
  /** A model's turn: the provider's message, the calls read from it, and the plan for them. */
  turn(message: unknown, calls: readonly ToolCall[], plan: Plan<ToolCall>): void;
  /** The runner's progress callback. */
  readonly update: (update: BatchProgress) => void;
  parked(file: string, bytes: number, calls: readonly string[]): void;
  /** The messages that answer the turn's calls. */
  results(messages: readonly unknown[]): void;
  summary(first: readonly BatchCallResult[], ends: readonly BatchCallResult[], ms: number): void;
  error(message: string): void;
}

/** The plan as call ids: its waves, and the calls it puts in none (they fail at once). */
function planIds(plan: Plan<ToolCall>) {
  const waves = plan.waves.map((wave) => wave.map((call) => call.id));
  return { waves, unplanned: plan.refused.map(({ call, reason }) => ({ id: call.id, reason })) };
}

/** The run's totals: how the calls ended, and what the first run retried and parked. */
function totals(first: readonly BatchCallResult[], ends: readonly BatchCallResult[], ms: number) {
  const outcomes: Record<string, number> = {};
  for (const { terminal } of ends) {
    const kind = terminal.type === "failed" ? terminal.failure.kind : terminal.type;
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
  }
  const retries = first.reduce((sum, entry) => sum + entry.attempts - 1, 0);
  const parked = first.filter((entry) => entry.terminal.type === "suspended").length;
  return { calls: ends.length, outcomes, retries, parked, ms };
}

function jsonReporter(): Reporter {
  const emit = (type: string, fields: object) => console.log(JSON.stringify({ type, ...fields }));
  return {
    tools: ({ provider, rows, mcp }) => emit("tools", { provider, tools: rows, mcp }),
    step: (title) => emit("step", { title }),
    turn: (message, calls, plan) => emit("turn", { message, calls, ...planIds(plan) }),
    update: (update) => console.log(JSON.stringify(update)),
    parked: (file, bytes, calls) => emit("parked", { file, bytes, calls }),
    results: (messages) => emit("results", { messages }),
    summary: (first, ends, ms) => emit("summary", totals(first, ends, ms)),
    error: (message) => emit("error", { message }),
  };
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

function indent(text: string, by = "    "): string {
  return text.split("\n").map((line) => by + line).join("\n");
}

function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** How a call ended, in a line, and for a failure the text the model reads. */
function ending(terminal: TerminalEvent, attempts: number): string {
  const after = attempts > 1 ? ` after ${attempts} attempts` : "";
  if (terminal.type === "suspended") return `parked: ${terminal.suspended.reason}`;
  if (terminal.type === "failed") {
    const { kind, uncertain, modelText } = terminal.failure;
    return `failed (${kind}${uncertain ? ", uncertain" : ""})${after}; the model reads:\n${indent(modelText)}`;
  }
  const { output, content } = terminal.result;
  const text = output !== undefined
    ? JSON.stringify(output)
    : content.map((part) => part.type === "text" ? part.text : `[${part.type}]`).join(" ");
  return `output${after} ${shorten(text)}`;
}

const encoder = new TextEncoder();

function textReporter(): Reporter {
  const live = Deno.stdout.isTerminal();
  const calls = new Map<string, ToolCall>();
  let barOpen = false;
  const endBar = () => {
    if (barOpen) Deno.stdout.writeSync(encoder.encode("\n"));
    barOpen = false;
  };
  const print = (line: string) => {
    endBar();
    console.log(line);
  };
  const progress = (callId: string, done: number, total: number, message = "") => {
    if (!live) {
      // A log gets the quarters, not every step.
      if (total > 0 && Math.floor((done * 4) / total) > Math.floor(((done - 1) * 4) / total)) {
        print(`   ${callId} progress ${done}/${total} ${message}`);
      }
      return;
    }
    const filled = total > 0 ? Math.round((done / total) * 30) : 0;
    const percent = total > 0 ? `${Math.round((done / total) * 100)}%` : `${done}`;
    const bar = `\r   ${callId} [${"#".repeat(filled)}${" ".repeat(30 - filled)}] ${
      percent.padStart(4)
    } ${message}\x1b[K`;
    Deno.stdout.writeSync(encoder.encode(bar));
    barOpen = true;
  };
  return {
    tools({ provider, rows, mcp }) {
      const projected = rows.filter((row) => row.projected !== undefined);
      if (projected.length > 0) {
        print(`Tools as a model receives them (${provider} format):`);
        print(indent(JSON.stringify(projected.map((row) => row.projected), null, 2), "  "));
        print("");
      }
      print(`${plural(rows.length, "tool")}, and how the runtime classifies them:`);
      const width = Math.max(...rows.map((row) => row.name.length));
      for (const { name, effectClass, schedulerClass } of rows) {
        print(`  ${name.padEnd(width)}  effect class ${effectClass.padEnd(10)}  scheduler ${schedulerClass}`);
      }
      const from = `  ${mcp.tools.join(" and ")} come from MCP server "${mcp.server}", which`;
      print(
        mcp.trusted
          ? `${from} ships with the demo: the host trusts its read-only\n  annotations. ` +
            "(A server given with --mcp is not trusted: its tools fail closed, as serial writes that need approval.)"
          : `${from} the host does not trust:\n  their effects fail closed (write, serial), so each call needs approval.`,
      );
      if (projected.length === 0) print(`  (--show-projections prints them as ${provider} receives them)`);
    },
    step: (title) => print(`\n== ${title}`),
    turn(message, turnCalls, plan) {
      for (const call of turnCalls) calls.set(call.id, call);
      const { waves, unplanned } = planIds(plan);
      print(`   ${shorten(JSON.stringify(message))}`);
      print(`   plan: ${waves.map((wave) => `[${wave.join(", ")}]`).join(" then ")}`);
      for (const { id, reason } of unplanned) print(`   ${id} is in no wave (${reason}): it fails at once`);
    },
    update(update) {
      const { callId } = update;
      if (update.type === "started" && update.attempt === 1) {
        const { name, arguments: args } = calls.get(callId)!;
        print(`-> ${callId} ${name} ${shorten(typeof args === "string" ? args : JSON.stringify(args ?? {}))}`);
      } else if (update.type === "progress") {
        progress(callId, update.event.progress ?? 0, update.event.total ?? 0, update.event.message);
      } else if (update.type === "retrying") {
        print(`   ${callId} attempt ${update.attempt} failed (${update.failure.kind}): retry in ${update.delayMs} ms`);
      } else if (update.type === "finished") {
        print(`<- ${callId} ${ending(update.terminal, update.attempts)}`);
      }
    },
    parked(file, bytes, parked) {
      const wait = parked.length === 1 ? "waits" : "wait";
      print(`   ${parked.join(", ")} ${wait} for a person; the turn's record, sealed, is in ${file} (${bytes} bytes)`);
    },
    results(messages) {
      for (const message of messages) print(`   ${shorten(JSON.stringify(message))}`);
    },
    summary(first, ends, ms) {
      const { calls, outcomes, retries, parked } = totals(first, ends, ms);
      const kinds = Object.entries(outcomes).map(([kind, count]) => `${count} ${kind}`).join(", ");
      const rest = `${plural(retries, "retry", "retries")}, ${parked} parked and resumed`;
      print(`\nSummary: ${plural(calls, "call")} in ${ms} ms: ${kinds}; ${rest}.`);
    },
    error(message) {
      endBar();
      console.error(`error: ${message}`);
    },
  };
}

/** The reporter for the chosen output. */
export function reporter(json: boolean): Reporter {
  return json ? jsonReporter() : textReporter();
}
