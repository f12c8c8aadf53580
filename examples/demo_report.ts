// How the demo shows what happens: readable text for a person (a live
// progress bar on a terminal), or one JSON object a line for programs.

import type { ProgressEvent, RetryDecision, SuspendedCall, TerminalEvent, ToolCall } from "../mod.ts";

/** One row of the tool list. */
export interface ToolRow {
  readonly name: string;
  readonly effectClass: string;
  readonly schedulerClass: string;
  /** The tool as the provider receives it, when the projections are asked for. */
  readonly projected?: unknown;
}

/** The tool list, and which tools came from an MCP server the host does not trust. */
export interface ToolList {
  readonly provider: string;
  readonly rows: readonly ToolRow[];
  readonly untrusted: { readonly server: string; readonly tools: readonly string[] };
}

/** The run's totals. */
export interface Summary {
  readonly calls: number;
  readonly outcomes: Record<string, number>;
  readonly ms: number;
}

/** Everything the demo reports. */
export interface Reporter {
  tools(list: ToolList): void;
  step(title: string): void;
  call(call: ToolCall): void;
  progress(call: ToolCall, event: ProgressEvent): void;
  terminal(call: ToolCall, terminal: TerminalEvent): void;
  plan(waves: readonly (readonly string[])[], refused: readonly string[]): void;
  retry(call: ToolCall, decision: RetryDecision): void;
  suspended(file: string, record: SuspendedCall): void;
  summary(summary: Summary): void;
  error(message: string): void;
}

const encoder = new TextEncoder();

function jsonReporter(): Reporter {
  const emit = (event: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ event, ...fields }));
  return {
    tools: (list) => emit("tools", { provider: list.provider, tools: list.rows, untrusted: list.untrusted }),
    step: (title) => emit("step", { title }),
    call: (call) => emit("call", { id: call.id, name: call.name, arguments: call.arguments }),
    progress: (call, event) => emit("progress", { id: call.id, ...event }),
    terminal: (call, terminal) => emit("terminal", { id: call.id, ...terminal }),
    plan: (waves, refused) => emit("plan", { waves, refused }),
    retry: (call, decision) => emit("retry", { id: call.id, decision }),
    suspended: (file, record) => emit("suspended", { file, record }),
    summary: (summary) => emit("summary", { ...summary }),
    error: (message) => emit("error", { message }),
  };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function indent(text: string, by = "    "): string {
  return text.split("\n").map((line) => by + line).join("\n");
}

function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function textReporter(): Reporter {
  const live = Deno.stdout.isTerminal();
  let barOpen = false;
  const endBar = () => {
    if (barOpen) Deno.stdout.writeSync(encoder.encode("\n"));
    barOpen = false;
  };
  const print = (line: string) => {
    endBar();
    console.log(line);
  };
  return {
    tools({ provider, rows, untrusted }) {
      const projected = rows.filter((row) => row.projected !== undefined);
      if (projected.length > 0) {
        print(`Tools as a model receives them (${provider} format):`);
        print(indent(JSON.stringify(projected.map((row) => row.projected), null, 2), "  "));
        print("");
      }
      print(`${plural(rows.length, "tool")}, and how the runtime classifies them:`);
      const width = Math.max(...rows.map((row) => row.name.length));
      for (const row of rows) {
        print(
          `  ${row.name.padEnd(width)}  effect class ${row.effectClass.padEnd(10)}  scheduler ${row.schedulerClass}`,
        );
      }
      if (untrusted.tools.length > 0) {
        print(
          `  ${
            untrusted.tools.join(" and ")
          } come from MCP server "${untrusted.server}", which the host does not trust:` +
            "\n  their effects fail closed (write, serial, never retried) until the host passes trusted: true or overrides.",
        );
      }
      if (projected.length === 0) print(`  (--show-projections prints them as ${provider} receives them)`);
    },
    step: (title) => print(`\n== ${title}`),
    call: (call) =>
      print(
        `-> ${call.id} ${call.name} ${
          shorten(typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}))
        }`,
      ),
    progress(call, event) {
      const done = event.progress ?? 0;
      const total = event.total ?? 0;
      if (!live) {
        // A log gets the quarters, not every step.
        const quarter = total > 0 ? Math.floor((done * 4) / total) : 0;
        if (total > 0 && quarter > Math.floor(((done - 1) * 4) / total)) {
          print(`   ${call.id} progress ${done}/${total}${event.message ? ` ${event.message}` : ""}`);
        }
        return;
      }
      const width = 30;
      const filled = total > 0 ? Math.round((done / total) * width) : 0;
      const percent = total > 0 ? `${Math.round((done / total) * 100)}%` : `${done}`;
      const bar = `\r   [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${percent.padStart(4)} ${
        event.message ?? ""
      }`;
      Deno.stdout.writeSync(encoder.encode(bar + "\x1b[K"));
      barOpen = true;
    },
    terminal(call, terminal) {
      if (terminal.type === "output") {
        const shown = terminal.result.output !== undefined
          ? JSON.stringify(terminal.result.output)
          : terminal.result.content.map((part) => part.type === "text" ? part.text : `[${part.type}]`).join(" ");
        print(`<- ${call.id} output ${shorten(shown)}`);
      } else if (terminal.type === "suspended") {
        print(`<- ${call.id} suspended: ${terminal.suspended.reason}`);
      } else {
        const { kind, uncertain, modelText } = terminal.failure;
        print(`<- ${call.id} failed (${kind}${uncertain ? ", uncertain" : ""}); the model reads:`);
        print(indent(modelText));
      }
    },
    plan(waves, refused) {
      print(`   waves: ${waves.map((wave) => `[${wave.join(", ")}]`).join(" then ")}`);
      if (refused.length > 0) print(`   refused: ${refused.join(", ")}`);
    },
    retry(call, decision) {
      print(
        decision.retry
          ? `   retry ${call.id}: yes, after ${decision.delayMs} ms${
            decision.sameIdempotencyKey ? " with the same idempotency key" : ""
          }`
          : `   retry ${call.id}: no, ${decision.reason}`,
      );
    },
    suspended(file, record) {
      print(`   the parked call is in ${file} (${JSON.stringify(record).length} bytes of JSON)`);
      print(`   resume it in a new process: deno task demo --resume ${file} --approve`);
    },
    summary({ calls, outcomes, ms }) {
      const kinds = Object.entries(outcomes).map(([kind, count]) => `${count} ${kind}`).join(", ");
      print(`\nSummary: ${plural(calls, "call")} in ${ms} ms: ${kinds}.`);
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
