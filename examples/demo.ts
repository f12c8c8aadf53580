// The demo: plays an agent runtime for a scripted model, with no network.
// Its turn is read in, run in waves, parked, resumed from a file and answered
// with the library's runner and OpenAI adapters. Run `deno task demo --help`.

import {
  approvalByEffects,
  effectClass,
  resumeBatch,
  RetryPolicy,
  runBatch,
  schedulerClass,
  type ToolDescriptor,
  ToolSet,
} from "../mod.ts";
import {
  openAIChatCalls,
  openAIChatResults,
  toAnthropicTool,
  toGeminiFunction,
  toMcpTool,
  toOpenAITool,
} from "../providers.ts";
import { connectMcpServer, McpConnectionError } from "../mcp.ts";
import { parseArgs } from "node:util";
import { demoFiles, demoTools } from "./demo_tools.ts";
import { type Reporter, reporter } from "./demo_report.ts";

const HELP = `Salvor tools demo: one model turn, end to end, with a scripted model.

Usage:
  deno task demo [--json] [--show-projections] [--provider openai|anthropic|gemini|mcp] [--mcp "<command>"] [--deny]

Options:
  --help             Show this help.
  --json             Print machine-readable events, one JSON object a line.
  --show-projections Print every tool as the provider receives it.
  --provider NAME    The provider format for --show-projections (default: openai).
  --mcp "<command>"  The MCP server to start over stdio (default: the example server in examples/),
                     e.g. --mcp "npx -y @modelcontextprotocol/server-everything".
  --deny             The person denies what the turn parked, instead of approving it.
`;

// Strict mode where the schema allows it, else the schema as it is.
const openAITool = (d: ToolDescriptor) => toOpenAITool(d, { strict: true, onUnsupported: "non_strict" }).tool;

const PROVIDERS: Record<string, (descriptor: ToolDescriptor) => unknown> = {
  openai: openAITool,
  anthropic: (d) => toAnthropicTool(d).tool,
  gemini: (d) => toGeminiFunction(d).tool,
  mcp: (d) => toMcpTool(d).tool,
};

/** Where the parked turn is kept until the person answers. */
const RECORD_FILE = "demo.suspended.json";

/** The scripted model's turn, as OpenAI Chat Completions sends it: an assistant message with tool calls. */
function modelTurn(calls: readonly (readonly [name: string, args: unknown])[], firstId: number) {
  const tool_calls = calls.map(([name, args], i) => ({
    id: `call_${firstId + i}`,
    type: "function" as const,
    function: { name, arguments: JSON.stringify(args) },
  }));
  return { role: "assistant" as const, content: null, tool_calls };
}

/** The calls the model makes first, in its order; calls to MCP tools the server lacks are left out. */
function firstCalls(server: string, tools: ToolSet) {
  const todo = "- ship the tool layer\n- write the README\n- record the demo\n";
  return ([
    ["calculate", { op: "mul", a: 6, b: 7 }],
    ["calculate", { op: "pow", a: "six", c: 1 }],
    ["delete_everything", {}],
    ["read_file", { path: "notes/todo.md" }],
    ["read_file", { path: "notes/ideas.md" }],
    [`${server}__echo`, { message: "hello from the turn" }],
    [`${server}__word_count`, { text: "tools the model can trust" }],
    ["read_file", { path: "notes/missing.md" }],
    ["index_docs", { chunks: 20 }],
    ["write_file", { path: "notes/todo.md", text: todo }],
    ["search_web", { query: "tool contracts" }],
  ] as const).filter(([name]) => !name.startsWith(`${server}__`) || tools.descriptor(name));
}

/** Splits a command line on spaces, keeping quoted parts together. */
function splitCommand(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The MCP server to start: the one given with --mcp, untrusted, or the example server, which the host trusts. */
function mcpServer(command: string | undefined) {
  if (command) return { name: "mcp", command: splitCommand(command)[0], args: splitCommand(command).slice(1) };
  const server = new URL("./demo_server.ts", import.meta.url).pathname;
  const config = new URL("../deno.json", import.meta.url).pathname;
  const args = ["run", "--quiet", "--no-prompt", "--config", config, server];
  return { name: "demo", command: Deno.execPath(), args, trusted: true };
}

async function run(flags: Flags, report: Reporter): Promise<void> {
  const started = performance.now();
  await using mcp = await connectMcpServer({ ...mcpServer(flags.mcp), connectTimeoutMs: 60_000 });
  // The gate parks every call whose effects call for a person; the host's key seals the records.
  const seal = { key: { id: "demo", secret: crypto.getRandomValues(new Uint8Array(32)) } };
  const toolSet = () =>
    mcp.register(new ToolSet({ approve: approvalByEffects(), seal }).register(...demoTools(demoFiles())));
  const tools = toolSet();
  const project = PROVIDERS[flags.provider];
  report.tools({
    provider: flags.provider,
    rows: tools.descriptors().map((descriptor) => ({
      name: descriptor.name,
      effectClass: effectClass(descriptor),
      schedulerClass: schedulerClass(descriptor),
      ...(flags["show-projections"] ? { projected: project(descriptor) } : {}),
    })),
    mcp: { server: mcp.name, trusted: !flags.mcp, tools: mcp.tools.map((tool) => tool.descriptor.name) },
  });
  // The calls of a tool shown in strict mode are read back with the strict projection.
  const strictTools = new Set(tools.descriptors().filter((d) => openAITool(d).function.strict).map((d) => d.name));
  const strict = (name: string) => strictTools.has(name);

  const turn = modelTurn(firstCalls(mcp.name, tools), 1);
  const { calls, projection } = openAIChatCalls(turn, { strict });
  report.step(`The model's turn: an OpenAI Chat Completions message with ${calls.length} tool calls`);
  report.turn(turn, calls, tools.plan(calls));
  report.step("runBatch runs it: wave by wave, with retries, timeouts, progress and an approval gate");
  const batch = await runBatch(tools, calls, { projection, retry: new RetryPolicy(), onProgress: report.update });
  const parked = batch.results.filter((entry) => entry.terminal.type === "suspended").map((entry) => entry.callId);
  const stored = new TextEncoder().encode(JSON.stringify(batch.record, null, 2) + "\n");
  await Deno.writeFile(RECORD_FILE, stored);
  report.parked(RECORD_FILE, stored.length, parked);

  // As a new process would: a fresh set holding the host's key, and the record read back from the file.
  const later = toolSet();
  const answer = flags.deny ? "denies" : "approves";
  report.step(`A new process reads ${RECORD_FILE} back and resumes the turn: a person ${answer} ${parked.join(", ")}`);
  const record = JSON.parse(await Deno.readTextFile(RECORD_FILE));
  const answers = Object.fromEntries(parked.map((id) => [id, { approved: !flags.deny }]));
  const resumed = await resumeBatch(later, record, answers, { onProgress: report.update });
  if (resumed.refused) throw new Error(resumed.refused);
  report.step("The turn's results, as the tool messages of the model's next request");
  report.results(openAIChatResults(resumed.results).messages);

  const nextTurn = modelTurn([["read_file", { path: "notes/todo.md" }]], calls.length + 1);
  const next = openAIChatCalls(nextTurn, { strict });
  report.step("The model's next turn reads the note back");
  report.turn(nextTurn, next.calls, later.plan(next.calls));
  const readBack = await runBatch(later, next.calls, { projection: next.projection, onProgress: report.update });

  report.summary(batch.results, [...resumed.results, ...readBack.results], Math.round(performance.now() - started));
}

function readFlags(args: string[]) {
  let flags;
  try {
    flags = parseArgs({
      args,
      options: {
        help: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        "show-projections": { type: "boolean", default: false },
        provider: { type: "string", default: "openai" },
        mcp: { type: "string" },
        deny: { type: "boolean", default: false },
      },
    }).values;
  } catch (error) {
    return `${error instanceof Error ? error.message : error}\n\n${HELP}`;
  }
  if (flags.help) return HELP;
  if (!Object.hasOwn(PROVIDERS, flags.provider)) {
    return `Unknown --provider "${flags.provider}": use ${Object.keys(PROVIDERS).join(", ")}.`;
  }
  return flags;
}

type Flags = Exclude<ReturnType<typeof readFlags>, string>;

if (import.meta.main) {
  // `deno task demo -- --json` hands the script the `--` too.
  const flags = readFlags(Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args);
  if (typeof flags === "string") {
    const ok = flags === HELP;
    (ok ? console.log : console.error)(flags);
    Deno.exit(ok ? 0 : 2);
  }
  const report = reporter(flags.json);
  try {
    await run(flags, report);
  } catch (error) {
    const noServer = error instanceof McpConnectionError;
    report.error(noServer ? `Cannot start the MCP server: ${error.message}` : `The demo failed: ${error}`);
    Deno.exit(noServer ? 2 : 1);
  }
}
