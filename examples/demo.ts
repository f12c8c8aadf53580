// The demo: plays an agent runtime for one scripted conversation, with no
// model and no network. Run `deno task demo --help`.

import {
  effectClass,
  RetryPolicy,
  schedulerClass,
  type SuspendedCall,
  type TerminalEvent,
  type ToolCall,
  type ToolDescriptor,
  ToolSet,
} from "../mod.ts";
import { toAnthropicTool, toGeminiFunction, toMcpTool, toOpenAITool } from "../providers.ts";
import { connectMcpServer, McpConnectionError, type McpServerConnection } from "../mcp.ts";
import { parseArgs } from "node:util";
import { demoFiles, demoTools } from "./demo_tools.ts";
import { type Reporter, reporter } from "./demo_report.ts";

const HELP = `Salvor tools demo: one agent step, end to end, with no model.

Usage:
  deno task demo [--json] [--show-projections] [--provider openai|anthropic|gemini|mcp] [--mcp "<command>"]
  deno task demo --resume <file> (--approve | --deny) [--json]

Options:
  --help             Show this help.
  --json             Print machine-readable events, one JSON object a line.
  --show-projections Print every tool as the provider receives it.
  --provider NAME    The provider format for --show-projections (default: openai).
  --mcp "<command>"  The MCP server to start over stdio (default: the example server in examples/),
                     e.g. --mcp "npx -y @modelcontextprotocol/server-everything".
  --out <file>       Where a call parked for approval is written (default: demo.suspended.json).
  --resume <file>    Resume a parked call from its record, in this new process.
  --approve, --deny  The person's answer when resuming.
`;

const PROVIDERS: Record<string, (descriptor: ToolDescriptor) => unknown> = {
  openai: (d) => toOpenAITool(d, { strict: true, onUnsupported: "non_strict" }).tool,
  anthropic: (d) => toAnthropicTool(d).tool,
  gemini: (d) => toGeminiFunction(d).tool,
  mcp: (d) => toMcpTool(d).tool,
};

/** Splits a command line on spaces, keeping quoted parts together. */
function splitCommand(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

function defaultServer(): { command: string; args: string[] } {
  const server = new URL("./demo_server.ts", import.meta.url);
  const config = new URL("../deno.json", import.meta.url);
  return {
    command: Deno.execPath(),
    args: ["run", "--quiet", "--no-prompt", "--config", config.pathname, server.pathname],
  };
}

/** Hands out call ids in the order calls are made: call_1, call_2, ... */
function callIds(after = 0): () => string {
  let last = after;
  return () => `call_${++last}`;
}

class Outcomes {
  readonly byKind = new Map<string, number>();
  calls = 0;
  add(terminal: TerminalEvent): void {
    this.calls++;
    const kind = terminal.type === "failed" ? terminal.failure.kind : terminal.type;
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
  }
}

async function dispatch(
  tools: ToolSet,
  call: ToolCall,
  report: Reporter,
  outcomes: Outcomes,
  options: { timeoutMs?: number } = {},
): Promise<TerminalEvent> {
  report.call(call);
  let terminal: TerminalEvent | undefined;
  for await (const event of tools.stream(call, options)) {
    if (event.type === "progress") report.progress(call, event);
    else terminal = event;
  }
  outcomes.add(terminal!);
  report.terminal(call, terminal!);
  return terminal!;
}

async function runScript(flags: Flags, report: Reporter): Promise<number> {
  const started = performance.now();
  const files = demoFiles();
  const server = flags.mcp
    ? { command: splitCommand(flags.mcp)[0], args: splitCommand(flags.mcp).slice(1) }
    : defaultServer();
  let mcp: McpServerConnection;
  try {
    mcp = await connectMcpServer({
      name: flags.mcp ? "mcp" : "demo",
      ...server,
      connectTimeoutMs: 60_000,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    report.error(`Cannot start the MCP server: ${message}`);
    return 2;
  }
  await using _closeOnExit = mcp;
  const tools = mcp.register(new ToolSet().register(...demoTools(files)));
  const project = PROVIDERS[flags.provider];
  report.tools({
    provider: flags.provider,
    rows: tools.descriptors().map((descriptor) => ({
      name: descriptor.name,
      effectClass: effectClass(descriptor),
      schedulerClass: schedulerClass(descriptor),
      ...(flags.showProjections ? { projected: project(descriptor) } : {}),
    })),
    untrusted: { server: mcp.name, tools: mcp.tools.map((tool) => tool.descriptor.name) },
  });
  const nextId = callIds();

  const outcomes = new Outcomes();
  const mcpTool = (name: string) => tools.descriptors().find((d) => d.name === `${mcp.name}__${name}`);
  const echo = mcpTool("echo");
  const wordCount = mcpTool("word_count");

  report.step("A valid call");
  await dispatch(tools, { id: nextId(), name: "calculate", arguments: '{"op":"mul","a":6,"b":7}' }, report, outcomes);

  report.step("Bad arguments: the handler never runs, the model reads diagnostics");
  await dispatch(
    tools,
    { id: nextId(), name: "calculate", arguments: '{"op":"pow","a":"six","c":1}' },
    report,
    outcomes,
  );

  report.step("An unknown tool");
  await dispatch(tools, { id: nextId(), name: "delete_everything", arguments: "{}" }, report, outcomes);

  report.step("A parallel batch, split into waves by plan()");
  const batch: ToolCall[] = [
    { id: nextId(), name: "read_file", arguments: '{"path":"notes/todo.md"}' },
    { id: nextId(), name: "read_file", arguments: '{"path":"notes/ideas.md"}' },
    { id: nextId(), name: "calculate", arguments: '{"op":"add","a":1,"b":2}' },
    ...(echo ? [{ id: nextId(), name: echo.name, arguments: '{"message":"hello from the batch"}' }] : []),
    { id: nextId(), name: "read_file", arguments: '{"path":"notes/missing.md"}' },
  ];
  const plan = tools.plan(batch);
  report.plan(plan.waves.map((wave) => wave.map((call) => call.id)), plan.refused.map((r) => r.call.id));
  for (const wave of plan.waves) await Promise.all(wave.map((call) => dispatch(tools, call, report, outcomes)));

  if (wordCount) {
    report.step("An MCP tool with structured output, validated against its output schema");
    const text = JSON.stringify({ text: "tools the model can trust" });
    await dispatch(tools, { id: nextId(), name: wordCount.name, arguments: text }, report, outcomes);
  }

  report.step("A long-running call with progress");
  await dispatch(tools, { id: nextId(), name: "index_docs", arguments: '{"chunks":20}' }, report, outcomes);

  report.step("A call that times out, and the retry decision for it");
  const search: ToolCall = { id: nextId(), name: "search_web", arguments: '{"query":"tool contracts"}' };
  const timedOut = await dispatch(tools, search, report, outcomes);
  if (timedOut.type === "failed") {
    const policy = new RetryPolicy();
    report.retry(search, policy.decide(tools.get("search_web")!.descriptor, timedOut.failure, 1));
  }

  report.step("A write that needs approval: parked, written to a file");
  const write: ToolCall = {
    id: nextId(),
    name: "write_file",
    arguments: '{"path":"notes/todo.md","text":"- ship the tool layer\\n- write the README\\n- record the demo\\n"}',
  };
  const parked = await dispatch(tools, write, report, outcomes);
  if (parked.type === "suspended") {
    await Deno.writeTextFile(flags.out, JSON.stringify(parked.suspended, null, 2) + "\n");
    report.suspended(flags.out, parked.suspended);
  }

  report.summary({
    calls: outcomes.calls,
    outcomes: Object.fromEntries(outcomes.byKind),
    ms: Math.round(performance.now() - started),
  });
  return 0;
}

async function resumeFromFile(flags: Flags, report: Reporter): Promise<number> {
  const started = performance.now();
  let record: SuspendedCall;
  try {
    record = JSON.parse(await Deno.readTextFile(flags.resume!));
  } catch (error) {
    report.error(`Cannot read the parked call from ${flags.resume}: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  const files = demoFiles();
  const tools = new ToolSet().register(...demoTools(files));
  const outcomes = new Outcomes();
  const call: ToolCall = { id: record.callId ?? "?", name: record.tool ?? "?", arguments: record.input };
  // Ids go on from the parked call's, as the same conversation would.
  const nextId = callIds(Number(/^call_(\d+)$/.exec(String(record.callId))?.[1] ?? 0));
  report.step(`Resuming ${call.id} (${call.name}) in a new process: ${flags.approve ? "approved" : "denied"}`);
  report.call(call);
  const terminal = await tools.resume(record, { approved: flags.approve }, {
    onProgress: (event) => report.progress(call, event),
  });
  outcomes.add(terminal);
  report.terminal(call, terminal);
  if (terminal.type === "output" && flags.approve) {
    report.step("Reading the file back");
    await dispatch(tools, { id: nextId(), name: "read_file", arguments: { path: "notes/todo.md" } }, report, outcomes);
  }
  report.summary({
    calls: outcomes.calls,
    outcomes: Object.fromEntries(outcomes.byKind),
    ms: Math.round(performance.now() - started),
  });
  return terminal.type === "failed" ? 1 : 0;
}

interface Flags {
  readonly json: boolean;
  readonly showProjections: boolean;
  readonly provider: string;
  readonly mcp?: string;
  readonly out: string;
  readonly resume?: string;
  readonly approve: boolean;
}

function readFlags(args: string[]): Flags | string {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        help: { type: "boolean" },
        json: { type: "boolean" },
        "show-projections": { type: "boolean" },
        provider: { type: "string" },
        mcp: { type: "string" },
        out: { type: "string" },
        resume: { type: "string" },
        approve: { type: "boolean" },
        deny: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return `${error instanceof Error ? error.message : error}\n\n${HELP}`;
  }
  if (parsed.help) return HELP;
  const provider = parsed.provider ?? "openai";
  if (!(provider in PROVIDERS)) return `Unknown --provider "${provider}": use ${Object.keys(PROVIDERS).join(", ")}.`;
  if (parsed.resume !== undefined && parsed.approve === parsed.deny) {
    return "With --resume, give exactly one of --approve or --deny.";
  }
  if (parsed.resume === undefined && (parsed.approve || parsed.deny)) return "--approve and --deny go with --resume.";
  return {
    json: parsed.json ?? false,
    showProjections: parsed["show-projections"] ?? false,
    provider,
    mcp: parsed.mcp,
    out: parsed.out ?? "demo.suspended.json",
    resume: parsed.resume,
    approve: parsed.approve ?? false,
  };
}

if (import.meta.main) {
  const flags = readFlags(Deno.args);
  if (typeof flags === "string") {
    const ok = flags === HELP;
    (ok ? console.log : console.error)(flags);
    Deno.exit(ok ? 0 : 2);
  }
  const report = reporter(flags.json);
  let code: number;
  try {
    code = flags.resume ? await resumeFromFile(flags, report) : await runScript(flags, report);
  } catch (error) {
    report.error(error instanceof McpConnectionError ? error.message : `The demo failed: ${error}`);
    code = 1;
  }
  Deno.exit(code);
}
